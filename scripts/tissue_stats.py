#!/usr/bin/env python3
"""Structure of a tissue in the frames of a polyhoop run (Python standard library only).

Usage: tissue_stats.py DIR [--frames SPEC] [--reach R] [--growth] [--json]

For each chosen frame (default: the last) prints the cell count; the distributions (mean, sd,
min, quartiles, max) of the cell area and of the shape index L / sqrt(A) (of all cells and of
interior cells: a regular hexagon has 3.722, a circle 3.545); the neighbour number of all cells
and of interior cells, with their histograms; Spearman's rank correlation between a cell's age and
its distance from the tissue's centre (negative: old cells in the middle, paper Fig. 3); per
phase, the polygon count, total area and the largest polygon's share of it; the number of contact pairs (pairs of
neighbouring cells) and of 4-cell cliques (four cells that are pairwise neighbours). --growth adds
the first frame with at least 2, 4, 8, ... cells (rigid polygons not counted). A frame is named by
the number in its file's name (frameNNNNNN.vtp), also where frames are missing. --json prints all of it as one JSON object.

Neighbours: two cells are neighbours when a vertex of one lies closer than the reach to an edge
of the other. The reach is that of the pair interaction (docs/model.md 2.1), h + sh + ss, or h
when kh = 0, read from the parameters in the frame's leading XML comment; --reach overrides it.
This is the geometric form of the frames' own `neighbors` array. Vertices are matched with edges
through a grid of square cells of side max_edge/2 + reach (edges binned by their midpoints), so
the cost is linear in the number of vertices.

Rigid polygons (the frames' `rigid` array: walls, obstacles) are not cells: they are left out of
every figure, and a cell that touches one is a boundary cell.

Interior cells: those not touching the tissue's free surface or a rigid polygon. The surface is found on a raster
of pixels of side lmax (a parameter: the longest edge remodeling allows): pixels whose centre
lies within lmax of an edge are blocked, which closes the gaps at cell junctions and any hole
narrower than 2 lmax; the rest is flooded from the raster's border. A cell with a vertex within
2.5 lmax of a flooded pixel's centre is a boundary cell; all others are interior.

Frames are VTK XML PolyData as written by src/vtp.c, zlib-compressed binary or ascii (--ascii
runs), read by scripts/polyhoop_read.py: VTK is not needed, nor numpy.
Exit status: 0, or 2 with one line on stderr (no such folder, no frames, a frame that cannot be
read, bad --frames or --reach).
"""
import argparse
import json
import math
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.dont_write_bytecode = True   # (no scripts/__pycache__/ left in the repository)
import polyhoop_read as pr  # noqa: E402

def fail(msg):
    print("tissue_stats: " + " ".join(str(msg).split()), file=sys.stderr)
    sys.exit(2)


class Parser(argparse.ArgumentParser):
    """argparse with its errors on one line (no usage block) and exit status 2."""
    def error(self, message):
        fail(message)


def frame_files(folder):
    """[(index, path)] of the folder's frame%06d.vtp files, by index."""
    try:
        return pr.frame_files(folder)
    except pr.ReadError as e:
        fail(e)


def read_frame(path):
    """Returns dict: params (name -> float), time, arrays (cell arrays: name -> list), polys
    (every polygon's vertex lists (x, y)). Exits with status 2 and one line when the file cannot
    be read or is not a frame."""
    try:
        f = pr.read_frame(path)
    except pr.ReadError as e:
        fail(e)
    x, y, off = pr.tolist(f.x), pr.tolist(f.y), pr.tolist(f.offsets)
    return {"params": f.params, "time": f.time, "arrays": {k: pr.tolist(v) for k, v in f.cells.items()},
            "polys": [(x[a:b], y[a:b]) for a, b in zip(off, off[1:])]}


def polygons(fr):
    return fr["polys"]


