#!/usr/bin/env bash
# Runs continued with --restart: one run per folder, options a restart refuses or keeps, a noisy
# run killed and restarted (the same files, byte for byte, as the run never killed), and the
# checkpoint as input: damaged or doctored checkpoints refused by name with exit 2, symbolic links
# planted in the run's folder replaced. (checkpoint_read's own checks of every damaged byte and
# every field: tests/test_checkpoint.c.)
source "$(dirname "$0")/lib.sh"

# One run per folder: while a run holds the folder, a second run and a restart of it exit 2
# naming the lock, and the first run's frames all read in VTK. A new run refuses a folder with
# another run's frames unless --overwrite (which removes them all, so no old frame survives
# beside the new ones); --restart continues it. (The first run is stopped, SIGSTOP, while the
# others try: on an idle machine its 20,000 steps take 0.2 s, and it had ended before the restart
# began, which then went on from its checkpoint.)
test_faults_one_run_per_folder() {
    tests/polyhoop -q -j 1 -n 40 -s 500 -o "$D/a" > /dev/null 2>&1 &
    local first=$! s2=0 s3=0
    while [ ! -f "$D/a/frame000001.vtp" ]; do kill -0 $first 2> /dev/null || fail "the first run ended before frame 1"; sleep 0.01; done
    kill -STOP $first
    [ ! -f "$D/a/frame000040.vtp" ] || { kill -CONT $first; fail "the first run ended before it was stopped"; }
    # (-j 1: no look at the cores' idle time first)
    tests/polyhoop -q -j 1 -n 2 -s 10 -o "$D/a" > /dev/null 2> "$D/err2" || s2=$?
    tests/polyhoop -q -j 1 -n 50 --restart "$D/a" > /dev/null 2> "$D/err3" || s3=$?
    kill -CONT $first
    wait $first || fail "the first run failed"
    [ $s2 = 2 ] && [ $s3 = 2 ] || fail "beside a running run: a new run exited $s2, a restart $s3; expected 2 and 2"
    matches "$D/err2" 'output folder .* is in use by another run'
    has "$D/err3" 'in use by another run' 'wait until that run has stopped (SIGINT or SIGTERM stops it with a checkpoint), then restart'
    lacks "$D/err3" 'another folder with -o'   # (-o cannot be combined with --restart)
    [ "$(ls "$D/a" | grep -c 'frame.*vtp$')" = 41 ] || fail "the first run's frames are not 41: $(ls "$D/a" | tr '\n' ' ')"
    status 2 errs "$D/err4" tests/polyhoop -q -n 1 -s 10 -o "$D/a"
    matches "$D/err4" 'holds another run.*--restart.*--overwrite'
    tests/polyhoop -q -n 1 -s 10 --overwrite -o "$D/a" > /dev/null 2>&1
    [ "$(ls "$D/a" | tr '\n' ' ')" = 'checkpoint.bin events.csv frame000000.vtp frame000001.vtp frames.pvd observables.csv ' ] ||
        fail "after --overwrite: $(ls "$D/a" | tr '\n' ' ')"
    tests/polyhoop -q -n 2 --restart "$D/a" > /dev/null 2>&1
    [ -f "$D/a/frame000002.vtp" ] || fail "the restart wrote no frame 2"
    for k in 0 1 2; do vtk_reads "$D/a/frame00000$k.vtp"; done
}

# Options a restart would ignore (an input, -o, --seed) and a second input file are refused with
# status 2 and named, instead of silently dropped.
test_faults_restart_and_input_clashes() {
    tests/polyhoop -q -n 1 -s 10 -o "$D/a" > /dev/null 2>&1
    status 2 errs "$D/err" tests/polyhoop -q --restart "$D/a" inputs/ensemble.off
    has "$D/err" 'inputs/ensemble.off cannot be combined with --restart'
    status 2 errs "$D/err" tests/polyhoop -q --restart "$D/a" -o "$D/b"
    has "$D/err" '-o cannot be combined with --restart'
    status 2 errs "$D/err" tests/polyhoop -q --seed 3 --restart "$D/a"
    has "$D/err" '--seed cannot be combined'
    status 2 errs "$D/err" tests/polyhoop -q -n 0 -o "$D/c" inputs/ensemble.off inputs/emulsion.off
    has "$D/err" "two input files, 'inputs/ensemble.off' and 'inputs/emulsion.off'"
    [ ! -e "$D/b" ] && [ ! -e "$D/c" ] || fail "output written after an error"
}

