#!/usr/bin/env bash
# The frames a run writes: the default run's are the same at 1 and 2 threads, byte for byte, and
# VTK's own reader opens them (scripts/check_vtp.py with Debian's /usr/bin/python3, skipped
# without python3-vtk9); every cell array can colour the pictures; the pictures' colour range is
# each frame's own, their camera the series' own across a kill and restart, and --png-view takes
# only a rectangle a picture can show.
source "$(dirname "$0")/lib.sh"

# The default run (one cell growing to t = 10) at 1 and 2 threads: the tissue reaches 127 or 128
# cells (the 128th divides at frame 100 or 101, within the 2 frames of the published program's
# schedule that the paper's division rule allows; see test_topology_default_tissue_structure),
# every frame is byte-identical between the two, and VTK's own reader opens the last frame.
test_sim_default_run_thread_independent() {
    tests/polyhoop -j 1 -q -o "$D/t1" > "$D/log1" 2>&1 || fail "the run at 1 thread failed: $D/log1"
    tests/polyhoop -j 2 -q -o "$D/t2" > "$D/log2" 2>&1 || fail "the run at 2 threads failed: $D/log2"
    has "$D/log2" "100 frames, 100000 steps"
    diff -r "$D/t1" "$D/t2" > /dev/null || fail "frames differ between 1 and 2 threads"
    last=$D/t2/frame000100.vtp
    has "$last" "<Piece"
    polys=$(grep -a -o 'NumberOfPolys="[0-9]*"' "$last" | grep -o '[0-9]*')
    [ "$polys" = 127 ] || [ "$polys" = 128 ] || fail "the default run ended with $polys cells, not 127 or 128"
    st=0
    /usr/bin/python3 scripts/check_vtp.py "$last" --expect-polys "$polys" --arrays area,perimeter,neighbors > "$D/vtk" 2>&1 || st=$?
    [ "$st" != 77 ] && [ "$st" != 127 ] || skip "VTK readback: apt-get install python3-vtk9 (the rest passed)"
    [ "$st" = 0 ] || fail "VTK's reader rejected the frame: $(cat "$D/vtk")"
}

# Every cell array of the frames (VTP_CELL_ARRAY_LIST in src/vtp.h) can be chosen by --png-color
# and gives a picture; the help and the error for an unknown name list them all.
test_vtp_png_color_every_cell_array() {
    names=$(sed -n 's/^ *X(\([a-z_]*\),.*/\1/p' src/vtp.h)
    [ "$(echo "$names" | wc -w)" -ge 10 ] || fail "found only these cell arrays in src/vtp.h: $names"
    for name in $names; do
        tests/polyhoop -q -n 0 --png-size 64x64 --png-color "$name" -o "$D/$name" > "$D/log" 2>&1 &&
            [ -f "$D/$name/frame000000.png" ] || fail "--png-color $name: no picture (see $D/log)"
    done
    list=$(echo $names | sed 's/ /, /g')
    tests/polyhoop -h > "$D/help" 2>&1 || true
    tests/polyhoop --png-color bogus -n 0 > "$D/bogus" 2>&1 || true
    has "$D/help" "$list"
    has "$D/bogus" "$list"
}

# The default run coloured by pressure: its first division leaves a transient (about 7900 at
# t = 0.1, against 1700 to 2200 at t = 2). Each frame's colour range is its own (2nd to 98th
# percentile of its cells), so at t = 2 the four cells still spread over the colour map: their
# fills, read against the picture's own colour bar (the legend row with the most colours, whose
# column i shows the map at (i - 8 + 0.5) / 184), span more than 0.8 of it (a range widened by
# the transient and kept would put them all within 0.06 of each other).
test_png_transient_does_not_flatten_later_frames() {
    [ -x /usr/bin/python3 ] || skip "needs /usr/bin/python3"
    tests/polyhoop -q -j 1 -n 20 --png-color pressure --png-size 200x200 -o "$D/run" > /dev/null
    /usr/bin/python3 - "$D/run/frame000020.png" > "$D/spread" <<'PY' || fail "$(cat "$D/spread")"
import sys
sys.path.insert(0, "tests")
import png_probe
w, h, rows = png_probe.decode(sys.argv[1])
px = lambda r, x: tuple(r[3 * x:3 * x + 3])
bar = max(range(166, h), key=lambda j: len({px(rows[j], x) for x in range(w)}))
t_of = {}
for x in range(8, 192):
    t_of.setdefault(px(rows[bar], x), (x - 8 + 0.5) / 184)
count = {}
for j in range(166):
    for x in range(w):
        c = px(rows[j], x)
        count[c] = count.get(c, 0) + 1
fills = [c for c, n in count.items() if n >= 200 and c not in ((255, 255, 255), (40, 40, 40))]
def t(c):   # (the bar's nearest colour)
    return t_of[min(t_of, key=lambda b: sum((p - q) ** 2 for p, q in zip(b, c)))]
ts = sorted(t(c) for c in fills)
print("cells at %s of the colour map" % ", ".join("%.3f" % v for v in ts))
sys.exit(0 if len(ts) == 4 and ts[-1] - ts[0] > 0.8 else 1)
PY
}

