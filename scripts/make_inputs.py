#!/usr/bin/env python3
"""Writes the showcase inputs of the paper's Fig. 2F (foam), 2G (emulsion) and 2H (hourglass) as
GeomView OFF files. Deterministic (fixed seed): run it again to get the same files.
    scripts/make_inputs.py                       # all, into inputs/ (overwriting them)
    scripts/make_inputs.py --dir /tmp/x emulsion # only the emulsion, into /tmp/x
    scripts/make_inputs.py --size 40 --seed 5 --dir /tmp/x foam   # 40 bubbles, another draw
Rigid obstacles come first in each file (their number is Nr in the matching params/ header)."""
import argparse
import math
import os
import random
import sys

def circle(cx, cy, r, spacing, phi0=0.0):
    n = max(8, int(math.ceil(2 * math.pi * r / spacing)))
    return [(cx + r * math.cos(phi0 + 2 * math.pi * k / n), cy + r * math.sin(phi0 + 2 * math.pi * k / n)) for k in range(n)]

def subdivide(points, spacing):
    """Inserts points along each edge of a closed polygon so no edge is longer than spacing."""
    out = []
    for k, (x0, y0) in enumerate(points):
        x1, y1 = points[(k + 1) % len(points)]
        m = max(1, int(math.ceil(math.hypot(x1 - x0, y1 - y0) / spacing)))
        out += [(x0 + (x1 - x0) * j / m, y0 + (y1 - y0) * j / m) for j in range(m)]
    return out

def write_off(path, polys, comment):
    """polys: list of (points, z); z odd -> phase +1, even -> phase -1."""
    nv = sum(len(p) for p, _ in polys)
    with open(path, "w") as f:
        f.write("# %s\n# written by scripts/make_inputs.py\nOFF\n%d %d 0\n" % (comment, nv, len(polys)))
        for pts, z in polys:
            for x, y in pts:
                f.write("%.9g %.9g %d\n" % (x, y, z))
        i = 0
        for pts, _ in polys:
            f.write("%d %s\n" % (len(pts), " ".join(str(i + k) for k in range(len(pts)))))
            i += len(pts)

def emulsion(path, size=60, seed=2):
    """Fig. 2G: `size` drops of two phases (z = 1 heavy, z = 0 light) in a closed rigid box of
    side 4, some with a drop of the other phase inside."""
    rnd = random.Random(seed)
    L, t, sp = 2.0, 0.1, 0.02
    walls = [[(-L - t, -L - t), (L + t, -L - t), (L + t, -L), (-L - t, -L)],    # floor
             [(-L - t, L), (L + t, L), (L + t, L + t), (-L - t, L + t)],        # lid
             [(-L - t, -L), (-L, -L), (-L, L), (-L - t, L)],                    # left
             [(L, -L), (L + t, -L), (L + t, L), (L, L)]]                        # right
    polys = [(subdivide(w, 0.03), 0) for w in walls]
    drops = []
    tries = 0
    while len(drops) < size and tries < 100000:
        tries += 1
        r = rnd.uniform(0.12, 0.3)
        x, y = rnd.uniform(-L + r + 0.03, L - r - 0.03), rnd.uniform(-L + r + 0.03, L - r - 0.03)
        if all(math.hypot(x - a, y - b) > r + c + 0.02 for a, b, c in drops):
            drops.append((x, y, r))
    for k, (x, y, r) in enumerate(drops):
        z = rnd.randint(0, 1)
        polys.append((circle(x, y, r, sp, rnd.uniform(0, 2 * math.pi)), z))
        if r > 0.2 and k % 3 == 0:
            polys.append((circle(x + 0.2 * r, y, 0.45 * r, sp), 1 - z))
    write_off(path, polys, "emulsion (paper Fig. 2G): 4 rigid walls (Nr = 4), drops of two phases, some nested")

