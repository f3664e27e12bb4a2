#!/usr/bin/env python3
"""Cell types for the input generators (make_hex.py, make_tissue.py --types SPEC). In an OFF
input a vertex's z is 2 type + b, b = 1 for phase +1 (docs/model.md 11), so a cell of type t of
phase +1 has z = 2 t + 1. SPEC is one of
    random:F1,F2,...   type k with probability Fk (type 0: the rest), drawn from the seed
    stripes:W          type floor((x - xmin) / W) mod 2 of the cell's centroid x (xmin: the
                       leftmost centroid): stripes of width W, alternating
    disc:R             type 1 within R of the centroid of all cells, 0 outside
parse() refuses a SPEC that is none of these with ValueError (one line, for the scripts' error).
As a program it types the polygons of any OFF file (each keeps its phase):
    scripts/cell_types.py SPEC IN.off OUT.off [--seed S]
Bad arguments or an unreadable file: one line on stderr, exit status 2, nothing written."""
import math
import random


def _number(text, spec):
    try:
        v = float(text)
    except ValueError:
        raise ValueError("--types %s: '%s' is not a number" % (spec, text))
    if not math.isfinite(v):
        raise ValueError("--types %s: '%s' is not finite" % (spec, text))
    return v


def parse(spec):
    """(kind, values) of a --types SPEC."""
    kind, sep, rest = spec.partition(":")
    if not sep or kind not in ("random", "stripes", "disc") or not rest:
        raise ValueError("--types %s: give random:F1,F2,..., stripes:W or disc:R" % spec)
    if kind == "random":
        f = [_number(t, spec) for t in rest.split(",")]
        if min(f) < 0 or sum(f) > 1:
            raise ValueError("--types %s: the fractions must be >= 0 and sum to at most 1" % spec)
        return kind, f
    v = _number(rest, spec)
    if not v > 0:
        raise ValueError("--types %s: %s must be > 0" % (spec, "the width" if kind == "stripes" else "the radius"))
    return kind, [v]


def centroid(pts):
    """The area centroid of a polygon [(x, y), ...] (counter-clockwise)."""
    a = cx = cy = 0.0
    for (x0, y0), (x1, y1) in zip(pts, pts[1:] + pts[:1]):
        w = x0 * y1 - x1 * y0
        a += w
        cx += (x0 + x1) * w
        cy += (y0 + y1) * w
    return cx / (3 * a), cy / (3 * a)


def assign(cells, spec, seed):
    """The type of each cell (point lists) for the parsed spec (kind, values)."""
    kind, v = spec
    c = [centroid(p) for p in cells]
    if kind == "random":
        rng, out = random.Random("cell types %d" % seed), []   # (a stream of its own)
        for _ in cells:
            u, t, acc = rng.random(), 0, 1 - sum(v)
            while u >= acc and t < len(v):
                acc += v[t]
                t += 1
            out.append(t)
        return out
    if kind == "stripes":
        x0 = min(x for x, _ in c)
        return [int(math.floor((x - x0) / v[0])) % 2 for x, _ in c]
    mx, my = sum(x for x, _ in c) / len(c), sum(y for _, y in c) / len(c)
    return [1 if math.hypot(x - mx, y - my) <= v[0] else 0 for x, y in c]


def summary(types):
    """'N of type 0, M of type 1, ...'"""
    n = max(types) + 1 if types else 1
    return ", ".join("%d of type %d" % (types.count(t), t) for t in range(n))


def main():
    import argparse, os, sys
    class Parser(argparse.ArgumentParser):
        def error(self, message):
            sys.stderr.write("%s: %s\n" % (self.prog, " ".join(str(message).split())))
            sys.exit(2)
    p = Parser(prog="cell_types.py", description="Types the polygons of an OFF file (see the module's text).")
    p.add_argument("spec", metavar="SPEC", help="random:F1,F2,..., stripes:W or disc:R")
    p.add_argument("src", metavar="IN.off")
    p.add_argument("dst", metavar="OUT.off")
    p.add_argument("--seed", type=int, default=1, help="random seed of random: (default %(default)s)")
    a = p.parse_args()
    try:
        spec = parse(a.spec)
        lines = open(a.src).read().splitlines()
        body = [k for k, l in enumerate(lines) if l.strip() and not l.lstrip().startswith("#")]
        nv, nf = map(int, lines[body[1]].split()[:2])
        vl, fl = body[2:2 + nv], body[2 + nv:2 + nv + nf]
        v = [lines[k].split() for k in vl]
        faces = [list(map(int, lines[k].split()[1:])) for k in fl]
        types = assign([[(float(v[i][0]), float(v[i][1])) for i in f] for f in faces], spec, a.seed)
    except (ValueError, IndexError, OSError) as e:
        p.error("%s: %s" % (a.src, e) if not isinstance(e, ValueError) or not str(e).startswith("--types") else str(e))
    for f, t in zip(faces, types):
        for i in f:
            z = int(float(v[i][2]))
            v[i][2] = str(2 * t + (z & 1))
    for k, row in zip(vl, v):
        lines[k] = " ".join(row)
    if not os.path.isdir(os.path.dirname(a.dst) or "."):
        p.error("%s: no such folder" % a.dst)
    with open(a.dst, "w") as out:
        out.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