def area_perimeter(x, y):
    n, A, L = len(x), 0.0, 0.0
    for k in range(n):
        k1 = k + 1 if k + 1 < n else 0
        A += x[k] * y[k1] - x[k1] * y[k]
        L += math.hypot(x[k1] - x[k], y[k1] - y[k])
    return A / 2, L


def seg_dist2(px, py, ax, ay, bx, by):
    ex, ey, dx, dy = bx - ax, by - ay, px - ax, py - ay
    ee = ex * ex + ey * ey
    t = (dx * ex + dy * ey) / ee if ee > 0 else 0.0
    t = 0.0 if t < 0 else 1.0 if t > 1 else t
    dx -= t * ex
    dy -= t * ey
    return dx * dx + dy * dy


def edge_grid(polys, reach):
    """Edges (polygon, ax, ay, bx, by) binned by their midpoints in square cells of side
    max_edge / 2 + reach: an edge closer than reach to a point has its midpoint in the 3x3 cells
    around the point's cell. Returns (grid, side)."""
    edges, lmax = [], 0.0
    for p, (x, y) in enumerate(polys):
        n = len(x)
        for k in range(n):
            k1 = k + 1 if k + 1 < n else 0
            edges.append((p, x[k], y[k], x[k1], y[k1]))
            lmax = max(lmax, math.hypot(x[k1] - x[k], y[k1] - y[k]))
    side = lmax / 2 + reach
    grid = {}
    for e in edges:
        key = (math.floor((e[1] + e[3]) / 2 / side), math.floor((e[2] + e[4]) / 2 / side))
        grid.setdefault(key, []).append(e)
    return grid, side


def near_edges(grid, side, px, py):
    gx, gy = math.floor(px / side), math.floor(py / side)
    for i in (gx - 1, gx, gx + 1):
        for j in (gy - 1, gy, gy + 1):
            yield from grid.get((i, j), ())


def neighbour_sets(polys, reach):
    """Sets of neighbours per cell: a vertex of one closer than reach to an edge of the other."""
    grid, side = edge_grid(polys, reach)
    nbr = [set() for _ in polys]
    r2 = reach * reach
    for p, (x, y) in enumerate(polys):
        mine = nbr[p]
        for px, py in zip(x, y):
            for q, ax, ay, bx, by in near_edges(grid, side, px, py):
                if q != p and q not in mine and seg_dist2(px, py, ax, ay, bx, by) < r2:
                    mine.add(q)
                    nbr[q].add(p)
    return nbr


def boundary_cells(polys, d):
    """Cells on the free surface. A raster of pixels of side d covers the tissue with a margin;
    a pixel is blocked when its centre lies within d of an edge, which closes every gap or hole
    narrower than 2 d and blocks every 4-connected path into a cell. The outside is flooded
    (4-connected) from the raster's border; a cell touches it when one of its vertices lies
    within 2.5 d of an outside pixel's centre (the nearest such centre to a free flat surface is
    at most (1 + sqrt 2) d away)."""
    xs = [v for x, _ in polys for v in x]
    ys = [v for _, y in polys for v in y]
    x0, y0 = min(xs) - 3 * d, min(ys) - 3 * d
    nx, ny = int((max(xs) + 3 * d - x0) / d) + 1, int((max(ys) + 3 * d - y0) / d) + 1
    blocked = bytearray(nx * ny)
    for x, y in polys:
        n = len(x)
        for k in range(n):
            k1 = k + 1 if k + 1 < n else 0
            ax, ay, bx, by = x[k], y[k], x[k1], y[k1]
            for i in range(max(0, int((min(ax, bx) - d - x0) / d)), min(nx, int((max(ax, bx) + d - x0) / d) + 1)):
                cx = x0 + (i + 0.5) * d
                for j in range(max(0, int((min(ay, by) - d - y0) / d)), min(ny, int((max(ay, by) + d - y0) / d) + 1)):
                    if not blocked[j * nx + i] and seg_dist2(cx, y0 + (j + 0.5) * d, ax, ay, bx, by) < d * d:
                        blocked[j * nx + i] = 1
    outside = bytearray(nx * ny)
    todo = [j * nx + i for j in range(ny) for i in range(nx)
            if (i in (0, nx - 1) or j in (0, ny - 1)) and not blocked[j * nx + i]]
    for c in todo:
        outside[c] = 1
    while todo:
        c = todo.pop()
        i, j = c % nx, c // nx
        for di, dj in ((1, 0), (-1, 0), (0, 1), (0, -1)):
            if 0 <= i + di < nx and 0 <= j + dj < ny:
                m = c + dj * nx + di
                if not outside[m] and not blocked[m]:
                    outside[m] = 1
                    todo.append(m)
    r2 = (2.5 * d) ** 2
    out = [False] * len(polys)
    for p, (x, y) in enumerate(polys):
        for vx, vy in zip(x, y):
            gi, gj = int((vx - x0) / d), int((vy - y0) / d)
            if any(outside[j * nx + i] and (x0 + (i + 0.5) * d - vx) ** 2 + (y0 + (j + 0.5) * d - vy) ** 2 <= r2
                   for i in range(max(0, gi - 3), min(nx, gi + 4)) for j in range(max(0, gj - 3), min(ny, gj + 4))):
                out[p] = True
                break
    return out


