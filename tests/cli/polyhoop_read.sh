#!/usr/bin/env bash
# scripts/polyhoop_read.py, the reader of a run's output without VTK: a binary run and an --ascii
# run of the same frames read the same values, with numpy and without it; VTK's own reader reads
# the same values where /usr/bin/python3 has VTK; the logs come back as columns; the command
# line prints frames, cells and vertices and refuses what it cannot read; tissue_stats.py and
# plot_log.py, which read through it, give the same results on both kinds of frames.
source "$(dirname "$0")/lib.sh"
export PYTHONDONTWRITEBYTECODE=1   # (the tests import modules of scripts/: no scripts/__pycache__/)

# numpy_python: a Python that imports numpy (python3, else /usr/bin/python3); empty if none
numpy_python() {
    local py
    for py in python3 /usr/bin/python3; do
        if "$py" -c 'import numpy' 2> /dev/null; then echo "$py"; return; fi
    done
}

# backends: "NAME COMMAND" lines: the reader without numpy (always) and with it (where found)
backends() {
    echo "lists env POLYHOOP_READ_NO_NUMPY=1 python3"
    local py
    py=$(numpy_python)
    [ -z "$py" ] || echo "numpy $py"
}

# runs of the same frames, binary and --ascii: $D/bin and $D/ascii from 7 hexagonal cells (which
# divide), $D/bin1 and $D/ascii1 from the default cell (which divides once)
two_runs() {
    command -v python3 > /dev/null || skip "python3 is not on PATH"
    scripts/make_hex.py 7 "$D/hex.off" > /dev/null
    tests/polyhoop -q -j 1 -n 2 -s 100 -o "$D/bin" "$D/hex.off" > /dev/null
    tests/polyhoop -q -j 1 -n 2 -s 100 --ascii -o "$D/ascii" "$D/hex.off" > /dev/null
    tests/polyhoop -q -j 1 -n 3 -s 300 -o "$D/bin1" > /dev/null
    tests/polyhoop -q -j 1 -n 3 -s 300 --ascii -o "$D/ascii1" > /dev/null
}

test_polyhoop_read_binary_equals_ascii() {
    two_runs
    local name cmd
    while read -r name cmd; do
        $cmd - "$D" "$name" << 'PY' || fail "$name: see above"
import sys
sys.path.insert(0, "scripts")
import polyhoop_read as pr
d, backend = sys.argv[1], sys.argv[2]
L = pr.tolist
for a, b, frames in (("bin", "ascii", 3), ("bin1", "ascii1", 4)):
    ra, rb = pr.Run(d + "/" + a), pr.Run(d + "/" + b)
    assert len(ra) == len(rb) == frames, (len(ra), len(rb))
    assert ra.times == rb.times and ra.times[0] == 0.0, (ra.times, rb.times)
    for k, (fa, fb) in enumerate(zip(ra, rb)):
        assert fa.time == fb.time == ra.times[k], (fa.time, fb.time, ra.times[k])
        assert (fa.npolys, fa.npoints) == (fb.npolys, fb.npoints)
        assert len(fa.x) == fa.npoints and len(fa.offsets) == fa.npolys + 1 and L(fa.offsets)[0] == 0
        for attr in ("x", "y", "offsets", "connectivity", "vtk_offsets", "points"):
            assert L(getattr(fa, attr)) == L(getattr(fb, attr)), attr
        assert list(fa.cells) == list(fb.cells) and len(fa.cells) >= 12, list(fa.cells)
        for n in fa.cells:
            assert len(fa.cells[n]) == fa.npolys and L(fa.cells[n]) == L(fb.cells[n]), n
        assert list(fa.points_data) == ["velocity"] and L(fa.points_data["velocity"]) == L(fb.points_data["velocity"])
        assert fa.params == fb.params and fa.params["dt"] == 1e-4, fa.params
        # polygon p's vertices are x[offsets[p]:offsets[p + 1]], in the connectivity's order
        pts, conn, off = L(fa.points), L(fa.connectivity), L(fa.offsets)
        for p in range(fa.npolys):
            x, y = fa.polygon(p)
            assert L(x) == [pts[i][0] for i in conn[off[p]:off[p + 1]]]
            assert L(y) == [pts[i][1] for i in conn[off[p]:off[p + 1]]]
        # numpy arrays with numpy, lists without
        want = list if backend == "lists" else type(__import__("numpy").zeros(1))
        assert all(type(v) is want for v in [fa.x, fa.offsets] + list(fa.cells.values())), backend
    assert L(fa.cells["id"]) != [] and (a != "bin1" or fa.npolys == 2), fa.npolys
PY
    done < <(backends)
}

