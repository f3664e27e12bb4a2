#!/usr/bin/env bash
# `make test`: both tiers of tests and one total. First the C tests (tests/run_tests: unit and
# property tests of the modules), then the command-line tests (every tests/cli/*.sh file that ends
# with run_file: the program and the scripts as a user runs them). Each prints one line per test,
# shown here after the progress count [k/N]; the last line here is the total, "N passed, N failed" (", N skipped" when a test could not run).
# Exit status 0 only when nothing failed. The slow tests of tests/slow.list (10 s or more each:
# showcases, builds of other headers, long runs) are left out, and said so, unless
# PH_TEST_ALL=1 (`make test-full`, which CI runs).
#   tests/run.sh [FILTER]     only the tests whose name contains FILTER
cd "$(dirname "$0")/.." || exit 2
# one thread unless a test asks for more (those about threads do, with -j or OMP_NUM_THREADS), and
# threads that sleep rather than spin while they wait, so that a busy machine slows the tests
# down no more than its load does
export OMP_NUM_THREADS=1 OMP_WAIT_POLICY=passive
filter=${1:-}
slow=$(sed 's/#.*//' tests/slow.list | awk 'NF { print $1 }' | tr '\n' ' ')
if [ "${PH_TEST_ALL:-0}" != 1 ]; then
    export PH_TEST_SKIP="${PH_TEST_SKIP:-} $slow"
    nslow=0
    for t in $slow; do case "$t" in *"$filter"*) nslow=$((nslow + 1)) ;; esac; done
fi
log=$(mktemp /tmp/ph_tests_XXXXXX)
trap 'rm -f "$log"' EXIT
st=0
# one tier's runner; a runner that dies (a test crashed it) counts as a failed test, named after
# the last test it finished
tier() {
    local name=$1 rc done
    shift
    done=$(grep -c -E '^(ok|FAIL|skip) ' "$log")
    "$@" "$filter" | tee -a "$log" | grep --line-buffered -v -E '^[0-9]+ passed, [0-9]+ failed' |
        awk -v k="$done" -v n="$total" \
            '/^(ok|FAIL|skip) / { printf "[%d/%d] %s\n", ++k, n, $0; fflush(); next } { print; fflush() }'
    rc=${PIPESTATUS[0]}
    [ "$rc" = 0 ] && return
    st=1
    if [ "$(tail -n 1 "$log" | grep -c -E '^[0-9]+ passed, [0-9]+ failed')" = 0 ]; then
        echo "FAIL $name stopped (exit status $rc) after $(tail -n 1 "$log" | awk '{ print $2 }'): the next test crashed it" | tee -a "$log"
    fi
}
# how many tests there are, for the progress count [k/N] before each line
total=$(./tests/run_tests --list "$filter" | wc -l)
for f in tests/cli/*.sh; do
    grep -q '^run_file ' "$f" && total=$((total + $("$f" --list "$filter" | wc -l)))
done
tier tests/run_tests ./tests/run_tests
for f in tests/cli/*.sh; do
    grep -q '^run_file ' "$f" || continue
    tier "$f" "$f"
done
[ "${nslow:-0}" = 0 ] || echo "($nslow slow tests of tests/slow.list left out: make test-full runs them too)"
passed=$(grep -c '^ok ' "$log") failed=$(grep -c '^FAIL ' "$log") skipped=$(grep -c '^skip ' "$log")
if [ "$skipped" -gt 0 ]; then echo "$passed passed, $failed failed, $skipped skipped"
else echo "$passed passed, $failed failed"; fi
[ "$st" = 0 ] && [ "$failed" = 0 ]
