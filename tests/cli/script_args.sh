#!/usr/bin/env bash
# The Python scripts given bad arguments: each is refused with one line on stderr (no Python
# traceback, no usage block) and exit status 2, and nothing is written; --help still exits 0.
source "$(dirname "$0")/lib.sh"

# refused CMD...: CMD exits 2 with exactly one line on stderr and no traceback
refused() {
    local st=0
    "$@" > "$D/out" 2> "$D/err" || st=$?
    [ "$st" = 2 ] || fail "exit status $st, expected 2: $* ($(head -c 400 "$D/err"))"
    [ "$(wc -l < "$D/err")" = 1 ] || fail "not one line on stderr: $*: $(head -c 600 "$D/err")"
    lacks "$D/err" Traceback
}

need_python3() { command -v python3 > /dev/null || skip "python3 is not on PATH"; }

# every script that these tests cover prints its help and exits 0
test_script_args_help_exits_0() {
    need_python3
    local s
    for s in make_hex make_tissue plot_log tissue_stats sweep; do
        scripts/$s.py --help > "$D/help" 2>&1 || fail "$s.py --help exited $?"
        has "$D/help" "usage:"
    done
}

# make_hex.py: h not finite or negative, N out of range or not a number, a missing folder, an
# output that is a folder; h = 0 and the default are fine
test_script_args_make_hex() {
    need_python3
    local h
    for h in nan -1 inf -inf -0.5 1e308 x; do
        refused scripts/make_hex.py 4 "$D/hex.off" "$h"
    done
    refused scripts/make_hex.py 0 "$D/hex.off"
    refused scripts/make_hex.py 10000000 "$D/hex.off"
    refused scripts/make_hex.py x "$D/hex.off"
    refused scripts/make_hex.py 4 "$D/no/such/folder/hex.off"
    has "$D/err" "no folder"
    refused scripts/make_hex.py 4 "$D"
    [ ! -e "$D/hex.off" ] || fail "a refused make_hex.py wrote its output"
    scripts/make_hex.py 4 "$D/hex.off" 0 > /dev/null
    scripts/make_hex.py 4 "$D/hex2.off" > /dev/null
    tests/polyhoop -q -j 1 -n 0 -o "$D/run" "$D/hex2.off" > /dev/null
}

# make_inputs.py --speed: a jet speed that is not finite (inf, nan, or one whose speeds up to 1.2
# times it are not), not > 0, or without the projectiles alone is refused, and nothing written
# (before, --speed inf wrote velocities "inf"); a finite one writes the jet
test_script_args_make_inputs_speed() {
    need_python3
    local v
    for v in inf nan -inf 1.6e308 0 -1 x; do
        refused scripts/make_inputs.py --dir "$D/p" --speed=$v projectiles
    done
    refused scripts/make_inputs.py --dir "$D/p" --speed=inf projectiles
    has "$D/err" "make_inputs.py: --speed inf: the jet's mean speed must be a finite number > 0 (L/T)"
    refused scripts/make_inputs.py --dir "$D/p" --speed 3 foam
    has "$D/err" "--speed goes with the projectiles alone"
    [ ! -e "$D/p" ] || fail "a refused make_inputs.py wrote: $(ls "$D/p")"
    scripts/make_inputs.py --dir "$D/p" --speed 3 projectiles > /dev/null
    awk 'NR > 1 && !($2 >= 2.4 && $2 <= 3.6) { bad = 1 } END { exit bad }' "$D/p/projectiles.vel" ||
        fail "speeds not within 20 % of 3: $(head -n 3 "$D/p/projectiles.vel")"
}

# make_tissue.py: sizes that are not finite or out of range, a gap that leaves no cell, an lmax
# that would make billions of vertices, a missing folder
test_script_args_make_tissue() {
    need_python3
    local bad
    for bad in "--mean nan" "--mean inf" "--mean -1" "--mean 1e308" "--jitter nan" "--jitter 0.5" \
        "--gap -1" "--gap inf" "--gap 100" "--lmax nan" "--lmax 0" "--lmax 1e-9" "--seed x"; do
        refused scripts/make_tissue.py 10 "$D/t.off" $bad
    done
    refused scripts/make_tissue.py 0 "$D/t.off"
    refused scripts/make_tissue.py 10 "$D/no/such/t.off"
    has "$D/err" "no folder"
    [ ! -e "$D/t.off" ] || fail "a refused make_tissue.py wrote its output"
    scripts/make_tissue.py 10 "$D/t.off" --wall > /dev/null
}

