#!/usr/bin/env bash
# The program given bad or odd input files: polygons that overlap, a stray vertex or an edge that
# would remodel into absurdly many vertices, a file that is one endless line, far-flung polygons
# (memory must stay that of a small run), names with control bytes or XML's special characters
# (escaped wherever they are written); and a copy of the program that finds its default input.
source "$(dirname "$0")/lib.sh"

# overlap NAME OFF MESSAGE: the input NAME.off (the text OFF) draws a warning with MESSAGE by
# default, and is refused with it by --strict-input: exit 2 and nothing written
overlap() {
    printf '%b' "$2" > "$D/$1.off"
    tests/polyhoop -q -n 0 -o "$D/a_$1" "$D/$1.off" > /dev/null 2> "$D/err" || fail "$1.off refused without --strict-input: $(cat "$D/err")"
    has "$D/err" "$1.off: warning: $3" '--strict-input rejects this'
    [ -f "$D/a_$1/frame000000.vtp" ] || fail "$1: no frame written after the warning"
    status 2 errs "$D/err" tests/polyhoop -q -n 0 --strict-input -o "$D/b_$1" "$D/$1.off"
    has "$D/err" "$1.off: error: $3"
    [ ! -e "$D/b_$1" ] || fail "$1: output written after the error"
}

# Polygons that share area or boundary: a warning by default naming both (index and line of the
# file) and the shared area; with --strict-input an error, exit 2 and nothing written. Crossing
# squares, identical squares, squares sharing an edge, a square inside a square of the same
# phase; a square inside one of the other phase and squares h apart pass even --strict-input.
test_faults_overlapping_input() {
    overlap cross 'OFF\n8 2 0\n0 0 0\n1 0 0\n1 1 0\n0 1 0\n0.5 0.5 0\n1.5 0.5 0\n1.5 1.5 0\n0.5 1.5 0\n4 0 1 2 3\n4 4 5 6 7\n' \
        "polygons 0 (line 11) and 1 (line 12) overlap on 25% of the smaller one's area (their edges cross)"
    overlap stacked 'OFF\n# a square, half of it, the square again\n4 3 0\n0 0 0\n1 0 0\n1 1 0\n0 1 0\n4 0 1 2 3\n3 0 1 2\n4 1 2 3 0\n' \
        "polygons 0 (line 8) and 1 (line 9) overlap on 100% of the smaller one's area (their edges coincide or touch: hoops keep a distance h, and the contact force of coinciding edges has no direction); 3 such pairs in all"
    overlap edge 'OFF\n6 2 0\n0 0 0\n1 0 0\n2 0 0\n2 1 0\n1 1 0\n0 1 0\n4 0 1 4 5\n4 1 2 3 4\n' \
        "polygons 0 (line 9) and 1 (line 10) touch, sharing 0% of the smaller one's area (their edges coincide or touch"
    overlap nested 'OFF\n8 2 0\n0 0 1\n4 0 1\n4 4 1\n0 4 1\n1 1 1\n2 1 1\n2 2 1\n1 2 1\n4 0 1 2 3\n4 4 5 6 7\n' \
        "polygon 1 (line 12) lies inside polygon 0 (line 11) of the same phase (+1), covering 6.25% of polygon 0's area: only a drop of the other phase"
    printf 'OFF\n8 2 0\n0 0 0\n1 0 0\n1 1 0\n0 1 0\n1.01 0 0\n2 0 0\n2 1 0\n1.01 1 0\n4 0 1 2 3\n4 4 5 6 7\n' > "$D/apart.off"
    printf 'OFF\n8 2 0\n0 0 1\n4 0 1\n4 4 1\n0 4 1\n1 1 0\n2 1 0\n2 2 0\n1 2 0\n4 0 1 2 3\n4 4 5 6 7\n' > "$D/drop.off"
    for good in apart drop; do
        tests/polyhoop -q -n 0 --strict-input -o "$D/c_$good" "$D/$good.off" > /dev/null 2> "$D/err" || fail "$good.off refused: $(cat "$D/err")"
        lacks "$D/err" warning error
    done
}

