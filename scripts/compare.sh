#!/usr/bin/env bash
# Two versions side by side, as docs/performance.md compares them: builds revision A and B (any
# git revision, or WORK for the working tree as it is) with a scenario's parameter header, runs
# them alternately on the bench's inputs (make bench's scenarios, scripts/bench.sh), and prints per
# scenario each version's fastest and median compute time (the phases but frame writing) and
# contact phase, their peak memory per vertex, the ratio B / A of the fastest and the median of the
# rounds' ratios, and whether the two versions wrote the same frames (byte for byte, the second
# line, which names the version, aside).
#   scripts/compare.sh [-r ROUNDS] [-t THREADS] A B [SCENARIO...]
#       ROUNDS   rounds of A then B (default 3)     THREADS  threads of each run (default 1)
#       SCENARIO make bench's names (default: default hex2500 tissue3000)
# Builds go to build-compare/ (a revision's source is checked out there with git worktree).
# Compare on a machine that runs nothing else: a second busy program makes both slower by more
# than most differences between versions.
case "${1:-}" in -h|--help) sed -n '2,/^[^#]/{/^#/s/^# \{0,1\}//p}' "$0"; exit 0;; esac
set -euo pipefail
shopt -s inherit_errexit
cd "$(dirname "$0")/.."
rounds=3 threads=1
while getopts "r:t:" o; do
    case $o in
        r) rounds=$OPTARG;;
        t) threads=$OPTARG;;
        *) echo "usage: scripts/compare.sh [-r ROUNDS] [-t THREADS] A B [SCENARIO...]" >&2; exit 2;;
    esac
done
shift $((OPTIND - 1))
[ $# -ge 2 ] || { echo "usage: scripts/compare.sh [-r ROUNDS] [-t THREADS] A B [SCENARIO...] (A, B: git revisions or WORK)" >&2; exit 2; }
[[ $rounds =~ ^[1-9][0-9]*$ && $threads =~ ^[1-9][0-9]*$ ]] || { echo "compare: ROUNDS and THREADS are positive integers" >&2; exit 2; }
revs=("$1" "$2"); shift 2
scenarios=("$@"); [ ${#scenarios[@]} -gt 0 ] || scenarios=(default hex2500 tissue3000)
for s in "${scenarios[@]}"; do scripts/bench.sh --scenario "$s" > /dev/null; done   # (an unknown name stops here)
out=build-compare
mkdir -p "$out"

tree_of() {   # tree_of REV: the folder of its source (the working tree for WORK)
    [ "$1" = WORK ] && { pwd; return; }
    local sha; sha=$(git rev-parse --verify --quiet "$1^{commit}") || { echo "compare: no revision '$1'" >&2; return 1; }
    local t="$PWD/$out/src-${sha:0:12}"
    [ -d "$t" ] || { git worktree prune; git worktree add --detach -q "$t" "$sha" >&2; }   # (prune: a folder deleted by hand)
    echo "$t"
}
label=() trees=()
for k in 0 1; do
    trees[k]=$(tree_of "${revs[k]}")
    label[k]=${revs[k]}; [ "${revs[k]}" = WORK ] || label[k]=$(git rev-parse --short "${revs[k]}")
done
[ "${label[0]}" != "${label[1]}" ] || label[1]="${label[1]}'"   # (the same revision twice: a check of the noise)
program() {   # program K HEADER: version K's program with that header (built once; WORK again each call)
    local name dir; name=$(basename "$2" .h)
    dir="$PWD/$out/bin$1-$(printf '%s' "${label[$1]}" | tr -c 'A-Za-z0-9._-' _)/$name"
    make -s --no-print-directory -C "${trees[$1]}" B="$dir" PARAMS="$2" "$dir/polyhoop" >&2
    echo "$dir/polyhoop"
}
scripts/bench.sh --inputs

echo "A = ${label[0]}, B = ${label[1]}: $rounds rounds of A then B, $threads thread(s) each"
echo "(seconds by the program's phase timers; compute: the phases but frame writing; the fastest, then the median)"
for s in "${scenarios[@]}"; do
    mapfile -t def < <(scripts/bench.sh --scenario "$s")
    header=${def[0]} args=("${def[@]:1}")
    progs=("$(program 0 "$header")" "$(program 1 "$header")")
    rows=()
    for r in $(seq "$rounds"); do
        line=""
        for k in 0 1; do
            run="$out/run$k"
            rm -rf "$run"
            /usr/bin/time -f "%M" -o "$out/rss$k" env OMP_NUM_THREADS="$threads" "${progs[k]}" -q -o "$run" --checkpoint-every 0 \
                "${args[@]}" > "$out/log$k" 2>&1 || { echo "compare: $s, ${label[k]} failed (see $out/log$k)" >&2; exit 1; }
            # compute, contact (from the shares: contact % x compute), peak MB, vertices at the end
            line+=" $(scripts/bench.sh --parse "$out/log$k" "$threads" "$(tail -n 1 "$out/rss$k")" |
                     awk -F, '{ printf "%s %.4f %s %s", $2, $2 * $9 / 100, $5, $6 }')"
        done
        if [ "$r" = 1 ]; then   # the frames of the first round
            same=identical
            for f in "$out"/run0/*.vtp; do
                g="$out/run1/$(basename "$f")"
                [ -f "$g" ] && cmp -s <(sed 2d "$f") <(sed 2d "$g") || { same="differ ($(basename "$f") first)"; break; }
            done
            [ "$(ls "$out"/run0/*.vtp | wc -l)" = "$(ls "$out"/run1/*.vtp 2> /dev/null | wc -l)" ] || same="differ (frame count)"
        fi
        rows+=("$line")
    done
    printf '%s\n' "${rows[@]}" | python3 -c "
import sys, statistics as st
a, b = sys.argv[1], sys.argv[2]
r = [list(map(float, l.split())) for l in sys.stdin if l.strip()]
def show(what, i):
    x = [v[i] for v in r]; y = [v[i + 4] for v in r]; q = [v[i + 4] / v[i] for v in r if v[i] > 0]
    print('  %-8s A %8.3f %8.3f   B %8.3f %8.3f   B/A %.3f, rounds %.3f (%.3f-%.3f)' % (what, min(x), st.median(x), min(y), st.median(y),
          min(y) / min(x) if min(x) > 0 else float('nan'), st.median(q) if q else float('nan'), min(q) if q else 0, max(q) if q else 0))
print('$s:')
show('compute', 0); show('contact', 1)
bpv = lambda i: min(v[i + 2] * 1048576 / v[i + 3] for v in r if v[i + 3] > 0)
print('  memory   A %.0f, B %.0f bytes per vertex (peak; the least of the rounds)' % (bpv(0), bpv(4)))
" "${label[0]}" "${label[1]}"
    echo "  frames   $same"
done