# A restart continues with the run's own frame format, --check, checkpoint interval and picture
# options (kept in its checkpoint) when they are not given again; given again with the same
# value they are accepted, with another value refused (exit 2, nothing written); -n applies;
# --overwrite and --max-vertices, which concern a new run, are refused (before: ignored).
test_faults_restart_keeps_options() {
    tests/polyhoop -q -n 6 -s 10 --ascii --check --checkpoint-every 2 --png-color id --png-size 64x64 --max-time 0.002 \
        -o "$D/a" > /dev/null
    [ -f "$D/a/frame000002.png" ] && [ ! -f "$D/a/frame000003.vtp" ] || fail "--max-time 0.002 did not stop after frame 2"
    tests/polyhoop -q --restart "$D/a" --max-time 0.004 > /dev/null
    has "$D/a/frame000004.vtp" 'format="ascii"'
    [ -f "$D/a/frame000004.png" ] && [ ! -f "$D/a/frame000005.vtp" ] || fail "the restart to --max-time 0.004 did not stop after frame 4 with a picture"
    tests/polyhoop -q --restart "$D/a" -n 5 --png-size 64x64 --ascii > /dev/null
    [ -f "$D/a/frame000005.png" ] && [ ! -f "$D/a/frame000006.vtp" ] || fail "the restart with -n 5 did not end at frame 5 with a picture"
    status 2 errs "$D/err" tests/polyhoop -q --restart "$D/a" -n 7 --png-size 65x64
    matches "$D/err" '--png-size cannot change on --restart: the run in .* continues with its own options (--checkpoint-every 2 --ascii --check --png-color id --png-size 64x64)'
    status 2 errs "$D/err" tests/polyhoop -q --restart "$D/a" -n 7 --checkpoint-every 1
    status 2 errs "$D/err" tests/polyhoop -q --restart "$D/a" -n 7 --overwrite
    has "$D/err" "polyhoop: --overwrite cannot be combined with --restart: it concerns a new run"
    status 2 errs "$D/err" tests/polyhoop -q --restart "$D/a" -n 7 --max-vertices 100
    has "$D/err" "polyhoop: --max-vertices cannot be combined with --restart: it concerns a new run"
    [ ! -f "$D/a/frame000006.vtp" ] || fail "a refused restart wrote frame 6"
}

