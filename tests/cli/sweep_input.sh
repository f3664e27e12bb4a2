#!/usr/bin/env bash
# scripts/sweep.py's input: every run gets the input of the base header's showcase (or --input),
# recorded in result.json; a failed run's or build's first error line is in result.json and
# summary.txt; more seeds than one on a deterministic header give a warning.
source "$(dirname "$0")/lib.sh"
export PYTHONDONTWRITEBYTECODE=1   # (the tests import modules of scripts/: no scripts/__pycache__/)

need_python3() { command -v python3 > /dev/null || skip "python3 is not on PATH"; }

# json FILE KEY: the value of KEY in the JSON object of FILE, printed by Python
json() { python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))[sys.argv[2]])' "$1" "$2"; }

# field SUMMARY RUN COLUMN: the value of COLUMN in RUN's row of a summary.csv
field() {
    python3 -c 'import csv, sys; print([r for r in csv.DictReader(open(sys.argv[1])) if r["run"] == sys.argv[2]][0][sys.argv[3]])' "$@"
}

# end_sweep PID: ends a sweep that a failed test left running, and the runs that it started (each
# in a session of its own, which the sweep's end does not reach)
end_sweep() {
    local runs
    runs=$(pgrep -P "$1" || true)
    kill -KILL "$1" 2> /dev/null || true
    [ -z "$runs" ] || kill -KILL $runs 2> /dev/null || true
}

# wait_for FILE: waits (at most 60 s: the build, if it is not there yet, then the first frames)
# until FILE exists
wait_for() {
    local k
    for k in $(seq 1200); do [ ! -e "$1" ] || return 0; sleep 0.05; done
    return 1
}

# The documented example, shortened to one frame of 10 steps: foam's walls (Nr = 3) need
# inputs/foam.off, which every run now gets; the four runs succeed, with a warning that foam is
# deterministic. (Before, each run failed on the default one-cell input.)
test_sweep_input_documented_example() {
    need_python3
    local st=0 k
    scripts/sweep.py params/foam.h --name test_sweep_foam --set gamma=1e2,1e3 --seeds 1,2 -j 1 --out "$D/s" \
        -- -n 1 -s 10 > "$D/log" 2> "$D/err" || st=$?
    [ $st = 0 ] || { cat "$D/log" "$D/err" >&2; fail "the documented sweep exited $st"; }
    has "$D/s/summary.txt" "4 of 4 runs ok"
    has "$D/log" "input inputs/foam.off (showcase foam)"
    has "$D/err" "warning: params/foam.h is deterministic" "identical except for their seed"
    [ "$(wc -l < "$D/err")" = 1 ] || fail "more than the warning on stderr: $(cat "$D/err")"
    for k in gamma_1e2-seed1 gamma_1e2-seed2 gamma_1e3-seed1 gamma_1e3-seed2; do
        [ "$(json "$D/s/$k/result.json" input)" = "$PWD/inputs/foam.off" ] || fail "$k: input $(json "$D/s/$k/result.json" input)"
        [ "$(json "$D/s/$k/result.json" command | grep -o "'[^']*'\]$")" = "'$PWD/inputs/foam.off']" ] ||
            fail "$k: the input is not the command's last argument"
        [ -f "$D/s/$k/frame000001.vtp" ] || fail "$k: no frame 1"
        [ "$(json "$D/s/$k/result.json" error)" = None ] || fail "$k: an error recorded for a good run"
    done
}

# --input replaces the default; a run that fails on it (foam's Nr = 3 walls, one polygon) has
# its first error line in result.json and summary.txt
test_sweep_input_given_and_error_line() {
    need_python3
    local st=0 want="Nr = 3 rigid polygons requested but the input has only 1"
    scripts/sweep.py params/foam.h --name test_sweep_foam --set gamma=1e3 --input inputs/ensemble.off -j 1 \
        --out "$D/s" -- -n 1 -s 10 > "$D/log" 2> "$D/err" || st=$?
    [ $st = 1 ] || fail "a sweep whose run failed exited $st"
    [ "$(json "$D/s/gamma_1e3-seed1/result.json" input)" = "$PWD/inputs/ensemble.off" ] || fail "--input not recorded"
    [ "$(json "$D/s/gamma_1e3-seed1/result.json" input_from)" = "--input" ] || fail "--input's source not recorded"
    json "$D/s/gamma_1e3-seed1/result.json" error > "$D/error"
    has "$D/error" "polyhoop: " "$want"
    has "$D/s/summary.txt" "gamma_1e3-seed1: polyhoop: " "$want" "0 of 1 runs ok"
    lacks "$D/err" "warning"   # one seed: no warning
}

