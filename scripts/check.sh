#!/usr/bin/env bash
# `make check`: the tests and three showcases under AddressSanitizer + UBSan (the C tests several
# at a time, CHECK_JOBS below). make has built the
# sanitized programs into build-check/ (polyhoop, run_tests, unstable/, noise/, emulsion/,
# hourglass/). The tests run tests/polyhoop, tests/polyhoop_unstable and tests/polyhoop_noise by
# those names, so they run from
# build-check/tree/, where those names point at the sanitized builds. ASan and LSan reports go to
# files in build-check/reports/ (a child's report would otherwise vanish with its test's temp
# folder); UBSan's go to stderr (gcc's libubsan ignores log_path when ASan is linked too), so each
# test's and each run's output is kept in build-check/runs/ and searched for reports; a program
# stopped by UBSan exits with status 1, which fails the test that ran it. Any report, failed test
# or failed run ends with "make check: FAILED ..." and a non-zero status. LSan reports nothing of
# libgomp's (its thread pool stays reachable), so no suppression file is needed.
#   CHECK_SKIP="a b": leave tests a and b out; FILTER=name: only tests whose name contains it;
#   CHECK_JOBS=n: n C tests at a time (default: the cores, at most 4)
case "${1:-}" in -h|--help) sed -n '2,/^[^#]/{/^#/s/^# \{0,1\}//p}' "$0"; exit 0;; esac
set -uo pipefail
cd "$(dirname "$0")/.."
B=build-check
export ASAN_OPTIONS=detect_leaks=1:log_path=$PWD/$B/reports/asan UBSAN_OPTIONS=print_stacktrace=1
# one thread unless a test asks for more, as in `make test`: several tests run at once here, and
# each with the automatic thread count would oversubscribe the cores (the showcases below take
# -j 2, so the threaded paths run under the sanitizers too)
export OMP_NUM_THREADS=1 OMP_WAIT_POLICY=passive
CHECK_SKIP=${CHECK_SKIP:-}
FILTER=${FILTER:-}