# An input that meets --max-cells stops after frame 0 (the first frame with that many polygons),
# with a checkpoint that a restart continues past the cap, and says how on a line of its own (it
# ended the summary's first line, where a copy took 'DIR:' for the folder). A restart with -n below the frame it
# is at is refused (exit 2, nothing written), naming where the run is; -n at that frame is done.
# The summary of a restart says which of the run's steps this process ran (and counts only those
# vertex updates).
test_restart_caps_at_frame_zero_and_n_below() {
    tests/polyhoop -q -j 1 -n 4 -s 10 --max-cells 40 -o "$D/a" inputs/emulsion.off > "$D/log" 2> /dev/null
    grep -q '^stopped by --max-cells (52 polygons at t = 0): ' "$D/log" || fail "not stopped at frame 0: $(head -1 "$D/log")"
    grep -qx "continue with: tests/polyhoop --restart $D/a" "$D/log" || fail "no line to continue with: $(cat "$D/log")"
    tests/polyhoop -q -j 1 -n 4 -s 10 --max-time 0.002 -o "$D/one" > "$D/log" 2> /dev/null
    grep -q '^stopped by --max-time (1 polygon at t = 0.002): 2 frames' "$D/log" || fail "one polygon's stop said: $(head -1 "$D/log")"
    [ -f "$D/a/checkpoint.bin" ] && [ -f "$D/a/frame000000.vtp" ] && [ ! -f "$D/a/frame000001.vtp" ] ||
        fail "after the stop at frame 0: $(ls "$D/a" | tr '\n' ' ')"
    tests/polyhoop -q -j 1 --restart "$D/a" -n 2 > "$D/log" 2>&1 || fail "the restart past the cap failed"
    grep -q '^done: 2 frames, 20 steps, of which this process ran 20 (from step 0) in ' "$D/log" || fail "the restart said: $(head -1 "$D/log")"
    [ -f "$D/a/frame000002.vtp" ] && [ ! -f "$D/a/frame000003.vtp" ] || fail "the restart did not end at frame 2"
    status 2 errs "$D/err" tests/polyhoop -q --restart "$D/a" -n 1
    has "$D/err" 'cannot restart with -n 1: the run is at step 20 (frame 2, t = 0.002), past frame 1; -n counts the frames from the run'"'"'s start, so give more than 2 to go on'
    tests/polyhoop -q --restart "$D/a" -n 2 > "$D/log" 2> /dev/null || fail "a restart at its last frame failed"
    grep -q '^done: 2 frames, 20 steps, of which this process ran 0 (from step 20) in .*; 0 vertex updates' "$D/log" ||
        fail "a restart at its last frame said: $(head -1 "$D/log")"
    tests/polyhoop --restart "$D/a" -n 2 > "$D/log" 2> /dev/null || fail "a restart at its last frame failed"
    has "$D/log" ": no frame left to write (the run is at its last, 2, of 10 steps), dt = "
}

# With noise, activity and random division and death (tests/params_noise.h), frames, logs and
# checkpoints are the same at 1 and 2 threads, and a run killed with SIGKILL and restarted from
# its last checkpoint ends with the same files, byte for byte, as the run never killed. (The
# two-thread runs wait passively: on a busy machine, spinning threads of so small a run would
# take minutes; the waiting changes nothing in the results.)
test_faults_noise_kill_and_restart() {
    ./tests/polyhoop_noise -q -j 1 -n 12 -s 1000 -o "$D/a" > /dev/null
    has "$D/a/events.csv" ',division,'
    OMP_WAIT_POLICY=passive ./tests/polyhoop_noise -q -j 2 -n 12 -s 1000 -o "$D/b" > /dev/null
    ./tests/polyhoop_noise -q -j 1 -n 12 -s 1000 -o "$D/c" > /dev/null &
    local pid=$! f
    for k in $(seq 200); do [ -f "$D/c/frame000006.vtp" ] && break; sleep 0.05; done
    kill -KILL $pid || true
    wait $pid 2> /dev/null || true   # (137: killed)
    [ ! -f "$D/c/frame000012.vtp" ] || fail "the run ended before it was killed"
    OMP_WAIT_POLICY=passive ./tests/polyhoop_noise -q -j 2 --restart "$D/c" > /dev/null
    for f in "$D"/a/*; do
        cmp -s "$f" "$D/b/${f##*/}" || fail "${f##*/} differs between 1 and 2 threads"
        cmp -s "$f" "$D/c/${f##*/}" || fail "${f##*/} differs after the kill and restart"
    done
}

# A run's checkpoint is edited below at the places tests/cli/ckpt.py finds through its format:
# the fixed header's members (H_STEP, H_NP, ...), the parameters' values by name (P_dt), the
# polygons' records from POLYGONS on (R_SIZE bytes each, fields R_A0, ...), then V_SIZE bytes per
# vertex (x first, V_l0 last), ..., and last the CRC-32 of all the bytes before it.
C_NY=152   # (in the contact list's section, which follows the vertices: its grid's rows)

