#!/usr/bin/env bash
# scripts/paraview_view.py in ParaView: a phase -1 drop of the emulsion nested inside a phase +1
# drop is drawn over the drop around it, not hidden by it (the pixels of the picture, read with
# tests/png_probe.py). Skipped, with the install line, where ParaView or Xvfb is missing; Debian's
# ParaView renders through X, so headless it runs under xvfb-run.
source "$(dirname "$0")/lib.sh"

PARAVIEW_INSTALL="apt-get install -y paraview python3-paraview xvfb"

test_scripts_paraview_nested_drop_on_top() {
    have_xvfb=0
    command -v xvfb-run > /dev/null 2>&1 && have_xvfb=1
    if ! command -v pvbatch > /dev/null 2>&1 || { [ $have_xvfb = 0 ] && [ -z "${DISPLAY:-}" ]; }; then
        skip "needs ParaView and Xvfb: $PARAVIEW_INSTALL"
    fi
    [ -e src ] && [ -e polyhoop.c ] || skip "needs the source tree (builds the emulsion program)"

    # The drops of inputs/emulsion.off (after its Nr = 4 walls) as centroid (vertex mean), mean
    # radius and phase; the nested pair, a phase -1 drop inside a phase +1 drop (the one a view
    # from +z hid), and a free drop of either phase as the colour references; the view, the box
    # around every drop; and the pixels (x to the right, y down) where paraview_view.py --view
    # draws the inner drop's centre, the outer drop's ring on the side away from the inner drop
    # and the free drops' centres: its fit_camera, a parallel camera with a 5 % margin and the
    # right 15 % of the picture kept for the colour bar.
    W=800 H=600
    /usr/bin/python3 - inputs/emulsion.off $W $H > "$D/points" << 'PY'
import math, sys
W, H = int(sys.argv[2]), int(sys.argv[3])
rows = [r for r in (line.split("#")[0].split() for line in open(sys.argv[1])) if r and r[0] != "OFF"]
nv, n = int(rows[0][0]), int(rows[0][1])
v = [(float(r[0]), float(r[1]), int(r[2])) for r in rows[1:1 + nv]]
drops = []
for r in rows[1 + nv:1 + nv + n]:
    p = [v[int(i)] for i in r[1:]]
    cx, cy = sum(q[0] for q in p) / len(p), sum(q[1] for q in p) / len(p)
    drops.append((cx, cy, sum(math.hypot(q[0] - cx, q[1] - cy) for q in p) / len(p), 1 if p[0][2] % 2 else -1))
drops = drops[4:]
def inside(a, b):
    return a is not b and a[2] < b[2] and math.hypot(a[0] - b[0], a[1] - b[1]) + a[2] < b[2]
pair, ref = None, {}
for a in drops:
    pair = pair or next(((a, b) for b in drops if a[3] == -1 and b[3] == 1 and inside(a, b)), None)
    if not any(inside(a, b) or inside(b, a) for b in drops):
        ref.setdefault(a[3], a)
if not pair or len(ref) < 2:
    print("  inputs/emulsion.off has no phase -1 drop nested in a phase +1 drop", file=sys.stderr)
    sys.exit(1)
(inner, outer) = pair
view = [min(d[0] - d[2] for d in drops), min(d[1] - d[2] for d in drops), max(d[0] + d[2] for d in drops), max(d[1] + d[2] for d in drops)]
ux, uy = inner[0] - outer[0], inner[1] - outer[1]
u = math.hypot(ux, uy)
if u < 1e-9:
    ux, uy, u = 1, 0, 1
ring = 0.5 * ((inner[2] - u) + outer[2])  # halfway from the inner drop's far edge to the outer's
points = [inner[:2], (outer[0] - ux / u * ring, outer[1] - uy / u * ring), ref[-1][:2], ref[1][:2]]
w, h, aspect = view[2] - view[0], view[3] - view[1], W / H
scale = 0.525 * max(h, w / (0.85 * aspect))
cx, cy = (view[0] + view[2]) / 2 + 0.15 * scale * aspect, (view[1] + view[3]) / 2
def lround(x):
    return int(math.copysign(math.floor(abs(x) + 0.5), x))
print(",".join("%g" % x for x in view))
print(" ".join(f"{lround(W / 2 + (x - cx) * H / (2 * scale))},{lround(H / 2 - (y - cy) * H / (2 * scale))}" for x, y in points))
PY
    { read -r view; read -r pixels; } < "$D/points"

    gcc -std=c11 -O0 -fopenmp -Isrc -iquote . -DPH_PARAMS_FILE='"params/emulsion.h"' src/*.c polyhoop.c \
        -o "$D/polyhoop_emulsion" -lz -lm > "$D/build.log" 2>&1 || fail "building the emulsion failed: $D/build.log"
    "$D/polyhoop_emulsion" -q -n 0 -o "$D/run" inputs/emulsion.off > "$D/run.log" 2>&1 || fail "running the emulsion failed: $D/run.log"
    xvfb=()
    [ $have_xvfb = 0 ] || xvfb=(xvfb-run -a -s '-screen 0 1280x1024x24 -noreset')
    st=0
    "${xvfb[@]}" pvbatch scripts/paraview_view.py "$D/run" --color phase --frame 0 --size ${W}x$H \
        --view="$view" --out "$D/nested.png" > "$D/paraview.log" 2>&1 || st=$?
    [ $st != 77 ] || skip "ParaView's Python is missing: $PARAVIEW_INSTALL"
    [ $st = 0 ] || fail "paraview_view.py exited $st: see $D/paraview.log"

    /usr/bin/python3 tests/png_probe.py "$D/nested.png" $pixels > "$D/probe" || fail "png_probe.py failed"
    /usr/bin/python3 - "$D/probe" $W $H << 'PY'
import math, sys
rows = [[int(x) for x in line.split()] for line in open(sys.argv[1])]
(w, h), inner, ring, minus, plus = rows
print("  inner %d,%d,%d  ring %d,%d,%d  phase -1 %d,%d,%d  phase +1 %d,%d,%d" % (*inner, *ring, *minus, *plus), file=sys.stderr)
bad = [why for why, wrong in [
    (f"the picture is {w} x {h}, not {sys.argv[2]} x {sys.argv[3]}", [w, h] != [int(sys.argv[2]), int(sys.argv[3])]),
    ("the two phases look alike", math.dist(minus, plus) <= 100),
    ("the outer drop is not drawn in phase +1's colour", math.dist(ring, plus) >= 30),
    ("the nested drop is hidden: not phase -1's colour", math.dist(inner, minus) >= 30)] if wrong]
if bad:
    print("  " + "; ".join(bad) + " in " + sys.argv[1].replace("probe", "nested.png"), file=sys.stderr)
    sys.exit(1)
PY
}

# A frame's number in paraview_view.py is the one in its file's name, also where frames are
# missing (frames 2 and 3 of a run deleted before it went on with --restart): --frame 4 draws
# frame000004.vtp into area_frame000004.png, the default the last frame into
# area_frame000006.png, and --pngs names each picture after its frame. Before, the time steps
# were counted: frame 6 came out as area_frame000004.png, and --frame 4 drew it.
test_scripts_paraview_frame_numbers() {
    have_xvfb=0
    command -v xvfb-run > /dev/null 2>&1 && have_xvfb=1
    if ! command -v pvbatch > /dev/null 2>&1 || { [ $have_xvfb = 0 ] && [ -z "${DISPLAY:-}" ]; }; then
        skip "needs ParaView and Xvfb: $PARAVIEW_INSTALL"
    fi
    tests/polyhoop -q -j 1 -n 4 -s 50 -o "$D/run" > /dev/null
    rm "$D/run/frame000002.vtp" "$D/run/frame000003.vtp"
    tests/polyhoop -q -j 1 -n 6 --restart "$D/run" > /dev/null
    xvfb=()
    [ $have_xvfb = 0 ] || xvfb=(xvfb-run -a -s '-screen 0 1280x1024x24 -noreset')
    st=0
    "${xvfb[@]}" pvbatch scripts/paraview_view.py "$D/run" --frame 4 --size 160x120 > "$D/four.log" 2>&1 || st=$?
    [ $st != 77 ] || skip "ParaView's Python is missing: $PARAVIEW_INSTALL"
    [ $st = 0 ] || fail "paraview_view.py --frame 4 exited $st: see $D/four.log"
    has "$D/four.log" "wrote $D/run/area_frame000004.png: 160x120, time 0.02 (frame 4, 3 of 5)"
    "${xvfb[@]}" pvbatch scripts/paraview_view.py "$D/run" --size 160x120 > "$D/last.log" 2>&1 || fail "see $D/last.log"
    has "$D/last.log" "wrote $D/run/area_frame000006.png: 160x120, time 0.03 (frame 6, 5 of 5)"
    "${xvfb[@]}" pvbatch scripts/paraview_view.py "$D/run" --pngs "$D/pngs" --size 160x120 > "$D/pngs.log" 2>&1 || fail "see $D/pngs.log"
    [ "$(ls "$D/pngs" | tr '\n' ' ')" = "frame.000000.png frame.000001.png frame.000004.png frame.000005.png frame.000006.png " ] ||
        fail "--pngs wrote: $(ls "$D/pngs" | tr '\n' ' ')"
}

run_file "$@"
