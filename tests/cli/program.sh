#!/usr/bin/env bash
# The program's command line: the help, usage errors and bad inputs refused with exit status 2
# (4 for an output folder it cannot create) and a message naming the fault, a short run with a
# picture of the size asked for, and a velocity file refused by its line.
source "$(dirname "$0")/lib.sh"

# exits N ARGS...: runs tests/polyhoop ARGS with its output in $D/log; fails unless it exits with N
exits() {
    local want=$1 st=0
    shift
    tests/polyhoop "$@" > "$D/log" 2>&1 || st=$?
    [ "$st" = "$want" ] || fail "tests/polyhoop $*: exit status $st, expected $want (its output: $D/log)"
}

test_sim_program_usage_and_bad_input() {
    exits 0 -h
    has "$D/log" "usage: polyhoop"
    exits 2 -n
    has "$D/log" "option -n needs a value"
    exits 2 -s 0
    exits 2 --bogus
    has "$D/log" "polyhoop: unknown option '--bogus'"
    [ "$(wc -l < "$D/log")" = 2 ] || fail "an unknown option printed $(wc -l < "$D/log") lines, not 2 (the usage scrolls the error away)"
    lacks "$D/log" "usage:"
    exits 2 --sed 3
    has "$D/log" "unknown option '--sed' (did you mean --seed?)" "run polyhoop -h for the options"
    exits 2 -q --pngsize 3
    has "$D/log" "(did you mean --png-size?)"
    exits 2 -o
    has "$D/log" "option -o needs a value"
    exits 2 --xyzzy
    lacks "$D/log" "did you mean"
    exits 2 --seed=3
    has "$D/log" "polyhoop: unknown option '--seed=3': give the value as the next word, --seed 3"
    # after --, a word is the input file even where it starts with -
    cp inputs/ensemble.off "$D/-x.off"
    (cd "$D" && "$OLDPWD/tests/polyhoop" -q -n 0 -o dd -x.off > log 2>&1) && fail "-x.off was taken as an input without --"
    has "$D/log" "polyhoop: unknown option '-x.off' (an input file whose name starts with -: give it after --)"
    (cd "$D" && "$OLDPWD/tests/polyhoop" -q -n 0 -o dd -- -x.off > log 2>&1) || fail "-- -x.off: $(cat "$D/log")"
    [ -f "$D/dd/frame000000.vtp" ] || fail "-- -x.off wrote no frame"
    exits 2 /nonexistent.off
    has "$D/log" "polyhoop: /nonexistent.off: cannot open: No such file or directory"
    exits 4 -o /dev/null/x -n 1 -s 1
    has "$D/log" "cannot create output folder /dev/null/x"
    exits 2 --png-color bogus -n 0
    has "$D/log" "no cell array 'bogus'"
    exits 2 --png-size 12x -n 0
    has "$D/log" "--png-size needs WxH"
    exits 0 -o "$D/out" -n 2 -s 10 -q --png-size 320x240 --png-color generation
    [ -f "$D/out/frame000002.vtp" ] || fail "no frame000002.vtp"
    # the picture: 320 x 240 with a white corner (read where Debian's Python is)
    if [ -x /usr/bin/python3 ]; then
        /usr/bin/python3 tests/png_probe.py "$D/out/frame000002.png" 5,5 > "$D/probe" 2>&1 || fail "png_probe.py: $(cat "$D/probe")"
        has "$D/probe" "320 240" "255 255 255"
    fi
}

# Through the program, a malformed velocity file is refused with its line (status 2), and
# --velocities cannot be combined with --restart. (The velocities' effect: test_sim_initial_velocities.)
test_sim_initial_velocities_refused() {
    awk 'BEGIN { print "OFF\n16 2 0"
                 for (p = 0; p < 2; p++) for (k = 0; k < 8; k++) printf "%.17g %.17g 1\n", 5 * p + 0.2 * cos(0.785398 * k), 0.2 * sin(0.785398 * k)
                 print "8 0 1 2 3 4 5 6 7\n8 8 9 10 11 12 13 14 15" }' > "$D/in.off"
    printf '1 3 -4\n\n2 0 0\n' > "$D/in.vel"
    exits 2 -q -n 0 -o "$D/out" --velocities "$D/in.vel" "$D/in.off"
    has "$D/log" "$D/in.vel:3: expected a polygon index from 0 to 1"
    exits 2 --restart "$D/out" --velocities "$D/in.vel"
    has "$D/log" "--velocities cannot be combined with --restart"
}

