#!/usr/bin/env bash
# Runs stopped early and continued with --restart: killed (SIGKILL), stopped by SIGTERM (a
# checkpoint mid-frame, exit status 143) or by --max-cells; the continued run writes the same
# frames and collection, byte for byte, as a run never interrupted.
source "$(dirname "$0")/lib.sh"

# wait_for FILE PID: waits until FILE exists; fails if process PID ends before
wait_for() {
    while [ ! -f "$1" ]; do
        kill -0 "$2" 2> /dev/null || fail "the run ended before writing $1"
        sleep 0.02
    done
}

# the number of polygons of frame FILE
polygons() { grep -a -o 'NumberOfPolys="[0-9]*' "$1" | grep -o '[0-9]*$'; }

# A run killed after 20 frames and continued at another thread count.
test_sim_restart_after_kill() {
    tests/polyhoop -q -j 2 -n 60 -s 1000 -o "$D/a" > /dev/null
    tests/polyhoop -q -j 2 -n 60 -s 1000 -o "$D/b" > /dev/null &
    pid=$!
    wait_for "$D/b/frame000020.vtp" $pid
    { kill -9 $pid; wait $pid; } 2> /dev/null || true
    [ ! -f "$D/b/frame000060.vtp" ] || fail "the run was not interrupted"
    tests/polyhoop -q -j 1 --restart "$D/b" > "$D/log"
    diff -r -x checkpoint.bin "$D/a" "$D/b" > /dev/null || fail "the restarted run differs from the uninterrupted one"
}

# SIGTERM: the run finishes its step, writes a checkpoint mid-frame and exits with 128 + 15.
test_sim_sigterm_checkpoint() {
    tests/polyhoop -q -n 50 -s 1000 -o "$D/a" > /dev/null || fail "the uninterrupted run failed"
    tests/polyhoop -q -n 50 -s 1000 -o "$D/b" > /dev/null 2> "$D/err" &
    pid=$!
    wait_for "$D/b/frame000015.vtp" $pid
    kill -TERM $pid
    status 143 wait $pid
    has "$D/err" "checkpoint written. Continue with: tests/polyhoop --restart" "polyhoop: SIGTERM: stopping after this step with a checkpoint"
    tests/polyhoop -q --restart "$D/b" > /dev/null || fail "the restart failed"
    diff -r -x checkpoint.bin "$D/a" "$D/b" > /dev/null || fail "the continued run differs from the uninterrupted one"
}

# A signal is said at once; a second one ends the run at once (SIGINT and SIGTERM sent together,
# handled in either order: status 128 + the second), with no .tmp file and every frame whole;
# the checkpoint written before continues it to the uninterrupted run's frames.
test_sim_second_signal_stops_at_once() {
    tests/polyhoop -q -n 40 -s 1000 -o "$D/a" > /dev/null || fail "the uninterrupted run failed"
    tests/polyhoop -q -n 40 -s 1000 -o "$D/b" > /dev/null 2> "$D/err" &
    pid=$!
    wait_for "$D/b/frame000010.vtp" $pid
    kill -INT $pid; kill -TERM $pid
    st=0; wait $pid || st=$?
    case $st in 130) first=TERM second=INT ;; 143) first=INT second=TERM ;; *) fail "exit status $st, expected 130 or 143" ;; esac
    has "$D/err" "polyhoop: SIG$first: stopping after this step with a checkpoint (a second signal stops at once, without one)" \
                 "polyhoop: stopped by a second signal (SIG$second); the frames and the checkpoint written before are intact"
    ! ls "$D/b" | grep -q '\.tmp$' || fail "a .tmp file was left: $(ls "$D/b" | grep '\.tmp$')"
    for f in "$D"/b/frame*.vtp; do tail -c 12 "$f" | grep -q '</VTKFile>' || fail "$f is not whole"; done
    tests/polyhoop -q --restart "$D/b" > /dev/null || fail "the restart failed"
    diff -r -x checkpoint.bin "$D/a" "$D/b" > /dev/null || fail "the continued run differs from the uninterrupted one"
}

# --max-cells 64 on the default run stops after the first frame with at least 64 cells, with a
# checkpoint, status 0 and the reason in the summary.
test_sim_max_cells_stops_and_restarts() {
    tests/polyhoop -q -j 1 -n 85 -o "$D/a" > /dev/null || fail "the uninterrupted run failed"
    tests/polyhoop -q -j 1 -n 85 --max-cells 64 -o "$D/b" > "$D/log" || fail "the run with --max-cells failed"
    grep -q '^stopped by --max-cells (6[4-9] polygons' "$D/log" || fail "no reason for the stop in $D/log"
    last=$(($(ls "$D/b" | grep -c 'frame.*vtp$') - 1))
    [ $last -lt 85 ] && [ -f "$D/b/checkpoint.bin" ] || fail "did not stop early with a checkpoint (last frame $last)"
    n=$(polygons "$D/b/frame$(printf %06d $last).vtp")
    p=$(polygons "$D/b/frame$(printf %06d $((last - 1))).vtp")
    [ "$n" -ge 64 ] && [ "$p" -lt 64 ] || fail "stopped at frame $last with $n polygons (the frame before: $p)"
    tests/polyhoop -q -j 1 --restart "$D/b" > /dev/null || fail "the restart failed"
    diff -r -x checkpoint.bin -x .polyhoop.lock "$D/a" "$D/b" > /dev/null || fail "the continued run differs from the uninterrupted one"
}

# A capped run keeps its caps through restarts that do not give them again (the banner says so):
# stopped by SIGTERM before its caps, it stops where the capped run stops; stopped by --max-time, the restart goes on
# past that cap to the kept --max-cells; stopped by that, the next restart runs to the end; every
# frame as in the run never capped or stopped.
test_sim_restart_keeps_caps() {
    tests/polyhoop -q -j 1 -n 85 -o "$D/a" > /dev/null || fail "the uninterrupted run failed"
    tests/polyhoop -q -j 1 -n 85 --max-time 4 --max-cells 64 -o "$D/b" > /dev/null 2> "$D/err" &
    pid=$!
    wait_for "$D/b/frame000005.vtp" $pid
    kill -TERM $pid
    status 143 wait $pid
    tests/polyhoop -j 1 --restart "$D/b" > "$D/log1" || fail "the first restart failed"
    has "$D/log1" "stops after the first frame with at least 64 polygons (--max-cells, kept from the run) or at t >= 4 (--max-time, kept from the run), with a checkpoint"
    grep -q '^stopped by --max-time (.* at t = 4): ' "$D/log1" && grep -q '^continue with: .*polyhoop --restart '"$D"'/b$' "$D/log1" || fail "not stopped by the kept --max-time: $(head -1 "$D/log1")"
    tests/polyhoop -q -j 1 --restart "$D/b" > "$D/log2" || fail "the second restart failed"
    grep -q '^stopped by --max-cells (6[4-9] polygons at t = 8.1)' "$D/log2" || fail "not stopped by the kept --max-cells: $(head -1 "$D/log2")"
    tests/polyhoop -q -j 1 --restart "$D/b" > "$D/log3" || fail "the third restart failed"
    grep -q '^done: 85 frames' "$D/log3" || fail "the third restart did not run to the end: $(head -1 "$D/log3")"
    diff -r -x checkpoint.bin -x .polyhoop.lock "$D/a" "$D/b" > /dev/null || fail "the continued run differs from the uninterrupted one"
}

run_file "$@"