# checkpoint_run ARGS...: a short default run into $D/run (with ARGS), its checkpoint kept as
# $D/good.bin and its places set (tests/cli/ckpt.py; fails unless it is of the layout that
# script reads, written little-endian)
checkpoint_run() {
    command -v python3 > /dev/null || skip "needs python3"
    tests/polyhoop -q "$@" -o "$D/run" > /dev/null
    cp "$D/run/checkpoint.bin" "$D/good.bin"
    local at
    at=$(python3 tests/cli/ckpt.py "$D/good.bin") || fail "$at"
    eval "$at"
}
# put AT HEX: writes the bytes HEX (little-endian numbers, as the checkpoint holds them) at offset AT of the checkpoint
put() { printf '%b' "$(printf '\\x%s' $(fold -w 2 <<< "$2"))" | dd of="$D/run/checkpoint.bin" bs=1 seek="$1" conv=notrunc status=none; }
# reseal: stores the CRC-32 of all but the last 4 bytes of the checkpoint in them, as the writer does (gzip's trailer holds it)
reseal() {
    local n=$(($(stat -c %s "$D/run/checkpoint.bin") - 4))
    head -c $n "$D/run/checkpoint.bin" | gzip -c | tail -c 8 | head -c 4 | dd of="$D/run/checkpoint.bin" bs=1 seek=$n conv=notrunc status=none
}
# refused TEXT: a restart from the checkpoint exits 2 and names TEXT (a regular expression)
refused() {
    status 2 errs "$D/err" tests/polyhoop -q -n 5 --restart "$D/run"
    matches "$D/err" "$1"
}

# A damaged checkpoint (a byte changed in a vertex, one in the header, the file cut in half) is
# refused by the program with exit 2, naming the checksum; the good one still restarts.
test_checkpoint_damage_refused_on_restart() {
    checkpoint_run -n 3 -s 100
    local at b
    for at in $((POLYGONS + 3 * R_SIZE + 5)) $((H_STEP + 2)); do
        cp "$D/good.bin" "$D/run/checkpoint.bin"
        b=$(od -An -tu1 -j $at -N 1 "$D/good.bin")
        put $at "$(printf %02x $((b ^ 0x40)))"
        refused 'cannot restart: .*checkpoint.bin: checksum mismatch'
    done
    head -c $(($(stat -c %s "$D/good.bin") / 2)) "$D/good.bin" > "$D/run/checkpoint.bin"
    refused 'cannot restart: .*checkpoint.bin: checksum mismatch'
    cp "$D/good.bin" "$D/run/checkpoint.bin"
    tests/polyhoop -q -n 4 --restart "$D/run" > /dev/null || fail "the good checkpoint did not restart"
}

# A field that a run could not have written, under a valid checksum (x of a vertex infinite), is
# refused by the program with exit 2, naming the field; the counts of postponed divisions and of
# twists cut out go on from the checkpoint's.
test_checkpoint_bad_fields_named_on_restart() {
    checkpoint_run -n 3 -s 100
    local np
    np=$(od -An -td4 -j $H_NP -N 4 "$D/good.bin" | tr -d ' ')
    [ "$np" -ge 2 ] || fail "the run ended with $np polygons; the cases need 2"
    put $((POLYGONS + np * R_SIZE + 17 * V_SIZE)) 000000000000f07f   # (polygon 0's vertices first)
    reseal
    refused 'checkpoint.bin: polygon 0: x of vertex 17 is not finite'
    cp "$D/good.bin" "$D/run/checkpoint.bin"
    put $H_TWISTS 2a000000
    put $H_POSTPONED 07000000
    reseal
    tests/polyhoop -n 4 --restart "$D/run" > "$D/log"
    matches "$D/log" 'divisions postponed 7, twists cut out 42$'
}

# Values a run could not have written, under a valid checksum, are checked as the inputs they
# stand for: a target area of 1e300 and a rest length of 1e300 are each refused with exit 2,
# naming the polygon (and vertex), the value and the range expected (before, the restart ran
# into a numerical blow-up, exit 3, blaming the time step).
test_checkpoint_values_checked_on_restart() {
    checkpoint_run -n 3 -s 100
    local np
    np=$(od -An -td4 -j $H_NP -N 4 "$D/good.bin" | tr -d ' ')
    put $((POLYGONS + R_A0)) 9c7500883ce4377e   # (polygon 0's A0: 1e300)
    reseal
    refused 'checkpoint.bin: polygon 0: A0 = 1e+300 is not a target area in (0, 1.6e+15\] (4e+16 lmax^2)$'
    cp "$D/good.bin" "$D/run/checkpoint.bin"
    put $((POLYGONS + np * R_SIZE + 5 * V_SIZE + V_l0)) 9c7500883ce4377e   # (l0 of polygon 0's vertex 5: 1e300)
    reseal
    refused 'checkpoint.bin: polygon 0: l0 of vertex 5 is 1e+300, not a rest length in (0, 8e+07\] (4e+08 lmax)$'
}

