#!/usr/bin/env python3
"""Writes a confluent tissue of about N polydisperse cells as an OFF file: the Voronoi cells of
a jittered hexagonal lattice inside a disc, each shrunk by half the gap g so that neighbours face
each other across g (in adhesive contact for g = h), with edges no longer than lmax. With --wall the cells are
clipped to the disc and a rigid ring (the first polygon: Nr = 1, phase -1) encloses them g away,
so that the tissue stays confluent without adhesion (params/migration.h). Cell areas
spread around MEAN (default 0.75 pi: a default-physics tissue divides at pi, so a tissue made
with the defaults divides steadily from the first steps on). The growing-tissue benchmark.
    scripts/make_tissue.py N out.off [--seed S] [--mean A] [--jitter J] [--gap G] [--lmax L] [--wall]
                           [--types SPEC]
--types gives the cells types (z = 2 type + 1; the ring stays type 0): random:F1,F2,... (from
--seed), stripes:W or disc:R (see scripts/cell_types.py); the comment counts them.
Bad arguments (N outside 1 to 10^6, sizes that are not finite or out of range, a gap that leaves
no cell, more than 5 10^7 vertices, a folder that does not exist) are refused with one line on
stderr and exit status 2; nothing is written then."""
import argparse
import math
import os
import random
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.dont_write_bytecode = True   # (no scripts/__pycache__/ left in the repository)
import cell_types  # noqa: E402

MAX_CELLS = 10 ** 6
MAX_VERTICES = 5 * 10 ** 7


class Parser(argparse.ArgumentParser):
    """argparse with its errors on one line (no usage block) and exit status 2."""
    def error(self, message):
        sys.stderr.write("%s: %s\n" % (self.prog, " ".join(str(message).split())))
        sys.exit(2)


def clip(poly, ax, ay, c):
    """The part of poly where ax * x + ay * y <= c (Sutherland-Hodgman, one half-plane)."""
    out = []
    for k in range(len(poly)):
        (x0, y0), (x1, y1) = poly[k], poly[(k + 1) % len(poly)]
        s0, s1 = ax * x0 + ay * y0 - c, ax * x1 + ay * y1 - c
        if s0 <= 0:
            out.append((x0, y0))
        if (s0 < 0 < s1) or (s1 < 0 < s0):
            f = s0 / (s0 - s1)
            out.append((x0 + f * (x1 - x0), y0 + f * (y1 - y0)))
    return out


def area(poly):
    return 0.5 * sum(poly[k][0] * poly[(k + 1) % len(poly)][1] - poly[(k + 1) % len(poly)][0] * poly[k][1]
                     for k in range(len(poly)))


def shrink(poly, d):
    """A convex counter-clockwise polygon with every edge moved inward by d (edges that vanish
    are dropped by clipping the polygon with each moved edge's half-plane)."""
    out = poly
    for k in range(len(poly)):
        (x0, y0), (x1, y1) = poly[k], poly[(k + 1) % len(poly)]
        ex, ey = x1 - x0, y1 - y0
        l = math.hypot(ex, ey)
        if l == 0:
            continue
        nx, ny = ey / l, -ex / l   # outward normal of a counter-clockwise edge
        out = clip(out, nx, ny, nx * x0 + ny * y0 - d)
        if len(out) < 3:
            return []
    return out


def refine(poly, lmax):
    out = []
    for k in range(len(poly)):
        (x0, y0), (x1, y1) = poly[k], poly[(k + 1) % len(poly)]
        n = max(1, math.ceil(math.hypot(x1 - x0, y1 - y0) / lmax))
        out += [(x0 + j / n * (x1 - x0), y0 + j / n * (y1 - y0)) for j in range(n)]
    return out


