#!/usr/bin/env python3
"""Pooled tissue statistics of several runs, and a comparison with another program's runs.

Usage: compare_reference.py [--seeds LIST] [--program EXE] [--jobs N] [--keep DIR]
                            [--runs DIR ...] [--ref DIR ...] [--frame N] [--json] [-- OPTIONS]

Runs the program (default ./polyhoop) once per seed (--seeds 1-4, or 1,3,7), one thread each and
--jobs at a time, with the polyhoop OPTIONS given after --; or, with --runs, takes run folders
that exist. For the chosen frame of each run (default the last) it measures, with
scripts/tissue_stats.py, the cell count, the mean cell area and shape index (of all and of interior cells), the contact pairs,
the mean neighbour number of all and of interior cells and the 4-cell cliques, and prints each
as the mean over the runs with [min, max]. --ref DIR ... adds a second group (e.g. frames of the
published program, written as VTK PolyData with the same parameters in the leading XML comment,
or run by hand with --reach) and Welch's t-test p-value for each difference of means.

  scripts/compare_reference.py --seeds 1-4              the default growth's statistics at t = 10
  scripts/compare_reference.py --runs a b c --ref r1 r2 r3

A quantity that a frame does not have (a mean over its interior cells when none is interior, as
in a small early tissue, or over its cells when it has none) is left out of the pooled figures,
which are then over the other runs: n counts the runs that have it, and a note below the table
says how many have not; with none at all it is "none" (null in --json).

--json prints one object: {"runs": [{dir, seed, stats}], "ref": [...], "pooled": {quantity:
{mean, min, max, n, none, ref_mean, ref_min, ref_max, ref_n, ref_none, p}}}. Exit status 0; 1
when a run fails (its error line is printed) or a frame cannot be read or is not there (--frame);
2 for bad arguments.
"""
import argparse
import json
import math
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.dont_write_bytecode = True   # (no scripts/__pycache__/ left in the repository)
import tissue_stats  # noqa: E402

NAN = float("nan")   # (a mean over no cells: a frame without cells, or without interior cells)
QUANTITIES = [  # (key, label, function of a frame's statistics; NAN where it has none)
    ("cells", "cells", lambda s: s["cells"]),
    ("area_mean", "area mean", lambda s: s["area"].get("mean", NAN)),
    ("shape_index_mean", "shape index mean", lambda s: s["shape_index"].get("mean", NAN)),
    ("interior_shape_index_mean", "  interior cells", lambda s: s["interior_shape_index"].get("mean", NAN)),
    ("contact_pairs", "contact pairs", lambda s: s["contact_pairs"]),
    ("neighbors_mean", "neighbours, all", lambda s: s["neighbors"].get("mean", NAN)),
    ("interior_neighbors_mean", "neighbours, interior", lambda s: s["interior_neighbors"].get("mean", NAN)),
    ("cliques4", "4-cell cliques", lambda s: s["cliques4"]),
]


def usage_error(msg):
    print(f"compare_reference: {msg}", file=sys.stderr)
    sys.exit(2)


def seed_list(spec):
    seeds = []
    for part in spec.split(","):
        a, _, b = part.strip().partition("-")
        if not a.isdigit() or (b and not b.isdigit()):
            usage_error(f"--seeds: '{part}' is not N or A-B with 0 <= A <= B")
        lo, hi = int(a), int(b or a)
        if hi < lo:
            usage_error(f"--seeds: '{part}' is an empty range")
        seeds.extend(range(lo, hi + 1))
    if len(set(seeds)) != len(seeds):
        usage_error(f"--seeds {spec}: a seed is listed twice")
    return seeds


def run_seeds(program, seeds, jobs, folder, options):
    """Runs the program once per seed into folder/seedN, jobs at a time; returns the folders."""
    todo, running, dirs = list(seeds), [], {}
    env = dict(os.environ, OMP_NUM_THREADS="1")
    while todo or running:
        while todo and len(running) < jobs:
            s = todo.pop(0)
            d = os.path.join(folder, f"seed{s}")
            log = open(os.path.join(folder, f"seed{s}.log"), "w")
            cmd = [program, "-q", "-j", "1", "--seed", str(s), "--overwrite", "-o", d] + options
            running.append((s, subprocess.Popen(cmd, stdout=log, stderr=subprocess.STDOUT, env=env), log))
            dirs[s] = d
        s, proc, log = running.pop(0)
        status = proc.wait()
        log.close()
        if status != 0:
            for _, p, _ in running:
                p.kill()
            print(f"compare_reference: seed {s} exited {status}: {error_line(log.name)}", file=sys.stderr)
            sys.exit(1)
    return [dirs[s] for s in seeds]