# the tests' view of the repository: the sanitized programs under the names the tests call
mkdir -p $B/tree/tests
for f in inputs params scripts docs src polyhoop.c Makefile README.md .gitignore; do ln -sfn ../../$f $B/tree/$f; done   # (scripts' tests build showcases)
for f in tests/*.py tests/*.h tests/*.sh tests/*.def tests/*.c tests/*.list; do [ -e "$f" ] && ln -sfn ../../../"$f" $B/tree/"$f"; done
ln -sfn ../../../tests/cli $B/tree/tests/cli   # (the command-line checks that tests call)
ln -sfn ../../polyhoop $B/tree/tests/polyhoop
ln -sfn ../../run_tests $B/tree/tests/run_tests
ln -sfn ../../unstable/polyhoop $B/tree/tests/polyhoop_unstable
ln -sfn ../../noise/polyhoop $B/tree/tests/polyhoop_noise

rm -rf $B/reports $B/runs && mkdir -p $B/reports $B/runs && touch $B/runs/summary $B/runs/failed
fail=""
# the C tests, each in a process of its own, CHECK_JOBS at a time (default: the cores, at most 4,
# counted without the OMP_NUM_THREADS set above, which nproc would report; each test uses one
# thread unless it is about threads, and none is timed); a test's lines are printed when it ends,
# so they come in the order the tests end
if [ -n "${CHECK_JOBS:-}" ]; then jobs=$CHECK_JOBS
else jobs=$(env -u OMP_NUM_THREADS -u OMP_THREAD_LIMIT nproc 2>/dev/null || echo 1); [ "$jobs" -le 4 ] || jobs=4; fi
[[ $jobs =~ ^[1-9][0-9]*$ ]] || { echo "make check: CHECK_JOBS is a positive integer, not '$jobs'" >&2; exit 2; }
check_test() {   # check_test NAME: runs it, prints its lines, notes it in runs/failed if it failed
    local t=$1 st
    ( cd $B/tree && ./tests/run_tests "$t" ) > $B/runs/"$t".log 2>&1
    st=$?
    {
        grep -E '^(ok|FAIL|skip) ' $B/runs/"$t".log
        if [ $st != 0 ]; then
            grep -q '^FAIL ' $B/runs/"$t".log || echo "FAIL $t (exit status $st)"
            grep -v -E '^(ok|skip|FAIL) |passed, .* failed' $B/runs/"$t".log | tail -n 30
        fi
    } > $B/runs/"$t".out
    grep -E '^(ok|FAIL|skip) ' $B/runs/"$t".out >> $B/runs/summary
    cat $B/runs/"$t".out
    [ $st = 0 ] || echo "$t" >> $B/runs/failed
}
echo "== tests under ASan+UBSan, $jobs at a time${CHECK_SKIP:+ (left out: $CHECK_SKIP)}"
for t in $(sed -n 's/^TEST(\(.*\))$/\1/p' tests/*_tests.def); do
    case " $CHECK_SKIP " in *" $t "*) continue;; esac
    case "$t" in *"$FILTER"*) ;; *) continue;; esac
    while [ "$(jobs -rp | wc -l)" -ge "$jobs" ]; do wait -n; done
    check_test "$t" &
done
wait
for t in $(cat $B/runs/failed); do fail="$fail $t"; done
echo "== command-line tests under ASan+UBSan"
for f in tests/cli/*.sh; do
    grep -q '^run_file ' "$f" || continue
    name=cli-$(basename "$f" .sh)
    ( cd $B/tree && PH_TEST_SKIP="$CHECK_SKIP" "$f" "$FILTER" ) > $B/runs/"$name".log 2>&1
    st=$?
    grep -E '^(ok|FAIL|skip) ' $B/runs/"$name".log | tee -a $B/runs/summary
    if [ $st != 0 ]; then
        fail="$fail $name"
        grep -v -E '^(ok|skip) |passed, .* failed' $B/runs/"$name".log | tail -n 30
    fi
done
echo "== showcases under ASan+UBSan"
for run in "polyhoop -q -j 2 -n 3 -s 200" \
           "emulsion/polyhoop -q -j 2 -n 2 -s 100 --check inputs/emulsion.off" \
           "hourglass/polyhoop -q -j 2 -n 2 -s 100 --check inputs/hourglass.off"; do
    set -- $run
    name=${1%/polyhoop}; name=${name:-default}
    out=$B/runs/show-$name
    rm -rf "$out"
    if ./$B/$run -o "$out" > "$out".log 2>&1; then echo "ok   $run" | tee -a $B/runs/summary
    else echo "FAIL $run (see $out.log)" | tee -a $B/runs/summary; tail -n 20 "$out".log; fail="$fail $name"; fi
done
n=$(ls $B/reports | wc -l)
if [ "$n" -gt 0 ]; then for r in $B/reports/*; do echo "== $r"; head -n 40 "$r"; done; fi
u=$(cat $B/runs/*.log | grep -c -E 'runtime error:|ERROR: (Address|Leak)Sanitizer')
if [ "$u" -gt 0 ]; then
    echo "== sanitizer reports in the logs of $B/runs/:"
    grep -h -E -A 3 'runtime error:|ERROR: (Address|Leak)Sanitizer' $B/runs/*.log | head -n 60
fi
[ $((n + u)) = 0 ] || fail="$fail sanitizer-reports($((n + u)))"
echo "check: $(grep -c '^ok' $B/runs/summary) passed, $(grep -c '^FAIL' $B/runs/summary) failed, $(grep -c '^skip' $B/runs/summary) skipped"
if [ -n "$fail" ]; then echo "make check: FAILED:$fail"; exit 1; fi
echo "make check: passed under ASan+UBSan (tests and 3 showcases; no sanitizer report)"