def cliques4(nbr):
    count = 0
    for a in range(len(nbr)):
        for b in nbr[a]:
            if b <= a:
                continue
            common = sorted(c for c in nbr[a] & nbr[b] if c > b)
            for i, c in enumerate(common):
                for d in common[i + 1:]:
                    if d in nbr[c]:
                        count += 1
    return count


def summary(values):
    v = sorted(values)
    n = len(v)
    if n == 0:
        return {"count": 0}

    def q(f):   # linear interpolation between order statistics
        pos = f * (n - 1)
        i = int(pos)
        return v[i] + (pos - i) * (v[min(i + 1, n - 1)] - v[i])
    mean = sum(v) / n
    sd = math.sqrt(sum((a - mean) ** 2 for a in v) / (n - 1)) if n > 1 else 0.0
    return {"count": n, "mean": mean, "sd": sd, "min": v[0], "q25": q(0.25), "median": q(0.5),
            "q75": q(0.75), "max": v[-1]}


def histogram(values):
    h = {}
    for v in values:
        h[v] = h.get(v, 0) + 1
    return {str(k): h[k] for k in sorted(h)}


def frame_stats(index, path, reach_override):
    fr = read_frame(path)
    P = fr["params"]
    if reach_override is not None:
        reach = reach_override
    elif "h" in P:
        reach = P["h"] + P.get("sh", 0) + P.get("ss", 0) if P.get("kh", 0) > 0 else P["h"]
    else:
        fail(f"{path}: no parameters in the XML comment; give --reach")
    if not (math.isfinite(reach) and reach > 0):
        fail(f"{path}: its parameters give a reach of {reach!r}; give --reach")
    polys = polygons(fr)
    rigid = fr["arrays"].get("rigid", [0] * len(polys))
    nbr = neighbour_sets(polys, reach)
    edge = boundary_cells(polys, P.get("lmax", 0.2)) if polys else []
    # rigid polygons (walls, obstacles) are not cells: left out of every figure, and a cell that
    # touches one is a boundary cell
    cells = [p for p in range(len(polys)) if not rigid[p]]
    index_of = {p: i for i, p in enumerate(cells)}
    edge = [edge[p] or any(rigid[q] for q in nbr[p]) for p in cells]
    nbr = [{index_of[q] for q in nbr[p] if not rigid[q]} for p in cells]
    ap = [area_perimeter(*polys[p]) for p in cells]
    deg = [len(s) for s in nbr]
    inner = [d for d, b in zip(deg, edge) if not b]
    shape = [L / math.sqrt(A) if A > 0 else None for A, L in ap]
    return {
        "frame": index, "file": path, "time": fr["time"], "cells": len(cells), "rigid": len(polys) - len(cells),
        "reach": reach,
        "area": summary([A for A, _ in ap]),
        "shape_index": summary([v for v in shape if v is not None]),
        "interior_shape_index": summary([v for v, b in zip(shape, edge) if v is not None and not b]),
        "neighbors": dict(summary(deg), histogram=histogram(deg)),
        "interior_neighbors": dict(summary(inner), histogram=histogram(inner)),
        "boundary_cells": sum(edge),
        "contact_pairs": sum(deg) // 2,
        "cliques4": cliques4(nbr),
        "age_distance_rank_correlation": age_gradient(polys, cells, fr["arrays"]["age"]) if "age" in fr["arrays"] else None,
        "phases": phases([A for A, _ in ap], [fr["arrays"]["phase"][p] for p in cells]) if "phase" in fr["arrays"] else {},
    }


