#!/usr/bin/env python3
"""Writes the initial configurations of the paper's showcases as GeomView OFF files (counter-
clockwise polygons whose edges do not cross): Fig. 2C (vesicles), 2D (floppy), 2E (rubber_bands),
2F (foam), 2G (emulsion), 2H (hourglass) and 4C/D (hex_packing); a jet of projectiles shot
at a cell (projectiles, with its velocity file projectiles.vel; --speed sets the jet's speed);
and the chemistry's tissues, cell types in z = 2 type + phase bit (docs/model.md 11): gradient
(a strip with a source column), chemotaxis (free cells in a row), sorting (two types mixed at
random) and turing (a square of small cells).
Deterministic (fixed seed): run it again to get the same files.
    scripts/make_inputs.py                       # the three kept in inputs/, overwriting them
    scripts/make_inputs.py --dir /tmp/x emulsion # only the emulsion, into /tmp/x
    scripts/make_inputs.py --size 40 --seed 5 --dir /tmp/x foam   # 40 bubbles, another draw
Rigid obstacles come first in each file (their number is Nr in the matching params/ header). The
larger inputs (vesicles, floppy, rubber_bands, hex_packing, and those of the chemistry) are not
kept in inputs/:
scripts/showcase.sh writes them into the showcase's build folder."""
import argparse
import math
import os
import random
import sys

sys.dont_write_bytecode = True   # (the scenes import make_tissue and make_hex: no scripts/__pycache__/ left)


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

def box(x0, y0, x1, y1, t):
    """The 4 walls, t thick, of a closed box whose inside is [x0, x1] x [y0, y1]: floor, lid,
    left, right (counter-clockwise rectangles)."""
    return [[(x0 - t, y0 - t), (x1 + t, y0 - t), (x1 + t, y0), (x0 - t, y0)],    # floor
            [(x0 - t, y1), (x1 + t, y1), (x1 + t, y1 + t), (x0 - t, y1 + t)],    # lid
            [(x0 - t, y0), (x0, y0), (x0, y1), (x0 - t, y1)],                    # left
            [(x1, y0), (x1 + t, y0), (x1 + t, y1), (x1, y1)]]                    # right

def emulsion(path, size=90, seed=4):
    """Fig. 2G: drops of two phases (z = 1 heavy, z = 0 light), radii uniform in [0.25, 0.5],
    packed densely in a closed rigid box of side 6: `size` radii are drawn and placed largest
    first, each at the first of 3000 random spots where it keeps 0.015 from the others and the
    walls (those that find none are left out: about 42 of 90 fit, two thirds of the box). The
    light drops start in the lower half and the heavy ones in the upper half, so that every drop
    has to pass the other phase's; a fifth of the drops hold a drop of the other phase. Dense,
    large and crossing, the drops fuse into two continuous phases, the light one under the lid
    (make showcase NAME=emulsion)."""
    rnd = random.Random(seed)
    L, t, sp, gap = 3.0, 0.1, 0.02, 0.015
    polys = [(subdivide(w, 0.03), 0) for w in box(-L, -L, L, L, t)]
    drops = []
    for r in sorted((rnd.uniform(0.25, 0.5) for _ in range(size)), reverse=True):
        for _ in range(3000):
            x, y = rnd.uniform(-L + r + gap, L - r - gap), rnd.uniform(-L + r + gap, L - r - gap)
            if all(math.hypot(x - a, y - b) > r + c + gap for a, b, c in drops):
                drops.append((x, y, r))
                break
    for x, y, r in drops:
        z = 0 if y < 0 else 1
        polys.append((circle(x, y, r, sp, rnd.uniform(0, 2 * math.pi)), z))
        if rnd.random() < 0.2:
            polys.append((circle(x + 0.25 * r, y, 0.4 * r, sp), 1 - z))
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
    """Fig. 2H: about 1,000 soft particles of radius 0.75 in the upper bulb of a rigid hourglass
    (two curved walls and a floor). The walls' inner faces are the curves x = -w(y) and x = w(y)
    with the half-width w(y) = 3.75 + 29.5 sin(pi |y| / 60), |y| <= 60: two round bulbs 66.5
    wide joined by a neck 7.5 wide, five particles across. (Laplace's law with the line tension of
    params/hourglass.h leaves a free particle of radius 0.75 about 92 % of its area; one of
    radius 0.35 was crushed, and all were removed within 3,000 steps.)
    The particles sit on a hexagonal lattice of spacing 1.6 wherever they keep 0.15 from the walls
    (size and seed are not used)."""
    H, neck, bulb, outer = 60.0, 3.75, 33.25, 35.5
    w = lambda y: neck + (bulb - neck) * math.sin(math.pi * abs(y) / H)
    ys = [-H + 0.5 * k for k in range(int(2 * H / 0.5) + 1)]
    left = [(-outer, -H)] + [(-w(y), y) for y in ys] + [(-outer, H)]
    right = [(outer, -H), (outer, H)] + [(w(y), y) for y in reversed(ys)]
    floor = [(-outer, -H - 1), (outer, -H - 1), (outer, -H), (-outer, -H)]
    polys = [(subdivide(left, 0.2), 0), (subdivide(right, 0.2), 0), (subdivide(floor, 0.2), 0)]
    r, gap = 0.75, 1.6
    y, row = 3.0, 0
    while y < H - r - 0.15:
        for k in range(-30, 31):    # a hexagonal lattice, clipped to the inside of the walls
            x = k * gap + (gap / 2 if row % 2 else 0)
            if all(abs(x) + r + 0.15 < w(y + dy) for dy in (-r, -r / 2, 0, r / 2, r)):
                polys.append((circle(x, y, r, 0.2, 0.3 * row), 1))
        y += gap * math.sqrt(3) / 2
        row += 1
    write_off(path, polys, "hourglass (paper Fig. 2H): 2 curved rigid walls and a floor (Nr = 3), %d soft particles "
              "in the upper bulb" % (len(polys) - 3))

