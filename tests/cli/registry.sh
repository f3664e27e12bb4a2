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

run_file "$@"
