#!/usr/bin/env bash
# The box walls (docs/model.md 2) from the command line: a header with a box builds, prints it in
# the banner and the frames and logs its energy; one whose box is empty does not compile; an
# input with a vertex outside the walls is refused, naming it; a build without walls prints none;
# a tissue pressed against the walls runs the same at 1 and 2 threads and through a restart.
source "$(dirname "$0")/lib.sh"

# A box of [-2, 2] x [-1.5, 3] around the default cell: the banner and the frames list box_x0 ..
# box_k (box_k = kr, the default), observables.csv has U_box; the default program's frames have no
# box line. A box with box_x0 >= box_x1 does not compile, saying why. An input whose polygon 1
# reaches x = 2.5 is refused (exit status 2, nothing written), naming the polygon, its line and
# the vertex. (A rigid polygon outside the walls is allowed: test_obstacles_box_input_checked.)
test_box_walls_from_the_command_line() {
    mkdir -p "$D/p"
    printf '#include "%s/params/default.h"\n#undef P_box_x0\n#define P_box_x0 -2.0\n#undef P_box_x1\n#define P_box_x1 2.0\n#undef P_box_y0\n#define P_box_y0 -1.5\n#undef P_box_y1\n#define P_box_y1 3.0\n' "$PWD" > "$D/p/box.h"
    printf '#include "%s/params/default.h"\n#undef P_box_x0\n#define P_box_x0 2.0\n#undef P_box_x1\n#define P_box_x1 2.0\n' "$PWD" > "$D/p/empty.h"
    ! gcc -std=c11 -fsyntax-only -Isrc -iquote . -DPH_PARAMS_FILE="\"$D/p/empty.h\"" src/params.c 2> "$D/empty.err" ||
        fail "a header with box_x0 = box_x1 compiled"
    has "$D/empty.err" "the box needs box_x0 < box_x1 and box_y0 < box_y1"
    make -s B="$D/build" PARAMS="$D/p/box.h" "$D/build/polyhoop" > "$D/make.log" 2>&1 || fail "cannot build: $(tail -n 3 "$D/make.log")"
    "$D/build/polyhoop" -j 1 -n 1 -s 100 -o "$D/run" inputs/ensemble.off > "$D/banner" 2>&1 || fail "the run failed: $(tail -n 3 "$D/banner")"
    has "$D/banner" "  box_x0    = -2" "  box_y0    = -1.5" "  box_x1    = 2" "  box_y1    = 3" "  box_k     = 10000000"
    has "$D/run/frame000001.vtp" "  box_x0    = -2" "  box_k     = 10000000"
    head -n 1 "$D/run/observables.csv" | grep -q ',U_gravity,U_box,U_contact,' || fail "observables.csv has no column U_box"
    tests/polyhoop -q -n 0 -o "$D/plain" inputs/ensemble.off > /dev/null 2>&1 || fail "the default program failed"
    lacks "$D/plain/frame000000.vtp" "box_"
    printf 'OFF\n8 2 0\n-1 -1 1\n0 -1 1\n0 0 1\n-1 0 1\n1 0 1\n2.5 0 1\n2.5 1 1\n1 1 1\n4 0 1 2 3\n4 4 5 6 7\n' > "$D/out.off"
    status 2 errs "$D/err" "$D/build/polyhoop" -q -n 1 -o "$D/bad" "$D/out.off"
    has "$D/err" "out.off: polygon 1 (line 12) has a vertex at (2.5, 0) outside the box [-2, 2] x [-1.5, 3] of $D/p/box.h"
    [ ! -e "$D/bad/frame000000.vtp" ] || fail "a frame was written"
    # the tissue pressed against the walls (from t = 2), the same at 2 threads and after a restart
    "$D/build/polyhoop" -j 1 -q -n 25 -s 1000 -o "$D/one" inputs/ensemble.off > /dev/null 2>&1 || fail "the long run failed"
    "$D/build/polyhoop" -j 2 -q -n 25 -s 1000 -o "$D/two" inputs/ensemble.off > /dev/null 2>&1 || fail "the 2-thread run failed"
    "$D/build/polyhoop" -j 1 -q -n 22 -s 1000 -o "$D/cut" inputs/ensemble.off > /dev/null 2>&1 || fail "the cut run failed"
    "$D/build/polyhoop" -j 2 -q -n 25 --restart "$D/cut" > /dev/null 2>&1 || fail "the restart failed"
    awk -F, 'NR > 1 { u = $(NF - 3) } END { exit !(u > 0) }' "$D/one/observables.csv" || fail "no box energy at t = 2.5"
    for k in 000023 000025; do
        cmp -s "$D/one/frame$k.vtp" "$D/two/frame$k.vtp" || fail "frame$k.vtp differs between 1 and 2 threads"
        cmp -s "$D/one/frame$k.vtp" "$D/cut/frame$k.vtp" || fail "frame$k.vtp differs after the restart"
    done
}

run_file "$@"
