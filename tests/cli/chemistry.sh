#!/usr/bin/env bash
# Cell types and chemistry from the command line (docs/model.md 11): the gradient showcase's decay
# length against sqrt(D/k), the chemotaxis showcase's drift against chi |grad c| / cv, the sorting
# showcase's share of like neighbours rising, its field frames (.vti, listed in fields.pvd) the same at 1 and 2
# threads and after a restart, the input's types (z = 2 type + phase bit) and their errors, a
# header whose grid is too fine for its dt refused before the first step, an input outside the
# grid warned of, per-type values and matrices of the wrong size or an asymmetric one refused at
# build or start, the species table's errors, the showcases' frames unchanged by advection (off unless a species asks for it), and a species drawn under the
# cells by --png-field.
source "$(dirname "$0")/lib.sh"

# the gradient showcase's program and input, in build/showcase/gradient/
gradient() { scripts/showcase.sh gradient --out "$D/quick" -- -n 0 -q > "$D/build.log" 2>&1 || fail "the gradient showcase does not run: $(tail -n 3 "$D/build.log")"; }
G=build/showcase/gradient

# the decay length of the morphogen along x in the last --ascii field frame of run folder $1:
# the row-averaged profile's log-slope fitted over 3 <= x <= 12 (one to four lambda from the source)
decay_length() {
    python3 - "$1" <<'PY'
import glob, math, re, sys
f = sorted(glob.glob(sys.argv[1] + "/frame*.vti"))[-1]
text = open(f).read()
ext = [int(v) for v in re.search(r'WholeExtent="([^"]*)"', text).group(1).split()]
ox, oy, _ = [float(v) for v in re.search(r'Origin="([^"]*)"', text).group(1).split()]
dx = float(re.search(r'Spacing="([^"]*)"', text).group(1).split()[0])
nx, ny = ext[1] + 1, ext[3] + 1
c = [float(v) for v in re.search(r'Name="morphogen"[^>]*>([^<]*)<', text).group(1).split()]
assert len(c) == nx * ny, (len(c), nx, ny)
pts = []
for i in range(nx):
    x = ox + i * dx
    if 3 <= x <= 12:
        pts.append((x, math.log(sum(c[j * nx + i] for j in range(ny)) / ny)))
n = len(pts); mx = sum(p[0] for p in pts) / n; my = sum(p[1] for p in pts) / n
slope = sum((p[0] - mx) * (p[1] - my) for p in pts) / sum((p[0] - mx) ** 2 for p in pts)
print("%.6f" % (-1 / slope))
PY
}

test_chem_gradient_decay_length() {
    command -v python3 > /dev/null || skip "needs python3"
    gradient
    "$G/polyhoop" -j 1 -q --ascii -o "$D/run" "$G/gradient.off" > "$D/out" 2>&1 || fail "the run failed: $(tail -n 3 "$D/out")"
    lambda=$(decay_length "$D/run")
    echo "  decay length $lambda, sqrt(D/k) = 3" >&2
    awk -v l="$lambda" 'BEGIN { exit !(l > 2.85 && l < 3.15) }' || fail "decay length $lambda is not within 5 % of sqrt(D/k) = 3"
    has "$D/run/fields.pvd" 'file="frame000020.vti"'
    has "$D/run/observables.csv" amount_morphogen
}

