#!/usr/bin/env python3
"""Plots columns of a run's log (observables.csv, or the event counts of events.csv) against time
as an SVG picture, with the Python standard library only (the logs are read by
scripts/polyhoop_read.py, which uses numpy where it finds it).

    scripts/plot_log.py outputs/observables.csv polygons U_total -o plot.svg
    scripts/plot_log.py outputs/events.csv division death -o events.svg   (cumulative counts)

Events of events.csv: division, removal, death, fusion, split, passage (another name is refused).

Columns of observables.csv: frame, step, time, polygons, vertices, area_mean, area_std,
neighbors_mean, kinetic, U_area, ... (docs/model.md 7). --log plots log10 of the values."""
import argparse
import math
import os
import sys
from xml.sax.saxutils import escape

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.dont_write_bytecode = True   # (no scripts/__pycache__/ left in the repository)
import polyhoop_read as pr  # noqa: E402


def die(msg):
    """Refuses with one line on stderr and exit status 2."""
    sys.stderr.write("plot_log.py: %s\n" % " ".join(str(msg).split()))
    sys.exit(2)


def read_log(path, numeric):
    """The columns of a CSV log (scripts/polyhoop_read.py), those in `numeric` numbers; dies
    with one line when the file cannot be read or is not such a log."""
    try:
        return pr.read_csv(path, numeric)
    except pr.ReadError as e:
        die(e)


def read_header(path):
    try:
        return pr.read_table(path)[0]
    except pr.ReadError as e:
        die(e)


def floats(a):
    return [float(v) for v in pr.tolist(a)]


def series_observables(path, names):
    header = read_header(path)
    for n in names + ["time"]:
        if n not in header:
            die("%s has no column '%s' (it has: %s)" % (path, n, ", ".join(header)))
    cols = read_log(path, ["time"] + names)
    if len(cols["time"]) == 0:
        die("%s has no data rows" % path)
    return floats(cols["time"]), {n: floats(cols[n]) for n in names}


# The events of events.csv (src/ensemble.h's ENSEMBLE_EVENTS)
EVENTS = ("division", "removal", "death", "fusion", "split", "passage")


def series_events(path, names):
    for n in names:
        if n not in EVENTS:
            die("no event '%s' (the events are: %s)" % (n, ", ".join(EVENTS)))
    cols = read_log(path, ["time"])
    if "event" not in cols:
        die("%s has no column 'event' (it has: %s)" % (path, ", ".join(cols)))
    t, counts, total = [0.0], {n: [0.0] for n in names}, {n: 0 for n in names}
    for event, time in zip(pr.tolist(cols["event"]), floats(cols["time"])):
        if event in total:
            total[event] += 1
        t.append(time)
        for n in names:
            counts[n].append(float(total[n]))
    return t, counts


def ticks(lo, hi, n=5):
    if hi <= lo:
        return [lo]
    step = 10 ** math.floor(math.log10((hi - lo) / n))
    for m in (1, 2, 5, 10):
        if (hi - lo) / (step * m) <= n:
            step *= m
            break
    k = math.ceil(lo / step)
    out = []
    while k * step <= hi + 1e-12 * abs(hi):
        out.append(k * step)
        k += 1
    return out


def svg(t, ys, title, log):
    W, H, L, R, T, B = 640, 400, 70, 20, 30, 50
    colours = ["#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b"]
    if log:
        ys = {n: [math.log10(v) if v > 0 else float("nan") for v in vals] for n, vals in ys.items()}
    finite = [v for vals in ys.values() for v in vals if math.isfinite(v)]
    if not finite:
        die("nothing finite to plot")
    y0, y1 = min(finite), max(finite)
    if y1 == y0:
        y0, y1 = y0 - 1, y1 + 1
    x0, x1 = min(t), max(t) if max(t) > min(t) else min(t) + 1
    X = lambda x: L + (x - x0) / (x1 - x0) * (W - L - R)
    Y = lambda y: H - B - (y - y0) / (y1 - y0) * (H - T - B)
    out = ['<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" font-family="sans-serif" font-size="12">' % (W, H),
           '<rect width="100%" height="100%" fill="white"/>',
           '<text x="%d" y="18" font-size="14">%s</text>' % (L, escape(title)),
           '<line x1="%d" y1="%d" x2="%d" y2="%d" stroke="black"/>' % (L, H - B, W - R, H - B),
           '<line x1="%d" y1="%d" x2="%d" y2="%d" stroke="black"/>' % (L, T, L, H - B)]
    for v in ticks(x0, x1):
        out.append('<line x1="%.1f" y1="%d" x2="%.1f" y2="%d" stroke="black"/><text x="%.1f" y="%d" text-anchor="middle">%g</text>'
                   % (X(v), H - B, X(v), H - B + 5, X(v), H - B + 20, v))
    for v in ticks(y0, y1):
        out.append('<line x1="%d" y1="%.1f" x2="%d" y2="%.1f" stroke="black"/><text x="%d" y="%.1f" text-anchor="end">%s</text>'
                   % (L - 5, Y(v), L, Y(v), L - 8, Y(v) + 4, ("1e%g" % v) if log else "%g" % v))
    out.append('<text x="%d" y="%d" text-anchor="middle">time</text>' % ((L + W - R) // 2, H - 10))
    for k, (name, vals) in enumerate(ys.items()):
        pts = " ".join("%.2f,%.2f" % (X(a), Y(b)) for a, b in zip(t, vals) if math.isfinite(b))
        c = colours[k % len(colours)]
        out.append('<polyline fill="none" stroke="%s" stroke-width="1.5" points="%s"/>' % (c, pts))
        out.append('<text x="%d" y="%d" fill="%s">%s</text>' % (W - R - 150, T + 16 * (k + 1), c, escape(name)))
    out.append("</svg>")
    return "\n".join(out) + "\n"


class Parser(argparse.ArgumentParser):
    """argparse with its errors on one line (no usage block) and exit status 2."""
    def error(self, message):
        die(message)


def main():
    ap = Parser(description=__doc__.split("\n\n")[0],
                                 epilog=__doc__.split("\n\n", 1)[1], formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("path", help="observables.csv or events.csv of a run")
    ap.add_argument("columns", nargs="+", help="columns (observables) or event types (events) to plot")
    ap.add_argument("-o", "--out", required=True, help="the SVG file to write")
    ap.add_argument("--log", dest="log_scale", action="store_true", help="plot log10 of the values")
    a = ap.parse_args()
    folder = os.path.dirname(a.out) or "."
    if not os.path.isdir(folder):
        die("%s: no folder %s" % (a.out, folder))
    if os.path.isdir(a.out):
        die("%s is a folder" % a.out)
    events = read_header(a.path)[:3] == ["step", "time", "event"]
    t, ys = (series_events if events else series_observables)(a.path, a.columns)
    text = svg(t, ys, a.path, a.log_scale)
    try:
        with open(a.out, "w") as f:
            f.write(text)
    except OSError as e:
        die("cannot write %s: %s" % (a.out, e.strerror or e))


if __name__ == "__main__":
    main()