# i32 AT / i64 AT: the number at offset AT of the good checkpoint
i32() { od -An -td4 -j "$1" -N 4 "$D/good.bin" | tr -d ' '; }
# hex64 N: the 8 bytes of the integer N, little-endian, as hex; hexf64 EXPR: those of the double EXPR (Python's)
hex64() { python3 -c "import struct; print(struct.pack('<q', $1).hex())"; }
hexf64() { python3 -c "import struct; print(struct.pack('<d', $1).hex())"; }
# copy FROM TO N: N bytes of the good checkpoint from offset FROM written at offset TO of the checkpoint
copy() { dd if="$D/good.bin" of="$D/run/checkpoint.bin" bs=1 skip="$1" seek="$2" count="$3" conv=notrunc status=none; }

# States that no run writes, under a valid checksum, are refused by the program with exit 2 and
# named (and with nothing that overflows on the way, for make check's UBSan): a polygon that
# crosses itself (vertices 3 and 10 swapped), the last frame an int can number (its next would
# overflow), a contact grid of 2^31 - 1 rows. Polygons on top of each other (polygon 0 copied
# onto polygon 1) are a state a run can leave (hoops pass through each other in a fast
# collision): a warning naming them, and with --strict-input an error.
test_checkpoint_doctored_state_on_restart() {
    checkpoint_run -n 3 -s 100
    local np nv v0 v1 n0 n1
    np=$(i32 $H_NP) nv=$(i32 $H_NV)
    n0=$(i32 $((POLYGONS + R_count))) n1=$(i32 $((POLYGONS + R_SIZE + R_count)))
    [ "$np" = 2 ] && [ "$n0" = "$n1" ] || fail "the run ended with $np polygons of $n0 and $n1 vertices; the cases need 2 alike"
    v0=$((POLYGONS + np * R_SIZE)) v1=$((POLYGONS + np * R_SIZE + n0 * V_SIZE))
    cp "$D/good.bin" "$D/run/checkpoint.bin"
    copy $((v0 + 3 * V_SIZE)) $((v0 + 10 * V_SIZE)) 16
    copy $((v0 + 10 * V_SIZE)) $((v0 + 3 * V_SIZE)) 16
    reseal
    refused 'cannot restart: .*checkpoint.bin: polygon 0 (id [0-9]*) crosses itself: two of its edges that share no vertex cross$'
    cp "$D/good.bin" "$D/run/checkpoint.bin"
    put $H_STEP "$(hex64 '2147483647 * 100')"
    put $H_T "$(hexf64 '2147483647 * 100 * 1e-4')"
    put $H_FRAME ffffff7f
    reseal
    refused 'checkpoint.bin: frame 2147483647 is the last a run can number: there is nothing to continue$'
    cp "$D/good.bin" "$D/run/checkpoint.bin"
    put $((v0 + nv * V_SIZE + C_NY)) ffffff7f
    reseal
    refused 'checkpoint.bin: the contact list section: its grid of [0-9]* x 2147483647 cells is out of range'
    cp "$D/good.bin" "$D/run/checkpoint.bin"
    copy $v0 $v1 $((n0 * V_SIZE))
    reseal
    tests/polyhoop -q -n 3 --restart "$D/run" > /dev/null 2> "$D/err" || fail "the restart of a checkpoint with stacked polygons failed: $(cat "$D/err")"
    has "$D/err" "checkpoint.bin: warning: polygons 0 and 1 overlap on 100% of the smaller one's area (their edges coincide or touch"
    has "$D/err" "; runs make overlaps where a vertex meets another hoop's edge faster than sqrt(kr) h = 31.6 (--strict-input rejects this)"
    status 2 errs "$D/err" tests/polyhoop -q -n 3 --strict-input --restart "$D/run"
    has "$D/err" "checkpoint.bin: error: polygons 0 and 1 overlap on 100% of the smaller one's area"
}

