#!/usr/bin/env python3
"""Writes a hexagonal close packing of N cells (48-vertex circles of radius 1, centre distance
2 + h, in adhesive contact) as an OFF file: the benchmark of the paper (section 5) and of make bench.
    python3 scripts/make_hex.py N out.off [h]"""
import math, sys

def main():
    n, path = int(sys.argv[1]), sys.argv[2]
    h = float(sys.argv[3]) if len(sys.argv) > 3 else 0.01
    d, m = 2 + h, 48
    cols = int(math.ceil(math.sqrt(n)))
    centres = [((c + 0.5 * (r % 2)) * d, r * d * math.sqrt(3) / 2) for r in range(cols) for c in range(cols)][:n]
    with open(path, "w") as f:
        f.write("# %d cells, hexagonal close packing, radius 1, centre distance %g\nOFF\n%d %d 0\n" % (n, d, n * m, n))
        for x, y in centres:
            for k in range(m):
                f.write("%.12g %.12g 1\n" % (x + math.cos(2 * math.pi * k / m), y + math.sin(2 * math.pi * k / m)))
        for i in range(n):
            f.write("%d %s\n" % (m, " ".join(str(i * m + k) for k in range(m))))

if __name__ == "__main__":
    main()