def main():
    p = Parser(prog="make_tissue.py",
                                description="Writes a confluent tissue of about N Voronoi cells to OUT.off.")
    p.add_argument("n", type=int, metavar="N", help="number of cells (about)")
    p.add_argument("path", metavar="OUT.off", help="file to write")
    p.add_argument("--seed", type=int, default=1, help="random seed (default %(default)s)")
    p.add_argument("--mean", type=float, default=0.75 * math.pi, help="mean cell area (default 0.75 pi)")
    p.add_argument("--jitter", type=float, default=0.3,
                   help="lattice jitter in units of the lattice spacing, in [0, 0.5) (default %(default)s)")
    p.add_argument("--gap", type=float, default=0.01, help="gap between neighbouring cells (default %(default)s)")
    p.add_argument("--lmax", type=float, default=0.2, help="longest edge (default %(default)s)")
    p.add_argument("--wall", action="store_true", help="clip the cells to the disc and enclose them in a rigid ring "
                   "(the first polygon, phase -1: Nr = 1)")
    p.add_argument("--types", metavar="SPEC", help="cell types: random:F1,F2,..., stripes:W or disc:R")
    a = p.parse_args()
    try:
        spec = cell_types.parse(a.types) if a.types is not None else None
    except ValueError as e:
        p.error(str(e))
    if not 1 <= a.n <= MAX_CELLS:
        p.error("N must be 1 to %d, got %d" % (MAX_CELLS, a.n))
    for name in ("mean", "jitter", "gap", "lmax"):
        if not math.isfinite(getattr(a, name)):
            p.error("--%s must be a finite number, got %r" % (name, getattr(a, name)))
    if not (a.mean > 0 and 0 <= a.jitter < 0.5 and a.gap >= 0 and a.lmax > 0):
        p.error("need mean > 0, 0 <= jitter < 0.5, gap >= 0 and lmax > 0")
    if not math.isfinite(a.n * a.mean) or math.sqrt(a.mean) == 0:
        p.error("--mean %g is out of the range of floating-point numbers" % a.mean)
    # vertices: a cell's perimeter is about 3.8 sqrt(mean), cut into edges of at most lmax
    vertices = a.n * (3.8 * math.sqrt(a.mean) / a.lmax + 6) + (2 * math.sqrt(a.n * a.mean * math.pi) / a.lmax if a.wall else 0)
    if vertices > MAX_VERTICES:
        p.error("--lmax %g would cut the tissue into about %.3g vertices (at most %.0e)" % (a.lmax, vertices, MAX_VERTICES))
    folder = os.path.dirname(a.path) or "."
    if not os.path.isdir(folder):
        p.error("%s: no folder %s" % (a.path, folder))
    if os.path.isdir(a.path):
        p.error("%s is a folder" % a.path)
    rng = random.Random(a.seed)
    s = math.sqrt(2 * a.mean / math.sqrt(3))            # hexagonal lattice spacing for that mean area
    radius = math.sqrt(a.n * a.mean / math.pi)          # the disc that holds N cells
    rows = int(radius / (s * math.sqrt(3) / 2)) + 3
    seeds, inside = [], []
    for r in range(-rows, rows + 1):
        for c in range(-rows - 1, rows + 2):
            x = (c + 0.5 * (r % 2)) * s + a.jitter * s * (2 * rng.random() - 1)
            y = r * s * math.sqrt(3) / 2 + a.jitter * s * (2 * rng.random() - 1)
            seeds.append((x, y))
            inside.append(math.hypot(x, y) <= radius)
    # the seeds near each seed, through a grid of cells of side 3 s
    cs, grid = 3 * s, {}
    for k, (x, y) in enumerate(seeds):
        grid.setdefault((math.floor(x / cs), math.floor(y / cs)), []).append(k)
    cells = []
    for k, (x, y) in enumerate(seeds):
        if not inside[k]:
            continue
        poly = [(x - cs, y - cs), (x + cs, y - cs), (x + cs, y + cs), (x - cs, y + cs)]
        gx, gy = math.floor(x / cs), math.floor(y / cs)
        for i in range(gx - 1, gx + 2):
            for j in range(gy - 1, gy + 2):
                for m in grid.get((i, j), ()):
                    if m != k:   # the half-plane closer to seed k than to seed m
                        ox, oy = seeds[m]
                        poly = clip(poly, ox - x, oy - y, 0.5 * ((ox * ox + oy * oy) - (x * x + y * y)))
        if a.wall:   # the disc of the tissue, as a 512-gon, less half a gap
            for j in range(512):
                t = 2 * math.pi * (j + 0.5) / 512
                poly = clip(poly, math.cos(t), math.sin(t), radius * math.cos(math.pi / 512))
                if len(poly) < 3:
                    break
        poly = shrink(poly, 0.5 * a.gap) if len(poly) >= 3 else []
        if len(poly) >= 3 and area(poly) > 0:
            cells.append(refine(poly, a.lmax))
    if not cells:
        p.error("--gap %g leaves no cell (cells of area %g are about %.3g across)" % (a.gap, a.mean, s))
    areas = [area(c) for c in cells]
    types = cell_types.assign(cells, spec, a.seed) if spec else None
    polys = [(c, 2 * t + 1) for c, t in zip(cells, types)] if types else [(c, 1) for c in cells]
    if a.wall:   # a ring through the 512-gon's corners pushed out by half a gap: g from the cells
        R = radius + 0.5 * a.gap / math.cos(math.pi / 512)
        ring = refine([(R * math.cos(2 * math.pi * j / 512), R * math.sin(2 * math.pi * j / 512)) for j in range(512)], a.lmax)
        polys.insert(0, (ring, 0))
    try:
        write_off(a.path, a, s, cells, areas, polys, types)
    except OSError as e:
        p.error("cannot write %s: %s" % (a.path, e.strerror or e))


def write_off(path, a, s, cells, areas, polys, types=None):
    nv = sum(len(c) for c, _ in polys)
    with open(path, "w") as f:
        f.write("# %d Voronoi cells of a jittered hexagonal lattice (spacing %.6g, jitter %g, seed %d), gap %g,\n"
                "# areas %.4g to %.4g (mean %.4g)%s%s\nOFF\n%d %d 0\n"
                % (len(cells), s, a.jitter, a.seed, a.gap, min(areas), max(areas), sum(areas) / len(areas),
                   "; the first polygon is a rigid ring around them (Nr = 1)" if a.wall else "",
                   "; " + cell_types.summary(types) if types else "", nv, len(polys)))
        for c, z in polys:
            for x, y in c:
                f.write("%.12g %.12g %d\n" % (x, y, z))
        k = 0
        for c, _ in polys:
            f.write("%d %s\n" % (len(c), " ".join(str(k + j) for j in range(len(c)))))
            k += len(c)


if __name__ == "__main__":
    main()
