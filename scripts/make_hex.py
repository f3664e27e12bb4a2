#!/usr/bin/env python3
"""Writes a hexagonal close packing of N cells (48-vertex circles of radius 1, centre distance
2 + h, in adhesive contact) as an OFF file: the benchmark of the paper (section 5) and of make bench.
    scripts/make_hex.py N out.off [h] [--types SPEC] [--seed S]
--types gives the cells types (z = 2 type + 1): random:F1,F2,... (type k with probability Fk,
from --seed, default 1), stripes:W (alternating by the centroid's x) or disc:R (type 1 within R
of the packing's centre); see scripts/cell_types.py. The first comment line counts the types.
Bad arguments (N outside 1 to 10^6, h negative or not finite, a folder that does not exist) are
refused with one line on stderr and exit status 2; nothing is written then."""
import argparse
import math
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.dont_write_bytecode = True   # (no scripts/__pycache__/ left in the repository)
import cell_types  # noqa: E402

MAX_CELLS = 10 ** 6   # 48 million vertices, a file of about 1.5 GB


def hex_cells(n, h=0.01):
    """N cells of radius 1 (48 vertices, counter-clockwise) in rows of ceil(sqrt N), centre
    distance 2 + h: a list of point lists."""
    d, m = 2 + h, 48
    cols = int(math.ceil(math.sqrt(n)))
    centres = [((c + 0.5 * (r % 2)) * d, r * d * math.sqrt(3) / 2) for r in range(cols) for c in range(cols)][:n]
    return [[(x + math.cos(2 * math.pi * k / m), y + math.sin(2 * math.pi * k / m)) for k in range(m)] for x, y in centres]


def write_hex(path, n, h=0.01, comment=None, types=None):
    """Writes hex_cells(n, h) as an OFF file (phase +1), cell k of type types[k] (None: all 0)."""
    cells = hex_cells(n, h)
    if comment is None:
        comment = "%d cells, hexagonal close packing, radius 1, centre distance %g" % (n, 2 + h)
        if types is not None:
            comment += "; " + cell_types.summary(types)
    with open(path, "w") as f:
        f.write("# %s\nOFF\n%d %d 0\n" % (comment, sum(map(len, cells)), n))
        for k, pts in enumerate(cells):
            z = 2 * (types[k] if types is not None else 0) + 1
            for x, y in pts:
                f.write("%.12g %.12g %d\n" % (x, y, z))
        i = 0
        for pts in cells:
            f.write("%d %s\n" % (len(pts), " ".join(str(i + k) for k in range(len(pts)))))
            i += len(pts)


class Parser(argparse.ArgumentParser):
    """argparse with its errors on one line (no usage block) and exit status 2."""
    def error(self, message):
        sys.stderr.write("%s: %s\n" % (self.prog, " ".join(str(message).split())))
        sys.exit(2)


def main():
    p = Parser(prog="make_hex.py",
                                description="Writes N cells in hexagonal close packing to OUT.off.")
    p.add_argument("n", type=int, metavar="N", help="number of cells")
    p.add_argument("path", metavar="OUT.off", help="file to write")
    p.add_argument("h", type=float, nargs="?", default=0.01,
                   help="gap between neighbouring cells (default %(default)s)")
    p.add_argument("--types", metavar="SPEC", help="cell types: random:F1,F2,..., stripes:W or disc:R")
    p.add_argument("--seed", type=int, default=1, help="random seed of --types random (default %(default)s)")
    a = p.parse_args()
    try:
        spec = cell_types.parse(a.types) if a.types is not None else None
    except ValueError as e:
        p.error(str(e))
    if not 1 <= a.n <= MAX_CELLS:
        p.error("N must be 1 to %d, got %d" % (MAX_CELLS, a.n))
    if not (math.isfinite(a.h) and a.h >= 0):
        p.error("h must be a finite gap >= 0, got %r" % a.h)
    cols = math.ceil(math.sqrt(a.n))
    if not math.isfinite((cols + 1) * (2 + a.h)):
        p.error("h = %g puts the cells beyond the range of floating-point numbers" % a.h)
    folder = os.path.dirname(a.path) or "."
    if not os.path.isdir(folder):
        p.error("%s: no folder %s" % (a.path, folder))
    if os.path.isdir(a.path):
        p.error("%s is a folder" % a.path)
    try:
        types = cell_types.assign(hex_cells(a.n, a.h), spec, a.seed) if spec else None
        write_hex(a.path, a.n, a.h, types=types)
    except OSError as e:
        p.error("cannot write %s: %s" % (a.path, e.strerror or e))


if __name__ == "__main__":
    main()
