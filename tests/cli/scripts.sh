#!/usr/bin/env bash
# The helper scripts of scripts/: one shebang style and their run bits; -h prints help and exits
# 0 (make_inputs.py's leaves inputs/ as it was); every generator writes a valid input; sweep.py
# and sweep.slurm run sweeps and report their failures; plot_log.py draws the run's logs. The
# Python ones are skipped where python3 is not on PATH.
source "$(dirname "$0")/lib.sh"

need_python3() { command -v python3 > /dev/null || skip "python3 is not on PATH"; }

test_scripts_shebang_and_run_bits() {
    n=0
    for f in scripts/*.py scripts/*.sh; do
        case "$f" in *.py) want='#!/usr/bin/env python3' ;; *) want='#!/usr/bin/env bash' ;; esac
        [ "$(head -n 1 "$f")" = "$want" ] || fail "$f starts with '$(head -n 1 "$f" | cut -c 1-40)', expected '$want'"
        [ -x "$f" ] || fail "$f is not executable (chmod +x, git update-index --chmod=+x)"
        n=$((n + 1))
    done
    [ $n -ge 5 ] || fail "only $n scripts"
}

test_scripts_help_exits_zero() {
    need_python3
    n=0
    for f in scripts/*.py scripts/*.sh; do
        "$f" -h > /dev/null 2>&1 || fail "$f -h exited $?"
        n=$((n + 1))
    done
    [ $n -ge 4 ] || fail "only $n scripts"
}

# make_inputs.py --help (and -h) prints help and leaves inputs/ untouched (names, contents and
# modification times); run with --dir it writes the very files that are in inputs/, and only
# those (it is deterministic), making a missing folder and refusing a file.
test_scripts_make_inputs_help_keeps_inputs() {
    need_python3
    inputs() { stat -c '%n %s %.9Y' inputs/*; sha256sum inputs/*; }
    inputs > "$D/before"
    scripts/make_inputs.py --help > /dev/null 2>&1 || fail "make_inputs.py --help exited $?"
    scripts/make_inputs.py -h > /dev/null 2>&1 || fail "make_inputs.py -h exited $?"
    status 2 scripts/make_inputs.py --bogus > "$D/bogus.log" 2>&1
    inputs | cmp -s - "$D/before" || fail "make_inputs.py -h/--help changed inputs/"
    scripts/make_inputs.py --dir "$D/gen" > /dev/null || fail "make_inputs.py --dir with a missing folder exited $?"
    : > "$D/file"
    status 2 scripts/make_inputs.py --dir "$D/file" > "$D/file.log" 2>&1
    grep -q "is not a folder" "$D/file.log" || fail "make_inputs.py --dir FILE said: $(tail -1 "$D/file.log")"
    [ "$(ls -A "$D/gen" | tr '\n' ' ')" = "emulsion.off foam.off hourglass.off " ] || fail "make_inputs.py wrote $(ls -A "$D/gen")"
    for name in emulsion.off foam.off hourglass.off; do
        cmp -s "$D/gen/$name" "inputs/$name" || fail "make_inputs.py wrote a $name that differs from inputs/$name"
    done
    inputs | cmp -s - "$D/before" || fail "make_inputs.py --dir changed inputs/"
}

# Every generator of scripts/ writes an input that the program takes, with the number of polygons
# asked for: make_inputs.py for each of its scenes (another draw, --size and --seed, where it has
# them) and make_tissue.py. tests/polyhoop --strict-input refuses polygons that cross, touch or nest in
# one of the same phase, and must print nothing (a clockwise polygon would be reversed with a
# warning). A scene with walls, which share corners as rigid polygons may, is read by tests/polyhoop
# without --strict-input and, with it, by the scene's showcase program, whose first Nr polygons
# (the walls) are rigid. A reader here sees that no polygon lies inside another (but the
# emulsion's nested drops) and that different polygons keep at least 0.009 apart (the generators
# leave h = 0.01 or more), except the walls among themselves, which meet at corners.
test_scripts_generated_inputs_valid() {
    need_python3
    printf '%s\n' foam emulsion hourglass rubber_bands hex_packing projectiles | xargs -P 2 -I {} \
        make -s --no-print-directory B=build/showcase/{} PARAMS=params/{}.h build/showcase/{}/polyhoop > /dev/null ||
        fail "building the showcase programs of the scenes with walls failed"
    # name, size (0: none), seed, polygons, whether at least that many, walls (Nr), nested drops
    while read -r name size seed polygons at_least walls nested <&3; do
        off=$D/$name.off
        if [ "$name" = tissue ]; then
            scripts/make_tissue.py "$size" "$off" --seed "$seed" > /dev/null || fail "make_tissue.py exited $?"
        elif [ "$size" != 0 ]; then
            scripts/make_inputs.py --size "$size" --seed "$seed" --dir "$D" "$name" > /dev/null || fail "make_inputs.py $name exited $?"
        else
            scripts/make_inputs.py --dir "$D" "$name" > /dev/null || fail "make_inputs.py $name exited $?"
        fi
        if [ "$walls" = 0 ]; then
            tests/polyhoop -q --strict-input -n 0 -o "$D/run_$name" "$off" > /dev/null 2> "$D/$name.err" && [ ! -s "$D/$name.err" ] ||
                fail "tests/polyhoop refused or warned about $off: $(cat "$D/$name.err")"
        else
            tests/polyhoop -q -n 0 -o "$D/run_$name" "$off" > /dev/null 2> "$D/$name.err" || fail "tests/polyhoop refused $off: $(cat "$D/$name.err")"
            "build/showcase/$name/polyhoop" -q --strict-input -n 0 -o "$D/strict_$name" "$off" > /dev/null 2> "$D/$name.err" ||
                fail "with its walls rigid, polygons of $off overlap, touch or nest: $(cat "$D/$name.err")"
        fi
        python3 - "$off" "$polygons" "$at_least" "$walls" "$nested" << 'PY' || fail "$off: see above"
import sys
path, want, at_least, walls, nested = sys.argv[1], int(sys.argv[2]), sys.argv[3] == "1", int(sys.argv[4]), sys.argv[5] == "1"
rows = [r for r in (line.split("#")[0].split() for line in open(path)) if r]
nv, n = int(rows[1][0]), int(rows[1][1])
vertex = [(float(r[0]), float(r[1])) for r in rows[2:2 + nv]]
polys = [[vertex[int(i)] for i in r[1:]] for r in rows[2 + nv:2 + nv + n]]
def fail(why):
    print(f"  {path}: {why}", file=sys.stderr)
    sys.exit(1)
if len(polys) < want if at_least else len(polys) != want:
    fail(f"{len(polys)} polygons, expected {'at least ' if at_least else ''}{want}")
if path.endswith("tissue.off") and len(polys) > 70:
    fail(f"{len(polys)} cells, asked for about 60")
def box(p):
    xs, ys = [v[0] for v in p], [v[1] for v in p]
    return min(xs), min(ys), max(xs), max(ys)
def inside(q, x, y):  # (as geom_point_inside)
    c = False
    for k in range(len(q)):
        (xk, yk), (xj, yj) = q[k], q[k - 1]
        if (yk > y) != (yj > y) and x < xk + (xj - xk) * (y - yk) / (yj - yk):
            c = not c
    return c
def distance(p, a, b):  # from point p to segment ab
    ex, ey, dx, dy = b[0] - a[0], b[1] - a[1], p[0] - a[0], p[1] - a[1]
    ee = ex * ex + ey * ey
    t = min(1, max(0, (dx * ex + dy * ey) / ee)) if ee > 0 else 0
    return ((dx - t * ex) ** 2 + (dy - t * ey) ** 2) ** 0.5
def cell(x, y):
    return int(x // 0.05), int(y // 0.05)
if nested:  # (the emulsion: drops inside drops of the other phase, by design)
    sys.exit(0)
# every pair of polygons but two walls: no vertex of one within 0.009 of an edge of the other
# (looked for among the edges filed, grown by 0.009, under the vertex's cell of a grid), and the
# first vertex of one not inside the other
near = {}
for j, b in enumerate(polys):
    for k in range(len(b)):
        e = b[k], b[(k + 1) % len(b)]
        lo = cell(min(e[0][0], e[1][0]) - 0.009, min(e[0][1], e[1][1]) - 0.009)
        hi = cell(max(e[0][0], e[1][0]) + 0.009, max(e[0][1], e[1][1]) + 0.009)
        for cx in range(lo[0], hi[0] + 1):
            for cy in range(lo[1], hi[1] + 1):
                near.setdefault((cx, cy), []).append((j, e))
boxes = [box(b) for b in polys]
for i, a in enumerate(polys):
    for p in a:
        for j, e in near.get(cell(*p), ()):
            if j != i and not (i < walls and j < walls) and distance(p, *e) < 0.009:
                fail(f"polygons {i} and {j} are {distance(p, *e):.3g} apart")
    x, y = a[0]
    for j, b in enumerate(polys):
        if j != i and not (i < walls and j < walls) and boxes[j][0] <= x <= boxes[j][2] and boxes[j][1] <= y <= boxes[j][3] and inside(b, x, y):
            fail(f"polygon {i} lies inside polygon {j}")
PY
    done 3<< 'EOF'
foam         40 9 43 0 3 0
emulsion     12 5 16 1 4 1
hourglass     0 0  4 1 3 0
vesicles      3 7 51 0 0 0
floppy       12 3 12 0 0 0
rubber_bands  7 2 10 0 3 0
hex_packing  10 1 14 0 4 0
projectiles  12 3 14 0 1 0
tissue       60 4 50 1 0 0
EOF
    has "$D/foam.off" "polydisperse bubbles (seed 9)"
}

# scripts/sweep.py: a 2 x 2 sweep of the default parameters, dt = 1e-4 and dt = 1e-2 (far too
# large: those runs blow up with status 3), seeds 1 and 2, two runs at a time: four run folders
# with result.json, the blown-up runs reported as failed and the others as ok with their counts,
# a summary of four rows, exit status 1. A variant whose values the program refuses (lmin = 0.2
# breaks lmax > 2 lmin), run alone as an array task would (--task 0), is a failed run with the
# program's line and exit status 2; a base header that does not compile makes every run a failed
# build, with the compiler's error. Last, scripts/sweep.slurm submit through a stand-in sbatch
# that runs each job at once, array tasks one after the other: its summary has the same four rows.
test_scripts_sweep_runs_and_failures() {
    need_python3
    S='scripts/sweep.py params/default.h --name test_sweep --set dt=1e-4,1e-2 --seeds 1,2'
    status 1 $S -j 2 --out "$D/s" -- -n 2 -s 50 > "$D/s.log" 2>&1
    [ "$(ls "$D"/s/*-seed*/result.json | wc -l)" = 4 ] || fail "not 4 runs with result.json"
    [ "$(wc -l < "$D/s/summary.csv")" = 5 ] || fail "not 4 rows in summary.csv"
    # (each run's observables.csv: its header, prefixed obs_, and its last row, before the error)
    local obs
    obs=$(head -n 1 "$D/s/dt_1e-4-seed1/observables.csv" | sed 's/[^,]*/obs_&/g')
    [ "$(head -n 1 "$D/s/summary.csv")" = "run,dt,seed,status,exit,wall_s,polygons,vertices,$obs,error" ] ||
        fail "summary.csv's header: $(head -n 1 "$D/s/summary.csv")"
    for s in 1 2; do
        obs=$(tail -n 1 "$D/s/dt_1e-4-seed$s/observables.csv" | sed 's/[].+*?^$()[{}|\\]/\\&/g')   # (as an ERE)
        grep -Eqx "dt_1e-4-seed$s,1e-4,$s,ok,0,[0-9.]+,1,[0-9]+,$obs," "$D/s/summary.csv" || fail "no ok row for dt 1e-4, seed $s"
        obs=$(tail -n 1 "$D/s/dt_1e-2-seed$s/observables.csv" | sed 's/[].+*?^$()[{}|\\]/\\&/g')
        grep -Eqx "dt_1e-2-seed$s,1e-2,$s,failed,3,[0-9.]+,[0-9]*,[0-9]*,$obs,\"?polyhoop: .*numerical blow-up.*" "$D/s/summary.csv" || fail "no failed row for dt 1e-2, seed $s"
        has "$D/s/dt_1e-2-seed$s/stderr.txt" "numerical blow-up"
        [ -f "$D/s/dt_1e-4-seed$s/frame000002.vtp" ] || fail "no last frame for dt 1e-4, seed $s"
    done
    has "$D/s/summary.txt" "2 of 4 runs ok"
    has "$D/s.log" "2 of 4 runs ok"
    B='scripts/sweep.py params/default.h --name test_sweep --set lmin=0.2'
    [ "$($B --list)" = "$(printf '0\tlmin_0.2-seed1')" ] || fail "--list: $($B --list)"
    status 1 $B --out "$D/b" --task 0 > "$D/b.log" 2>&1
    has "$D/b/lmin_0.2-seed1/result.json" '"status": "failed"' '"exit": 2' \
        '"error": "polyhoop: params/default.h with --set lmin=0.2: lmax must be > 2 lmin"'
    printf '#include "%s/params/default.h"\n#undef P_lmin\n#define P_lmin 0.2\n' "$PWD" > "$D/bad.h"
    status 1 scripts/sweep.py "$D/bad.h" --name test_sweep_bad --set gamma=1e3,2e3 --out "$D/c" > "$D/c.log" 2>&1
    has "$D/c/summary.txt" "gamma_1e3-seed1: the build failed" "gamma_2e3-seed1: the build failed" "lmax must be > 2 lmin" "0 of 2 runs ok"
    has "$D/c/gamma_2e3-seed1/result.json" '"status": "build failed"'
    has build/sweep/test_sweep_bad/build.log "lmax must be > 2 lmin"
    mkdir "$D/bin"
    cat > "$D/bin/sbatch" << 'EOF'