def phases(area, phase):
    """Per phase: the polygons, their total area and the largest one's share of it (a phase that
    has fused into one continuous region has a share near 1)."""
    out = {}
    for v in sorted(set(phase)):
        a = [A for A, f in zip(area, phase) if f == v]
        out[str(v)] = {"polygons": len(a), "area": sum(a), "largest": max(a),
                       "largest_share": max(a) / sum(a) if sum(a) > 0 else None}
    return out


def pearson(u, v):
    n = len(u)
    if n < 3:
        return None
    mu, mv = sum(u) / n, sum(v) / n
    suv = sum((a - mu) * (b - mv) for a, b in zip(u, v))
    suu, svv = sum((a - mu) ** 2 for a in u), sum((b - mv) ** 2 for b in v)
    return suv / math.sqrt(suu * svv) if suu > 0 and svv > 0 else None


def ranks(v):
    order = sorted(range(len(v)), key=lambda i: v[i])
    r = [0.0] * len(v)
    i = 0
    while i < len(v):   # ties share their mean rank
        j = i
        while j + 1 < len(v) and v[order[j + 1]] == v[order[i]]:
            j += 1
        for k in range(i, j + 1):
            r[order[k]] = (i + j) / 2
        i = j + 1
    return r


def age_gradient(polys, cells, age):
    """Spearman's rank correlation between a cell's age and the distance of its centroid (vertex
    mean) from the tissue's centre (the mean of the cells' centroids): negative when the old cells
    are in the middle (paper Fig. 3)."""
    c = [(sum(polys[p][0]) / len(polys[p][0]), sum(polys[p][1]) / len(polys[p][1])) for p in cells]
    if len(c) < 3:
        return None
    mx, my = sum(x for x, _ in c) / len(c), sum(y for _, y in c) / len(c)
    dist = [math.hypot(x - mx, y - my) for x, y in c]
    return pearson(ranks([age[p] for p in cells]), ranks(dist))


def growth(files):
    """First frame with at least 2^k cells, from the frames' headers: the polygons less the rigid
    ones (the Nr of the leading comment's parameters; without it, the frame's `rigid` array)."""
    first = {}
    for index, path in files:
        try:
            with open(path, "rb") as f:
                head = f.read(1 << 16)
        except OSError as e:
            fail(f"cannot read {path}: {e.strerror or e}")
        m = re.search(rb'NumberOfPolys="(\d+)"', head)
        if not m:
            continue
        params, _ = pr._comment(head[:m.start()].decode("utf-8", "replace"))
        if "Nr" in params:
            rigid = int(params["Nr"])
        else:
            rigid = sum(1 for r in read_frame(path)["arrays"].get("rigid", []) if r)
        n, k = int(m.group(1)) - rigid, 2
        while k <= n:
            first.setdefault(str(k), index)
            k *= 2
    return first


