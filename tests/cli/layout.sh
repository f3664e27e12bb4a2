#!/usr/bin/env bash
# The shape of the source (docs/design.md): no two modules of src/ include each other in a
# circle, and the program ends only through status_exit (src/status.c) and main.
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

run_file "$@"