#!/usr/bin/env bash
array=
while [ "${1#--}" != "$1" ]; do case $1 in --array=*) array=${1#--array=} ;; esac; shift; done
job=$1; shift
for k in $(if [ -n "$array" ]; then seq ${array%-*} ${array#*-}; else echo none; fi); do
    SLURM_ARRAY_TASK_ID=$k SLURM_SUBMIT_DIR=$PWD bash "$job" "$@" >> "$SBATCH_LOG" 2>&1 || true
done
echo $RANDOM
EOF
    chmod +x "$D/bin/sbatch"
    PATH=$D/bin:$PATH SBATCH_LOG=$D/jobs.log scripts/sweep.slurm submit params/default.h --name test_sweep \
        --set dt=1e-4,1e-2 --seeds 1,2 --out "$D/slurm" -- -n 2 -s 50 > "$D/submit.log" 2>&1 || fail "sweep.slurm submit failed"
    grep -q '^sweep.slurm: 4 runs' "$D/submit.log" || fail "sweep.slurm did not submit 4 runs"
    [ "$(wc -l < "$D/slurm/summary.csv")" = 5 ] || fail "not 4 rows in the Slurm sweep's summary.csv"
    has "$D/slurm/summary.txt" "2 of 4 runs ok"
}

# scripts/sweep.py builds one program for a sweep of two values and two seeds (make is called
# once: a stand-in make first on PATH counts the calls), with no folder per variant, and each run
# gets its values as --set: the frames name the parameter set and hold its value, the runs differ.
test_scripts_sweep_builds_once() {
    need_python3
    local real
    real=$(command -v make)
    mkdir "$D/bin"
    printf '#!/bin/sh
echo "$*" >> "%s/make.calls"
exec "%s" "$@"
' "$D" "$real" > "$D/bin/make"
    chmod +x "$D/bin/make"
    rm -rf build/sweep/test_sweep_once
    PATH=$D/bin:$PATH scripts/sweep.py params/default.h --name test_sweep_once --set gamma=1e3,2e3 --seeds 1,2 -j 2 \
        --out "$D/s" -- -n 1 -s 20 > "$D/log" 2>&1 || fail "the sweep failed: $(cat "$D/log")"
    [ "$(wc -l < "$D/make.calls")" = 1 ] || fail "make was called $(wc -l < "$D/make.calls") times: $(cat "$D/make.calls")"
    has "$D/make.calls" "PARAMS=params/default.h build/sweep/test_sweep_once/polyhoop"
    has "$D/log" "sweep test_sweep_once: 1 build (build/sweep/test_sweep_once), 2 variants, 4 runs" "4 of 4 runs ok"
    [ "$(ls build/sweep/test_sweep_once | grep -c gamma)" = 0 ] || fail "a folder per variant: $(ls build/sweep/test_sweep_once)"
    has "$D/s/gamma_2e3-seed2/result.json" '"--set"' '"gamma=2e3"'
    has "$D/s/gamma_2e3-seed2/frame000001.vtp" "parameters: params/default.h" "set: gamma" "  gamma     = 2000"
    has "$D/s/gamma_1e3-seed1/frame000001.vtp" "set: gamma" "  gamma     = 1000"
    ! cmp -s "$D/s/gamma_1e3-seed1/frame000001.vtp" "$D/s/gamma_2e3-seed1/frame000001.vtp" || fail "the variants wrote the same frame"
    rm -rf build/sweep/test_sweep_once
}

# scripts/plot_log.py draws a column of observables.csv as one polyline with a point per row,
# and cumulative event counts from events.csv; an unknown column is an error naming it.
test_scripts_plot_log() {
    need_python3
    printf 'frame,step,time,polygons\n0,0,0,1\n1,10,0.5,2\n2,20,1,4\n' > "$D/obs.csv"
    printf 'step,time,event,before,after\n5,0.25,division,0,2 1\n15,0.75,death,2,\n' > "$D/ev.csv"
    scripts/plot_log.py "$D/obs.csv" polygons --log -o "$D/a.svg"
    scripts/plot_log.py "$D/ev.csv" division death -o "$D/b.svg"
    [ "$(grep -c '<polyline' "$D/a.svg")" = 1 ] || fail "not one polyline in a.svg"
    grep '<polyline' "$D/a.svg" | grep -q 'points="[0-9.]*,[0-9.]* [0-9.]*,[0-9.]* [0-9.]*,[0-9.]*"' || fail "not 3 points"
    [ "$(grep -c '<polyline' "$D/b.svg")" = 2 ] || fail "not two polylines in b.svg"
    if scripts/plot_log.py "$D/obs.csv" nosuch -o "$D/c.svg" 2> "$D/err"; then fail "an unknown column was drawn"; fi
    has "$D/err" "no column 'nosuch'"
    # the title (the log's path) and the legend are XML-escaped: a folder named a&<b> gives an
    # SVG that parses, with the path as its title (before: malformed)
    mkdir "$D/a&<b>"
    cp "$D/ev.csv" "$D/obs.csv" "$D/a&<b>/"
    scripts/plot_log.py "$D/a&<b>/ev.csv" division -o "$D/d.svg"
    scripts/plot_log.py "$D/a&<b>/obs.csv" polygons -o "$D/e.svg"
    for f in d e; do
        python3 -c 'import sys, xml.etree.ElementTree as E; t = E.parse(sys.argv[1]).getroot()[1].text
assert t.endswith("/a&<b>/" + sys.argv[2]), t' "$D/$f.svg" "$([ $f = d ] && echo ev.csv || echo obs.csv)" || fail "$f.svg: see above"
    done
    # every event of src/ensemble.h is drawn; a misspelt one is refused naming them (before: a flat line at 0)
    local e n=0
    for e in $(grep -o 'X(EVENT_[A-Z]*, "[a-z]*")' src/ensemble.h | sed 's/.*"\([a-z]*\)")/\1/'); do
        scripts/plot_log.py "$D/ev.csv" "$e" -o "$D/f.svg" || fail "event $e refused"
        n=$((n + 1))
    done
    [ $n = 6 ] || fail "$n events in src/ensemble.h"
    status 2 errs "$D/err" scripts/plot_log.py "$D/ev.csv" divison -o "$D/g.svg"
    has "$D/err" "plot_log.py: no event 'divison' (the events are: division, removal, death, fusion, split, passage)"
    [ "$(wc -l < "$D/err")" = 1 ] && [ ! -e "$D/g.svg" ] || fail "not refused in one line, or a picture written"
}

# scripts/compare_reference.py on runs too young for interior cells (4 frames of 100 steps: 2
# cells): the interior means are "none", with a note, and null in --json (before: KeyError
# 'mean'), exit status 0; a frame that is not there (--frame 7) is exit status 1 naming it, as is
# a run that fails, with the program's error line (before: its last, the -h hint).
test_scripts_compare_reference_small_runs() {
    need_python3
    local st=0
    scripts/compare_reference.py --program tests/polyhoop --seeds 1,2 --jobs 1 --keep "$D/k" -- -n 3 -s 100 > "$D/out" 2> "$D/err" || st=$?
    [ $st = 0 ] || fail "exit status $st: $(tail -n 3 "$D/err")"
    lacks "$D/err" Traceback
    matches "$D/out" '^neighbours, interior  *none$' '^  interior cells  *none$' '^cells  *2 \[2, 2\]$'
    has "$D/out" "note: interior_neighbors_mean: none in 2 of 2 runs"
    scripts/compare_reference.py --runs "$D/k/seed1" --ref "$D/k/seed2" --json > "$D/json"
    python3 -c 'import json, sys; q = json.load(open(sys.argv[1]))["pooled"]["interior_neighbors_mean"]
assert q["mean"] is None and q["n"] == 0 and q["none"] == 1 and q["ref_none"] == 1, q' "$D/json" || fail "--json: see above"
    st=0
    scripts/compare_reference.py --runs "$D/k/seed1" --frame 7 > /dev/null 2> "$D/err" || st=$?
    [ $st = 1 ] || fail "a missing frame: exit status $st"
    has "$D/err" "compare_reference: $D/k/seed1: no frame 7 (the frames there are: 0-3)"
    st=0
    scripts/compare_reference.py --program tests/polyhoop --seeds 1 --jobs 1 -- -n 3 -s 100 --bogus > /dev/null 2> "$D/err" || st=$?
    [ $st = 1 ] || fail "a failed run: exit status $st"
    has "$D/err" "compare_reference: seed 1 exited 2: polyhoop: unknown option '--bogus'"
}

# Piped into head, scripts/tissue_stats.py and compare_reference.py stop without a traceback
# (before: BrokenPipeError and its stack on stderr).
test_scripts_stats_piped_into_head() {
    need_python3
    tests/polyhoop -q -j 1 -n 20 -s 1000 -o "$D/run" > /dev/null
    scripts/tissue_stats.py "$D/run" --frames 0:20 --json 2> "$D/err" | head -c 10 > /dev/null || true   # (status 1: stopped early)
    [ ! -s "$D/err" ] || fail "tissue_stats.py into head: $(cat "$D/err")"
    scripts/compare_reference.py --runs "$D/run" "$D/run" "$D/run" "$D/run" --json 2> "$D/err" | true || true   # (a reader gone at once)
    [ ! -s "$D/err" ] || fail "compare_reference.py into head: $(cat "$D/err")"
}

# scripts/tissue_stats.py --growth counts cells as every figure does, without the rigid polygons:
# a tissue of 7 cells in a rigid ring reaches 4 cells, not 8 (before, the ring counted), by the
# Nr of the frame's parameters or, in a frame without them, by its rigid array.
test_scripts_tissue_stats_growth_without_rigid() {
    need_python3
    scripts/make_tissue.py 7 "$D/t.off" --wall > /dev/null
    tests/polyhoop -q -j 1 -n 1 -s 10 --set Nr=1 --set Amax_mu=INFINITY -o "$D/run" "$D/t.off" > /dev/null
    scripts/tissue_stats.py "$D/run" --growth > "$D/out"
    has "$D/out" "cells 7 " "1 rigid polygons left out"
    matches "$D/out" '^first frame with N cells: 2:0  4:0$'
    mkdir "$D/bare"
    grep -av '^  Nr ' "$D/run/frame000001.vtp" > "$D/bare/frame000001.vtp"
    scripts/tissue_stats.py "$D/bare" --growth --json > "$D/json"
    python3 -c 'import json, sys; g = json.load(open(sys.argv[1]))["growth"]; assert g == {"2": 1, "4": 1}, g' "$D/json" ||
        fail "without Nr: see above"
}

# The scripts that import others of scripts/ (compare_reference.py: tissue_stats and
# polyhoop_read; make_inputs.py: make_tissue and make_hex) leave no __pycache__/ beside them,
# with Python free to write bytecode (before, both did); run from a copy of scripts/.
test_scripts_no_pycache() {
    need_python3
    cp -rL scripts "$D/s"
    rm -rf "$D/s/__pycache__"
    tests/polyhoop -q -j 1 -n 1 -s 10 -o "$D/run" > /dev/null
    env -u PYTHONDONTWRITEBYTECODE -u PYTHONPYCACHEPREFIX "$D/s/compare_reference.py" --runs "$D/run" > /dev/null
    env -u PYTHONDONTWRITEBYTECODE -u PYTHONPYCACHEPREFIX "$D/s/make_inputs.py" --dir "$D/in" foam hex_packing > /dev/null
    env -u PYTHONDONTWRITEBYTECODE -u PYTHONPYCACHEPREFIX "$D/s/tissue_stats.py" "$D/run" > /dev/null
    env -u PYTHONDONTWRITEBYTECODE -u PYTHONPYCACHEPREFIX "$D/s/plot_log.py" "$D/run/observables.csv" polygons -o "$D/p.svg"
    [ ! -e "$D/s/__pycache__" ] || fail "scripts/__pycache__ written: $(ls "$D/s/__pycache__" | tr '\n' ' ')"
    grep -qx '__pycache__/' .gitignore || fail ".gitignore does not leave out __pycache__/"
}

# The bench's reading of a run's summary (the table's columns come from it): on a real run's
# output, the compute time is the sum of the phases but output (however small: no bound on a
# time, which a fast machine undercuts), the shares add up to 100 %, the
# memory is the given peak in MB, and ns per edge is the contact time over the listed edges walked
# (to the 3 digits it is printed with: 0.6 %); and it writes nothing but its line (an awk "> 0"
# among printf's arguments once wrote a file "0").
test_scripts_bench_parses_summary() {
    command -v awk > /dev/null || skip "no awk"
    tests/polyhoop -q -j 1 -n 20 -o "$D/run" > "$D/log" 2>&1 || fail "the run failed"
    (cd "$D" && "$OLDPWD/scripts/bench.sh" --parse log 1 20480) > "$D/csv" || fail "--parse failed"
    [ "$(ls "$D")" = "$(printf 'csv\nlog\nrun')" ] || fail "--parse left files: $(ls "$D" | tr '\n' ' ')"
    awk -F, -v lf="$D/log" '
        BEGIN { while ((getline l < lf) > 0) { n = split(l, f, " ")
                    if (l ~ /^  [a-z].* %$/ && f[1] != "output") { k++; comp += f[n - 3]; if (f[1] == "contact") c = f[n - 3] }
                    if (l ~ /^contact list:/) for (i = 1; i <= n; i++) if (f[i] == "listed") w = f[i - 1]
                    if (l ~ /^done:/) for (i = 1; i <= n; i++) if (f[i] == "vertices" && f[i + 1] == "at") nv = f[i - 1] } }
        { if (NF != 13) { print "not 13 fields: " $0; exit 1 }
          if ($2 - comp > 1e-6 || comp - $2 > 1e-6 || k < 6) { print "compute " $2 " is not the sum " comp " of the " k " phases"; exit 1 }
          if ($5 != "20.0") { print "memory " $5 " MB, not 20.0"; exit 1 }
          if ($6 != nv || nv < 100) { print "vertices " $6 ", the run ended with " nv; exit 1 }
          s = $7 + $8 + $9 + $10 + $11 + $12; if (s < 99.5 || s > 100.5) { print "shares add up to " s; exit 1 }
          want = 1e9 * c / w; if (w < 1000 || $13 < 0.994 * want || $13 > 1.006 * want) { print "ns per edge " $13 ", not " want; exit 1 } }
    ' "$D/csv" > "$D/why" || fail "$(cat "$D/why")"
}


# The bench's scenario table: each of the eleven names gives an existing parameter header and
# arguments whose input file, if any, the repository has or `bench.sh --inputs` makes (run in a
# copy of scripts/ with links followed, as make check runs the tests where scripts/ is a link;
# about 3 s); an unknown name and a REPEATS that is not a positive integer are
# refused before any build.
test_scripts_bench_scenarios_and_refusals() {
    need_python3
    cp -rL scripts "$D/" && (cd "$D" && scripts/bench.sh --inputs) > "$D/log" 2>&1 || fail "--inputs failed: $(tail -n 3 "$D/log")"
    n=0
    for name in default gradient hex2500 hex10000 foam tissue3000 tissue3000_static hex400 sparse sparse_near ring; do
        mapfile -t def < <(scripts/bench.sh --scenario "$name") || fail "no scenario $name"
        [ -f "${def[0]}" ] || fail "$name: header '${def[0]}' is not a file"
        for a in "${def[@]:1}"; do
            case "$a" in
                build-bench/*.off) grep -q '^OFF' "$D/$a" 2> /dev/null || fail "$name: --inputs made no OFF file $a" ;;
                *.off) [ -f "$a" ] || fail "$name: no input $a" ;;
            esac
        done
        n=$((n + 1))
    done
    [ $n = 11 ] || fail "$n scenarios"
    out=$(scripts/bench.sh 1 nosuch 2>&1) && fail "an unknown scenario was accepted"
    printf '%s' "$out" | grep -q "no scenario 'nosuch'" || fail "unknown scenario: $out"
    out=$(scripts/bench.sh x 2>&1) && fail "REPEATS x was accepted"
    printf '%s' "$out" | grep -q "positive integer" || fail "REPEATS x: $out"
    [ ! -e bench/results.csv ] || [ bench/results.csv -ot "$D" ] || fail "a refused bench wrote bench/results.csv"
}

# scripts/compare.sh refuses an unknown scenario, an unknown revision and a round count of 0 with
# what it did not know, before it builds anything.
test_scripts_compare_refusals() {
    out=$(scripts/compare.sh HEAD WORK nosuch 2>&1) && fail "an unknown scenario was accepted"
    printf '%s' "$out" | grep -q "no scenario 'nosuch'" || fail "unknown scenario: $out"
    out=$(scripts/compare.sh no-such-revision WORK hex400 2>&1) && fail "an unknown revision was accepted"
    printf '%s' "$out" | grep -q "no revision 'no-such-revision'" || fail "unknown revision: $out"
    out=$(scripts/compare.sh -r 0 HEAD WORK 2>&1) && fail "-r 0 was accepted"
    printf '%s' "$out" | grep -q "positive integers" || fail "-r 0: $out"
}

# The working tree against itself (two builds): the same frames, a fastest and a median for each
# version, ratios near 1 (the same program: within this machine's noise, a factor 2 either way),
# about the same memory per vertex.
test_scripts_compare_work_against_itself() {
    need_python3
    scripts/compare.sh -r 2 WORK WORK hex400 > "$D/out" 2>&1 || fail "compare failed: $(tail -n 3 "$D/out")"
    grep -q "^A = WORK, B = WORK': 2 rounds" "$D/out" || fail "no heading: $(head -n 2 "$D/out")"
    grep -q "^  frames   identical$" "$D/out" || fail "frames: $(grep frames "$D/out")"
    awk '/^  (compute|contact) / { n++; if ($3 <= 0 || $4 < $3 || $6 <= 0 || $7 < $6 || $9 < 0.5 || $9 > 2) { print "bad line: " $0; exit 1 } }
         /^  memory / { a = $3 + 0; b = $5 + 0; if (a < 50 || b < 0.95 * a || b > 1.05 * a) { print "memory: " $0; exit 1 } }
         END { if (n != 2) { print n " time lines"; exit 1 } }' "$D/out" > "$D/why" || fail "$(cat "$D/why")"
}

run_file "$@"