def choose(files, spec):
    """The frames (number, path) of files that --frames spec names: N is the frame numbered N (the
    file frameN.vtp), -N the N-th from the end of those there are, A:B the frames numbered A to B
    that there are."""
    if spec is None:
        return files[-1:]
    chosen = set()
    numbers = [i for i, _ in files]
    there = f"(the frames there are: {pr.number_ranges(numbers)})"
    for part in spec.split(","):
        part = part.strip()
        m = re.fullmatch(r"(-?\d+)(?::(-?\d+))?", part)
        if not m:
            fail(f"--frames: '{part}' is not N, -N or A:B")
        a = int(m.group(1))
        b = int(m.group(2)) if m.group(2) is not None else a
        if min(a, b) < -len(numbers):
            fail(f"--frames {spec}: there are only {len(numbers)} frames to count back {-min(a, b)} {there}")
        a, b = (numbers[a] if a < 0 else a), (numbers[b] if b < 0 else b)
        chosen.update(range(a, b + 1))
    picked = [f for f in files if f[0] in chosen]
    if not picked:
        fail(f"--frames {spec}: no such frame {there}")
    return picked


def fmt(s):
    if s.get("count", 0) == 0:
        return "n=0"
    return ("mean %.4g sd %.4g | min %.4g q25 %.4g median %.4g q75 %.4g max %.4g"
            % (s["mean"], s["sd"], s["min"], s["q25"], s["median"], s["q75"], s["max"]))


def main():
    ap = Parser(description=__doc__.split("\n\nFrames are")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("dir", help="the run's output folder (frame*.vtp)")
    ap.add_argument("--frames", help="frames to analyse: N (the file frameN.vtp), -N (the N-th from the end: -1 is "
                                     "the last), A:B, comma-separated; default: the last")
    ap.add_argument("--reach", type=float, help="neighbour distance (default h + sh + ss from the frame, h if kh = 0)")
    ap.add_argument("--growth", action="store_true", help="also the first frame with at least 2, 4, 8, ... cells")
    ap.add_argument("--json", action="store_true", help="print one JSON object instead of text")
    args = ap.parse_args()
    if args.reach is not None and not (math.isfinite(args.reach) and args.reach > 0):
        fail(f"--reach must be a finite distance > 0, got {args.reach!r}")
    if not os.path.isdir(args.dir):
        fail(f"{args.dir}: not a folder")
    files = frame_files(args.dir)
    if not files:
        fail(f"{args.dir}: no frame*.vtp")
    out = {"dir": args.dir, "frames": [frame_stats(i, p, args.reach) for i, p in choose(files, args.frames)]}
    if args.growth:
        out["growth"] = growth(files)
    if args.json:
        print(json.dumps(out, indent=1))
        return
    for s in out["frames"]:
        walls = f", {s['rigid']} rigid polygons left out" if s["rigid"] else ""
        print(f"frame {s['frame']}  t = {s['time']:.6g}  cells {s['cells']}  (reach {s['reach']:.6g}{walls})")
        print(f"  area            {fmt(s['area'])}")
        print(f"  shape index     {fmt(s['shape_index'])}")
        print(f"  interior        {fmt(s['interior_shape_index'])}")
        for key, label in (("neighbors", "neighbours"), ("interior_neighbors", "interior")):
            h = " ".join(f"{k}:{v}" for k, v in s[key].get("histogram", {}).items())
            print(f"  {label:15s} {fmt(s[key])}")
            print(f"  {'':15s} n={s[key]['count']}  histogram {h}")
        print(f"  boundary cells {s['boundary_cells']}  contact pairs {s['contact_pairs']}  4-cell cliques {s['cliques4']}")
        for v, q in s["phases"].items():
            share = "" if q["largest_share"] is None else f" ({100 * q['largest_share']:.0f} %)"
            print(f"  phase {v:>2}: {q['polygons']} polygons, area {q['area']:.4g}, the largest {q['largest']:.4g}{share}")
        if s["age_distance_rank_correlation"] is not None:
            print(f"  age against distance from the centre: rank correlation {s['age_distance_rank_correlation']:.3f}")
    if args.growth:
        print("first frame with N cells: " + "  ".join(f"{k}:{v}" for k, v in out["growth"].items()))


if __name__ == "__main__":
    pr.run_quietly_into_a_pipe(main)