# VTK's reader (scripts/check_vtp.py --dump, where /usr/bin/python3 has VTK) reads the values that
# polyhoop_read.py reads: points, polygons, and every cell, point and field array
test_polyhoop_read_matches_vtk() {
    /usr/bin/python3 -c 'import vtk' 2> /dev/null || skip "no VTK for /usr/bin/python3 (apt-get install -y python3-vtk9)"
    two_runs
    local run k name cmd
    for run in bin ascii bin1; do
        for k in 0 2; do
            /usr/bin/python3 scripts/check_vtp.py "$D/$run/frame00000$k.vtp" --dump "$D/$run.$k.dump" > /dev/null
        done
    done
    while read -r name cmd; do
        $cmd - "$D" << 'PY' || fail "$name: see above"
import ast, sys
sys.path.insert(0, "scripts")
import polyhoop_read as pr
d = sys.argv[1]
L = pr.tolist
for run in ("bin", "ascii", "bin1"):
    for k in (0, 2):
        f = pr.read_frame("%s/%s/frame00000%d.vtp" % (d, run, k))
        polys, arrays = [], {}
        for line in open("%s/%s.%d.dump" % (d, run, k)):
            kind, rest = line.split(" ", 1)
            if kind == "points":
                points = ast.literal_eval(rest)
            elif kind == "poly":
                polys.append(ast.literal_eval(rest))
            else:
                name, rest = rest.split(" ", 1)
                arrays[(kind, name)] = ast.literal_eval(rest[rest.index("["):])
        assert [list(p) for p in points] == [list(p) for p in L(f.points)], "points"
        conn, off = L(f.connectivity), L(f.offsets)
        assert polys == [conn[a:b] for a, b in zip(off, off[1:])], "polygons"
        mine = {("cell", n): v for n, v in f.cells.items()}
        mine.update({("field", n): v for n, v in f.field.items()})
        # (point arrays: VTK's in the file's point order; the reader's in polygon order)
        assert set(k for k in arrays if k[0] != "point") == set(mine), (sorted(arrays), sorted(mine))
        for key, v in mine.items():
            assert [float(a) for a in L(v)] == arrays[key], key
        vel = [list(v) for v in L(f.points_data["velocity"])]
        flat = arrays[("point", "velocity")]
        assert vel == [flat[3 * i:3 * i + 3] for i in conn], "velocity"
PY
    done < <(backends)
}

# events.csv and observables.csv as columns: typed arrays equal to what the csv module reads
test_polyhoop_read_logs() {
    two_runs
    local name cmd
    while read -r name cmd; do
        $cmd - "$D" << 'PY' || fail "$name: see above"
import csv, sys
sys.path.insert(0, "scripts")
import polyhoop_read as pr
d = sys.argv[1]
L = pr.tolist
run = pr.Run(d + "/bin1")
obs, ev = run.observables(), run.events()
rows = list(csv.DictReader(open(d + "/bin1/observables.csv")))
assert list(obs) == list(rows[0]) and len(rows) == len(run) == 4, (list(obs), len(rows))
for n, col in obs.items():
    assert [float(v) for v in L(col)] == [float(r[n]) for r in rows], n
assert L(obs["frame"]) == [0, 1, 2, 3] and all(abs(a - b) < 1e-12 for a, b in zip(L(obs["time"]), run.times))
rows = list(csv.DictReader(open(d + "/bin1/events.csv")))
assert list(ev) == ["step", "time", "event", "before", "after"] and len(rows) >= 1
assert L(ev["step"]) == [int(r["step"]) for r in rows] and L(ev["time"]) == [float(r["time"]) for r in rows]
assert L(ev["event"]) == [r["event"] for r in rows] and "division" in L(ev["event"])
assert L(ev["after"]) == [r["after"] for r in rows]
try:
    pr.read_csv(d + "/bin1/events.csv", numeric=["after"])
    sys.exit("events.csv's after column taken for numbers")
except pr.ReadError as e:
    assert "line 2: after is" in str(e), e
PY
    done < <(backends)
}

