#!/usr/bin/env bash
# The run's log as the program writes it (events.csv, observables.csv): its lines against the
# run's own counts, and the logs of a run stopped and continued (at a frame, and by SIGTERM between
# frames) against those of a run never stopped. (The observables of a known state against their
# formulas: tests/test_runlog.c.)
source "$(dirname "$0")/lib.sh"

# The default run: one events.csv line per division the summary counts, each naming its mother
# and two new ids; one observables line per frame, with the polygon counts of the frames. A run
# stopped at a frame (--max-time) and one stopped by SIGTERM between frames, both continued with
# --restart, leave the same two files, byte for byte, as the run never stopped.
test_runlog_events_and_restarts() {
    tests/polyhoop -q -n 40 -o "$D/a" > "$D/log"
    local counts n pid st=0
    counts=$(sed -n 's/^events: divisions \([0-9]*\), removals \([0-9]*\).*/\1 \2/p' "$D/log")
    [ "$(grep -c ',division,' "$D/a/events.csv") $(grep -c ',removal,' "$D/a/events.csv")" = "$counts" ] ||
        fail "events.csv's divisions and removals are not the summary's ($counts)"
    awk -F, 'NR > 1 { split($5, a, " "); if ($3 == "division" && !(a[1] > $4 && a[2] > $4)) exit 1 }' "$D/a/events.csv" ||
        fail "a division whose new ids are not above its mother's"
    [ "$(wc -l < "$D/a/observables.csv")" = 42 ] || fail "observables.csv has not a header and 41 frames' lines"
    n=$(grep -ao 'NumberOfPolys="[0-9]*"' "$D/a/frame000040.vtp" | sed -n '1s/[^0-9]//gp')
    [ "$(tail -n 1 "$D/a/observables.csv" | cut -d, -f4)" = "$n" ] || fail "the last observables line does not count frame 40's $n polygons"
    tests/polyhoop -q -n 40 --max-time 1.7 -o "$D/b" > /dev/null
    tests/polyhoop -q --restart "$D/b" > /dev/null
    cmp "$D/a/events.csv" "$D/b/events.csv" && cmp "$D/a/observables.csv" "$D/b/observables.csv" ||
        fail "stopped by --max-time and restarted: the logs differ"
    tests/polyhoop -q -n 40 -o "$D/c" > /dev/null 2> "$D/err" &
    pid=$!
    for k in $(seq 100); do [ -f "$D/c/frame000020.vtp" ] && break; sleep 0.1; done
    kill -TERM $pid
    wait $pid || st=$?
    [ $st = 143 ] || fail "stopped by SIGTERM: exit status $st, expected 143"
    tests/polyhoop -q --restart "$D/c" > /dev/null
    cmp "$D/a/events.csv" "$D/c/events.csv" && cmp "$D/a/observables.csv" "$D/c/observables.csv" ||
        fail "stopped by SIGTERM and restarted: the logs differ"
}

run_file "$@"