def arc(cx, cy, r, t0, t1, spacing):
    """Points on the arc of radius r from angle t0 to t1 (both ends included), at most spacing apart."""
    n = max(1, int(math.ceil(abs(t1 - t0) * r / spacing)))
    return [(cx + r * math.cos(t0 + (t1 - t0) * j / n), cy + r * math.sin(t0 + (t1 - t0) * j / n)) for j in range(n + 1)]

def rounded_rectangle(w, d, c, spacing):
    """The boundary of a w x d rectangle centred on the origin with corners rounded to radius c,
    counter-clockwise, points at most spacing apart."""
    pts = []
    for cx, cy, t0 in ((w / 2 - c, -d / 2 + c, -math.pi / 2), (w / 2 - c, d / 2 - c, 0.0),
                       (-w / 2 + c, d / 2 - c, math.pi / 2), (-w / 2 + c, -d / 2 + c, math.pi)):
        pts += arc(cx, cy, c, t0, t0 + math.pi / 2, spacing)
    return subdivide(pts, spacing)

def vesicles(path, size=6, seed=4):
    """Fig. 2C: `size` epithelial vesicles, each a monolayer ring of 16 cells (z = 1) around a
    lumen of radius 1.6 to 2.4 (z = 0, the other phase, so --png-color phase tells them apart),
    in a cluster where each vesicle was placed 0.02 from one before it (within the adhesion
    reach): 17 size polygons. The cells are rectangles 1 deep and about 1 wide with rounded
    corners, bent onto the ring, 0.01 (= h) apart from each other and from the lumen."""
    rnd = random.Random(seed)
    g, depth, ncell, sp, gap, corner = 0.01, 1.0, 16, 0.1, 0.02, 0.15
    placed = []                                     # (x, y, lumen radius, outer radius)
    for _ in range(size):
        rl = rnd.uniform(1.6, 2.4)
        ro = rl + g + depth
        best = None
        for _ in range(400 if placed else 1):
            if placed:
                x0, y0, _, r0 = placed[rnd.randrange(len(placed))]
                t = rnd.uniform(0, 2 * math.pi)
                x, y = x0 + (r0 + ro + gap) * math.cos(t), y0 + (r0 + ro + gap) * math.sin(t)
                if any(math.hypot(x - a, y - b) < c + ro + gap - 1e-9 for a, b, _, c in placed):
                    continue
            else:
                x, y = 0.0, 0.0
            if best is None or math.hypot(x, y) < math.hypot(best[0], best[1]):
                best = (x, y)
        placed.append((best[0], best[1], rl, ro))
    polys = []
    for x, y, rl, ro in placed:
        phi0 = rnd.uniform(0, 2 * math.pi)
        polys.append((circle(x, y, rl, sp, phi0), 0))
        ri, rm = rl + g, rl + g + depth / 2
        for k in range(ncell):
            # a rectangle with rounded corners in (arclength at the mid radius, radius), bent
            # onto the ring; sides g / 2 off the radial lines at the inner radius
            w = 2 * math.pi * rm / ncell - g * rm / ri
            tc = phi0 + 2 * math.pi * (k + 0.5) / ncell
            cell = [(x + (rm + v) * math.cos(tc + u / rm), y + (rm + v) * math.sin(tc + u / rm))
                    for u, v in reversed(rounded_rectangle(w, depth, corner, sp))]   # (u, v) -> (angle, r) mirrors
            polys.append((cell, 1))
    write_off(path, polys, "vesicles (paper Fig. 2C): %d rings of %d cells around lumens (seed %d)" % (size, ncell, seed))