# a base header that does not compile: its first compiler error is the run's error line; a
# variant whose values the program refuses: the program's line
test_sweep_input_build_error_line() {
    need_python3
    local st=0
    printf '#include "%s/params/default.h"\n#undef P_lmin\n#define P_lmin 0.2\n' "$PWD" > "$D/bad.h"
    scripts/sweep.py "$D/bad.h" --name test_sweep_bad --set gamma=1e3 --out "$D/b" --task 0 > "$D/log" 2>&1 || st=$?
    [ $st = 1 ] || fail "a failed build exited $st"
    json "$D/b/gamma_1e3-seed1/result.json" error > "$D/error"
    has "$D/error" "the build failed" "error:" "lmax must be > 2 lmin"
    scripts/sweep.py "$D/bad.h" --name test_sweep_bad --set gamma=1e3 --out "$D/b" --summarise > /dev/null || true
    has "$D/b/summary.txt" "gamma_1e3-seed1: the build failed" "lmax must be > 2 lmin"
    st=0
    # (the frames of an earlier run in its folder are not the refused run's: no counts from them)
    tests/polyhoop -q -j 1 -n 1 -s 10 -o "$D/r/lmin_0.2-seed1" > /dev/null
    scripts/sweep.py params/default.h --name test_sweep --set lmin=0.2 --out "$D/r" --task 0 > "$D/log" 2>&1 || st=$?
    [ $st = 1 ] || fail "a refused run exited $st"
    json "$D/r/lmin_0.2-seed1/result.json" error > "$D/error"
    has "$D/error" "polyhoop: params/default.h with --set lmin=0.2: lmax must be > 2 lmin"
    [ "$(json "$D/r/lmin_0.2-seed1/result.json" exit)" = 2 ] || fail "the refused run's exit status is not 2"
    [ "$(json "$D/r/lmin_0.2-seed1/result.json" polygons)" = None ] || fail "a refused run has counts from an older run's frames"
}

# the final counts of a run (sweep.final_counts): its closing line, else the last frame that it
# wrote itself; the frames an earlier run left in its folder are not its own (before, a run
# refused at start showed 1 polygon and 40 vertices read from them)
test_sweep_input_counts_own_frames() {
    need_python3
    tests/polyhoop -q -j 1 -n 2 -s 10 -o "$D/r" > /dev/null
    python3 - "$D/r" << 'PY' || fail "see above"
import os, sys
sys.path.insert(0, "scripts")
import sweep
d = sys.argv[1]
open(os.path.join(d, "stdout.txt"), "w").write("")   # (a run refused at start: no closing line)
before = sweep.frame_files(d)
if len(before) != 3:
    sys.exit("frame_files: %s" % sorted(before))
if sweep.final_counts(d, before) != (None, None):
    sys.exit("counts from the frames of an earlier run: %s" % (sweep.final_counts(d, before),))
# a run that rewrote frame 1 and stopped without its closing line: frame 1 is its last
with open(os.path.join(d, "frame000001.vtp"), "rb") as f:
    data = f.read()
os.remove(os.path.join(d, "frame000001.vtp"))
with open(os.path.join(d, "frame000001.vtp"), "wb") as f:
    f.write(data.replace(b'NumberOfPoints="40"', b'NumberOfPoints="41"', 1))
if sweep.final_counts(d, before) != (1, 41):
    sys.exit("not the run's own last frame: %s" % (sweep.final_counts(d, before),))
open(os.path.join(d, "stdout.txt"), "w").write("done: ...; 2 polygons, 70 vertices at the end\n")
if sweep.final_counts(d, before) != (2, 70):
    sys.exit("not the closing line's counts: %s" % (sweep.final_counts(d, before),))
PY
}