# plot_log.py: a missing file or folder, a binary file, garbled CSV (a value that is not a number,
# a short row, no time column), an output in a missing folder
test_script_args_plot_log() {
    need_python3
    printf 'frame,step,time,polygons\n0,0,0,1\n1,10,0.5,2\n' > "$D/obs.csv"
    head -c 2000 tests/polyhoop > "$D/binary.csv"
    head -c 2000 /dev/urandom | tr -d '\000' > "$D/noise.csv"
    printf 'frame,step,time,polygons\n0,0,abc,1\n' > "$D/nan.csv"
    printf 'frame,step,time,polygons\n0,0,0\n' > "$D/short.csv"
    printf 'a,b\n1,2\n' > "$D/notime.csv"
    printf 'step,time,event,before,after\n1,x,division,0,1 2\n' > "$D/events.csv"
    local f
    for f in "$D/none.csv" "$D/no/folder.csv" "$D" "$D/binary.csv" "$D/noise.csv" "$D/nan.csv" "$D/short.csv" \
        "$D/notime.csv" "$D/events.csv"; do
        refused scripts/plot_log.py "$f" polygons -o "$D/p.svg"
    done
    refused scripts/plot_log.py "$D/obs.csv" nosuch -o "$D/p.svg"
    refused scripts/plot_log.py "$D/obs.csv" polygons -o "$D/no/folder/p.svg"
    refused scripts/plot_log.py "$D/obs.csv" polygons
    [ ! -e "$D/p.svg" ] || fail "a refused plot_log.py wrote its picture"
    scripts/plot_log.py "$D/obs.csv" polygons -o "$D/p.svg"
    has "$D/p.svg" "<polyline"
}

# tissue_stats.py: a missing folder, one without frames, truncated, binary and garbled frames, a
# bad --reach or --frames
test_script_args_tissue_stats() {
    need_python3
    tests/polyhoop -q -j 1 -n 1 -s 200 -o "$D/run" > /dev/null
    mkdir "$D/empty" "$D/cut" "$D/text" "$D/noise" "$D/flipped"
    head -c 2500 "$D/run/frame000001.vtp" > "$D/cut/frame000001.vtp"
    echo hello > "$D/text/frame000001.vtp"
    head -c 4000 /dev/urandom > "$D/noise/frame000001.vtp"
    # the frame with 50 bytes of its compressed data overwritten
    local at
    at=$(grep -abo '<AppendedData encoding="raw">' "$D/run/frame000001.vtp" | cut -d: -f1)
    cp "$D/run/frame000001.vtp" "$D/flipped/"
    printf '%050d' 0 | dd of="$D/flipped/frame000001.vtp" bs=1 seek=$((at + 300)) conv=notrunc 2> /dev/null
    local d
    for d in "$D/none" "$D/empty" "$D/cut" "$D/text" "$D/noise" "$D/flipped"; do
        refused scripts/tissue_stats.py "$d"
    done
    for bad in "--reach nan" "--reach -1" "--reach inf" "--frames x" "--frames 7" "--bogus"; do
        refused scripts/tissue_stats.py "$D/run" $bad
    done
    scripts/tissue_stats.py "$D/run" > "$D/stats"
    has "$D/stats" "frame 1"
}