# the command line: a run's frames, a frame's cells and vertices as CSV; what cannot be read is
# refused in one line with status 2; --help without numpy
test_polyhoop_read_cli() {
    two_runs
    local R=scripts/polyhoop_read.py
    $R "$D/bin1" > "$D/frames"
    [ "$(head -n 1 "$D/frames")" = "frame,time,polygons,vertices,unreadable" ] && [ "$(wc -l < "$D/frames")" = 5 ] || fail "$(cat "$D/frames")"
    grep -qx '0,0.0,1,40,' "$D/frames" || fail "frame 0 is not one cell of 40 vertices: $(cat "$D/frames")"
    $R "$D/bin" --frame -1 > "$D/cells"
    [ "$(wc -l < "$D/cells")" = $(($(sed -n 's/.*NumberOfPolys="\([0-9]*\)".*/\1/p' "$D/bin/frame000002.vtp") + 1)) ] ||
        fail "not a line per cell: $(cat "$D/cells")"
    has "$D/cells" "polygon,vertices,id,parent,generation,age,area"
    $R "$D/ascii/frame000002.vtp" > "$D/cells2"
    cmp -s "$D/cells" "$D/cells2" || fail "the cells of a binary and an ascii frame differ"
    $R "$D/bin/frame000002.vtp" --points > "$D/points"
    [ "$(wc -l < "$D/points")" = $(($(sed -n 's/.*NumberOfPoints="\([0-9]*\)".*/\1/p' "$D/bin/frame000002.vtp") + 1)) ] ||
        fail "not a line per vertex"
    has "$D/points" "polygon,x,y,velocity_0,velocity_1,velocity_2"
    POLYHOOP_READ_NO_NUMPY=1 $R --help > /dev/null || fail "--help exited $?"
    mkdir "$D/bad"
    head -c 3000 "$D/bin/frame000001.vtp" > "$D/bad/frame000001.vtp"
    local bad
    for bad in "$D/none" "$D/bad" "$D/bad/frame000001.vtp" "$D/bin1 --frame 9" "$D/bin/frame000001.vtp --frame 1" "$D/hex.off"; do
        status 2 errs "$D/err" $R $bad
        [ "$(wc -l < "$D/err")" = 1 ] || fail "$bad: not one line: $(cat "$D/err")"
        lacks "$D/err" Traceback
    done
}

# cells_dataframe: a pandas DataFrame of the cells where pandas imports, else an ImportError that
# says what to install
test_polyhoop_read_dataframe() {
    two_runs
    local py
    for py in python3 /usr/bin/python3; do
        command -v "$py" > /dev/null || continue
        "$py" - "$D" << 'PY' || fail "$py: see above"
import sys
sys.path.insert(0, "scripts")
import polyhoop_read as pr
f = pr.Run(sys.argv[1] + "/bin").frame(-1)
try:
    import pandas
except ImportError:
    try:
        pr.cells_dataframe(f)
        sys.exit("no ImportError without pandas")
    except ImportError as e:
        assert "pandas" in str(e)
    sys.exit(0)
df = pr.cells_dataframe(f)
off = pr.tolist(f.offsets)
assert len(df) == f.npolys and "area" in df.columns and list(df["vertices"]) == [b - a for a, b in zip(off, off[1:])]
assert list(df["area"]) == pr.tolist(f.cells["area"]) and df.attrs["time"] == f.time
PY
    done
}