# the seed warning: a deterministic header with two seeds (also only some variants of a sweep),
# not with one seed, not on a stochastic header (noise, or polygons drawn for the attractor), nor
# on one whose cells divide (a finite Amax_mu, also a cell type's: a round cell is cut along a
# random direction, so the default's runs differ by seed; before, it was called deterministic)
test_sweep_input_seed_warning() {
    need_python3
    scripts/sweep.py params/foam.h --seeds 1,2 --list > /dev/null 2> "$D/err"
    has "$D/err" "sweep.py: warning: params/foam.h is deterministic" "Amax_mu INFINITY: no division"
    scripts/sweep.py params/default.h --set Amax_mu=INFINITY --seeds 1,2,3 --list > /dev/null 2> "$D/err"
    has "$D/err" "params/default.h is deterministic" "its 3 seeds"
    scripts/sweep.py params/foam.h --set D=0,0.1 --seeds 1,2 --list > /dev/null 2> "$D/err"
    has "$D/err" "warning: variant D_0 of params/foam.h is deterministic"
    lacks "$D/err" "D_0.1"
    scripts/sweep.py params/foam.h --set Amax_mu=INFINITY,3 --seeds 1,2 --list > /dev/null 2> "$D/err"
    has "$D/err" "warning: variant Amax_mu_INFINITY of params/foam.h is deterministic"
    lacks "$D/err" "Amax_mu_3"
    printf '#include "%s/params/foam.h"\n#undef P_ntypes\n#define P_ntypes 2\n#define P_TYPE_Amax_mu { INFINITY, 3.0 }\n' "$PWD" > "$D/types.h"
    printf '#include "%s/params/foam.h"\n#undef P_ntypes\n#define P_ntypes 2\n#define P_TYPE_v0 { 0.0, 0.5 }\n' "$PWD" > "$D/crawl.h"
    local quiet
    for quiet in "params/foam.h --seeds 7" "params/population.h --seeds 1,2" "params/migration.h --seeds 1,2" \
        "tests/params_noise.h --seeds 1,2" "params/foam.h --set v0=0.5 --seeds 1,2" "params/default.h --seeds 1,2" \
        "params/default.h --set dt=1e-4 --seeds 1,2,3" "$D/types.h --seeds 1,2" "$D/crawl.h --seeds 1,2"; do
        scripts/sweep.py $quiet --list > /dev/null 2> "$D/err"
        [ ! -s "$D/err" ] || fail "$quiet: $(cat "$D/err")"
    done
    # (what the warning stands on: the default's runs of seeds 1 and 2 differ, without division not)
    local s
    for s in 1 2; do
        tests/polyhoop -q -j 1 -n 2 --seed $s -o "$D/d$s" > /dev/null
        tests/polyhoop -q -j 1 -n 2 -s 200 --set Amax_mu=INFINITY --seed $s -o "$D/n$s" > /dev/null
        grep -av '^seed: ' "$D/d$s/frame000002.vtp" > "$D/d$s.txt"
        grep -av '^seed: ' "$D/n$s/frame000002.vtp" > "$D/n$s.txt"
    done
    ! cmp -s "$D/d1.txt" "$D/d2.txt" || fail "the default's runs of seeds 1 and 2 are the same"
    cmp -s "$D/n1.txt" "$D/n2.txt" || fail "runs without division differ by seed"
}