# The summary's wall time holds all the frames' writing that its output phase counts, frame 0's
# too (before, the clock started after frame 0: 8.5 s of wall with 17 s of output). No bound on
# either time: a fast machine writes the pictures in less than the 0.01 s printed.
test_program_summary_wall_holds_output() {
    tests/polyhoop -j 1 -n 1 -s 10 --png --png-size 1500x1500 -o "$D/o" > "$D/log" 2>&1 || fail "the run failed: $(tail -n 3 "$D/log")"
    awk '/^done:/ { for (i = 1; i <= NF; i++) if ($i == "wall,") wall = $(i - 2) }
         /^  output / { out = $2 }
         END { if (wall == "" || out == "" || out > wall + 0) { print "wall " wall " s, output " out " s"; exit 1 } }' "$D/log" ||
        fail "the output phase is not within the wall time: $(grep -E '^done|^  output' "$D/log")"
}

# A misspelt parameter in a header stops the build naming the closest known one (the C
# preprocessor alone would ignore it, and gamma would stay 1000), also in a header that the header
# includes, once that one changes; a header with only known names builds
test_program_misspelt_parameter_refused() {
    printf '#include "%s/params/default.h"\n#undef P_gamma\n#define P_gama 1e4\n#define P_gamma 1e3\n' "$PWD" > "$D/bad.h"
    st=0; make -s B="$D/b" PARAMS="$D/bad.h" "$D/b/polyhoop" > "$D/log" 2>&1 || st=$?
    [ "$st" != 0 ] || fail "a header with P_gama built"
    has "$D/log" "$D/bad.h: unknown parameter P_gama; did you mean P_gamma?"
    [ ! -e "$D/b/polyhoop" ] || fail "the program was built"
    printf '#include "%s/params/default.h"\n#undef P_gamma\n#define P_gamma 1e4\n' "$PWD" > "$D/good.h"
    make -s B="$D/g" PARAMS="$D/good.h" "$D/g/params.ok" > "$D/log" 2>&1 || fail "a header with known names is refused: $(cat "$D/log")"
    for h in params/*.h; do scripts/check_params.sh gcc "$h" || fail "$h has an unknown name"; done
    # a header that is not there: named, with the headers there are (make's own words were only
    # "No rule to make target")
    st=0; make -s B="$D/n" PARAMS=params/nope.h "$D/n/polyhoop" > "$D/log" 2>&1 || st=$?
    [ "$st" != 0 ] || fail "a build with a missing header succeeded"
    has "$D/log" "PARAMS=params/nope.h: no such file (the parameter headers are in params/: " "default.h"
    # a header built on another: the other is a prerequisite too (before, an edit of it left the
    # build as it was, with the old values and without this check)
    printf '#include "good.h"\n' > "$D/top.h"
    make -s B="$D/c" PARAMS="$D/top.h" "$D/c/params.o" > "$D/log" 2>&1 || fail "a header on good.h is refused: $(cat "$D/log")"
    printf '#include "%s/params/default.h"\n#undef P_gamma\n#define P_gama 1e4\n#define P_gamma 1e3\n' "$PWD" > "$D/good.h"
    touch -d '+10 seconds' "$D/good.h"
    st=0; make -s B="$D/c" PARAMS="$D/top.h" "$D/c/params.o" > "$D/log" 2>&1 || st=$?
    [ "$st" != 0 ] || fail "the build on good.h was not redone when good.h changed"
    has "$D/log" "$D/top.h: unknown parameter P_gama; did you mean P_gamma?"
}

# clang builds the program without a warning, and its frames are gcc's bit for bit (the version
# comment aside); a header that breaks a rule, which gcc refuses at compile time, is refused when
# clang's program starts. Skipped where clang or its OpenMP runtime is missing.
test_program_clang_same_bits() {
    command -v clang > /dev/null || skip "no clang"
    echo 'int main(void){return 0;}' | clang -fopenmp -x c - -o "$D/probe" 2> /dev/null || skip "no OpenMP runtime for clang"
    make -s B="$D/clang" CC=clang WERROR=1 VERSION=same "$D/clang/polyhoop" > "$D/make.log" 2>&1 || fail "the clang build failed: $(tail -n 5 "$D/make.log")"
    make -s B="$D/gcc" VERSION=same "$D/gcc/polyhoop" > "$D/make.log" 2>&1 || fail "the gcc build failed: $(tail -n 5 "$D/make.log")"
    for cc in clang gcc; do "$D/$cc/polyhoop" -q -j 1 -n 3 -s 300 -o "$D/run-$cc" > /dev/null 2>&1 || fail "the $cc run failed"; done
    for f in "$D/run-gcc"/*; do
        cmp -s "$f" "$D/run-clang/${f##*/}" || fail "${f##*/} differs between the gcc and the clang build"
    done
    printf '#include "%s/params/default.h"\n#undef P_lmin\n#define P_lmin 0.2\n' "$PWD" > "$D/bad.h"
    make -s B="$D/clang" CC=clang PARAMS="$D/bad.h" "$D/clang/polyhoop" > "$D/make.log" 2>&1 || fail "clang refused the header: $(tail -n 3 "$D/make.log")"
    status 2 errs "$D/err" "$D/clang/polyhoop" -q -n 0 -o "$D/bad"
    has "$D/err" "lmax must be > 2 lmin"
}

