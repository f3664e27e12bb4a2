#!/usr/bin/env python3
"""Writes a hexagonal close packing of N cells (48-vertex circles of radius 1, centre distance
2 + h, in adhesive contact) as an OFF file: the benchmark of the paper (section 5) and of make bench.
    scripts/make_hex.py N out.off [h]
Bad arguments (N outside 1 to 10^6, h negative or not finite, a folder that does not exist) are
refused with one line on stderr and exit status 2; nothing is written then."""
import argparse
import math
import os
import sys

MAX_CELLS = 10 ** 6   # 48 million vertices, a file of about 1.5 GB


def hex_cells(n, h=0.01):
    """N cells of radius 1 (48 vertices, counter-clockwise) in rows of ceil(sqrt N), centre
    distance 2 + h: a list of point lists."""
    d, m = 2 + h, 48
    cols = int(math.ceil(math.sqrt(n)))
    centres = [((c + 0.5 * (r % 2)) * d, r * d * math.sqrt(3) / 2) for r in range(cols) for c in range(cols)][:n]
    return [[(x + math.cos(2 * math.pi * k / m), y + math.sin(2 * math.pi * k / m)) for k in range(m)] for x, y in centres]


def write_hex(path, n, h=0.01, comment=None):
    """Writes hex_cells(n, h) as an OFF file (phase +1)."""
    cells = hex_cells(n, h)
    with open(path, "w") as f:
        f.write("# %s\nOFF\n%d %d 0\n" % (comment or "%d cells, hexagonal close packing, radius 1, centre distance %g" % (n, 2 + h),
                                           sum(map(len, cells)), n))
        for pts in cells:
            for x, y in pts:
                f.write("%.12g %.12g 1\n" % (x, y))
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
    a = p.parse_args()
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
        write_hex(a.path, a.n, a.h)
    except OSError as e:
        p.error("cannot write %s: %s" % (a.path, e.strerror or e))


if __name__ == "__main__":
    main()