def error_line(path):
    """The line of a run's log that says what went wrong: the first that is neither a warning nor
    the hint "run polyhoop -h for the options", else the last."""
    with open(path, errors="replace") as f:
        lines = [line.strip() for line in f if line.strip()]
    said = [line for line in lines if "warning:" not in line and not line.endswith("-h for the options")]
    return said[0] if said else lines[-1] if lines else "(no output)"


def frame_failure(msg):
    """tissue_stats's fail() here: a frame that cannot be read or chosen is exit status 1."""
    print("compare_reference: " + " ".join(str(msg).split()), file=sys.stderr)
    sys.exit(1)


tissue_stats.fail = frame_failure


def stats_of(folder, frame):
    files = tissue_stats.frame_files(folder)
    if not files:
        print(f"compare_reference: {folder}: no frame*.vtp", file=sys.stderr)
        sys.exit(1)
    numbers = [i for i, _ in files]   # (frame N: the file frameN.vtp; -N: the N-th from the end)
    if frame is not None and not (frame in numbers if frame >= 0 else frame >= -len(numbers)):
        frame_failure(f"{folder}: no frame {frame} (the frames there are: {tissue_stats.pr.number_ranges(numbers)})")
    index, path = tissue_stats.choose(files, None if frame is None else str(frame))[0]
    return tissue_stats.frame_stats(index, path, None)


def betacf(a, b, x):
    """Continued fraction of the regularised incomplete beta function (modified Lentz)."""
    tiny, c, d = 1e-300, 1.0, 1.0 - (a + b) * x / (a + 1)
    d = 1 / (d if abs(d) > tiny else tiny)
    h = d
    for m in range(1, 300):
        for num in (m * (b - m) * x / ((a + 2 * m - 1) * (a + 2 * m)),
                    -(a + m) * (a + b + m) * x / ((a + 2 * m) * (a + 2 * m + 1))):
            d = 1 + num * d
            d = 1 / (d if abs(d) > tiny else tiny)
            c = 1 + num / c
            c = c if abs(c) > tiny else tiny
            h *= d * c
        if abs(d * c - 1) < 1e-15:
            break
    return h


def betai(a, b, x):
    """I_x(a, b), the regularised incomplete beta function."""
    if x <= 0 or x >= 1:
        return 0.0 if x <= 0 else 1.0
    front = math.exp(math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b) + a * math.log(x) + b * math.log(1 - x))
    if x < (a + 1) / (a + b + 2):
        return front * betacf(a, b, x) / a
    return 1 - front * betacf(b, a, 1 - x) / b


def welch_p(u, v):
    """Two-sided p-value of Welch's t-test for equal means of samples u and v (None if undefined)."""
    if len(u) < 2 or len(v) < 2:
        return None
    mu, mv = sum(u) / len(u), sum(v) / len(v)
    su = sum((a - mu) ** 2 for a in u) / (len(u) - 1) / len(u)
    sv = sum((a - mv) ** 2 for a in v) / (len(v) - 1) / len(v)
    if su + sv == 0:
        return None if mu == mv else 0.0
    t = (mu - mv) / math.sqrt(su + sv)
    df = (su + sv) ** 2 / (su ** 2 / (len(u) - 1) + sv ** 2 / (len(v) - 1))
    return betai(df / 2, 0.5, df / (df + t * t))


def spread(q, pre):
    """'mean [min, max]' of a pooled quantity (pre: '' or 'ref_'), 'none' when no run has it."""
    return "none" if not q[pre + "n"] else "%.5g [%.5g, %.5g]" % (q[pre + "mean"], q[pre + "min"], q[pre + "max"])


