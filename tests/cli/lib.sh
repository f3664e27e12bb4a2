# The shell side of the tests: sourced by every tests/cli/*.sh file. A file defines functions
# test_NAME (one check of the program from the command line each) and ends with `run_file "$@"`.
# Each test runs in its own shell with `set -euo pipefail`, in the repository root, with a fresh
# temporary folder $D (removed when the test passes, kept and named when it fails). A test fails
# at its first failing command or `fail "why"`, and `skip "why"` says it cannot run here.
# The runner prints, like tests/run_tests, one line per test ("ok", "FAIL", "skip") and at the end
# "N passed, N failed" (", N skipped" when a test could not run).
#   tests/cli/NAME.sh [FILTER]     run the tests of one file whose name contains FILTER
#   tests/cli/NAME.sh --list [FILTER]   their names only (tests/run.sh counts them)
#   PH_TEST_SKIP="a b"             leave tests a and b out (make check's CHECK_SKIP)
cd "$(dirname "${BASH_SOURCE[0]}")/../.." || exit 2

fail() { echo "  $*" >&2; exit 1; }
skip() { echo "$*" > "$D/.skip"; exit 77; }

# status N CMD...: runs CMD and fails unless it exits with status N
status() {
    local want=$1 st=0
    shift
    "$@" || st=$?
    [ "$st" = "$want" ] || fail "exit status $st, expected $want: $*"
}

# has FILE TEXT...: fails unless FILE holds every TEXT (fixed strings), showing the file if not
has() {
    local file=$1
    shift
    for text in "$@"; do
        grep -qF -- "$text" "$file" || { sed 's/^/  | /' "$file" | tail -n 20 >&2; fail "$file lacks: $text"; }
    done
}

# lacks FILE TEXT...: fails if FILE holds any TEXT
lacks() {
    local file=$1
    shift
    for text in "$@"; do
        ! grep -qF -- "$text" "$file" || fail "$file holds: $text"
    done
}

# matches FILE RE...: like has, each RE a regular expression (grep's)
matches() {
    local file=$1 re
    shift
    for re in "$@"; do
        grep -q -- "$re" "$file" || { sed 's/^/  | /' "$file" | tail -n 20 >&2; fail "$file lacks: $re"; }
    done
}

# errs FILE CMD...: runs CMD with its stderr into FILE and its stdout dropped (status N errs F CMD
# checks the status; status's own message stays visible)
errs() { "${@:2}" > /dev/null 2> "$1"; }

# vtk_reads FRAME: fails unless VTK reads FRAME (scripts/check_vtp.py), where /usr/bin/python3 has VTK
vtk_reads() { /usr/bin/python3 scripts/check_vtp.py "$1" > /dev/null 2>&1 || case $? in 77|127) ;; *) fail "$1 is not read by VTK" ;; esac; }

run_file() {
    local list=0
    [ "${1:-}" != --list ] || { list=1; shift; }   # --list [FILTER]: the names only
    local filter=${1:-} passed=0 failed=0 skipped=0 name st t0 took
    for name in $(sed -n 's/^\(test_[A-Za-z0-9_]*\)() *{.*/\1/p' "$0"); do
        case "$name" in *"$filter"*) ;; *) continue ;; esac
        case " ${PH_TEST_SKIP:-} " in *" $name "*) continue ;; esac
        [ "$list" = 0 ] || { echo "$name"; continue; }
        D=$(mktemp -d /tmp/ph_cli_XXXXXX)
        t0=$(date +%s%N)
        ( set -euo pipefail; "$name" ) &
        st=0
        wait $! || st=$?
        took=$((($(date +%s%N) - t0) / 10000000))   # hundredths of a second
        took=$(printf '%d.%02d s' $((took / 100)) $((took % 100)))
        if [ "$st" = 77 ]; then
            skipped=$((skipped + 1))
            printf 'skip %-40s %s\n' "$name" "$(cat "$D/.skip" 2> /dev/null)"
            rm -rf "$D"
        elif [ "$st" = 0 ]; then
            passed=$((passed + 1))
            printf 'ok   %-40s (%s)\n' "$name" "$took"
            rm -rf "$D"
        else
            failed=$((failed + 1))
            printf 'FAIL %-40s (%s; exit status %s; its files: %s)\n' "$name" "$took" "$st" "$D"
        fi
    done
    [ "$list" = 0 ] || return 0
    if [ "$skipped" -gt 0 ]; then echo "$passed passed, $failed failed, $skipped skipped"
    else echo "$passed passed, $failed failed"; fi
    [ "$failed" = 0 ]
}