# the default input of each showcase's header, as --list leaves it (nothing made), and an input
# after -- or one that cannot be read refused
test_sweep_input_defaults_and_refusals() {
    need_python3
    scripts/sweep.py params/foam.h --input "$D/none.off" --list > /dev/null 2> "$D/err" && fail "a missing --input was taken"
    has "$D/err" "is not a readable file"
    scripts/sweep.py params/foam.h --list -- -n 1 inputs/foam.off > /dev/null 2> "$D/err" && fail "an input after -- was taken"
    has "$D/err" "give the input with --input FILE"
    # params/organ.h's showcase runs inputs/ensemble.off; a header of one's own that includes
    # foam.h gets foam's input, one that includes default.h alone the program's default
    printf '#include "%s/params/foam.h"\n#undef P_gamma\n#define P_gamma 5e2\n' "$PWD" > "$D/mine.h"
    printf '#include "%s/params/default.h"\n' "$PWD" > "$D/plain.h"
    python3 - "$D" << 'PY' || fail "see above"
import sys
sys.path.insert(0, "scripts")
import sweep
def default(h):
    files = []
    sweep.header_macros(h, files=files)
    return sweep.default_input(files)
for h, want in (("params/foam.h", "inputs/foam.off"), ("params/organ.h", "inputs/ensemble.off"),
                ("params/emulsion.h", "inputs/emulsion.off"), (sys.argv[1] + "/mine.h", "inputs/foam.off")):
    got = default(h)[0]
    if got != sweep.ROOT + "/" + want:
        sys.exit("%s: default input %s, expected %s" % (h, got, want))
for h, show in (("params/migration.h", "migration"), ("params/projectiles.h", "projectiles")):
    if default(h)[1] != show:
        sys.exit("%s: not the generated input of showcase %s: %s" % (h, show, default(h)))
for h in ("params/default.h", "params/hex.h", sys.argv[1] + "/plain.h"):
    if default(h)[:2] != (None, None):
        sys.exit("%s: an input where the program's default is expected: %s" % (h, default(h)))
PY
}

# Ctrl-C (SIGINT) during a sweep: the running run gets one SIGINT (it stops after its step with a
# checkpoint), no other starts, and the summary of what ran is written and printed, the others
# "not run" (whatever an earlier sweep left in their folders), exit status 130, no traceback.
# Before: a KeyboardInterrupt traceback and no summary. (The sweep is started with SIGINT at its
# default: a background job of a script would inherit it ignored.)
test_sweep_input_interrupted() {
    need_python3
    local st=0 pid k
    mkdir -p "$D/s/gamma_2e3-seed1"
    echo '{"status": "ok"}' > "$D/s/gamma_2e3-seed1/result.json"   # (an earlier sweep's)
    python3 -c 'import os, signal, sys; signal.signal(signal.SIGINT, signal.SIG_DFL); os.execv(sys.argv[1], sys.argv[1:])' \
        scripts/sweep.py params/default.h --name test_sweep --set gamma=1e3,2e3 --seeds 1,2 -j 1 --out "$D/s" \
        -- -n 100000 -s 100 > "$D/log" 2> "$D/err" &
    pid=$!
    for k in $(seq 600); do   # (the build, if it is not there yet, then the first run's first frames)
        [ ! -e "$D/s/gamma_1e3-seed1/frame000002.vtp" ] || break
        sleep 0.1
    done
    [ -e "$D/s/gamma_1e3-seed1/frame000002.vtp" ] || { kill -TERM $pid; fail "the first run wrote no frames: $(cat "$D/log" "$D/err")"; }
    kill -INT $pid
    for k in $(seq 300); do kill -0 $pid 2> /dev/null || break; sleep 0.1; done
    if kill -0 $pid 2> /dev/null; then   # (still running: its runs end by these pids, then it)
        k=$(pgrep -P $pid || true)
        kill -KILL $pid
        [ -z "$k" ] || kill -TERM $k
        fail "the sweep did not stop within 30 s of a SIGINT: $(cat "$D/err")"
    fi
    wait $pid || st=$?
    [ $st = 130 ] || fail "an interrupted sweep exited $st: $(cat "$D/err")"
    lacks "$D/err" Traceback
    has "$D/err" "sweep.py: interrupted: 1 of 4 runs ran (1 of them stopped early), 3 not run"
    has "$D/log" "gamma_1e3-seed1: interrupted (exit 130"
    matches "$D/s/summary.txt" '^gamma_1e3-seed1  1e3    1     interrupted  130 ' '^gamma_2e3-seed1  2e3    1     not run$' "0 of 4 runs ok"
    has "$D/log" "0 of 4 runs ok"
    [ -e "$D/s/gamma_1e3-seed1/checkpoint.bin" ] || fail "the interrupted run left no checkpoint"
    has "$D/s/gamma_1e3-seed1/stderr.txt" "SIGINT"
    [ ! -e "$D/s/gamma_1e3-seed2" ] || fail "a run started after the interrupt"
}