# A series' camera survives a kill -9: the default tissue drawn at 4 frames per 0.1 time units,
# killed once frame 10 is drawn and restarted from its last checkpoint, leaves every picture
# (and frame) byte-identical to the run never killed. The camera widens after the kill (the scale
# bar's length on the legend's row 10 takes more than one value after frame 12), so a restart
# that refitted it, or lost how it had been widened, would draw other pictures.
test_png_camera_kill_and_restart() {
    [ -x /usr/bin/python3 ] || skip "needs /usr/bin/python3"
    local args="-q -j 1 -n 100 -s 250 --png --png-size 200x200" pid f k
    tests/polyhoop $args -o "$D/a" > /dev/null
    tests/polyhoop $args -o "$D/c" > /dev/null &
    pid=$!
    for k in $(seq 400); do [ -f "$D/c/frame000010.png" ] && break; sleep 0.02; done
    kill -KILL $pid || true
    wait $pid 2> /dev/null || true   # (137: killed)
    [ ! -f "$D/c/frame000100.png" ] || fail "the run ended before it was killed"
    tests/polyhoop -q -j 1 --restart "$D/c" > /dev/null
    for f in "$D"/a/*; do
        cmp -s "$f" "$D/c/${f##*/}" || fail "${f##*/} differs after the kill and restart"
    done
    /usr/bin/python3 - "$D"/a/frame0000{1[3-9],[2-9][0-9]}.png "$D/a/frame000100.png" > "$D/bars" <<'PY' || fail "$(cat "$D/bars")"
import sys
sys.path.insert(0, "tests")
import png_probe
lengths = set()
for f in sys.argv[1:]:
    w, h, rows = png_probe.decode(f)
    lengths.add(sum(1 for x in range(100, w) if tuple(rows[176][3 * x:3 * x + 3]) == (40, 40, 40)))
print("scale bars after frame 12: %s pixels" % sorted(lengths))
sys.exit(0 if len(lengths) > 1 and min(lengths) > 10 else 1)
PY
}

# --png-view takes a rectangle a picture can show: not empty, finite, within 1e9 of the origin,
# each side at least 1e-6 long. Anything else (inf, nan, a zero, negative or tiny side, an absurd
# corner) is refused with one line on stderr and exit status 2, and nothing is written.
test_png_view_refused() {
    local v
    for v in 0,0,inf,1 0,-inf,1,1 nan,0,1,1 0,0,1,nan 0,0,0,1 0,0,1,-1 0,0,1,1e-9 -1e300,0,1,1 0,0,1,2e9 0,0,1 0,0,1,1,1; do
        status 2 errs "$D/err" tests/polyhoop -q -n 0 --png-view "$v" -o "$D/out"
        has "$D/err" "polyhoop: --png-view needs x0,y0,x1,y1 with x0 < x1 and y0 < y1, each side at least 1e-06 and every number within 1e+09 of 0, got '$v'"
        [ "$(wc -l < "$D/err")" = 1 ] || fail "--png-view $v: more than one line: $(cat "$D/err")"
        [ ! -e "$D/out" ] || fail "--png-view $v: output written"
    done
    tests/polyhoop -q -n 0 --png-view -1e9,-1,1e9,1e-6 -o "$D/ok" > /dev/null
    [ -s "$D/ok/frame000000.png" ] || fail "the widest view allowed drew nothing"
}

run_file "$@"
