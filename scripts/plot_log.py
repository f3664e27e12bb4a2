#!/usr/bin/env python3
"""Plots columns of a run's log (observables.csv, or the event counts of events.csv) against time
as an SVG picture, with the Python standard library only.

    scripts/plot_log.py outputs/observables.csv polygons U_total -o plot.svg
    scripts/plot_log.py outputs/events.csv division death -o events.svg   (cumulative counts)

Columns of observables.csv: frame, step, time, polygons, vertices, area_mean, area_std,
neighbors_mean, kinetic, U_area, ... (docs/model.md 7). --log plots log10 of the values."""
import argparse
import csv
import math
import sys


def series_observables(path, names):
    with open(path, newline="") as f:
        rows = list(csv.DictReader(f))
    if not rows:
        sys.exit("plot_log.py: %s has no data rows" % path)
    for n in names:
        if n not in rows[0]:
            sys.exit("plot_log.py: %s has no column '%s' (it has: %s)" % (path, n, ", ".join(rows[0])))
    t = [float(r["time"]) for r in rows]
    return t, {n: [float(r[n]) for r in rows] for n in names}


def series_events(path, names):
    with open(path, newline="") as f:
        rows = list(csv.DictReader(f))
    t, counts, total = [0.0], {n: [0.0] for n in names}, {n: 0 for n in names}
    for r in rows:
        if r["event"] in total:
            total[r["event"]] += 1
        t.append(float(r["time"]))
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
        sys.exit("plot_log.py: nothing finite to plot")
    y0, y1 = min(finite), max(finite)
    if y1 == y0:
        y0, y1 = y0 - 1, y1 + 1
    x0, x1 = min(t), max(t) if max(t) > min(t) else min(t) + 1
    X = lambda x: L + (x - x0) / (x1 - x0) * (W - L - R)
    Y = lambda y: H - B - (y - y0) / (y1 - y0) * (H - T - B)
    out = ['<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" font-family="sans-serif" font-size="12">' % (W, H),
           '<rect width="100%" height="100%" fill="white"/>',
           '<text x="%d" y="18" font-size="14">%s</text>' % (L, title),
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
        out.append('<text x="%d" y="%d" fill="%s">%s</text>' % (W - R - 150, T + 16 * (k + 1), c, name))
    out.append("</svg>")
    return "\n".join(out) + "\n"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 epilog=__doc__.split("\n\n", 1)[1], formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("path", help="observables.csv or events.csv of a run")
    ap.add_argument("columns", nargs="+", help="columns (observables) or event types (events) to plot")
    ap.add_argument("-o", "--out", required=True, help="the SVG file to write")
    ap.add_argument("--log", dest="log_scale", action="store_true", help="plot log10 of the values")
    a = ap.parse_args()
    with open(a.path, newline="") as f:
        head = f.readline()
    t, ys = (series_events if head.startswith("step,time,event") else series_observables)(a.path, a.columns)
    text = svg(t, ys, a.path, a.log_scale)
    with open(a.out, "w") as f:
        f.write(text)


if __name__ == "__main__":
    main()
