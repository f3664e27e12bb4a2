#!/usr/bin/env bash
# Cell types from the input generators (scripts/make_hex.py and scripts/make_tissue.py --types,
# scripts/cell_types.py): random fractions from the seed, stripes by x, a disc; each polygon's
# vertices agree on z = 2 type + 1, the ring of --wall stays type 0, the default files are as
# without the option, bad specs are refused, and the program reads a typed file.
source "$(dirname "$0")/lib.sh"

# the types of an OFF file's polygons (z = 2 type + phase bit, every vertex of a polygon the same) and
# their centroids' x and distance from the centroids' mean, as "type x r" lines
types_of() {
    /usr/bin/python3 - "$1" << 'PY'
import math, sys
lines = [l for l in open(sys.argv[1]) if not l.startswith("#")]
nv, nf = map(int, lines[1].split()[:2])
v = [tuple(map(float, l.split()[:3])) for l in lines[2:2 + nv]]
out = []
for l in lines[2 + nv:2 + nv + nf]:
    idx = list(map(int, l.split()[1:]))
    z = {v[k][2] for k in idx}
    if len(z) != 1: sys.exit(f"a polygon's vertices have z = {sorted(z)}")
    z = int(z.pop())
    if z < 0: sys.exit(f"z = {z} is not 2 type + phase bit")
    out.append((z // 2, sum(v[k][0] for k in idx) / len(idx), sum(v[k][1] for k in idx) / len(idx)))
mx, my = sum(o[1] for o in out) / len(out), sum(o[2] for o in out) / len(out)
for t, x, y in out: print(t, x, math.hypot(x - mx, y - my))
PY
}

test_input_types_generators() {
    scripts/make_hex.py 400 "$D/plain.off" > /dev/null && scripts/make_hex.py 400 "$D/r.off" --types random:0.3 > /dev/null ||
        fail "make_hex.py failed"
    types_of "$D/r.off" > "$D/r.t" || fail "bad types in r.off"
    awk '{ n++; s += $1 } END { f = s / n; exit !(f > 0.22 && f < 0.38) }' "$D/r.t" || fail "random:0.3 gave another fraction"
    has "$D/r.off" " of type 0, " " of type 1"
    # the same seed the same file, another seed another; without --types the file of before
    scripts/make_hex.py 400 "$D/r2.off" --types random:0.3 > /dev/null && cmp -s "$D/r.off" "$D/r2.off" || fail "the same seed gave another file"
    scripts/make_hex.py 400 "$D/r3.off" --types random:0.3 --seed 2 > /dev/null && ! cmp -s "$D/r.off" "$D/r3.off" || fail "another seed gave the same file"
    types_of "$D/plain.off" | awk '$1 != 0 { exit 1 }' || fail "the plain file has types"
    # three types; stripes of width 4 alternate with x; a disc of radius 10 is type 1 inside only
    scripts/make_hex.py 400 "$D/r4.off" --types random:0.2,0.2 > /dev/null && types_of "$D/r4.off" | awk '$1 == 2 { n++ } END { exit !(n > 40) }' ||
        fail "random:0.2,0.2 gave no type 2"
    scripts/make_hex.py 400 "$D/s.off" --types stripes:4 > /dev/null && types_of "$D/s.off" > "$D/s.t" || fail "stripes failed"
    awk 'NR == 1 || $2 < x0 { x0 = $2 } { x[NR] = $2; t[NR] = $1 } END { for (k in x) if (t[k] != int((x[k] - x0) / 4) % 2) exit 1 }' "$D/s.t" ||
        fail "a stripe's cell has the other type"
    awk '$1 == 1 { a++ } $1 == 0 { b++ } END { exit !(a > 100 && b > 100) }' "$D/s.t" || fail "the stripes are not both there"
    scripts/make_hex.py 400 "$D/d.off" --types disc:10 > /dev/null && types_of "$D/d.off" > "$D/d.t" || fail "disc failed"
    awk '($1 == 1) != ($3 <= 10) { exit 1 } $1 == 1 { n++ } END { exit !(n > 50) }' "$D/d.t" || fail "the disc's types are wrong"
    # scripts/cell_types.py types a file that exists: plain.off as disc:10 is d.off
    scripts/cell_types.py disc:10 "$D/plain.off" "$D/d2.off" || fail "cell_types.py failed"
    cmp -s <(grep -v '^#' "$D/d.off") <(grep -v '^#' "$D/d2.off") || fail "cell_types.py typed otherwise than make_hex.py"
    status 2 errs "$D/err" scripts/cell_types.py disc:0 "$D/plain.off" "$D/d3.off"
    [ ! -e "$D/d3.off" ] || fail "cell_types.py wrote a file for a bad spec"
    # make_tissue.py: the ring of --wall type 0, the cells typed; the default file as before
    scripts/make_tissue.py 200 "$D/w.off" --wall --types disc:3 > /dev/null || fail "make_tissue.py failed"
    types_of "$D/w.off" > "$D/w.t" || fail "bad types in w.off"
    head -n 1 "$D/w.t" | awk '$1 != 0 { exit 1 }' || fail "the ring is not type 0"
    awk 'NR > 1 && $1 == 1 { a++ } NR > 1 && $1 == 0 { b++ } END { exit !(a > 10 && b > 10) }' "$D/w.t" || fail "the tissue's disc is not typed"
    scripts/make_tissue.py 200 "$D/w0.off" --wall > /dev/null && types_of "$D/w0.off" | awk '$1 != 0 { exit 1 }' || fail "a plain tissue has types"
    # refusals: status 2, one line, nothing written
    for spec in random:0.7,0.5 random:-0.1 random:x stripes:0 disc:-1 disc:inf squares:1 random; do
        status 2 errs "$D/err" scripts/make_hex.py 10 "$D/bad.off" --types "$spec"
        [ ! -e "$D/bad.off" ] || fail "--types $spec wrote a file"
        [ "$(wc -l < "$D/err")" = 1 ] && has "$D/err" "--types $spec" || fail "--types $spec: $(cat "$D/err")"
        status 2 errs "$D/err" scripts/make_tissue.py 10 "$D/bad.off" --types "$spec"
    done
    # the program reads a typed file (of type 0 only: tests/polyhoop has one cell type)
    scripts/make_hex.py 20 "$D/zero.off" --types random:0.0 > /dev/null || fail "random:0.0 failed"
    tests/polyhoop -q -n 0 -o "$D/run0" "$D/zero.off" > /dev/null 2>&1 || fail "a file of type 0 is refused"
}

run_file "$@"