# A polygon with one vertex at (1e9, 1e9) would be refined into ~1e10 vertices: rejected.
test_faults_stray_vertex_rejected() {
    printf 'OFF\n4 1 0\n0 0 0\n1 0 0\n1e9 1e9 0\n0 1 0\n4 0 1 2 3\n' > "$D/stray.off"
    status 2 errs "$D/err" tests/polyhoop -q -n 1 -o "$D/a" "$D/stray.off"
    matches "$D/err" 'would turn its 4 vertices into about .*, more than the bound of .* (wrong units, or a stray vertex?)'
}

# An input that would remodel into an absurd number of vertices (a 38-byte triangle with an edge
# of 10^6: bisected into 2^23 pieces of at most lmax, 1.68 x 10^7 vertices in all, about 5 GB) is
# refused before anything is allocated for them, with the figures, at a peak below 200 MB (2.4 MB
# measured; more under AddressSanitizer); --max-vertices raises the bound.
test_faults_input_work_bounded() {
    printf 'OFF\n3 1 0\n0 0 0\n1e6 0 0\n0 1 0\n3 0 1 2\n' > "$D/long.off"
    [ -x /usr/bin/time ] || skip "no /usr/bin/time: apt-get install time"
    status 2 errs "$D/err" /usr/bin/time -f %M -o "$D/rss" tests/polyhoop -q -n 1 -o "$D/a" "$D/long.off"
    [ "$(tail -n 1 "$D/rss")" -lt 200000 ] || fail "peak resident memory $(tail -n 1 "$D/rss") KiB, not below 200,000"
    matches "$D/err" 'would turn its 3 vertices into about 1.68e+07 (about 5.03 GB), more than the bound of 1e+06 .*--max-vertices N raises it'
    [ ! -e "$D/a/frame000000.vtp" ] || fail "a frame was written"
    status 2 errs "$D/err" tests/polyhoop -q -n 1 --max-vertices 5e6 -o "$D/b" "$D/long.off"
    has "$D/err" 'bound of 5e+06 set by --max-vertices'
    tests/polyhoop -q -n 0 --max-vertices 2e7 -o "$D/c" "$D/long.off" > /dev/null 2> "$D/err" || fail "--max-vertices 2e7: $(cat "$D/err")"
    status 2 errs "$D/err" tests/polyhoop -q -n 0 --max-vertices 0.5 -o "$D/d"
}

# A small polygon far away (at 1e9, 1e9) beside a cell of radius 1: the contact grid must not
# grow with the bounding box. Peak memory stays that of a small run (measured by /usr/bin/time;
# more is allowed under AddressSanitizer, whose quarantine keeps freed memory).
test_faults_escaped_polygon_bounded_memory() {
    awk 'BEGIN {
        print "OFF\n43 2 0"
        for (k = 0; k < 40; k++) printf "%.17g %.17g 0\n", cos(2 * 3.141592653589793 * k / 40), sin(2 * 3.141592653589793 * k / 40)
        print "1e9 1e9 0\n1000000000.1 1e9 0\n1e9 1000000000.1 0"
        printf "40"; for (k = 0; k < 40; k++) printf " %d", k
        print "\n3 40 41 42" }' > "$D/far.off"
    [ -x /usr/bin/time ] || skip "no /usr/bin/time: apt-get install time"
    /usr/bin/time -f %M -o "$D/rss" tests/polyhoop -q -n 5 -s 200 -o "$D/a" "$D/far.off" > /dev/null 2>&1
    local kb limit=40000
    if [ -n "${ASAN_OPTIONS:-}" ]; then limit=100000; fi
    kb=$(tail -n 1 "$D/rss")
    [ "$kb" -gt 0 ] && [ "$kb" -lt $limit ] || fail "peak resident memory $kb KiB, more than $limit"
}

# A file that is one endless line (40 MB of the digit 7): rejected after 16 MiB, memory bounded.
test_faults_endless_line() {
    head -c 40000000 /dev/zero | tr '\0' '7' > "$D/long.off"
    status 2 errs "$D/err" /usr/bin/time -f %M -o "$D/rss" tests/polyhoop -q -n 0 -o "$D/a" "$D/long.off"
    has "$D/err" 'long.off:1: line longer than 16 MiB'
    [ "$(tail -n 1 "$D/rss")" -lt 60000 ] || fail "peak resident memory $(tail -n 1 "$D/rss") KiB, not below 60,000"
}

