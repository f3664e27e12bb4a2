#!/usr/bin/env bash
# The program given bad or absurd options: every usage error exits 2 with a message and writes
# nothing; absurd thread counts, picture sizes and frame counts are refused or bounded, not obeyed
# (and the automatic thread count follows the size of the run); an output that cannot be written
# is reported.
source "$(dirname "$0")/lib.sh"

# Every usage error, whichever option it concerns, exits 2 with a message and writes nothing.
test_faults_usage_errors_exit_2() {
    local bad st
    for bad in "-o" "--restart" "-n" "-n -1" "-s 0" "-j" "-j 0" "--seed -1" "--seed x" \
        "--checkpoint-every" "--checkpoint-every -1" "--max-cells 0" "--max-time -1" "--max-time nan" "--png-color" \
        "--png-color bogus" "--png-size" "--png-size 0x0" "--png-size 10x" "--png-view 1,1,0,0" "--png-view 0,0,1" \
        "--png-range 2,1" "--png-range 0,inf" "-x" "--strict" "inputs/ensemble.off inputs/foam.off" \
        "--restart /nonexistent" "--restart /nonexistent --seed 2"; do
        st=0
        tests/polyhoop -q -n 0 -o "$D/out" $bad > "$D/log" 2>&1 || st=$?   # ($bad: one or more words)
        [ $st = 2 ] || fail "polyhoop $bad: exit status $st, expected 2"
        grep -q '^polyhoop: ' "$D/log" || fail "polyhoop $bad: no message"
        [ ! -e "$D/out" ] || fail "polyhoop $bad: output written"
    done
}

# An empty folder name for -o or --restart is a usage error (status 2, named), not an output
# folder that cannot be created (status 4) nor, for --restart, a checkpoint looked for at /.
test_faults_empty_folder_names() {
    status 2 errs "$D/err" tests/polyhoop -q -n 0 -o ''
    has "$D/err" "polyhoop: option -o needs a folder name, got ''"
    status 2 errs "$D/err" tests/polyhoop -q --restart ''
    has "$D/err" "polyhoop: option --restart needs a folder name, got ''"
    lacks "$D/err" 'checkpoint.bin'
}

# A count beyond an int names the limit; a count missing at the end of the line says so; the help
# written to a full disk is an output error (status 4), not done.
test_faults_count_limits_and_help_output() {
    status 2 errs "$D/err" tests/polyhoop -q -n 99999999999 -o "$D/o"
    has "$D/err" "polyhoop: option -n needs an integer >= 0, got '99999999999' (at most 2147483647)"
    status 2 errs "$D/err" tests/polyhoop -q -o "$D/o" --seed 4294967296
    has "$D/err" "got '4294967296' (at most 2147483647)"
    status 2 errs "$D/err" tests/polyhoop -q -o "$D/o" -n
    has "$D/err" "polyhoop: option -n needs a value"
    [ ! -e "$D/o" ] || fail "a refused run wrote $D/o"
    if [ -w /dev/full ]; then
        st=0; tests/polyhoop -h > /dev/full 2> "$D/err" || st=$?
        [ "$st" = 4 ] || fail "-h > /dev/full: exit status $st, expected 4"
        has "$D/err" "polyhoop: cannot write the help: No space left on device"
    fi
}

# An option where a folder or file name belongs (-o --png: the name forgotten) is a usage error,
# not a folder named --png with no pictures in it; ./--png names such a folder.
test_faults_option_as_folder_name() {
    (cd "$D" && status 2 errs err "$OLDPWD/tests/polyhoop" -q -n 0 -o --png) || exit 1
    has "$D/err" "polyhoop: option -o needs a folder name, got the option --png (for a folder of that name: ./--png)"
    [ ! -e "$D/--png" ] || fail "a folder --png was made"
    status 2 errs "$D/err" tests/polyhoop -q --restart -n
    has "$D/err" "polyhoop: option --restart needs a folder name, got the option -n"
    status 2 errs "$D/err" tests/polyhoop -q -n 0 -o "$D/v" --velocities -q
    has "$D/err" "polyhoop: option --velocities needs a file name, got the option -q"
    (cd "$D" && "$OLDPWD/tests/polyhoop" -q -n 0 -o ./--png "$OLDPWD/inputs/ensemble.off" > /dev/null 2>&1) || fail "-o ./--png failed"
    [ -e "$D/--png/frame000000.vtp" ] || fail "-o ./--png wrote no frame"
}

