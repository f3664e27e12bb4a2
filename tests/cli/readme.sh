#!/usr/bin/env bash
# README.md against the program, so that the front page cannot drift: the default run's figures
# as quoted (cells by a time, frames written, files), the minimal example's commands (in a
# temporary folder, with fewer frames), every option of its table in the help, the test count it
# quotes, and its showcase table against scripts/showcase.sh --list.
source "$(dirname "$0")/lib.sh"

# `make run` (its recipe, run into $D): "grows one cell into a tissue of N cells by t = T and
# writes F frames (... t = 0 to TE)", and the files it names
test_readme_make_run_figures() {
    recipe=$(make --no-print-directory -n run | tail -n 1)
    [ "$recipe" = "./polyhoop --overwrite -o outputs" ] || fail "make run's recipe changed: $recipe (update this test and README.md)"
    read -r cells t frames tend < <(sed -n 's/.*grows one cell into a tissue of \([0-9]*\) cells by t = \([0-9.]*\) and writes \([0-9]*\) frames.*/\1 \2 \3/p' README.md |
                                    tr '\n' ' '; sed -n 's/.*t = 0 to \([0-9.]*\)).*/\1/p' README.md)
    [ -n "$tend" ] || fail "README.md no longer quotes the default run's figures the way this test reads them"
    tests/polyhoop -q --overwrite -o "$D/out" > "$D/log" 2>&1 || fail "the default run failed: $(tail -n 3 "$D/log")"
    got=$(ls "$D/out"/frame*.vtp | wc -l)
    [ "$got" = "$frames" ] || fail "README: $frames frames; the run wrote $got"
    for f in frame000000.vtp "frame$(printf %06d $((frames - 1))).vtp" frames.pvd checkpoint.bin events.csv observables.csv; do
        [ -s "$D/out/$f" ] || fail "README names $f; the run did not write it"
    done
    first=$(awk -F, -v n="$cells" 'NR > 1 && $4 + 0 >= n { print $3; exit }' "$D/out/observables.csv")
    [ "$first" = "$t" ] || fail "README: $cells cells by t = $t; the run reached $cells cells at t = ${first:-never}"
    last=$(tail -n 1 "$D/out/observables.csv" | cut -d, -f3)
    [ "$last" = "$tend" ] || fail "README: frames to t = $tend; the last is at t = $last"
}

# the minimal example: copy the default header, change gamma, build it, run it with pictures
# (here into $D, in a build folder of its own, 2 frames instead of 50)
test_readme_minimal_example() {
    has README.md 'cp params/default.h params/stiff.h' 'make PARAMS=params/stiff.h' './polyhoop -n 50 -o outputs/stiff --png --png-color pressure'
    sed 's/^#define P_gamma .*/#define P_gamma 3e3/' params/default.h > "$D/stiff.h"
    sed -i 's|#include "\([a-z_]*\.h\)"|#include "'"$PWD"'/params/\1"|' "$D/stiff.h"
    make -s B="$D/b" PARAMS="$D/stiff.h" "$D/b/polyhoop" > "$D/make.log" 2>&1 || fail "the header does not build: $(tail -n 3 "$D/make.log")"
    "$D/b/polyhoop" -n 2 -s 100 -o "$D/stiff" --png --png-color pressure > "$D/log" 2>&1 || fail "the run failed: $(tail -n 3 "$D/log")"
    has "$D/log" "gamma     = 3000"
    for k in 0 1 2; do [ -s "$D/stiff/frame00000$k.png" ] || fail "no picture frame00000$k.png"; done
}

# every option of the README's table is one the program knows
test_readme_options_in_help() {
    tests/polyhoop -h > "$D/help" 2>&1 || true
    sed -n '/^## Main options/,/^## /p' README.md | grep -o '`-[-a-z]*' | tr -d '`' | sort -u > "$D/options"
    [ "$(wc -l < "$D/options")" -ge 10 ] || fail "found only $(wc -l < "$D/options") options in README.md's table"
    while read -r o; do grep -q -- "^ *$o[ ,=]" "$D/help" || grep -q -- "[ ,]$o[ ,=]" "$D/help" || fail "README.md's option $o is not in polyhoop -h"; done < "$D/options"
}

# "`make test` runs about N tests ... `make test-full` runs all of them, about M": each within 15 %
# of the count; the ParaView tests it names run in make test-full only
# (make test leaves out the slow tests of tests/slow.list)
test_readme_test_count() {
    count() {
        local n
        n=$(./tests/run_tests --list | wc -l)
        for f in tests/cli/*.sh; do grep -q '^run_file ' "$f" && n=$((n + $("$f" --list | wc -l))); done
        echo "$n"
    }
    quick=$(sed -n 's/.*`make test` runs about \([0-9]*\) tests.*/\1/p' README.md)
    all=$(sed -n 's/.*`make test-full` runs all of them, about \([0-9]*\).*/\1/p' README.md)
    [ -n "$quick" ] && [ -n "$all" ] || fail "README.md no longer quotes the test counts the way this test reads them"
    n=$(PH_TEST_SKIP="$(sed 's/#.*//' tests/slow.list | awk 'NF { print $1 }' | tr '\n' ' ')" count)
    m=$(PH_TEST_SKIP= count)
    awk -v q="$quick" -v n="$n" 'BEGIN { exit !(n > 0.85 * q && n < 1.15 * q) }' || fail "README.md: make test runs about $quick tests; it runs $n"
    awk -v q="$all" -v n="$m" 'BEGIN { exit !(n > 0.85 * q && n < 1.15 * q) }' || fail "README.md: make test-full runs about $all tests; there are $m"
    # "two of them draw pictures with ParaView": the tests of paraview.sh, all slow (make test-full only)
    words=(zero one two three four five six)
    np=$(PH_TEST_SKIP= tests/cli/paraview.sh --list | wc -l)
    grep -q "runs all of them, about [0-9]*, .* ${words[$np]} of\s*$" README.md &&
        grep -q '^them draw pictures with ParaView and are skipped without it' README.md ||
        fail "README.md does not say that make test-full's $np ParaView tests skip without ParaView"
    for t in $(PH_TEST_SKIP= tests/cli/paraview.sh --list); do
        grep -q "^$t\b" tests/slow.list || fail "$t runs in make test, which README.md says runs no ParaView test"
    done
}

# the showcase table lists exactly the showcases there are
test_readme_showcases_listed() {
    sed -n '/^## Showcases/,/^## /p' README.md | sed -n 's/^| `\([a-z_]*\)` |.*/\1/p' | sort > "$D/readme"
    scripts/showcase.sh --list | sort > "$D/list"
    diff "$D/readme" "$D/list" > "$D/diff" || fail "README.md's showcases differ from scripts/showcase.sh --list: $(tr '\n' ' ' < "$D/diff")"
}

run_file "$@"