def foam(path, size=150, seed=3):
    """Fig. 2F: a wet foam of `size` polydisperse bubbles in an open rigid box (floor and two
    walls, Nr = 3) of width 6: the Voronoi cells of random seeds (at least 0.25 apart) filling the
    box to the height their number needs, each shrunk by 0.02 all round (the liquid between them),
    with edges of at most 0.04. Line tension rounds them, edge gravity settles them."""
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    import make_tissue as mt
    rnd = random.Random(seed)
    W, t = 3.0, 0.1
    H = size * 0.22 / (2 * W)                          # mean bubble area 0.22
    polys = [(subdivide(w, 0.03), 1) for w in
             ([(-W - t, -t), (W + t, -t), (W + t, 0), (-W - t, 0)],        # floor
              [(-W - t, 0), (-W, 0), (-W, H + 2), (-W - t, H + 2)],        # left
              [(W, 0), (W + t, 0), (W + t, H + 2), (W, H + 2)])]           # right
    seeds, tries = [], 0
    while len(seeds) < size and tries < 200000:
        tries += 1
        x, y = rnd.uniform(-W, W), rnd.uniform(0, H)
        if all((x - a) ** 2 + (y - b) ** 2 > 0.25 ** 2 for a, b in seeds):
            seeds.append((x, y))
    for k, (x, y) in enumerate(seeds):
        cell = [(-W, 0), (W, 0), (W, H), (-W, H)]
        for m, (ox, oy) in enumerate(seeds):
            if m != k and (ox - x) ** 2 + (oy - y) ** 2 < 4.0:
                cell = mt.clip(cell, ox - x, oy - y, 0.5 * ((ox * ox + oy * oy) - (x * x + y * y)))
        cell = mt.shrink(cell, 0.02)
        if len(cell) >= 3 and mt.area(cell) > 0:
            polys.append((mt.refine(cell, 0.04), 1))
    write_off(path, polys, "foam (paper Fig. 2F): floor and 2 walls (Nr = 3), %d polydisperse bubbles (seed %d)" % (len(polys) - 3, seed))

def hourglass(path, size=None, seed=None):
    """Fig. 2H: soft particles in the upper bulb of a rigid hourglass (two walls and a floor);
    the bulb's lattice sets their number (size and seed are not used)."""
    H, neck, slope, outer = 14.0, 3.0, 0.45, 12.0
    w = lambda y: neck + slope * abs(y)
    ys = [-H + 1.0 * k for k in range(int(2 * H / 1.0) + 1)]
    left = [(-outer, -H), (-w(-H), -H)] + [(-w(y), y) for y in ys[1:-1]] + [(-w(H), H), (-outer, H)]
    right = [(w(-H), -H), (outer, -H), (outer, H), (w(H), H)] + [(w(y), y) for y in reversed(ys[1:-1])]
    floor = [(-outer, -H - 1), (outer, -H - 1), (outer, -H), (-outer, -H)]
    polys = [(subdivide(left, 0.2), 0), (subdivide(right, 0.2), 0), (subdivide(floor, 0.2), 0)]
    r, gap = 1.0, 2.12
    y = 3.5
    row = 0
    while y < H - r:
        for k in range(-10, 11):    # a hexagonal lattice, clipped to the inside of the walls
            x = k * gap + (gap / 2 if row % 2 else 0)
            if abs(x) + (r + 0.15) * math.sqrt(1 + slope * slope) < w(y):
                polys.append((circle(x, y, r, 0.15, 0.3 * row), 1))
        y += gap * math.sqrt(3) / 2
        row += 1
    write_off(path, polys, "hourglass (paper Fig. 2H): 2 rigid walls and a floor (Nr = 3), soft particles above the neck")

SCENES = {"emulsion": emulsion, "foam": foam, "hourglass": hourglass}


def main():
    top = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "inputs"))
    p = argparse.ArgumentParser(
        prog="make_inputs.py",
        description="Writes the showcase inputs NAME.off (default: all of them into the "
                    "repository's inputs/, overwriting the files there). -h writes nothing.")
    p.add_argument("names", nargs="*", metavar="NAME",
                   help="which inputs to write: %s (default: all)" % ", ".join(sorted(SCENES)))
    p.add_argument("--dir", default=top, help="folder to write into (default: %(default)s)")
    p.add_argument("--size", type=int, help="number of drops or bubbles (default: the scene's)")
    p.add_argument("--seed", type=int, help="random seed (default: the scene's, which made the files in inputs/)")
    a = p.parse_args()
    if a.size is not None and a.size < 1:
        p.error("--size must be at least 1")
    for name in a.names:
        if name not in SCENES:
            p.error("unknown input %r (choose from %s)" % (name, ", ".join(sorted(SCENES))))
    if not os.path.isdir(a.dir):
        p.error("--dir %s is not a folder" % a.dir)
    for name in a.names or sorted(SCENES):
        path = os.path.join(a.dir, name + ".off")
        kw = {k: v for k, v in (("size", a.size), ("seed", a.seed)) if v is not None}
        SCENES[name](path, **kw)
        print("wrote %s" % path)


if __name__ == "__main__":
    main()