# sweep.py: negative or repeated seeds, a value that is not a number, a value given twice (two
# runs, one folder), a base that is not a parameter header: refused, also under --list; nothing
# is built or run
test_script_args_sweep() {
    need_python3
    local bad S="scripts/sweep.py --out $D/sweep --name test_script_args"
    for bad in "params/foam.h --seeds -1" "params/foam.h --seeds=-1" "params/foam.h --seeds 1,1" \
        "params/foam.h --seeds 1,x" "params/foam.h --seeds 2147483648" "params/foam.h --set dt=abc" \
        "params/foam.h --set dt=nan" "params/foam.h --set dt=1e-4,1e-4" "params/foam.h --set dt=1e-4,0.0001" \
        "params/foam.h --set Nf=1.5" "params/foam.h --threads 0" "README.md" "Makefile" "polyhoop" \
        "$D/none.h"; do
        refused $S $bad --list
        refused $S $bad
    done
    [ ! -e "$D/sweep" ] || fail "a refused sweep wrote into its folder"
    [ ! -e build/sweep/test_script_args ] || fail "a refused sweep built something"
    $S params/foam.h --set Amax_mu=INFINITY,5 --seeds 0,2 --list > "$D/list" 2> /dev/null
    [ "$(wc -l < "$D/list")" = 4 ] || fail "the good sweep does not list 4 runs: $(cat "$D/list")"
}

# sweep.py: options after -- (for every run) that contradict the sweep's own are refused, one line
# naming the option and why, also under --list, and nothing is built or run: -o and --restart
# (one folder for every run: before, two runs wrote into one and one's frames replaced the
# other's), --overwrite, --seed and -j (the sweep gives them), a --set of a swept parameter (also
# as P_NAME), -n or -s with Nf or Ns swept (summary.csv would record a value the run did not use),
# -h, an input. The options that agree with the sweep go through.
test_script_args_sweep_contradicting_options() {
    need_python3
    local S="scripts/sweep.py --out $D/sweep --name test_script_args params/foam.h --set gamma=1e2,1e3 --set Nf=1,2"
    refused $S --list -- -s 10 -o "$D/o"
    has "$D/err" "sweep.py: -o $D/o after --: every run writes into a folder of its own" "they would all write into one"
    refused $S -- -s 10 -o "$D/o"   # (without --list: before anything is built)
    refused $S -- --set gamma=5e2
    has "$D/err" "sweep.py: --set gamma=5e2 after --: gamma is swept" "summary.csv would record values that the runs did not use"
    refused scripts/sweep.py params/foam.h --set Ns=10,20 --list -- -s 10
    has "$D/err" "sweep.py: -s 10 after --: Ns is swept"
    [ ! -e "$D/sweep" ] || fail "a refused sweep wrote into its folder"
    [ ! -e build/sweep/test_script_args ] || fail "a refused sweep built something"
    $S --list -- -s 10 --set kh=25 --checkpoint-every 2 --ascii -q > "$D/list" || fail "agreeing options refused"
    [ "$(wc -l < "$D/list")" = 4 ] || fail "not 4 runs: $(cat "$D/list")"
    # (the others, as the sweep finds them)
    python3 - << 'PY' || fail "see above"
import sys
sys.path.insert(0, "scripts")
import sweep
swept = ["gamma", "Nf"]
for extra, want in (("-o /tmp/one", "-o /tmp/one after --: every run writes into a folder of its own"),
                    ("--restart /tmp/one", "--restart /tmp/one after --: every run would continue the run in one folder"),
                    ("--overwrite", "--overwrite after --: the sweep gives it itself"),
                    ("--seed 3", "--seed 3 after --: each run gets its seed from --seeds; summary.csv would record"),
                    ("-j 2", "-j 2 after --: the threads of each run are --threads N"),
                    ("--set P_gamma=5e2", "--set P_gamma=5e2 after --: gamma is swept"),
                    ("--set Nf=3", "--set Nf=3 after --: Nf is swept"), ("-n 3", "-n 3 after --: Nf is swept"),
                    ("-h", "-h after --: every run would print polyhoop's help"),
                    ("-s 10 other.txt", "give the input with --input FILE, not after -- (other.txt)"),
                    ("-s 10 -- -o.off", "give the input with --input FILE, not after -- (-o.off)")):
    got = sweep.contradiction(extra.split(), swept)
    if got is None or not got.startswith(want):
        sys.exit("%s: %r, expected %r..." % (extra, got, want))
for extra in ("-s 10 --set kh=25 --png-color -j", "--velocities v.txt --max-vertices 100 -q", "-s 5 --max-time 2", ""):
    if sweep.contradiction(extra.split(), swept) is not None:
        sys.exit("%s refused: %s" % (extra, sweep.contradiction(extra.split(), swept)))
PY
}

run_file "$@"