def floppy(path, size=60, seed=5):
    """Fig. 2D: `size` polydisperse particles close-packed in a square (mean area 1): the Voronoi
    cells of random seeds at least 0.6 apart, each shrunk by 0.015 all round (neighbours 0.03
    apart, just beyond the thickness h = 0.02), with edges of at most 0.04. Their target
    perimeter (Q = 3) is far longer than their boundary, which folds."""
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    import make_tissue as mt
    rnd = random.Random(seed)
    W = math.sqrt(size) / 2
    seeds, tries = [], 0
    while len(seeds) < size:
        tries += 1
        if tries > 1000000:
            sys.exit("make_inputs.py: floppy: could not place %d particles" % size)
        x, y = rnd.uniform(-W, W), rnd.uniform(-W, W)
        if all((x - a) ** 2 + (y - b) ** 2 > 0.6 ** 2 for a, b in seeds):
            seeds.append((x, y))
    polys = []
    for k, (x, y) in enumerate(seeds):
        cell = [(-W, -W), (W, -W), (W, W), (-W, W)]
        for m, (ox, oy) in enumerate(seeds):
            if m != k and (ox - x) ** 2 + (oy - y) ** 2 < 9.0:
                cell = mt.clip(cell, ox - x, oy - y, 0.5 * ((ox * ox + oy * oy) - (x * x + y * y)))
        polys.append((mt.refine(mt.shrink(cell, 0.015), 0.04), 1))
    write_off(path, polys, "floppy particles (paper Fig. 2D): %d close-packed polydisperse particles (seed %d)" % (size, seed))

def rubber_bands(path, size=100, seed=6):
    """Fig. 2E: `size` elastic rings (radius 0.5, +-5 %) piled up in columns of ceil(sqrt(size))
    in an open rigid box (floor and two walls, Nr = 3), at least 0.12 apart (h = 0.05), each ring
    jittered sideways so that the piles do not stay symmetric as they fall and pack."""
    rnd = random.Random(seed)
    cols = int(math.ceil(math.sqrt(size)))
    rows = int(math.ceil(size / cols))
    pitch, t = 1.25, 0.2
    W = cols * pitch / 2 + 0.1
    H = rows * pitch + 1.0
    polys = [(subdivide(w, 0.04), 1) for w in
             ([(-W - t, -t), (W + t, -t), (W + t, 0), (-W - t, 0)],        # floor
              [(-W - t, 0), (-W, 0), (-W, H), (-W - t, H)],                # left
              [(W, 0), (W + t, 0), (W + t, H), (W, H)])]                   # right
    for k in range(size):
        c, r = k % cols, k // cols
        x = -W + 0.1 + (c + 0.5) * pitch + rnd.uniform(-0.04, 0.04)
        y = 0.2 + (r + 0.5) * pitch
        polys.append((circle(x, y, 0.5 * rnd.uniform(0.95, 1.05), 0.03, rnd.uniform(0, 2 * math.pi)), 1))
    write_off(path, polys, "rubber bands (paper Fig. 2E): floor and 2 walls (Nr = 3), %d rings in %d piles (seed %d)" % (size, cols, seed))

def hex_packing(path, size=400, seed=None):
    """Fig. 4C/D: `size` cells of radius 1 (48 vertices) in hexagonal close packing, 0.01 (= h)
    apart (scripts/make_hex.py), in a rigid box of 4 walls h from the outermost cells, so that
    the cells, growing past the lattice cell's area, press one another into hexagons (nothing is
    random, so seed is not used)."""
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    import make_hex
    h, t = 0.01, 0.3
    cells = make_hex.hex_cells(size, h)
    xs = [x for pts in cells for x, _ in pts]
    ys = [y for pts in cells for _, y in pts]
    x0, x1, y0, y1 = min(xs) - h, max(xs) + h, min(ys) - h, max(ys) + h
    polys = [(subdivide(w, 0.2), 0) for w in box(x0, y0, x1, y1, t)] + [(pts, 1) for pts in cells]
    write_off(path, polys, "hexagonal packing (paper Fig. 4C/D): 4 rigid walls (Nr = 4) around %d cells of radius 1, "
              "centre distance 2 + h" % size)