# The tuned build (-march=native, the default) and PORTABLE=1 give the same bits (-ffp-contract=off:
# no fused multiply-adds), for the default header and the one with noise, activity and random
# division and death; the banner says which build it is
test_program_tuned_and_portable_same_bits() {
    for h in params/default.h tests/params_noise.h; do
        for kind in tuned portable; do
            make -s B="$D/$kind" PARAMS="$h" VERSION=same $([ "$kind" = portable ] && echo PORTABLE=1) "$D/$kind/polyhoop" > "$D/make.log" 2>&1 ||
                fail "the $kind build failed: $(tail -n 3 "$D/make.log")"
            "$D/$kind/polyhoop" -n 3 -s 400 -o "$D/run-$kind" --overwrite > "$D/banner-$kind" 2>&1 || fail "the $kind run failed"
        done
        has "$D/banner-tuned" "-march=native build"
        has "$D/banner-portable" "portable build"
        for f in "$D/run-tuned"/*; do
            cmp -s "$f" "$D/run-portable/${f##*/}" || fail "$h: ${f##*/} differs between the tuned and the portable build"
        done
    done
}

# make test builds and runs programs of its own (tests/polyhoop, tests/run_tests, from
# params/default.h in build/test/): a user's ./polyhoop built from another header, and its build
# folder, stay as they were (in a copy of the repository, so that this one's are left alone)
test_program_make_test_keeps_users_build() {
    [ "$(git rev-parse --show-toplevel 2> /dev/null)" = "$PWD" ] || skip "not the top of a git checkout (make check's tree of links)"
    mkdir -p "$D/r"
    git ls-files -z --cached --others --exclude-standard | while IFS= read -r -d '' f; do
        [ -e "$f" ] && mkdir -p "$D/r/$(dirname "$f")" && cp -p "$f" "$D/r/$f"
    done
    cd "$D/r"
    make -s PARAMS=params/hex.h > make.log 2>&1 || fail "the user's build failed: $(tail -n 3 make.log)"
    before=$(sha256sum polyhoop build/flags build/polyhoop)
    make -s tests/polyhoop tests/run_tests > make.log 2>&1 || fail "the tests' build failed: $(tail -n 3 make.log)"
    [ "$(sha256sum polyhoop build/flags build/polyhoop)" = "$before" ] || fail "make test's programs changed ./polyhoop or build/"
    ./polyhoop -n 0 -o run-user > user.log 2>&1 || fail "./polyhoop no longer runs"
    tests/polyhoop -n 0 -o run-tests > tests.log 2>&1 || fail "tests/polyhoop does not run"
    has user.log "params/hex.h"
    has tests.log "params/default.h"
    lacks tests.log "params/hex.h"
}

run_file "$@"
