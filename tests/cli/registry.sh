#!/usr/bin/env bash
# The tests themselves: every C test function is listed in a tests/*_tests.def file (an unlisted
# test would never run, silently), and every listed one exists; every command-line test file is
# run by tests/run.sh.
source "$(dirname "$0")/lib.sh"

test_registry_every_c_test_listed() {
    sed -n 's/^void \(test_[A-Za-z0-9_]*\)(void).*/\1/p' tests/test_*.c | sort > "$D/defined"
    sed -n 's/^TEST(\(test_[A-Za-z0-9_]*\))$/\1/p' tests/*_tests.def | sort > "$D/listed"
    [ -s "$D/defined" ] || fail "found no test functions in tests/test_*.c"
    comm -23 "$D/defined" "$D/listed" > "$D/unlisted"
    comm -13 "$D/defined" "$D/listed" > "$D/missing"
    [ ! -s "$D/unlisted" ] || fail "defined but in no tests/*_tests.def (never run): $(tr '\n' ' ' < "$D/unlisted")"
    [ ! -s "$D/missing" ] || fail "listed but not defined: $(tr '\n' ' ' < "$D/missing")"
    [ -z "$(uniq -d "$D/listed")" ] || fail "listed twice: $(uniq -d "$D/listed" | tr '\n' ' ')"
}

test_registry_cli_files_run() {
    for f in tests/cli/*.sh; do
        case "$f" in tests/cli/lib.sh) continue ;; esac
        grep -q '^test_[A-Za-z0-9_]*() *{' "$f" || continue
        [ -x "$f" ] || fail "$f is not executable"
        [ "$(tail -n 1 "$f")" = 'run_file "$@"' ] || fail "$f does not end with run_file \"\$@\" (tests/run.sh would not run it)"
    done
}

# every name of tests/slow.list is a test (a renamed test would else be run by make test again,
# or a typo leave nothing out), listed once
test_registry_slow_list_names_tests() {
    { export PH_TEST_SKIP=; ./tests/run_tests --list; for f in tests/cli/*.sh; do grep -q '^run_file ' "$f" && "$f" --list; done; } | sort > "$D/all"
    sed 's/#.*//' tests/slow.list | awk 'NF { print $1 }' | sort > "$D/slow"
    [ "$(wc -l < "$D/slow")" -ge 10 ] || fail "tests/slow.list names only $(wc -l < "$D/slow") tests"
    comm -23 "$D/slow" "$D/all" > "$D/unknown"
    [ ! -s "$D/unknown" ] || fail "tests/slow.list names tests that do not exist: $(tr '\n' ' ' < "$D/unknown")"
    [ -z "$(uniq -d "$D/slow")" ] || fail "tests/slow.list names twice: $(uniq -d "$D/slow" | tr '\n' ' ')"
    PH_TEST_ALL= tests/run.sh readme_minimal > "$D/out" 2>&1 || true
    has "$D/out" "(1 slow tests of tests/slow.list left out: make test-full runs them too)" "0 passed, 0 failed"
}

# make test's runner counts the tests first and shows each line after its place, [k/N], over both
# tiers, and runs the tests on one thread with threads that wait passively (unless a test asks)
test_registry_progress_count_and_one_thread() {
    env -u OMP_NUM_THREADS tests/run.sh geometry > "$D/out" 2>&1 || fail "tests/run.sh geometry failed: $(tail -n 3 "$D/out")"
    n=$(./tests/run_tests --list geometry | wc -l)
    [ "$n" -ge 3 ] || fail "only $n geometry tests"
    grep -E '^\[[0-9]+/[0-9]+\] (ok|FAIL|skip) ' "$D/out" > "$D/lines" || fail "no [k/N] lines"
    awk -v n="$n" '{ split(substr($1, 2, length($1) - 2), a, "/"); if (a[1] != NR || a[2] != n) exit 1 } END { exit NR != n }' "$D/lines" ||
        fail "the progress counts are not 1..$n of $n: $(head -n 3 "$D/lines")"
    tail -n 1 "$D/out" | grep -qx "$n passed, 0 failed" || fail "last line: $(tail -n 1 "$D/out")"
    has tests/run.sh "export OMP_NUM_THREADS=1 OMP_WAIT_POLICY=passive"
}

run_file "$@"