def projectiles(path, size=30, seed=8, speed=2.5):
    """After Campello & Zohdi 2014 (particle bombardment): a cell of radius 1 (the membrane: its
    hoop) at the origin, a rigid wall behind it, and a jet of `size` particles of radius 0.04
    (octagons) in a 0.9 by 0.6 rectangle in front of it, shot along +x at speeds drawn uniformly
    within 20 % of `speed` [L/T]; the velocities go into the velocity file NAME.vel beside it.
    The wall and the cell are of cell type 0 (z = 1), the particles of type 1 (z = 2 type + phase
    bit = 3), whose stiff parameters params/projectiles.h gives."""
    rnd = random.Random(seed)
    wall = subdivide([(1.1, -1.3), (1.25, -1.3), (1.25, 1.3), (1.1, 1.3)], 0.05)
    polys = [(wall, 1), (circle(0.0, 0.0, 1.0, 0.04), 1)]
    r, parts, tries = 0.04, [], 0
    while len(parts) < size and tries < 100000:
        tries += 1
        x, y = rnd.uniform(-2.0, -1.1), rnd.uniform(-0.3, 0.3)
        if math.hypot(x, y) > 1 + r + 0.04 and all(math.hypot(x - a, y - b) > 2 * r + 0.03 for a, b in parts):
            parts.append((x, y))
    if len(parts) < size:
        sys.exit("make_inputs.py: projectiles: only %d particles fit in the jet, not %d" % (len(parts), size))
    polys += [(circle(x, y, r, 0.04, rnd.uniform(0, math.pi / 4)), 3) for x, y in parts]
    write_off(path, polys, "projectiles (after Campello & Zohdi 2014): a wall, a cell of radius 1 and "
              "a jet of %d particles (cell type 1) at %g L/T +- 20 %% (velocities: %s)" % (size, speed, os.path.basename(path[:-4] + ".vel")))
    with open(path[:-4] + ".vel", "w") as f:
        f.write("# polygon vx vy: the particles of %s, written by scripts/make_inputs.py\n" % os.path.basename(path))
        for k in range(len(parts)):
            f.write("%d %.9g 0\n" % (k + 2, speed * rnd.uniform(0.8, 1.2)))

def gradient(path, size=24, seed=None):
    """A morphogen gradient (params/gradient.h): `size` columns of 6 cells of radius 0.5 (32
    vertices) in hexagonal close packing, h = 0.01 apart; the first column is the source, cell
    type 1 (z = 2 type + 1: phase +1), the others type 0 (nothing is random)."""
    r, h = 0.5, 0.01
    d = 2 * r + h
    polys = []
    for j in range(6):
        for i in range(size):
            cx, cy = i * d + (d / 2 if j % 2 else 0), j * d * math.sqrt(3) / 2
            polys.append((circle(cx, cy, r, 0.1), 3 if i == 0 else 1))
    write_off(path, polys, "a morphogen gradient: %d x 6 cells of radius 0.5, the first column of type 1 (the source)" % size)