def main():
    argv = sys.argv[1:]
    options = argv[argv.index("--") + 1:] if "--" in argv else []
    argv = argv[:argv.index("--")] if "--" in argv else argv
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seeds", help="run the program once per seed: N, A-B, comma-separated")
    ap.add_argument("--program", default="./polyhoop", help="the program to run (default ./polyhoop)")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1, help="runs at a time (default: the cores)")
    ap.add_argument("--keep", help="run into this folder and keep the runs (default: a temporary folder)")
    ap.add_argument("--runs", nargs="+", metavar="DIR", help="analyse these run folders instead of running")
    ap.add_argument("--ref", nargs="+", metavar="DIR", help="a second group of run folders to compare with")
    ap.add_argument("--frame", type=int, help="the frame to analyse, the file frameN.vtp (N < 0: the N-th from "
                    "the end; default: each run's last)")
    ap.add_argument("--json", action="store_true", help="print one JSON object instead of a table")
    args = ap.parse_args(argv)
    if bool(args.seeds) == bool(args.runs):
        usage_error("give --seeds (to run the program) or --runs DIR ... (to analyse runs)")
    if args.jobs < 1:
        usage_error("--jobs must be at least 1")
    for d in (args.runs or []) + (args.ref or []):
        if not os.path.isdir(d):
            usage_error(f"{d}: not a folder")
    runs, seeds = args.runs, [None] * len(args.runs or [])
    tmp = None
    if args.seeds:
        seeds = seed_list(args.seeds)
        if not (os.path.isfile(args.program) and os.access(args.program, os.X_OK)):
            usage_error(f"{args.program}: no such program (build it with make, or give --program)")
        if args.keep:
            os.makedirs(args.keep, exist_ok=True)
            folder = args.keep
        else:
            tmp = tempfile.TemporaryDirectory(prefix="compare_reference_")
            folder = tmp.name
        runs = run_seeds(args.program, seeds, args.jobs, folder, options)
    ours = [stats_of(d, args.frame) for d in runs]
    ref = [stats_of(d, args.frame) for d in args.ref or []]
    pooled = {}
    for key, _, get in QUANTITIES:   # (over the runs that have the quantity: n of them, "none" without it)
        u, v = [x for x in map(get, ours) if not math.isnan(x)], [x for x in map(get, ref) if not math.isnan(x)]
        q = {"mean": sum(u) / len(u) if u else None, "min": min(u, default=None), "max": max(u, default=None),
             "n": len(u), "none": len(ours) - len(u)}
        if ref:
            q.update(ref_mean=sum(v) / len(v) if v else None, ref_min=min(v, default=None), ref_max=max(v, default=None),
                     ref_n=len(v), ref_none=len(ref) - len(v), p=welch_p(u, v))
        pooled[key] = q
    if args.json:
        strip = lambda s: {k: s[k] for k in s if k != "file"}  # noqa: E731
        print(json.dumps({"runs": [{"dir": d, "seed": s, "stats": strip(st)} for d, s, st in zip(runs, seeds, ours)],
                          "ref": [{"dir": d, "stats": strip(st)} for d, st in zip(args.ref or [], ref)],
                          "pooled": pooled}, indent=1))
    else:
        times = sorted({round(s["time"], 6) for s in ours + ref})
        print(f"{len(ours)} runs" + (f" against {len(ref)}" if ref else "") + f", at t = {', '.join('%g' % t for t in times)}")
        head = f"{'':22s} {'mean [min, max]':>28s}"
        print(head + (f" {'reference [min, max]':>28s} {'Welch p':>8s}" if ref else ""))
        notes = []
        for key, label, _ in QUANTITIES:
            q = pooled[key]
            line = f"{label:22s} {spread(q, ''):>28s}"
            if ref:
                p = q["p"]
                line += f" {spread(q, 'ref_'):>28s} {'-' if p is None else '%.2g' % p:>8s}"
            print(line)
            for group, pre, n in (("runs", "", len(ours)), ("reference runs", "ref_", len(ref))):
                if q.get(pre + "none"):
                    notes.append(f"{key}: none in {q[pre + 'none']} of {n} {group} (no such cells in the frame)"
                                 + (f"; the figures are those of the other {q[pre + 'n']}" if q[pre + "n"] else ""))
        for note in notes:
            print("note: " + note)
    if tmp:
        tmp.cleanup()


if __name__ == "__main__":
    tissue_stats.pr.run_quietly_into_a_pipe(main)
