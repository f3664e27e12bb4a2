#!/usr/bin/env python3
"""Writes a hexagonal close packing of N cells (48-vertex circles of radius 1, centre distance
2 + h, in adhesive contact) as an OFF file: the benchmark of the paper (section 5) and of make bench.
    scripts/make_hex.py N out.off [h]"""
import argparse
import math


def write_hex(path, n, h=0.01, comment=None):
    """N cells of radius 1 (48 vertices) in rows of ceil(sqrt N), centre distance 2 + h."""
    d, m = 2 + h, 48
    cols = int(math.ceil(math.sqrt(n)))
    centres = [((c + 0.5 * (r % 2)) * d, r * d * math.sqrt(3) / 2) for r in range(cols) for c in range(cols)][:n]
    with open(path, "w") as f:
        f.write("# %s\nOFF\n%d %d 0\n" % (comment or "%d cells, hexagonal close packing, radius 1, centre distance %g" % (n, d), n * m, n))
        for x, y in centres:
            for k in range(m):
                f.write("%.12g %.12g 1\n" % (x + math.cos(2 * math.pi * k / m), y + math.sin(2 * math.pi * k / m)))
        for i in range(n):
            f.write("%d %s\n" % (m, " ".join(str(i * m + k) for k in range(m))))


def main():
    p = argparse.ArgumentParser(prog="make_hex.py",
                                description="Writes N cells in hexagonal close packing to OUT.off.")
    p.add_argument("n", type=int, metavar="N", help="number of cells")
    p.add_argument("path", metavar="OUT.off", help="file to write")
    p.add_argument("h", type=float, nargs="?", default=0.01,
                   help="gap between neighbouring cells (default %(default)s)")
    a = p.parse_args()
    if a.n < 1:
        p.error("N must be at least 1")
    write_hex(a.path, a.n, a.h)


if __name__ == "__main__":
    main()
