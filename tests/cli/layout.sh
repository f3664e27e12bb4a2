#!/usr/bin/env bash
# The shape of the source (docs/design.md): no two modules of src/ include each other in a
# circle, the program ends only through status_exit (src/status.c) and main, and a clone has the
# top level it promises, outputs/ with its README.md among it.
source "$(dirname "$0")/lib.sh"

# "from to" per line: module `from` includes the header of module `to`. A file's module is its
# name without the extension; a private header NAME_impl.h is part of module NAME.
include_edges() {
    for f in "$@"; do
        from=$(basename "$f"); from=${from%.*}; from=${from%_impl}
        sed -n 's/^#include "\([A-Za-z0-9_]*\)\.h".*/\1/p' "$f" | sed 's/_impl$//' |
            while read -r to; do [ "$to" = "$from" ] || echo "$from $to"; done
    done | sort -u
}

# the modules left after taking away, again and again, every module that includes none of those
# left or that none of them includes: empty exactly when there is no cycle, else the cycles
cyclic_modules() {
    awk '{ from[NR] = $1; to[NR] = $2; node[$1]; node[$2] }
         END {
             do {
                 removed = 0
                 for (m in node) { outs[m] = 0; ins[m] = 0 }
                 for (k = 1; k <= NR; k++)
                     if (from[k] in node && to[k] in node) { outs[from[k]]++; ins[to[k]]++ }
                 for (m in node) if (!outs[m] || !ins[m]) { delete node[m]; removed = 1 }
             } while (removed)
             for (m in node) print m
         }' "$1" | sort
}

test_layout_no_include_cycle() {
    include_edges src/*.c src/*.h > "$D/edges"
    [ "$(wc -l < "$D/edges")" -gt 50 ] || fail "found only $(wc -l < "$D/edges") includes in src/"
    cyclic_modules "$D/edges" > "$D/cycle"
    [ ! -s "$D/cycle" ] || fail "modules on or between include cycles: $(tr '\n' ' ' < "$D/cycle")"
    # the check itself: a made-up cycle a -> b -> c -> a is found (not d, which includes a), and a
    # chain e -> f -> g is not
    printf '%s\n' "a b" "b c" "c a" "d a" "e f" "f g" > "$D/made"
    [ "$(cyclic_modules "$D/made" | tr '\n' ' ')" = "a b c " ] || fail "the cycle check misses a made-up cycle"
}

test_layout_exits_only_through_status() {
    grep -n -E '\b(_?exit|_Exit|abort)\(' src/*.c | grep -v '^src/status\.c:' > "$D/exits" || true
    [ ! -s "$D/exits" ] || fail "exits outside status_exit: $(cat "$D/exits")"
    [ "$(grep -c -E '\bexit\(' src/status.c)" = 1 ] || fail "src/status.c should exit in one place"
}

# A clone's top level: Makefile, polyhoop.c, README.md, src/, docs/, params/, inputs/, scripts/,
# tests/ and outputs/, which holds only its README.md (git ignores the rest of it). Runs as
# `make run` makes them (its recipe, here into $D/outputs, 1 frame of 10 steps), the second one
# replacing the first, keep that README and a file of the user's.
test_layout_top_level_and_outputs_readme() {
    [ "$(git rev-parse --show-toplevel 2> /dev/null)" = "$PWD" ] || skip "not the top of a git checkout (make check's tree of links)"
    for f in Makefile polyhoop.c README.md src/sim.c docs/model.md params/default.h inputs/ensemble.off scripts/bench.sh tests/run.sh outputs/README.md; do
        git ls-files --error-unmatch "$f" > /dev/null 2>&1 || fail "a clone would lack $f (not tracked by git)"
    done
    [ "$(git ls-files outputs)" = outputs/README.md ] || fail "git tracks more than outputs/README.md in outputs/: $(git ls-files outputs | tr '\n' ' ')"
    ! git check-ignore -q outputs/README.md || fail ".gitignore ignores outputs/README.md"
    for f in outputs/frame000000.vtp outputs/frames.pvd outputs/checkpoint.bin outputs/.polyhoop.lock outputs/foam/frame000000.png; do
        git check-ignore -q "$f" || fail ".gitignore does not ignore $f"
    done
    recipe=$(make --no-print-directory -n run | tail -n 1)
    [ "$recipe" = "./polyhoop --overwrite -o outputs" ] || fail "make run's recipe changed: $recipe (update this test and outputs/README.md)"
    mkdir "$D/outputs"
    cp outputs/README.md "$D/outputs/README.md"
    echo "mine" > "$D/outputs/notes.txt"
    for run in 1 2; do
        tests/polyhoop -q --overwrite -o "$D/outputs" -n 1 -s 10 > "$D/log$run" 2>&1 || fail "run $run failed: $(tail -n 3 "$D/log$run")"
        [ -s "$D/outputs/frame000001.vtp" ] || fail "run $run wrote no frame000001.vtp"
        cmp -s outputs/README.md "$D/outputs/README.md" || fail "run $run changed or removed outputs/README.md"
        [ "$(cat "$D/outputs/notes.txt")" = mine ] || fail "run $run changed or removed a file of the user's"
    done
}

run_file "$@"