# The parameters are read by name: one that this polyhoop does not have (gamma renamed) is
# refused with exit 2 and one line naming it and the file; one that the file lacks (att_x
# dropped, as a checkpoint of a program from before it was added lacks it) takes this build's
# value, with a warning naming it, and the run goes on. A checkpoint of the format before the
# parameters were stored by name (version 10) is refused with one line saying what wrote it.
test_checkpoint_params_by_name_on_restart() {
    checkpoint_run -n 3 -s 100
    put $((P_gamma - 16)) 67616d6d6f   # ("gammo")
    reseal
    status 2 errs "$D/err" tests/polyhoop -q -n 5 --restart "$D/run"
    has "$D/err" "polyhoop: cannot restart: $D/run/checkpoint.bin: it holds the parameter gammo, which this polyhoop does not have: restart it with the polyhoop that wrote it"
    [ "$(wc -l < "$D/err")" = 1 ] || fail "more than one line: $(cat "$D/err")"
    python3 - "$D/good.bin" "$D/run/checkpoint.bin" $H_PARAMS $((P_att_x - 16)) <<'PY'
import struct, sys, zlib
b, at, rec = bytearray(open(sys.argv[1], "rb").read()), int(sys.argv[3]), int(sys.argv[4])
del b[rec:rec + 25]
struct.pack_into("<I", b, at, struct.unpack_from("<I", b, at)[0] - 1)
b[-4:] = struct.pack("<I", zlib.crc32(bytes(b[:-4])))
open(sys.argv[2], "wb").write(b)
PY
    tests/polyhoop -q -n 4 --restart "$D/run" > /dev/null 2> "$D/err" || fail "the checkpoint without att_x did not restart: $(cat "$D/err")"
    has "$D/err" "checkpoint.bin: warning: written by an earlier polyhoop, which did not have the parameters att_x: they take this build's values (params/default.h)"
    [ -f "$D/run/frame000004.vtp" ] || fail "no frame 4"
    cp "$D/good.bin" "$D/run/checkpoint.bin"
    put $H_VERSION 0a000000
    status 2 errs "$D/err" tests/polyhoop -q -n 5 --restart "$D/run"
    has "$D/err" "polyhoop: cannot restart: $D/run/checkpoint.bin was written by format version 10 (polyhoop before 2026-12-02, when checkpoints came to store the parameters by name); this polyhoop reads version 11: rerun, or restart it with the polyhoop that wrote it"
    [ "$(wc -l < "$D/err")" = 1 ] || fail "more than one line: $(cat "$D/err")"
    [ ! -f "$D/run/frame000005.vtp" ] || fail "the refused restart wrote frame 5"
}

# chemotaxis: the chemotaxis showcase's program (params/chemotaxis.h: a species, a response
# rule), built where scripts/showcase.sh builds it
chemotaxis() {
    make -s --no-print-directory B=build/showcase/chemotaxis PARAMS=params/chemotaxis.h build/showcase/chemotaxis/polyhoop \
        > "$D/make.log" 2>&1 || fail "cannot build params/chemotaxis.h: $(tail -n 3 "$D/make.log")"
}