# OMP_NUM_THREADS that is not a count (0, abc, 2x), which libgomp ignores for all cores, is
# named in a warning and the thread count is chosen as without it (before: all cores, as if asked).
test_faults_bad_omp_num_threads() {
    local v
    for v in 0 abc 2x; do
        OMP_NUM_THREADS=$v tests/polyhoop -n 1 -s 10 -o "$D/o$v" > "$D/log" 2> "$D/err" || fail "OMP_NUM_THREADS=$v: the run failed"
        has "$D/err" "polyhoop: warning: OMP_NUM_THREADS='$v' is not a thread count >= 1; choosing automatically"
        has "$D/log" "threads: automatic, up to 1;"
    done
    OMP_NUM_THREADS=1,1 tests/polyhoop -n 1 -s 10 -o "$D/list" > "$D/log" 2> "$D/err" || fail "OMP_NUM_THREADS=1,1: the run failed"
    lacks "$D/err" "warning"
    has "$D/log" "threads: 1;"
}

# Absurd thread counts: -j above 4 per core exits 2 with a message; OMP_NUM_THREADS above it is
# capped with a warning and the run goes on.
test_faults_thread_count_bounded() {
    status 2 errs "$D/err" tests/polyhoop -q -j 100000 -n 0 -o "$D/a"
    matches "$D/err" '-j 100000: at most .* threads'
    OMP_NUM_THREADS=1000000 tests/polyhoop -q -n 1 -s 10 -o "$D/b" > /dev/null 2> "$D/err"
    has "$D/err" 'warning: OMP_NUM_THREADS asks for 1000000 threads; using'
    [ -f "$D/b/frame000001.vtp" ] || fail "OMP_NUM_THREADS=1000000: the run did not go on"
}

# threads CMD...: runs CMD (a run of no frames), keeps the first line of its output, the banner, in
# $D/banner and prints the thread count that the banner names
threads() {
    "$@" --overwrite -o "$D/out" > "$D/log"
    head -n 1 "$D/log" > "$D/banner"
    grep -q ' build, [0-9]* thread' "$D/banner" || fail "no thread count in the banner: $(cat "$D/banner")"
    sed -n 's/.* build, \([0-9]*\) thread.*/\1/p' "$D/banner"
}

# Without -j or OMP_NUM_THREADS the thread count follows the vertex count (one thread per 2000
# vertices, at most the free cores), and the banner says so: one thread for the default cell, 12
# (24,576 / 2000) or the free cores for 512 hexagons; -j and OMP_NUM_THREADS fix it. (The
# choice itself, options_threads, is tested in C: test_faults_automatic_threads.)
test_faults_automatic_threads_banner() {
    python3 scripts/make_hex.py 512 "$D/hex.off" > /dev/null   # (24,576 vertices)
    local input now cap want
    for input in "" "$D/hex.off"; do
        now=$(threads env -u OMP_NUM_THREADS tests/polyhoop -n 0 $input)
        has "$D/banner" "now: automatic, one per 2000 vertices up to "
        cap=$(sed -n 's/.* up to \([0-9]*\).*/\1/p' "$D/banner")
        [ "${cap:-0}" -ge 1 ] || fail "no core count in the banner: $(cat "$D/banner")"
        want=1
        if [ -n "$input" ]; then want=$((24576 / 2000 < cap ? 24576 / 2000 : cap)); fi
        [ "$now" = $want ] || fail "$now threads for ${input:-the default input}, expected $want: $(cat "$D/banner")"
    done
    now=$(threads env -u OMP_NUM_THREADS tests/polyhoop -n 0 -j 2)
    [ "$now" = 2 ] || fail "-j 2: $now threads: $(cat "$D/banner")"
    lacks "$D/banner" automatic
    now=$(OMP_NUM_THREADS=2 threads tests/polyhoop -n 0 "$D/hex.off")
    [ "$now" = 2 ] || fail "OMP_NUM_THREADS=2: $now threads: $(cat "$D/banner")"
    lacks "$D/banner" automatic
}