# The error line of a failed run (sweep.run_error): polyhoop's first error line, never one of its
# warnings (three forms) nor its notices of a signal; with none, the signal that killed the run
# (before, a run killed by SIGSEGV had its Amin warning for its error), that stopped it, or its
# exit status.
test_sweep_input_error_line_picked() {
    need_python3
    python3 - "$D/stderr.txt" << 'PY' || fail "see above"
import sys
sys.path.insert(0, "scripts")
import sweep
amin = "polyhoop: in.off: warning: 1 of 2 polygons (the first: polygon 1) have an area below Amin = 0.01: the first step removes them"
dt = "polyhoop: warning: dt = 0.01 exceeds the stability limit 0.002 of the stiffest spring (kl): expect a blow-up"
cw = "in.off:6: warning: polygon 0 is clockwise; reversed to counter-clockwise"
blow = "polyhoop: numerical blow-up at t = 0.01 (step 1): polygon 0 (id 0) has a vertex at (nan, nan)"
asan = "==7==ERROR: AddressSanitizer: heap-buffer-overflow on address 0x602000000014"
sigint = "polyhoop: SIGINT: stopping after this step with a checkpoint (a second signal stops at once, without one)"
stopped = "polyhoop: stopped by signal 2 at t = 0.3 (step 3000); checkpoint written. Continue with: polyhoop --restart out"
second = "polyhoop: stopped by a second signal (SIGTERM); the frames and the checkpoint written before are intact"
for lines, status, want in (([amin], -11, "killed by signal 11 (SIGSEGV)"), ([dt, cw, amin], -9, "killed by signal 9 (SIGKILL)"),
                            ([dt, amin, cw, blow], 3, blow), ([cw, asan, blow], 3, blow), ([cw, asan], 1, asan),
                            ([amin, sigint, stopped], 130, "stopped by SIGINT (exit status 130)"),
                            ([sigint, second], 143, "stopped by SIGTERM (exit status 143)"),
                            ([amin], 4, "exit status 4, no error line on stderr"), ([], 1, "exit status 1, nothing on stderr")):
    with open(sys.argv[1], "w") as f:
        f.write("".join(l + "\n" for l in lines))
    got = sweep.run_error(sys.argv[1], status)
    if got != want:
        sys.exit("%s, status %d: %r, expected %r" % (lines, status, got, want))
PY
}

# A sweep whose runs print warnings first (polygon 1 of the input is below Amin; dt = 1e-2 is
# also past the stability limit): the run killed by SIGSEGV has "killed by signal 11 (SIGSEGV)"
# in summary.csv's error column (before: its Amin warning), the one that blows up its
# blow-up line.
test_sweep_input_error_not_a_warning() {
    need_python3
    local st=0 pid runs
    python3 -c 'import math
print("OFF\n43 2 0")
for k in range(40):
    print(math.cos(2 * math.pi * k / 40), math.sin(2 * math.pi * k / 40), 0)
print("5 5 0\n5.1 5 0\n5 5.1 0\n40 " + " ".join(map(str, range(40))) + "\n3 40 41 42")' > "$D/small.off"
    ulimit -c 0   # (no core file from the SIGSEGV below)
    scripts/sweep.py params/default.h --name test_sweep --set dt=1e-4,1e-2 --input "$D/small.off" -j 1 --out "$D/s" \
        -- -n 100000 -s 100 --set Amin=0.01 > "$D/log" 2> "$D/err" &
    pid=$!
    trap "end_sweep $pid" EXIT
    wait_for "$D/s/dt_1e-4-seed1/frame000002.vtp" || fail "the first run wrote no frames: $(cat "$D/log" "$D/err")"
    runs=$(pgrep -P $pid) || fail "no run of the sweep is running"
    kill -SEGV $runs
    wait $pid || st=$?
    trap - EXIT
    [ $st = 1 ] || fail "the sweep exited $st: $(cat "$D/err")"
    has "$D/s/dt_1e-4-seed1/stderr.txt" "polyhoop: $D/small.off: warning: 1 of 2 polygons (the first: polygon 1)"
    [ "$(field "$D/s/summary.csv" dt_1e-4-seed1 error)" = "killed by signal 11 (SIGSEGV)" ] ||
        fail "the killed run's error: $(field "$D/s/summary.csv" dt_1e-4-seed1 error)"
    [ "$(field "$D/s/summary.csv" dt_1e-4-seed1 status)" = failed ] || fail "the killed run is not failed"
    has "$D/s/summary.txt" "dt_1e-4-seed1: killed by signal 11 (SIGSEGV)"
    head -n 1 "$D/s/dt_1e-2-seed1/stderr.txt" | grep -q "warning: " || fail "the blown-up run printed no warning first"
    field "$D/s/summary.csv" dt_1e-2-seed1 error > "$D/error"
    matches "$D/error" '^polyhoop: numerical blow-up at t = '
}

