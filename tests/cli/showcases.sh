#!/usr/bin/env bash
# The showcases of scripts/showcase.sh: every parameter header compiles, every showcase builds
# and runs a few steps; the projectiles showcase's particles stay round; and the measured facts
# that the gallery states for four of them (test_scripts_showcase_claims, about 3 minutes;
# alone: tests/cli/showcases.sh claims).
source "$(dirname "$0")/lib.sh"

# Every parameter header compiles with its checks (src/params.c, warnings as errors), and every
# showcase of scripts/showcase.sh --list builds in build/showcase/NAME (the builds run two at a
# time first), makes its input and runs 2 frames of 20 steps with --check into a temporary folder:
# exit status 0, and the last frame holds numbers only, all finite.
test_scripts_showcases_build_and_run() {
    names=$(scripts/showcase.sh --list)
    [ "$(echo "$names" | wc -w)" -ge 10 ] || fail "scripts/showcase.sh --list named: $names"
    headers=0
    for h in params/*.h; do
        gcc -std=c11 -fsyntax-only -Wall -Wextra -Wpedantic -Werror -Isrc -iquote . -DPH_PARAMS_FILE="\"$h\"" src/params.c ||
            fail "$h does not compile"
        headers=$((headers + 1))
    done
    [ $headers -gt "$(echo "$names" | wc -w)" ] || fail "only $headers parameter headers"
    for name in $names; do [ -r "params/$name.h" ] || fail "showcase $name has no params/$name.h"; done
    echo "$names" | xargs -P 2 -I {} make -s --no-print-directory B=build/showcase/{} PARAMS=params/{}.h build/showcase/{}/polyhoop > /dev/null ||
        fail "building the showcases failed"
    for name in $names; do
        scripts/showcase.sh "$name" --out "$D/$name" -- -n 2 -s 20 --check --ascii > "$D/$name.log" 2>&1 ||
            fail "showcase $name exited $?: see $D/$name.log"
        # every number in the <DataArray> elements (the XML comment before them may say "inf"
        # for a parameter such as Amax), and there are some
        awk 'BEGIN { RS = "<DataArray" }
             NR > 1 { from = index($0, ">"); to = index($0, "</DataArray")
                      if (!from || to < from) bad = 1
                      k = split(substr($0, from + 1, to - from - 1), v)
                      for (i = 1; i <= k; i++) if (v[i] !~ /^[-+]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][-+]?[0-9]+)?$/ || v[i] - v[i] != 0) bad = 1
                      numbers += k }
             END { exit bad || !numbers }' "$D/$name/frame000002.vtp" ||
            fail "showcase $name: $D/$name/frame000002.vtp is missing or holds a non-finite value"
    done
}

# The projectiles showcase's particles (cell type 1, params/projectiles.h) stay round through the
# whole run (60 frames, t = 1.5) while they hit the membrane, the wall behind it and one another
# at up to 3 L/T: in every frame each keeps its input area within 3 %, every turn of its hoop
# counter-clockwise (convex), and 4 pi A / L^2 >= 0.90 (the regular octagon's is
# pi / (8 tan(pi/8)) = 0.948; an area 3 % less and a perimeter 1 % longer give 0.948 0.97 / 1.01^2
# = 0.90). With the cell's own parameters (the header before the particles had a type) they lost
# 21 % of their area by frame 1 and were stars from frame 3. The showcase's point holds: some
# particles pass the membrane (passage events, each then inside the cell: nested) and more bounce
# off it (moving back, vx < 0, and outside the cell at the end). Prints the figures.
test_scripts_showcase_projectiles_stay_round() {
    command -v python3 > /dev/null || skip "python3 is not on PATH"
    scripts/showcase.sh projectiles --out "$D/p" -- -j 1 --png-size 100x100 > "$D/p.log" 2>&1 || fail "the showcase failed: see $D/p.log"
    python3 - "$D/p" << 'PY'
import math, sys
sys.path.insert(0, "scripts")
import polyhoop_read as pr
run = pr.Run(sys.argv[1])
f0 = run.frame(0)
parts = {i for i, t in zip(f0.cells["id"], f0.cells["type"]) if t == 1}
area0 = dict(zip(f0.cells["id"], f0.cells["area"]))
bad, worst_a, worst_q, back = [], 0.0, 1.0, set()
for k in range(len(run)):
    f = run.frame(k)
    for p, i in enumerate(f.cells["id"]):
        if i not in parts: continue
        a0, a1 = f.offsets[p], f.offsets[p + 1]
        x, y, n = f.x[a0:a1], f.y[a0:a1], a1 - a0
        A, L = f.cells["area"][p], f.cells["perimeter"][p]
        q = 4 * math.pi * A / L ** 2
        convex = all((x[j] - x[j - 1]) * (y[(j + 1) % n] - y[j]) - (y[j] - y[j - 1]) * (x[(j + 1) % n] - x[j]) > 0 for j in range(n))
        worst_a, worst_q = max(worst_a, abs(A / area0[i] - 1)), min(worst_q, q)
        if abs(A / area0[i] - 1) > 0.03 or q < 0.90 or not convex:
            bad.append("frame %d: particle %d has %.3g of its area, 4 pi A / L^2 = %.3f%s" % (k, i, A / area0[i], q, "" if convex else ", not convex"))
        if sum(v[0] for v in f.points_data["velocity"][a0:a1]) < 0: back.add(i)
ev = run.events()
passed = {int(b.split()[0]) for e, b in zip(ev["event"], ev["before"]) if e == "passage"}
nested = int(run.observables()["nested"][-1])
bounced = back - passed
print("  %d particles: area within %.2f %%, 4 pi A / L^2 >= %.4f; %d passed the membrane (%d nested at the end), %d bounced"
      % (len(parts), 100 * worst_a, worst_q, len(passed), nested, len(bounced)), file=sys.stderr)
if len(parts) != 30: bad.append("%d particles of type 1, not the input's 30" % len(parts))
if not (len(passed) >= 3 and nested == len(passed)): bad.append("%d passages, %d nested" % (len(passed), nested))
if len(bounced) < 10: bad.append("only %d particles bounced" % len(bounced))
for b in bad[:10]:
    print("  " + b, file=sys.stderr)
sys.exit(1 if bad else 0)
PY
}

# hex_packing's interior cells pressed into hexagons (mean shape index L / sqrt(A) at least 3.70,
# a regular hexagon's being 3.72 and a circle's 3.54; six neighbours each), and the emulsion's
# drops fused (at least 20 fusions) into continuous phases, the rising one (phase -1) held for the
# most part by one polygon at the end. Runs both full showcases side by side, one thread each,
# and prints each figure.
test_scripts_showcase_claims() {
    command -v python3 > /dev/null || skip "python3 is not on PATH"
    pids=()
    for name in hex_packing emulsion vesicles; do
        scripts/showcase.sh "$name" --out "$D/$name" -- -j 1 --png-size 200x200 > "$D/$name.log" 2>&1 &
        pids+=($!)
    done
    # (the migration's first 5 of 20 time units: the gallery's distance at t = 5)
    scripts/showcase.sh migration --out "$D/migration" -- -j 1 -n 50 --png-size 100x100 > "$D/migration.log" 2>&1 &
    pids+=($!)
    for pid in "${pids[@]}"; do wait "$pid" || fail "a showcase failed: see $D/*.log"; done
    fusions=$(sed -n 's/^events: .*fusions (type I) \([0-9]*\),.*/\1/p' "$D/emulsion.log")
    python3 - "$D" "${fusions:-0}" << 'PY'
import sys
sys.path.insert(0, "scripts")
import tissue_stats as ts
d, fusions = sys.argv[1], int(sys.argv[2])
def last(name):
    return ts.frame_stats(*ts.frame_files(f"{d}/{name}")[-1], None)
hexs, emu = last("hex_packing"), last("emulsion")
ves = ts.read_frame(ts.frame_files(f"{d}/vesicles")[-1][1])
ves_ap = [ts.area_perimeter(*p) for p, ph in zip(ts.polygons(ves), ves["arrays"]["phase"]) if ph == 1]
ves_si = sorted(L / abs(A) ** 0.5 for A, L in ves_ap)
ves_median = ves_si[len(ves_si) // 2]
def attracted_distance(path):   # the attracted cells' mean distance (of area centroids) from the attractor at the origin
    fr = ts.read_frame(path)
    ds = []
    for (x, y), a in zip(ts.polygons(fr), fr["arrays"]["attracted"]):
        if a:
            A, cx, cy = ts.area_perimeter(x, y)[0], 0.0, 0.0
            for k in range(len(x)):
                w = x[k - 1] * y[k] - x[k] * y[k - 1]
                cx, cy = cx + (x[k] + x[k - 1]) * w, cy + (y[k] + y[k - 1]) * w
            ds.append(((cx / (6 * A)) ** 2 + (cy / (6 * A)) ** 2) ** 0.5)
    return fr["time"], len(ds), sum(ds) / len(ds)
mig = [attracted_distance(f) for _, f in ts.frame_files(f"{d}/migration")[::50]]
si, nb = hexs["interior_shape_index"]["mean"], hexs["interior_neighbors"]["mean"]
rising = emu["phases"]["-1"]["largest_share"]
print(f"  hex_packing: {hexs['cells']} cells, interior shape index {si:.4f}, interior neighbours {nb:.3f}", file=sys.stderr)
print(f"  vesicles: {len(ves_si)} cells at t = {ves['time']:g}, shape index {ves_median:.3f} in the median (a square's 4)", file=sys.stderr)
print(f"  migration: the {mig[-1][1]} attracted cells' mean distance from the centre {mig[0][2]:.2f} at t = {mig[0][0]:g}, {mig[-1][2]:.2f} at t = {mig[-1][0]:g}", file=sys.stderr)
print(f"  emulsion: {fusions} fusions; the rising phase's largest polygon holds {100 * rising:.0f} % of its area", file=sys.stderr)
bad = []
if not si >= 3.70: bad.append(f"hex_packing's interior shape index {si:.4f} < 3.70")
if not nb >= 5.9: bad.append(f"hex_packing's interior neighbours {nb:.3f} < 5.9")
if not (len(ves_si) == 96 and ves["time"] > 4.99 and 3.9 <= ves_median <= 4.1):
    bad.append(f"the vesicles' cells are not rectangles: shape index {ves_median:.3f} in the median, not 3.9-4.1")
if not (len(mig) == 2 and mig[-1][1] == 20 and abs(mig[-1][0] - 5) < 1e-9 and abs(mig[0][2] - 17.14) < 0.01 and 11.6 <= mig[-1][2] <= 12.6):
    bad.append(f"the attracted cells did not approach the centre at about 1 L/T: mean distance {mig[-1][2]:.2f} at t = 5, not 12.1 +- 0.5")
if not fusions >= 20: bad.append(f"the emulsion fused {fusions} times, not 20 or more")
if not rising > 0.5: bad.append(f"the emulsion's rising phase is {100 * rising:.0f} % in one polygon, not most of it")
for b in bad:
    print("  " + b, file=sys.stderr)
sys.exit(1 if bad else 0)
PY
}

# A showcase says what it does while it runs: that it builds, a status line per frame (not the
# banner of every parameter), where the frames and pictures are, and the one fact the run shows;
# every showcase has its fact
test_showcase_progress_and_fact() {
    scripts/showcase.sh emulsion --out "$D/e" -- -j 1 -n 2 -s 50 --png-size 100x100 > "$D/out" 2>&1 || fail "the showcase failed: $(tail -n 3 "$D/out")"
    has "$D/out" "showcase emulsion: building build/showcase/emulsion/polyhoop" "frame      1/2" "frame      2/2" "done: 2 frames" \
        "pictures $D/e/frame*.png (the last: $D/e/frame000002.png)" "  it shows: drops of two phases pass each other"
    lacks "$D/out" "  gamma     ="
    for name in $(scripts/showcase.sh --list); do
        grep -qE "^    $name\) +fact=\"" scripts/showcase.sh || fail "showcase $name has no fact"
    done
}

run_file "$@"