# tissue_stats.py and plot_log.py read through polyhoop_read.py: the same figures from a binary
# and an --ascii run of the same frames, and the same with numpy and without
test_polyhoop_read_scripts_agree() {
    two_runs
    local name cmd run
    while read -r name cmd; do
        for run in bin ascii bin1 ascii1; do
            $cmd scripts/tissue_stats.py "$D/$run" --json --frames 0:-1 --growth | grep -v '"dir"\|"file"' > "$D/$run.$name.json"
            $cmd scripts/plot_log.py "$D/$run/observables.csv" polygons kinetic U_total --log -o "$D/$run.$name.svg"
            sed -i "s|$D/$run/|RUN/|" "$D/$run.$name.svg"
        done
        cmp -s "$D/bin.$name.json" "$D/ascii.$name.json" || fail "$name: tissue_stats differs between binary and ascii"
        cmp -s "$D/bin1.$name.json" "$D/ascii1.$name.json" || fail "$name: tissue_stats differs between binary and ascii"
        cmp -s "$D/bin1.$name.svg" "$D/ascii1.$name.svg" || fail "$name: plot_log differs between binary and ascii"
        has "$D/bin.$name.json" '"cells": 7'
        cmp -s "$D/bin1.$name.json" "$D/bin1.lists.json" || fail "$name: tissue_stats differs with numpy"
        cmp -s "$D/bin1.$name.svg" "$D/bin1.lists.svg" || fail "$name: plot_log differs with numpy"
    done < <(backends)
}

# gap_run: $D/gap, a run of frames 0-6 of 50 steps whose frames 2 and 3 were deleted before it
# went on with --restart: frames 0, 1, 4, 5, 6 (frames.pvd lists these)
gap_run() {
    command -v python3 > /dev/null || skip "python3 is not on PATH"
    tests/polyhoop -q -j 1 -n 4 -s 50 -o "$D/gap" > /dev/null
    rm "$D/gap/frame000002.vtp" "$D/gap/frame000003.vtp"
    tests/polyhoop -q -j 1 -n 6 --restart "$D/gap" > /dev/null
}

# A frame is named by the number in its file's name, frameNNNNNN.vtp, also where frames are
# missing: the listing, --frame K and Run.frame(K) (K < 0: the K-th from the end of those there
# are), tissue_stats.py --frames and compare_reference.py --frame. Before, they counted the
# frames there are: --frame 4 gave frame000006.vtp.
test_polyhoop_read_frame_numbers_from_names() {
    gap_run
    local R=scripts/polyhoop_read.py
    $R "$D/gap" | cut -d, -f1 | tr '\n' ' ' > "$D/numbers"
    [ "$(cat "$D/numbers")" = "frame 0 1 4 5 6 " ] || fail "the listing's frames: $(cat "$D/numbers")"
    $R "$D/gap" --frame 4 > "$D/k4"
    $R "$D/gap/frame000004.vtp" > "$D/f4"
    cmp -s "$D/k4" "$D/f4" || fail "--frame 4 is not frame000004.vtp"
    $R "$D/gap" --frame -4 > "$D/m4"
    $R "$D/gap/frame000001.vtp" > "$D/f1"
    cmp -s "$D/m4" "$D/f1" || fail "--frame -4 is not frame000001.vtp, the 4th from the end"
    ! cmp -s "$D/f4" "$D/f1" || fail "frames 1 and 4 are the same"
    status 2 errs "$D/err" $R "$D/gap" --frame 2
    has "$D/err" "no frame 2 (it has 5: 0-1, 4-6)"
    python3 - "$D/gap" << 'PY' || fail "Run: see above"
import sys
sys.path.insert(0, "scripts")
import polyhoop_read as pr
run = pr.Run(sys.argv[1])
assert run.numbers == [0, 1, 4, 5, 6], run.numbers
assert abs(run.frame(4).time - 0.02) < 1e-12 and abs(run.frame(-1).time - 0.03) < 1e-12, (run.frame(4).time, run.frame(-1).time)
assert abs(run.frame(-4).time - 0.005) < 1e-12, run.frame(-4).time
try:
    run.frame(2)
    sys.exit("frame 2 read")
except pr.ReadError as e:
    assert "no frame 2" in str(e), e
PY
    scripts/tissue_stats.py "$D/gap" --frames 4,-4 | grep '^frame' > "$D/ts"
    [ "$(cut -c 1-17 "$D/ts" | tr '\n' '|')" = "frame 1  t = 0.00|frame 4  t = 0.02|" ] || fail "tissue_stats --frames 4,-4: $(cat "$D/ts")"
    scripts/tissue_stats.py "$D/gap" --frames=-5:-1 --json | grep -c '"frame":' > "$D/count"
    [ "$(cat "$D/count")" = 5 ] || fail "--frames -5:-1 is not all 5 frames"
    status 2 errs "$D/err" scripts/tissue_stats.py "$D/gap" --frames 2
    has "$D/err" "no such frame (the frames there are: 0-1, 4-6)"
    status 2 errs "$D/err" scripts/tissue_stats.py "$D/gap" --frames=-6
    has "$D/err" "there are only 5 frames to count back 6"
    scripts/compare_reference.py --runs "$D/gap" --frame 4 > "$D/cr"
    has "$D/cr" "1 runs, at t = 0.02"
}