# --resume after an interrupted sweep (Ctrl-C in the first long run; two short runs finished
# before it, one never started): the finished runs are kept untouched (the same files, inodes and
# times), the interrupted one continues from its checkpoint (polyhoop --restart: its first frames
# are not written again), the other starts, and every run's frames, frames.pvd and logs are the
# bytes of an uninterrupted sweep. Resuming with other arguments, or where no sweep was started,
# is refused.
test_sweep_input_resume() {
    need_python3
    local st=0 pid run f S="scripts/sweep.py params/default.h --name test_sweep --set Nf=2,60 --seeds 1,2 -j 1"
    python3 -c 'import os, signal, sys; signal.signal(signal.SIGINT, signal.SIG_DFL); os.execv(sys.argv[1], sys.argv[1:])' \
        $S --out "$D/s" -- -s 1000 > "$D/log" 2> "$D/err" &
    pid=$!
    trap "end_sweep $pid" EXIT
    wait_for "$D/s/Nf_60-seed1/frame000002.vtp" || fail "the long run wrote no frames: $(cat "$D/log" "$D/err")"
    kill -INT $pid
    wait $pid || st=$?
    trap - EXIT
    [ $st = 130 ] || fail "the interrupted sweep exited $st: $(cat "$D/err")"
    matches "$D/s/summary.txt" '^Nf_2-seed1 .* ok ' '^Nf_2-seed2 .* ok ' '^Nf_60-seed1 .* interrupted ' '^Nf_60-seed2 .* not run$'
    [ ! -e "$D/s/Nf_60-seed1/frame000060.vtp" ] || fail "the long run ended before the interrupt"
    find "$D/s/Nf_2-seed1" "$D/s/Nf_2-seed2" "$D/s/Nf_60-seed1/frame000001.vtp" -type f -printf '%p %i %s %T@\n' | sort > "$D/before"
    status 2 errs "$D/refused" $S --out "$D/s" --resume -- -s 500
    has "$D/refused" "sweep.py: --resume: the sweep in $D/s was started with other options after --: [\"-s\", \"1000\"]"
    status 2 errs "$D/refused" $S --out "$D/none" --resume -- -s 1000
    has "$D/refused" "--resume: no sweep to resume in $D/none"
    $S --out "$D/s" --resume -- -s 1000 > "$D/log" 2> "$D/err" || fail "the resumed sweep failed: $(cat "$D/log" "$D/err")"
    has "$D/log" "resuming: 2 runs kept (finished), 1 restarted (interrupted: from the checkpoint), 1 started" \
        "Nf_2-seed1: ok (exit 0), kept from before" "restarted from its checkpoint" "4 of 4 runs ok"
    find "$D/s/Nf_2-seed1" "$D/s/Nf_2-seed2" "$D/s/Nf_60-seed1/frame000001.vtp" -type f -printf '%p %i %s %T@\n' | sort > "$D/after"
    cmp -s "$D/before" "$D/after" || fail "finished runs or frames before the interrupt written again: $(diff "$D/before" "$D/after")"
    has "$D/s/Nf_60-seed1/result.json" '"--restart"' '"restarted": true'
    $S --out "$D/u" -- -s 1000 > "$D/log" 2>&1 || fail "the uninterrupted sweep failed: $(cat "$D/log")"
    for run in Nf_2-seed1 Nf_2-seed2 Nf_60-seed1 Nf_60-seed2; do
        [ "$(cd "$D/u/$run" && ls frame*.vtp)" = "$(cd "$D/s/$run" && ls frame*.vtp)" ] || fail "$run: other frames"
        for f in "$D/u/$run"/frame*.vtp "$D/u/$run"/frames.pvd "$D/u/$run"/observables.csv "$D/u/$run"/events.csv; do
            cmp -s "$f" "$D/s/$run/${f##*/}" || fail "$run: ${f##*/} differs from the uninterrupted sweep's"
        done
    done
    [ "$(ls "$D/u/Nf_60-seed1" | grep -c '^frame.*vtp$')" = 61 ] || fail "not 61 frames"
}

