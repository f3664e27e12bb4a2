#!/usr/bin/env python3
"""Writes the showcase inputs of the paper's Fig. 2G (emulsion) and Fig. 2H (hourglass) as
GeomView OFF files. Deterministic (fixed seed): run it again to get the same files.
    scripts/make_inputs.py                       # both, into inputs/ (overwriting them)
    scripts/make_inputs.py --dir /tmp/x emulsion # only the emulsion, into /tmp/x
Rigid obstacles come first in each file (their number is Nr in the matching params/ header)."""
import argparse
import math
import os
import random

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

def emulsion(path):
    """Fig. 2G: drops of two phases (z = 1 heavy, z = 0 light) in a closed rigid box of side 4,
    some with a drop of the other phase inside."""
    rnd = random.Random(2)
    L, t, sp = 2.0, 0.1, 0.02
    walls = [[(-L - t, -L - t), (L + t, -L - t), (L + t, -L), (-L - t, -L)],    # floor
             [(-L - t, L), (L + t, L), (L + t, L + t), (-L - t, L + t)],        # lid
             [(-L - t, -L), (-L, -L), (-L, L), (-L - t, L)],                    # left
             [(L, -L), (L + t, -L), (L + t, L), (L, L)]]                        # right
    polys = [(subdivide(w, 0.03), 0) for w in walls]
    drops = []
    while len(drops) < 60:
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

def hourglass(path):
    """Fig. 2H: soft particles in the upper bulb of a rigid hourglass (two walls and a floor)."""
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

SCENES = {"emulsion": emulsion, "hourglass": hourglass}


def main():
    top = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "inputs"))
    p = argparse.ArgumentParser(
        prog="make_inputs.py",
        description="Writes the showcase inputs NAME.off (default: all of them into the "
                    "repository's inputs/, overwriting the files there). -h writes nothing.")
    p.add_argument("names", nargs="*", metavar="NAME",
                   help="which inputs to write: %s (default: all)" % ", ".join(sorted(SCENES)))
    p.add_argument("--dir", default=top, help="folder to write into (default: %(default)s)")
    a = p.parse_args()
    for name in a.names:
        if name not in SCENES:
            p.error("unknown input %r (choose from %s)" % (name, ", ".join(sorted(SCENES))))
    if not os.path.isdir(a.dir):
        p.error("--dir %s is not a folder" % a.dir)
    for name in a.names or sorted(SCENES):
        path = os.path.join(a.dir, name + ".off")
        SCENES[name](path)
        print("wrote %s" % path)


if __name__ == "__main__":
    main()