def chemotaxis(path, size=12, seed=None):
    """Chemotaxis (params/chemotaxis.h): `size` cells of radius 0.5 (32 vertices) on a grid of
    2 by 2 L, from x = 5 and y = 1.5, far enough apart not to touch (nothing is random)."""
    polys = [(circle(5 + 2 * (k // 2), 1.5 + 3 * (k % 2), 0.5, 0.1), 1) for k in range(size)]
    write_off(path, polys, "chemotaxis: %d cells of radius 0.5, 1 L apart or more" % size)

def sorting(path, size=120, seed=11):
    """Cell sorting (params/sorting.h): `size` cells of radius 0.5 (32 vertices) in hexagonal
    packing, rows of 12, 0.1 apart, of two types drawn at random in equal numbers (z = 1: type 0,
    z = 3: type 1), in a rigid box 0.3 from the outermost cells (4 walls first: Nr = 4)."""
    rnd = random.Random(seed)
    r, gap, cols = 0.5, 0.1, 12
    d = 2 * r + gap
    rows = (size + cols - 1) // cols
    types = [k % 2 for k in range(size)]
    rnd.shuffle(types)
    cells = []
    for k in range(size):
        i, j = k % cols, k // cols
        cells.append((circle(i * d + (d / 2 if j % 2 else 0), j * d * math.sqrt(3) / 2, r, 0.1), 1 + 2 * types[k]))
    x0, y0 = -r - 0.3, -r - 0.3
    x1, y1 = (cols - 1) * d + d / 2 + r + 0.3, (rows - 1) * d * math.sqrt(3) / 2 + r + 0.3
    walls = [(subdivide(w, 0.2), 1) for w in box(x0, y0, x1, y1, 0.3)]
    write_off(path, walls + cells, "cell sorting: 4 rigid walls (Nr = 4) around %d cells of radius 0.5, two types at random" % size)

def turing(path, size=None, seed=None):
    """A Turing pattern (params/turing.h): 621 cells of radius 0.25 (13 vertices) in hexagonal
    close packing, h = 0.01 apart, covering the chemistry's square [0, 12] x [0, 12]: 27 rows of
    23 (nothing is random, so size and seed are not used)."""
    r, h, L = 0.25, 0.01, 12.0
    d = 2 * r + h
    polys, j = [], 0
    while r + j * d * math.sqrt(3) / 2 <= L - r:
        i = 0
        while r + i * d + (d / 2 if j % 2 else 0) <= L - r:
            polys.append((circle(r + i * d + (d / 2 if j % 2 else 0), r + j * d * math.sqrt(3) / 2, r, 0.13), 1))
            i += 1
        j += 1
    write_off(path, polys, "a Turing pattern: %d cells of radius 0.25 covering [0, 12] x [0, 12]" % len(polys))

KEPT = ("emulsion", "foam", "hourglass")    # the inputs kept in the repository's inputs/
SCENES = {"chemotaxis": chemotaxis, "emulsion": emulsion, "sorting": sorting, "floppy": floppy, "foam": foam, "gradient": gradient, "hex_packing": hex_packing,
          "hourglass": hourglass, "projectiles": projectiles, "rubber_bands": rubber_bands, "turing": turing, "vesicles": vesicles}


class Parser(argparse.ArgumentParser):
    """argparse with its errors on one line (no usage block) and exit status 2."""
    def error(self, message):
        sys.stderr.write("%s: %s\n" % (self.prog, " ".join(str(message).split())))
        sys.exit(2)


def main():
    top = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "inputs"))
    p = Parser(
        prog="make_inputs.py",
        description="Writes the showcase inputs NAME.off (default: %s into the repository's "
                    "inputs/, overwriting the files there). -h writes nothing." % ", ".join(KEPT))
    p.add_argument("names", nargs="*", metavar="NAME",
                   help="which inputs to write: %s (default: %s)" % (", ".join(sorted(SCENES)), ", ".join(KEPT)))
    p.add_argument("--dir", default=top, help="folder to write into (default: %(default)s)")
    p.add_argument("--size", type=int, help="number of drops, bubbles, vesicles, particles, rings or cells "
                   "(default: the scene's; the hourglass has none)")
    p.add_argument("--seed", type=int, help="random seed (default: the scene's, which made the files in inputs/)")
    p.add_argument("--speed", type=float, help="projectiles only: the jet's mean speed in L/T, finite and > 0 "
                   "(default 2.5)")
    a = p.parse_args()
    if a.size is not None and a.size < 1:
        p.error("--size must be at least 1")
    if a.speed is not None and not (math.isfinite(1.2 * a.speed) and a.speed > 0):   # (speeds up to 1.2 times it)
        p.error("--speed %r: the jet's mean speed must be a finite number > 0 (L/T)" % a.speed)
    if a.speed is not None and a.names != ["projectiles"]:
        p.error("--speed goes with the projectiles alone (make_inputs.py --speed V projectiles)")
    for name in a.names:
        if name not in SCENES:
            p.error("unknown input %r (choose from %s)" % (name, ", ".join(sorted(SCENES))))
    if os.path.exists(a.dir) and not os.path.isdir(a.dir):
        p.error("--dir %s is not a folder" % a.dir)
    try:
        os.makedirs(a.dir, exist_ok=True)   # (a missing folder is made, as polyhoop's -o makes it)
    except OSError as err:
        p.error("--dir %s: cannot make the folder: %s" % (a.dir, err.strerror or err))
    for name in a.names or KEPT:
        path = os.path.join(a.dir, name + ".off")
        kw = {k: v for k, v in (("size", a.size), ("seed", a.seed), ("speed", a.speed)) if v is not None}
        SCENES[name](path, **kw)
        print("wrote %s" % path)


if __name__ == "__main__":
    main()