# The progress of the runs on stderr: with --progress, one line at each run started or ended
# (runs done and failed, running, to start, time); none without it where stderr is no terminal
# (the other tests' stderr holds warnings only); on a terminal one line, updated in place.
test_sweep_input_progress() {
    need_python3
    local S="scripts/sweep.py params/default.h --name test_sweep --set dt=1e-4,1e-2 -j 1"
    status 1 $S --out "$D/s" --progress -- -n 2 -s 20 > "$D/log" 2> "$D/err"
    [ "$(wc -l < "$D/err")" = 4 ] || fail "not a line per run started and ended: $(cat "$D/err")"
    sed 's/, [0-9]*:[0-9][0-9] elapsed$/, T elapsed/' "$D/err" > "$D/lines"
    printf 'sweep.py: %s, T elapsed\n' "0 of 2 runs done (0 failed), 1 running, 1 to start" \
        "1 of 2 runs done (0 failed), 0 running, 1 to start" "1 of 2 runs done (0 failed), 1 running, 0 to start" \
        "2 of 2 runs done (1 failed), 0 running, 0 to start" > "$D/want"
    cmp -s "$D/lines" "$D/want" || fail "the progress lines: $(cat "$D/err")"
    status 1 $S --out "$D/s" -- -n 2 -s 20 > /dev/null 2> "$D/err"
    [ ! -s "$D/err" ] || fail "progress lines without --progress: $(cat "$D/err")"
    python3 - "$D/tty" $S --out "$D/s" -- -n 2 -s 20 << 'PY' > "$D/log" || fail "see above"
import os, pty, subprocess, sys
master, slave = pty.openpty()
p = subprocess.Popen(sys.argv[2:], stdout=subprocess.DEVNULL, stderr=slave)
os.close(slave)
out = b""
while True:
    try:
        data = os.read(master, 4096)
    except OSError:   # (the other end closed)
        break
    if not data:
        break
    out += data
p.wait()
text = out.decode()
if p.returncode != 1 or "\rsweep.py: 2 of 2 runs done (1 failed), 0 running, 0 to start, " not in text or "\033[K" not in text:
    sys.exit("exit status %d; on the terminal: %r" % (p.returncode, text))
if text.count("\n") != 1 or not text.endswith("\n"):
    sys.exit("not one line updated in place: %r" % text)
PY
}

# summary.csv has the last row of each run's observables.csv, its columns prefixed obs_, between
# the counts and the error; a run refused at start has none, whatever observables.csv an earlier
# run left in its folder
test_sweep_input_observables_in_summary() {
    need_python3
    tests/polyhoop -q -j 1 -n 1 -s 10 -o "$D/s/lmin_0.2-seed1" > /dev/null
    status 1 scripts/sweep.py params/default.h --name test_sweep --set lmin=0.02,0.2 -j 1 --out "$D/s" -- -n 2 -s 20 > "$D/log" 2>&1
    python3 - "$D/s" << 'PY' || fail "see above"
import csv, sys
d = sys.argv[1]
header, *rows = list(csv.reader(open(d + "/summary.csv")))
obs = list(csv.reader(open(d + "/lmin_0.02-seed1/observables.csv")))
want = ["run", "lmin", "seed", "status", "exit", "wall_s", "polygons", "vertices"] + ["obs_" + c for c in obs[0]] + ["error"]
if header != want:
    sys.exit("summary.csv's header: %s" % header)
good, bad = rows
if good[8:-1] != obs[-1] or obs[-1][0] != "2" or good[6:8] != obs[-1][3:5]:
    sys.exit("lmin_0.02-seed1: %s, not the last row %s" % (good, obs[-1]))
if bad[8:-1] != [""] * len(obs[0]) or "lmax must be > 2 lmin" not in bad[-1]:
    sys.exit("the refused run has observables: %s" % bad)
PY
}

run_file "$@"