# A checkpoint records its build's header and the digest of its rules (scripts/rules_digest.sh),
# remade whenever the header changes. A build of a copy of the run's header that differs from it
# only in a rule's body (the chemotaxis response's 5.0 made 6.0) refuses to restart the run with
# exit 2 and one line naming both headers and digests (before, it went on with the new rule); the
# run's own build restarts it, and so does a build of the copy once its rule is the run's again
# (another name, the same rules). With the copy edited again under its own name, the line says
# that the header has changed. The digest is of the rules, not of their text: the header in
# another folder with other comments and spacing, preprocessed with a tuned, a portable or a
# sanitized build's flags, or by clang, has the run's.
test_restart_other_rules_refused() {
    chemotaxis
    local A=build/showcase/chemotaxis a b flags
    mkdir "$D/p"
    sed -e 's|#include "default.h"|#include "params/default.h"|' -e 's|5.0 \* cell->gx|6.0 * cell->gx|' params/chemotaxis.h > "$D/p/rule.h"
    grep -q '6.0 \* cell->gx' "$D/p/rule.h" || fail "the rule was not edited"
    make -s B="$D/b" PARAMS="$D/p/rule.h" "$D/b/polyhoop" > "$D/make.log" 2>&1 || fail "cannot build: $(tail -n 3 "$D/make.log")"
    a=$(cat $A/rules) b=$(cat "$D/b/rules")
    [[ $a =~ ^[0-9a-f]{16}$ ]] && [[ $b =~ ^[0-9a-f]{16}$ ]] && [ "$a" != "$b" ] || fail "digests '$a' and '$b'"
    "$A/polyhoop" -q -j 1 -n 1 -s 10 -o "$D/run" inputs/ensemble.off > /dev/null
    status 2 errs "$D/err" "$D/b/polyhoop" -q -n 2 --restart "$D/run"
    has "$D/err" "polyhoop: cannot restart: $D/run/checkpoint.bin: written by a build of params/chemotaxis.h with rules digest $a; this build ($D/p/rule.h) has $b: rebuild with the run's header (make PARAMS=params/chemotaxis.h)"
    [ "$(wc -l < "$D/err")" = 1 ] || fail "more than one line: $(cat "$D/err")"
    [ ! -f "$D/run/frame000002.vtp" ] || fail "the refused restart wrote frame 2"
    "$A/polyhoop" -q -n 2 --restart "$D/run" > /dev/null || fail "the run's own build did not restart it"
    sed -i 's|6.0 \* cell->gx|5.0 * cell->gx|' "$D/p/rule.h"
    make -s B="$D/b" PARAMS="$D/p/rule.h" "$D/b/polyhoop" > "$D/make.log" 2>&1 || fail "cannot rebuild: $(tail -n 3 "$D/make.log")"
    [ "$(cat "$D/b/rules")" = "$a" ] || fail "the copy with the run's rule has digest $(cat "$D/b/rules"), not $a"
    "$D/b/polyhoop" -q -n 3 --restart "$D/run" > /dev/null || fail "a build of the same rules did not restart the run"
    sed -i 's|5.0 \* cell->gx|6.0 * cell->gx|' "$D/p/rule.h"
    make -s B="$D/b" PARAMS="$D/p/rule.h" "$D/b/polyhoop" > "$D/make.log" 2>&1 || fail "cannot rebuild: $(tail -n 3 "$D/make.log")"
    status 2 errs "$D/err" "$D/b/polyhoop" -q -n 4 --restart "$D/run"
    has "$D/err" "checkpoint.bin: written by a build of $D/p/rule.h with rules digest $a; this build ($D/p/rule.h) has $b: rebuild with the run's header as it was (it, or a header it includes, has changed since)"
    sed -e 's|#include "default.h"|#include "params/default.h"|' -e 's|^static inline|/* a comment\n   of two lines */ static   inline|' \
        -e 's|act->fx = 5.0|act->fx /* here */ = 5.0|' params/chemotaxis.h > "$D/p/same.h"
    for flags in "-march=native -O3" "-O3" "-O1 -g -fsanitize=address,undefined"; do
        [ "$(scripts/rules_digest.sh gcc "$D/p/same.h" -std=c11 $flags -fopenmp -Isrc -iquote .)" = "$a" ] ||
            fail "the header with other comments, built with $flags, has another digest"
    done
    ! command -v clang > /dev/null || [ "$(scripts/rules_digest.sh clang "$D/p/same.h" -Isrc -iquote .)" = "$a" ] ||
        fail "clang gives another digest"
}