# A picture size that overflows an int, or has a space or sign in it, is refused, not read modulo
# 2^32 or taken as its digits; a run whose standard
# output cannot be written (a full disk) says so and exits 4 instead of 0.
test_faults_png_size_overflow_and_stdout_full() {
    status 2 errs "$D/err" tests/polyhoop -q -n 0 --png-size 4294968096x800 -o "$D/a"
    has "$D/err" '--png-size needs WxH'
    local v
    for v in ' 10x10' '+5x+5' '10x 10' '10x+5'; do   # (strtol's spaces and signs)
        status 2 errs "$D/err" tests/polyhoop -q -n 0 --png-size "$v" -o "$D/a"
        has "$D/err" "--png-size needs WxH with 1 <= W, H <= 16384, got '$v'"
    done
    [ -w /dev/full ] || skip "no /dev/full here"
    local st=0
    tests/polyhoop -n 1 -s 10 -o "$D/b" > /dev/full 2> "$D/err" || st=$?
    [ $st = 4 ] || fail "a failed write to standard output: exit status $st, expected 4"
    has "$D/err" 'cannot write to standard output'
    [ -f "$D/b/frame000001.vtp" ] || fail "the run's frames were not written"
}

# -n 2147483647 starts at once: nothing is sized by the frame count (the frames' time table
# grows with the frames written), so five frames of it peak at a few MB.
test_faults_huge_frame_count_bounded_memory() {
    tests/polyhoop -q -n 2147483647 -s 1 --max-time 0.0005 -o "$D/a" > "$D/log"
    [ -f "$D/a/frame000005.vtp" ] && [ ! -f "$D/a/frame000006.vtp" ] || fail "not frames 0 to 5: $(ls "$D/a" | tr '\n' ' ')"
    local mb
    mb=$(sed -n 's/^memory: peak \([0-9.]*\) MB resident.*/\1/p' "$D/log")
    [ -n "$mb" ] || fail "no peak memory in the summary"
    awk -v m="$mb" 'BEGIN { exit !(m < 64) }' || fail "peak memory $mb MB, not below 64 MB"
}

# -j above the cores that other programs leave free: with every core kept busy by a spinning
# shell, -j (the cores) says once that only 1 is free and what that costs; -j 1 says nothing and
# does not measure. (The spinners make the load: the test does not depend on the machine's own.)
test_faults_threads_beyond_free_cores() {
    local cores
    spinners=()
    cores=$(OMP_NUM_THREADS= nproc --all)
    [ "$cores" -ge 2 ] || skip "one core: -j 2 cannot exceed the free cores by being busy"
    for _ in $(seq "$cores"); do (while :; do :; done) & spinners+=($!); done
    trap 'kill "${spinners[@]}" 2> /dev/null || true' EXIT
    sleep 0.5
    status 0 errs "$D/err" tests/polyhoop -q -j "$cores" -n 1 -s 10 -o "$D/a"
    kill "${spinners[@]}"
    matches "$D/err" "^polyhoop: warning: -j $cores asks for $cores threads, but only [0-9]* of this machine's $cores cores \(is\|are\) free (the others are busy): threads beyond the free cores take turns, and the run may take many times as long as with -j [0-9]*\$"
    [ "$(grep -c 'cores .* free' "$D/err")" = 1 ] || fail "warned more than once"
    status 0 errs "$D/err1" tests/polyhoop -q -j 1 -n 1 -s 10 -o "$D/b"
    lacks "$D/err1" 'free (the others are busy)'
}

run_file "$@"