# Text from outside reaches the terminal escaped: an input whose name holds ESC and other control
# bytes is named with \x1B, \x07, ... in the banner and in every message, from the reader
# (clockwise polygon, bad content), the input check and the option parser, and no raw ESC is
# written; OFF content with an ESC byte is quoted the same way.
test_faults_escaped_names() {
    local E B N
    E=$(printf '\033') B=$(printf '\007')
    N="$D/in${E}]0;pwned${B}.off"
    printf 'OFF\n3 1 0\n0 0 0\n0 1 0\n1 0 0\n3 0 1 2\n' > "$N"
    tests/polyhoop -n 0 -o "$D/a" "$N" > "$D/out" 2> "$D/err"
    has "$D/err" 'in\x1B]0;pwned\x07.off:6: warning: polygon 0 is clockwise'
    matches "$D/out" 'input .*in\\x1B\]0;pwned\\x07.off: 1 polygon,'
    lacks "$D/out" "$E" "$B"
    lacks "$D/err" "$E" "$B"
    printf 'OFF\n3 1 0\n0 0 0\n1 0 0\n0 1 \033[2J\n3 0 1 2\n' > "$N"
    status 2 errs "$D/err" tests/polyhoop -q -n 0 -o "$D/b" "$N"
    has "$D/err" "pwned\\x07.off:5: expected a number for z of vertex 2, found '\\x1B[2J'"
    status 2 errs "$D/err" tests/polyhoop -q -n "1${E}[31m" -o "$D/c"
    has "$D/err" "got '1\\x1B[31m'"
    status 2 errs "$D/err" tests/polyhoop -q -n 0 -o "$D/d${E}" "$D/none${E}.off"
    has "$D/err" 'none\x1B.off: cannot open'
    lacks "$D/err" "$E"
    [ ! -e "$D/b" ] && [ ! -e "$D/c" ] || fail "output written after an error"
}

# An input named with a Latin-1 byte, "<", "&" and "--": the frames (whose XML comment holds the
# name, escaped) read in VTK, and the byte is written as \xE9.
test_checkpoint_odd_input_name_in_frames() {
    local name k st
    name="$D/caf$(printf '\351') <&> --x.off"
    printf 'OFF\n4 1 0\n0 0 0\n1 0 0\n1 1 0\n0 1 0\n4 0 1 2 3\n' > "$name"
    tests/polyhoop -q -n 1 -s 10 -o "$D/run" "$name" > /dev/null
    grep -qF 'caf\xE9 <&> - -x.off' "$D/run/frame000001.vtp" || fail "the name is not escaped as expected"
    for k in 0 1; do
        st=0
        /usr/bin/python3 scripts/check_vtp.py "$D/run/frame00000$k.vtp" > /dev/null 2>&1 || st=$?
        case $st in 77|127) skip "VTK for python3 is not installed" ;; esac
        [ $st = 0 ] || fail "frame $k is not read by VTK"
    done
    /usr/bin/python3 -c 'import sys, xml.etree.ElementTree as E; E.parse(sys.argv[1])' "$D/run/frames.pvd"
}

# A copy of the program in another folder, run without an input, finds the default input in the
# repository it was built in and names it, by its absolute path, in the banner.
test_faults_copied_binary_finds_input() {
    local here=$PWD r
    cp tests/polyhoop "$D/ph"
    cd "$D"
    ./ph -n 0 -o out > log 2> err
    r=$(sed -n 's/^input \(\/.*\)\/inputs\/ensemble.off: 1 polygon,.*/\1/p' log)
    [ -n "$r" ] || fail "the banner names no input by an absolute path: $(head -n 2 log)"
    cmp -s "$r/inputs/ensemble.off" "$here/inputs/ensemble.off" || fail "$r/inputs/ensemble.off is not the default input"
}

run_file "$@"