test_chem_fields_same_at_any_thread_count_and_restart() {
    gradient
    "$G/polyhoop" -j 1 -q -n 6 -s 200 -o "$D/one" "$G/gradient.off" > /dev/null 2>&1
    "$G/polyhoop" -j 2 -q -n 6 -s 200 -o "$D/two" "$G/gradient.off" > /dev/null 2>&1
    "$G/polyhoop" -j 1 -q -n 3 -s 200 -o "$D/cut" "$G/gradient.off" > /dev/null 2>&1
    "$G/polyhoop" -j 2 -q -n 6 --restart "$D/cut" > /dev/null 2>&1
    for k in 000001 000004 000006; do
        for f in vtp vti; do
            cmp -s "$D/one/frame$k.$f" "$D/two/frame$k.$f" || fail "frame$k.$f differs between 1 and 2 threads"
            # (the frames before the restart name -n 3 in their parameters)
            [ "$k" = 000001 ] || cmp -s "$D/one/frame$k.$f" "$D/cut/frame$k.$f" || fail "frame$k.$f differs after the restart"
        done
    done
    cmp -s "$D/one/fields.pvd" "$D/cut/fields.pvd" || fail "fields.pvd differs after the restart"
    grep -q 'DataArray type="Int32" Name="type"' "$D/one/frame000000.vtp" || fail "the frames of a two-type build have no cell array type"
}

# the input's z gives the type in a build with several: z = 3 is type 1, phase +1; a type beyond
# the header's, and a polygon whose vertices disagree, are refused with their line; a build with
# one type reads z as the phase only, as ever
test_chem_types_from_input() {
    gradient
    printf 'OFF\n8 2 0\n0 0 5\n1 0 5\n1 1 5\n0 1 5\n3 0 1\n4 0 1\n4 1 1\n3 1 1\n4 0 1 2 3\n4 4 5 6 7\n' > "$D/three.off"
    status 2 errs "$D/err" "$G/polyhoop" -q -n 0 -o "$D/a" "$D/three.off"
    has "$D/err" "polygon 0 (line 11) has cell type 2 (its z is 2 type + phase bit), but params/gradient.h has 2 cell types (ntypes)"
    printf 'OFF\n4 1 0\n0 0 3\n1 0 3\n1 1 1\n0 1 3\n4 0 1 2 3\n' > "$D/mixed.off"
    status 2 errs "$D/err" "$G/polyhoop" -q -n 0 -o "$D/b" "$D/mixed.off"
    has "$D/err" "polygon 0 (line 7) mixes cell types 1 and 0 (a vertex's z is 2 type + phase bit)"
    printf 'OFF\n8 2 0\n0 0 3\n1 0 3\n1 1 3\n0 1 3\n3 0 0\n4 0 0\n4 1 0\n3 1 0\n4 0 1 2 3\n4 4 5 6 7\n' > "$D/two.off"
    "$G/polyhoop" -q -n 0 --ascii -o "$D/c" "$D/two.off" > /dev/null 2>&1 || fail "a two-type input is refused"
    python3 -c 'import re,sys; t=re.search(r"Name=\"type\"[^>]*>([^<]*)<", open(sys.argv[1]).read()).group(1).split(); sys.exit(t != ["1", "0"])' \
        "$D/c/frame000000.vtp" || fail "the frame's types are not 1 and 0"
    tests/polyhoop -q -n 0 -o "$D/d" "$D/three.off" > /dev/null 2>&1 || fail "the one-type program refused z = 5 (phase +1)"
    lacks "$D/d/frame000000.vtp" 'Name="type"'
}

