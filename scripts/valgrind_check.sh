#!/usr/bin/env bash
# `make valgrind`: a short default simulation, and its continuation from the checkpoint, under
# valgrind's memcheck. The program is built by the Makefile's rules with -O2 -g into
# build-valgrind/ (./polyhoop and build/ are left alone) and run on one thread, where libgomp
# starts no worker threads. Prints valgrind's LEAK SUMMARY and ERROR SUMMARY of each run; exits
# non-zero on any memory error or any definitely or indirectly lost block.
#   scripts/valgrind_check.sh [extra options of the first run]
case "${1:-}" in -h|--help) sed -n '2,/^[^#]/{/^#/s/^# \{0,1\}//p}' "$0"; exit 0;; esac
set -euo pipefail
cd "$(dirname "$0")/.."
command -v valgrind > /dev/null || { echo "valgrind_check: needs valgrind: apt-get install -y valgrind"; exit 1; }
PARAMS=${PARAMS:-params/default.h}
out=build-valgrind
# (PORTABLE=1: valgrind does not know every instruction a tuned build may use, e.g. AVX-512)
make -s --no-print-directory B=$out OPT="-O2 -g" PORTABLE=1 PARAMS="$PARAMS" "$out/polyhoop"

rm -rf "$out/run" "$out"/valgrind*.log
# two runs: the default one (also drawing PNGs), then its continuation from the checkpoint
runs=("-q -n 2 -s 50 --png $* -o $out/run" "-q -n 3 --restart $out/run")
fail=0
for k in 0 1; do
    log=$out/valgrind$k.log
    echo "valgrind_check: $out/polyhoop ${runs[$k]} (OMP_NUM_THREADS=1)"
    st=0
    # shellcheck disable=SC2086 # the options are meant to split
    OMP_NUM_THREADS=1 valgrind --leak-check=full --errors-for-leak-kinds=definite,indirect --error-exitcode=1 \
        --log-file="$log" "$out/polyhoop" ${runs[$k]} > "$out/run$k.log" 2>&1 || st=$?
    grep -A 5 'LEAK SUMMARY' "$log" | sed 's/^==[0-9]*== /  /' || true
    grep -h 'All heap blocks were freed\|ERROR SUMMARY' "$log" | sed 's/^==[0-9]*== /  /'
    if [ "$st" -ne 0 ]; then
        echo "valgrind_check: FAILED (exit status $st); the report: $log, the program's output: $out/run$k.log"
        fail=1
    fi
done
[ "$fail" = 0 ] || exit 1
echo "valgrind_check: passed (no memory errors, no leaks)"