# A folder with a truncated frame (its last 100 bytes cut), one of garbage and one listed in
# frames.pvd but deleted: the listing reads every frame, marks these three unreadable with the
# reason (no counts), lists the good ones as before and exits 0, with one line on stderr naming
# the three; asked for by --frame, a bad one is refused (status 2), a good one printed. Without
# frames.pvd the same for the frames there are. Before, the truncated frame was listed as good,
# the garbage one with blank columns, and the listing stopped at the deleted one (status 2).
test_polyhoop_read_lists_unreadable_frames() {
    command -v python3 > /dev/null || skip "python3 is not on PATH"
    tests/polyhoop -q -j 1 -n 6 -s 20 -o "$D/r" > /dev/null
    head -c $(($(stat -c %s "$D/r/frame000002.vtp") - 100)) "$D/r/frame000002.vtp" > "$D/cut"
    mv "$D/cut" "$D/r/frame000002.vtp"
    printf 'not a frame\n%.0s' $(seq 250) > "$D/r/frame000003.vtp"
    rm "$D/r/frame000005.vtp"
    local name cmd k R=scripts/polyhoop_read.py
    while read -r name cmd; do
        $cmd $R "$D/r" > "$D/list" 2> "$D/err" || fail "$name: the listing exited $?: $(cat "$D/err")"
        [ "$(head -n 1 "$D/list")" = "frame,time,polygons,vertices,unreadable" ] && [ "$(wc -l < "$D/list")" = 8 ] ||
            fail "$name: $(cat "$D/list")"
        for k in 0 1 4 6; do matches "$D/list" "^$k,[0-9.]*,1,40,\$"; done
        matches "$D/list" '^2,0.004,,,not a polyhoop frame: .*(truncated)$' '^3,0.006,,,"\?not a polyhoop frame' \
            '^5,0.01,,,missing (listed in frames.pvd)$'
        [ "$(wc -l < "$D/err")" = 1 ] || fail "$name: not one line on stderr: $(cat "$D/err")"
        has "$D/err" "3 of 7 frames cannot be read (2-3, 5)"
        for k in 2 3 5; do
            status 2 errs "$D/err" $cmd $R "$D/r" --frame $k
            [ "$(wc -l < "$D/err")" = 1 ] || fail "$name: --frame $k: not one line: $(cat "$D/err")"
        done
        $cmd $R "$D/r" --frame 4 > "$D/cells" || fail "$name: --frame 4 exited $?"
        has "$D/cells" "polygon,vertices,id"
    done < <(backends)
    rm "$D/r/frames.pvd"
    $R "$D/r" > "$D/list" 2> "$D/err" || fail "without frames.pvd the listing exited $?: $(cat "$D/err")"
    [ "$(cut -d, -f1 "$D/list" | tr '\n' ' ')" = "frame 0 1 2 3 4 6 " ] || fail "without frames.pvd: $(cat "$D/list")"
    matches "$D/list" '^2,nan,,,not a polyhoop frame: .*(truncated)$' '^3,nan,,,"\?not a polyhoop frame' '^6,0.012,1,40,$'
    has "$D/err" "2 of 6 frames cannot be read (2-3)"
}

run_file "$@"