# an input that the chemistry's grid does not cover (the gradient showcase's grid [-1, 25] x
# [-1, 5.5]; one of two cells from x = -3 to -2) is warned of at start, naming the count, the
# vertices outside and the grid, once in a run in which no more cells leave; one inside, not
test_chem_grid_outside_warned_at_start() {
    gradient
    printf 'OFF\n8 2 0\n-3 0 1\n-2 0 1\n-2 1 1\n-3 1 1\n3 0 1\n4 0 1\n4 1 1\n3 1 1\n4 0 1 2 3\n4 4 5 6 7\n' > "$D/out.off"
    "$G/polyhoop" -j 1 -q -n 2 -s 100 -o "$D/a" "$D/out.off" > /dev/null 2> "$D/err" || fail "the run failed: $(tail -n 3 "$D/err")"
    has "$D/err" "polyhoop: warning: 1 of 2 cells reach outside the chemistry's grid [-1, 25] x [-1, 5.5] (4 of their vertices; the grid: P_chem_x0 .. P_chem_y1 of params/gradient.h): a cell senses only the nodes it covers"
    [ "$(grep -c "outside the chemistry's grid" "$D/err")" = 1 ] || fail "not one warning: $(cat "$D/err")"
    printf 'OFF\n4 1 0\n3 0 1\n4 0 1\n4 1 1\n3 1 1\n4 0 1 2 3\n' > "$D/in.off"
    "$G/polyhoop" -j 1 -q -n 1 -s 100 -o "$D/b" "$D/in.off" > /dev/null 2> "$D/err" || fail "the run failed: $(tail -n 3 "$D/err")"
    lacks "$D/err" "outside the chemistry's grid"
}

# a header whose diffusion needs more sub-steps per time step than it allows: exit 2 before the
# first step, naming D, dx and dt
test_chem_too_fine_a_grid_refused() {
    mkdir -p "$D/p"
    printf '#include "%s/params/gradient.h"\n#undef P_chem_dx\n#define P_chem_dx 0.005\n' "$PWD" > "$D/p/fine.h"
    make -s B="$D/build" PARAMS="$D/p/fine.h" "$D/build/polyhoop" > "$D/make.log" 2>&1 || fail "cannot build: $(tail -n 3 "$D/make.log")"
    gradient
    status 2 errs "$D/err" "$D/build/polyhoop" -q -n 1 -o "$D/run" "$G/gradient.off"
    has "$D/err" "D = 36" "dx = 0.005" "dt = 0.0001" "more than max_substeps = 100"
    [ ! -e "$D/run/frame000000.vtp" ] || fail "a frame was written"
}

# SIGTERM in a long chemical step (the gradient showcase's grid at half its spacing, a chemical
# step every 2000 time steps: thousands of sub-steps, seconds each): the step in progress is given
# up at once and the checkpoint is of the state before it (step 2000, not 2001 as when the step is
# finished first); the continued run's frames and logs are the uninterrupted run's, byte for byte
test_chem_sigterm_gives_up_a_long_step() {
    mkdir -p "$D/p"
    printf '#include "%s/params/gradient.h"\n#undef P_chem_every\n#define P_chem_every 2000\n#undef P_Ns\n#define P_Ns 2000\n#undef P_chem_dx\n#define P_chem_dx 0.05\n#undef P_chem_max_substeps\n#define P_chem_max_substeps 100000\n' "$PWD" > "$D/p/long.h"
    make -s B="$D/build" PARAMS="$D/p/long.h" "$D/build/polyhoop" > "$D/make.log" 2>&1 || fail "cannot build: $(tail -n 3 "$D/make.log")"
    gradient
    "$D/build/polyhoop" -j 1 -q -n 2 --ascii -o "$D/a" "$G/gradient.off" > /dev/null 2>&1 || fail "the uninterrupted run failed"
    "$D/build/polyhoop" -j 1 -q -n 2 --ascii -o "$D/b" "$G/gradient.off" > /dev/null 2> "$D/err" &
    pid=$!
    while [ ! -f "$D/b/frame000001.vtp" ]; do kill -0 $pid 2> /dev/null || fail "the run ended before frame 1"; sleep 0.02; done
    sleep 0.1
    t0=$(date +%s%N)
    kill -TERM $pid
    status 143 wait $pid
    took=$((($(date +%s%N) - t0) / 1000000))
    has "$D/err" "stopped by signal 15 at t = 0.2 (step 2000), giving up the step in progress; checkpoint written"
    [ "$took" -lt 5000 ] || fail "the run took $took ms to stop"
    [ ! -f "$D/b/frame000002.vtp" ] || fail "the run was not interrupted"
    "$D/build/polyhoop" -j 1 -q --restart "$D/b" > /dev/null 2>&1 || fail "the restart failed"
    diff -r -x checkpoint.bin "$D/a" "$D/b" > /dev/null || fail "the continued run differs from the uninterrupted one"
}

# a chemical step every 10 time steps (P_chem_every; the gradient showcase's diffusion takes 2
# sub-steps a time step, so 15 a chemical step): the same decay length as a chemical step every
# step (within 0.5 %), the frames the same at 1 and 2 threads and after a restart, and a number
# of steps per frame that chemical steps do not divide refused before the first step
test_chem_every_ten_steps() {
    command -v python3 > /dev/null || skip "needs python3"
    mkdir -p "$D/p"
    printf '#include "%s/params/gradient.h"\n#undef P_chem_every\n#define P_chem_every 10\n' "$PWD" > "$D/p/every.h"
    make -s B="$D/build" PARAMS="$D/p/every.h" "$D/build/polyhoop" > "$D/make.log" 2>&1 || fail "cannot build: $(tail -n 3 "$D/make.log")"
    gradient
    "$G/polyhoop" -j 1 -q --ascii -o "$D/one" "$G/gradient.off" > "$D/out" 2>&1 || fail "the run failed: $(tail -n 3 "$D/out")"
    "$D/build/polyhoop" -j 1 -q --ascii -o "$D/ten" "$G/gradient.off" > "$D/out" 2>&1 || fail "the run failed: $(tail -n 3 "$D/out")"
    l1=$(decay_length "$D/one") l10=$(decay_length "$D/ten")
    echo "  decay length $l1 (every step), $l10 (every 10 steps)" >&2
    awk -v a="$l1" -v b="$l10" 'BEGIN { exit !(b > 2.85 && b < 3.15 && b - a < 0.005 * a && a - b < 0.005 * a) }' ||
        fail "decay length $l10 with a chemical step every 10 steps, $l1 with one every step"
    has "$D/ten/frame000000.vtp" "a chemical step every 10 steps"
    "$D/build/polyhoop" -j 1 -q -n 4 -s 200 -o "$D/a" "$G/gradient.off" > /dev/null 2>&1
    "$D/build/polyhoop" -j 2 -q -n 4 -s 200 -o "$D/b" "$G/gradient.off" > /dev/null 2>&1
    "$D/build/polyhoop" -j 1 -q -n 2 -s 200 -o "$D/c" "$G/gradient.off" > /dev/null 2>&1
    "$D/build/polyhoop" -j 2 -q -n 4 --restart "$D/c" > /dev/null 2>&1
    for f in frame000004.vtp frame000004.vti; do
        cmp -s "$D/a/$f" "$D/b/$f" || fail "$f differs between 1 and 2 threads"
        cmp -s "$D/a/$f" "$D/c/$f" || fail "$f differs after the restart"
    done
    status 2 errs "$D/err" "$D/build/polyhoop" -q -n 1 -s 205 -o "$D/d" "$G/gradient.off"
    has "$D/err" "205 steps per frame is not a multiple of chem_every = 10"
}

# The matrices by pair of cell types and the per-type values, checked as a header is built and as
# the program starts: a P_TYPE_mu (friction) of 3 rows for 2 types, or a P_TYPE_cv of 3 values,
# does not compile and says why; an asymmetric P_TYPE_mu builds, and the program refuses it at
# start (exit status 2, nothing written), naming the two entries.
test_chem_type_matrices_checked() {
    mkdir -p "$D/p"
    base='#include "'"$PWD"'/params/sorting.h"\n'
    printf "$base"'#define P_TYPE_mu { { 0.1, 0.2 }, { 0.2, 0.3 }, { 0.0, 0.0 } }\n' > "$D/p/rows.h"
    printf "$base"'#define P_TYPE_cv { 1.0, 2.0, 3.0 }\n' > "$D/p/count.h"
    printf "$base"'#define P_TYPE_mu { { 0.1, 0.2 }, { 0.4, 0.3 } }\n' > "$D/p/asym.h"
    for h in rows count; do
        ! gcc -std=c11 -fsyntax-only -Isrc -iquote . -DPH_PARAMS_FILE="\"$D/p/$h.h\"" src/params.c 2> "$D/$h.err" ||
            fail "$h.h compiled"
    done
    has "$D/rows.err" "P_TYPE_mu must give ntypes rows of ntypes values"
    has "$D/count.err" "P_TYPE_cv must give ntypes values"
    make -s B="$D/build" PARAMS="$D/p/asym.h" "$D/build/polyhoop" > "$D/make.log" 2>&1 || fail "cannot build: $(tail -n 3 "$D/make.log")"
    printf 'OFF\n3 1 0\n0 0 1\n1 0 1\n0 1 1\n3 0 1 2\n' > "$D/one.off"
    status 2 errs "$D/err" "$D/build/polyhoop" -q -n 1 -o "$D/run" "$D/one.off"
    has "$D/err" "asym.h: the friction matrix's mu[0][1] = 0.2 must be >= 0, finite and equal to mu[1][0] = 0.4"
    [ ! -e "$D/run/frame000000.vtp" ] || fail "a frame was written"
}

# The species of a header: P_CHEM_SPECIES listing fewer species than P_NS (the species left
# without a name crashed the first frame) or more (dropped unseen) does not compile and says why;
# a species named a<"b">&c' writes frames (.vti and .vtp, ASCII and binary up to the appended
# data) and collections that parse as XML (python3's xml.etree), the name intact in the .vti's
# arrays and observables.csv; the same header with two species of one name builds, and the
# program refuses it at start (exit status 2, nothing written), naming both species and the header;
# and with a response rule that gives a cell type out of range, the run stops at its first step
# with exit status 2 (the header's fault, not a blow-up), naming the polygon, the type, the range
# and the rule.
test_chem_header_errors() {
    command -v python3 > /dev/null || skip "needs python3"
    mkdir -p "$D/p"
    base='#include "'"$PWD"'/params/gradient.h"\n'
    printf "$base"'#undef P_NS\n#define P_NS 2\n' > "$D/p/fewer.h"
    printf '#include "%s/params/turing.h"\n#undef P_NS\n#define P_NS 1\n' "$PWD" > "$D/p/more.h"
    for h in fewer more; do
        ! gcc -std=c11 -fsyntax-only -Isrc -iquote . -DPH_PARAMS_FILE="\"$D/p/$h.h\"" src/params.c 2> "$D/$h.err" ||
            fail "$h.h compiled"
        has "$D/$h.err" "$D/p/$h.h: P_CHEM_SPECIES must list exactly P_NS species"
    done
    species() {
        printf "$base"'#undef P_NS\n#define P_NS 2\n#undef P_CHEM_SPECIES\n'
        printf '#define P_CHEM_SPECIES { { .name = "%s", .D_in = 1.0, .D_out = 1.0 }, { .name = "%s", .D_in = 1.0, .D_out = 1.0 } }\n' "$1" "$2"
    }
    species 'a<\"b\">&c'"'" morphogen > "$D/p/names.h"
    make -s B="$D/build" PARAMS="$D/p/names.h" "$D/build/polyhoop" > "$D/make.log" 2>&1 || fail "cannot build: $(tail -n 3 "$D/make.log")"
    printf 'OFF\n4 1 0\n0 0 1\n1 0 1\n1 1 1\n0 1 1\n4 0 1 2 3\n' > "$D/one.off"
    "$D/build/polyhoop" -j 1 -q -n 1 -s 100 --ascii -o "$D/a" "$D/one.off" > "$D/out" 2>&1 || fail "the run failed: $(tail -n 3 "$D/out")"
    "$D/build/polyhoop" -j 1 -q -n 1 -s 100 -o "$D/b" "$D/one.off" > "$D/out" 2>&1 || fail "the run failed: $(tail -n 3 "$D/out")"
    python3 - "$D" <<'PY' || fail "a file is not XML, or the name did not read back"
import sys, xml.etree.ElementTree as ET
d, name = sys.argv[1], 'a<"b">&c\''
for run in "ab":
    for f in ["frame000000.vti", "frame000001.vti", "frame000001.vtp", "fields.pvd", "frames.pvd"]:
        text = open("%s/%s/%s" % (d, run, f), "rb").read()
        cut = text.find(b"<AppendedData")
        root = ET.fromstring(text[:cut] + b"</VTKFile>" if cut >= 0 else text)
        if f.endswith(".vti"):
            got = [a.get("Name") for a in root.iter("DataArray")]
            assert got == ["TIME", name, "morphogen"], (run, f, got)
            assert root.find(".//PointData").get("Scalars") == name, (run, f)
    assert ",amount_%s,amount_morphogen" % name in open("%s/%s/observables.csv" % (d, run)).readline(), run
PY
    species b b > "$D/p/names.h"
    make -s B="$D/build" PARAMS="$D/p/names.h" "$D/build/polyhoop" > "$D/make.log" 2>&1 || fail "cannot build: $(tail -n 3 "$D/make.log")"
    status 2 errs "$D/err" "$D/build/polyhoop" -q -n 1 -o "$D/c" "$D/one.off"
    has "$D/err" "polyhoop: $D/p/names.h: chemistry: species 0 and 1 of P_CHEM_SPECIES are both named 'b': each needs a name of its own"
    [ ! -e "$D/c/frame000000.vtp" ] || fail "a frame was written"
    { species b c; printf 'static inline void wrong(const ChemCell *c, ChemAct *a) { if (c->p == 0) a->type = 7; }\n'
      printf '#define P_CHEM_RESPONSE wrong\n'; } > "$D/p/names.h"
    make -s B="$D/build" PARAMS="$D/p/names.h" "$D/build/polyhoop" > "$D/make.log" 2>&1 || fail "cannot build: $(tail -n 3 "$D/make.log")"
    status 2 errs "$D/err" "$D/build/polyhoop" -q -n 1 -s 100 -o "$D/d" "$D/one.off"
    has "$D/err" "polyhoop: at t = 0 (step 0), the response rule gave polygon 0 (id 0, cell type 0) the cell type 7, outside the types 0 .. 1 (ntypes = 2); frames up to 0 are intact" \
        "Likely cause: the header's response rule (P_CHEM_RESPONSE of $D/p/names.h)"
}

# the mean x of the vertices of run $1 drifts between frames 20 and 40 at (prints it)
drift() {
    python3 - "$1" <<'PY'
import sys
sys.path.insert(0, "scripts")
import polyhoop_read as pr
run = pr.Run(sys.argv[1])
def mean_x(k):
    f = run.frame(k)
    xs = list(f.x)
    return sum(xs) / len(xs), f.time
(a, ta), (b, tb) = mean_x(20), mean_x(40)
print("%.9g" % ((b - a) / (tb - ta)))
PY
}

# cells in an attractant held at 0 and 1 on the left and right sides drift up its gradient at
# chi |grad c| / cv = 0.025 L/T (within 20 %), and twice as fast in twice the gradient
test_chem_chemotaxis_drift() {
    command -v python3 > /dev/null || skip "needs python3"
    scripts/showcase.sh chemotaxis --out "$D/one" -- -j 1 -q --png-size 100x100 > "$D/one.log" 2>&1 || fail "the showcase failed: $(tail -n 3 "$D/one.log")"
    mkdir -p "$D/p"
    printf '#include "%s/params/chemotaxis.h"\n#undef P_CHEM_SPECIES\n#define P_CHEM_SPECIES { { .name = "attractant", .D_in = 400.0, .D_out = 400.0, .bc = { [CHEM_LEFT] = CHEM_FIXED, [CHEM_RIGHT] = CHEM_FIXED }, .c_bc = { [CHEM_RIGHT] = 2.0 } } }\n' "$PWD" > "$D/p/steep.h"
    make -s B="$D/build" PARAMS="$D/p/steep.h" "$D/build/polyhoop" > "$D/make.log" 2>&1 || fail "cannot build: $(tail -n 3 "$D/make.log")"
    "$D/build/polyhoop" -j 1 -q -o "$D/two" build/showcase/chemotaxis/chemotaxis.off > "$D/two.log" 2>&1 || fail "the steep run failed"
    v1=$(drift "$D/one") v2=$(drift "$D/two")
    echo "  drift $v1 and $v2 L/T (predicted 0.025 and 0.05)" >&2
    awk -v v="$v1" 'BEGIN { exit !(v > 0.02 && v < 0.03) }' || fail "drift $v1 is not within 20 % of 0.025"
    awk -v a="$v1" -v b="$v2" 'BEGIN { exit !(b / a > 1.8 && b / a < 2.2) }' || fail "twice the gradient gives $v2, not twice $v1"
}

# two cell types that adhere only to their own kind, mixed at random, gather into domains: the
# share of like neighbours (observables.csv, homotypic), averaged over blocks of 10 frames, never
# falls by more than 0.02 from one block to the next, is at most 0.6 over the first and at least
# 0.68 over the last (0.48 and 0.71 measured; with like and unlike pairs equally adhesive it stays
# near 1/2)
test_chem_sorting_demixes() {
    scripts/showcase.sh sorting --out "$D/run" -- -j 1 -q --png-size 100x100 > "$D/log" 2>&1 || fail "the showcase failed: $(tail -n 3 "$D/log")"
    awk -F, 'NR == 1 { for (k = 1; k <= NF; k++) if ($k == "homotypic") col = k; next }
             NR > 2 { sum[int((NR - 3) / 10)] += $col; n[int((NR - 3) / 10)]++ }
             END { if (!col) { print "no column homotypic" > "/dev/stderr"; exit 1 }
                   for (b = 0; b in n; b++) { m = sum[b] / n[b]; printf "  block %d: %.3f\n", b, m > "/dev/stderr"
                       if (b > 0 && m < last - 0.02) bad = 1; if (b == 0 && m > 0.6) bad = 1; last = m }
                   if (last < 0.68) bad = 1; exit bad }' "$D/run/observables.csv" || fail "the types did not sort as stated"
}

# the data of an --ascii frame (the XML comment, which names the revision, left out), as a digest
data_digest() {
    python3 -c 'import hashlib, re, sys; print(hashlib.sha256(re.sub(rb"<!--.*?-->", b"", open(sys.argv[1], "rb").read(), flags=re.S)).hexdigest()[:16])' "$1"
}

# Advection is off unless a species sets advect = 1 (docs/model.md 11): the gradient and chemotaxis
# showcases write the frames they wrote before it existed, byte for byte (frame 2 of -n 2 -s 500,
# one thread; digests of the data recorded at the commit before advection, x86-64, gcc, glibc)
test_chem_no_advection_frames_unchanged() {
    command -v python3 > /dev/null || skip "needs python3"
    for name in gradient chemotaxis; do
        scripts/showcase.sh "$name" --out "$D/$name" -- -j 1 -q --ascii -n 2 -s 500 > "$D/$name.log" 2>&1 ||
            fail "the $name showcase failed: $(tail -n 3 "$D/$name.log")"
        lacks "$D/$name/frame000002.vti" advected
    done
    got="$(data_digest "$D/gradient/frame000002.vtp") $(data_digest "$D/gradient/frame000002.vti")"
    got="$got $(data_digest "$D/chemotaxis/frame000002.vtp") $(data_digest "$D/chemotaxis/frame000002.vti")"
    [ "$got" = "acc7aa42381bcc5e 60da8b03bf53358b 9562d1f11a52b9d1 918bd4e680c2c8c6" ] ||
        fail "the frames' data changed: digests $got (gradient .vtp .vti, chemotaxis .vtp .vti)"
}

# --png-field draws a species under the outlined cells: in the chemotaxis showcase (attractant held
# at 0 on the left side and 1 on the right, its range of each frame 0..1) a pixel far from the cells
# next to the left side has the colour of the map's low end, one next to the right side its high
# end (within 3 per channel: the field there is within 0.01 of 0 and 1); the picture after a
# restart is the same bytes; an unknown species (with "did you mean"), a build without species
# and --png-color beside it exit 2 with one line
test_chem_png_field() {
    [ -x /usr/bin/python3 ] || skip "needs /usr/bin/python3"
    scripts/showcase.sh chemotaxis --out "$D/one" -- -j 1 -q -n 2 -s 2000 --png-size 210x110 > "$D/one.log" 2>&1 ||
        fail "the showcase failed: $(tail -n 3 "$D/one.log")"
    # (view -0.5..20.5 x -0.5..6.5 on 210 x 84 pixels above the legend: 10 per unit, y = 3.05 on row 41)
    /usr/bin/python3 tests/png_probe.py "$D/one/frame000002.png" 5,41 204,41 > "$D/probe" || fail "png_probe.py failed"
    awk 'NR == 1 { if ($0 != "210 110") bad = 1 }
         NR == 2 { if ((($1 - 68) ^ 2 > 9) || (($2 - 1) ^ 2 > 9) || (($3 - 84) ^ 2 > 9)) bad = 1 }
         NR == 3 { if ((($1 - 253) ^ 2 > 9) || (($2 - 231) ^ 2 > 9) || (($3 - 37) ^ 2 > 9)) bad = 1 }
         END { exit bad }' "$D/probe" || fail "not the map's low and high ends (68 1 84, 253 231 37): $(tr '\n' ';' < "$D/probe")"
    C=build/showcase/chemotaxis
    "$C/polyhoop" -j 1 -q -n 1 -s 2000 --png-field attractant --png-size 210x110 --png-view -0.5,-0.5,20.5,6.5 -o "$D/cut" \
        "$C/chemotaxis.off" > /dev/null 2>&1 || fail "the first half failed"
    "$C/polyhoop" -j 1 -q -n 2 --restart "$D/cut" > /dev/null 2>&1 || fail "the restart failed"
    cmp -s "$D/one/frame000002.png" "$D/cut/frame000002.png" || fail "the picture differs after the restart"
    status 2 errs "$D/err" "$C/polyhoop" -q -n 0 -o "$D/a" --png-field atractant "$C/chemotaxis.off"
    has "$D/err" "polyhoop: --png-field: no species 'atractant' in params/chemotaxis.h (attractant); did you mean attractant?"
    [ "$(wc -l < "$D/err")" = 1 ] || fail "more than one line: $(cat "$D/err")"
    status 2 errs "$D/err" "$C/polyhoop" -q -n 0 -o "$D/a" --png-field attractant --png-color area "$C/chemotaxis.off"
    has "$D/err" "polyhoop: --png-field draws the cells as outlines over the field, so --png-color has nothing to colour"
    [ "$(wc -l < "$D/err")" = 1 ] || fail "more than one line: $(cat "$D/err")"
    status 2 errs "$D/err" tests/polyhoop -q -n 0 -o "$D/a" --png-field morphogen
    has "$D/err" "polyhoop: --png-field morphogen: params/default.h has no chemical species (P_NS = 0), so there is no field to draw"
    [ "$(wc -l < "$D/err")" = 1 ] || fail "more than one line: $(cat "$D/err")"
    [ ! -e "$D/a" ] || fail "a refused run wrote output"
}

run_file "$@"