# A run that draws a field under its cells (--png-field) keeps its pictures on --restart: --png
# --png-color area given with it is refused with exit 2 and one line saying that --png-color
# cannot change and why, nothing written (before, it was ignored without a word); --png and
# --png-field of its own species are accepted, and the picture of the frame after the restart is
# the uninterrupted run's, byte for byte.
test_restart_png_field_keeps_its_pictures() {
    chemotaxis
    local A=build/showcase/chemotaxis/polyhoop
    "$A" -q -j 1 -n 2 -s 10 --png-field attractant --png-size 64x64 -o "$D/one" inputs/ensemble.off > /dev/null
    "$A" -q -j 1 -n 1 -s 10 --png-field attractant --png-size 64x64 -o "$D/run" inputs/ensemble.off > /dev/null
    status 2 errs "$D/err" "$A" -q -n 2 --restart "$D/run" --png --png-color area
    has "$D/err" "polyhoop: --png-color cannot change on --restart: the run in $D/run continues with its own options (--checkpoint-every 1 --png-field attractant --png-size 64x64): its pictures draw the field attractant under outlined cells, and a run's frames and pictures are made one way throughout"
    [ "$(wc -l < "$D/err")" = 1 ] || fail "more than one line: $(cat "$D/err")"
    [ ! -e "$D/run/frame000002.png" ] || fail "the refused restart drew frame 2"
    "$A" -q -j 1 -n 2 --restart "$D/run" --png --png-field attractant > /dev/null || fail "the restart with the run's own options failed"
    cmp -s "$D/one/frame000002.png" "$D/run/frame000002.png" || fail "frame 2's picture is not the uninterrupted run's"
}

# A restart writes frames.pvd anew with the frames that are in the folder: frames of the run
# deleted before it (2 of 0 to 3) are not listed (ParaView would fail on them), the new ones are.
test_restart_collection_lists_frames_present() {
    tests/polyhoop -q -n 3 -s 10 -o "$D/a" > /dev/null
    rm "$D/a/frame000002.vtp"
    tests/polyhoop -q -n 5 --restart "$D/a" > /dev/null
    [ "$(grep -o 'file="frame[0-9]*.vtp"' "$D/a/frames.pvd" | tr '\n' ' ')" = \
      'file="frame000000.vtp" file="frame000001.vtp" file="frame000003.vtp" file="frame000004.vtp" file="frame000005.vtp" ' ] ||
        fail "frames.pvd lists: $(grep -o 'frame[0-9]*.vtp' "$D/a/frames.pvd" | tr '\n' ' ')"
    has "$D/a/frames.pvd" 'timestep="0.0030000000000000001" part="0" file="frame000003.vtp"'
}

# Symbolic links planted in the output folder, named like the next frame, like the .tmp of the
# one after, and like the checkpoint, all pointing outside: a restart replaces them with its own
# files and leaves their targets as they were.
test_checkpoint_symlinks_replaced() {
    checkpoint_run -n 1 -s 10
    printf keep > "$D/outside0"
    printf keep > "$D/outside1"
    cp "$D/good.bin" "$D/outside2"   # (the checkpoint is read through its link, then replaced)
    ln -sf "$D/outside0" "$D/run/frame000002.vtp"
    ln -sf "$D/outside1" "$D/run/frame000003.vtp.tmp"
    ln -sf "$D/outside2" "$D/run/checkpoint.bin"
    tests/polyhoop -q -n 3 --restart "$D/run" > /dev/null
    cmp -s "$D/outside0" <(printf keep) || fail "the target of frame000002.vtp was changed"
    cmp -s "$D/outside1" <(printf keep) || fail "the target of frame000003.vtp.tmp was changed"
    cmp -s "$D/outside2" "$D/good.bin" || fail "the target of checkpoint.bin was changed"
    [ ! -L "$D/run/frame000002.vtp" ] || fail "frame000002.vtp is still a link"
    [ ! -L "$D/run/checkpoint.bin" ] || fail "checkpoint.bin is still a link"
    [ ! -L "$D/run/frame000003.vtp" ] && [ -r "$D/run/frame000003.vtp" ] || fail "frame 3 was not written as a file"
}

run_file "$@"
