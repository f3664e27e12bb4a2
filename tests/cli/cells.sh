#!/usr/bin/env bash
# Per-cell variables (docs/model.md 11, docs/usage.md "Writing a model"): a header's P_CELL_VARS
# in every frame, in observables.csv and in the checkpoint, passed on at division (copied, or
# split by area for an amount), changed by the response rule, the same at 1 and 2 threads and
# through a restart; the neighbour fields a rule sees (contact lengths, the contact-weighted mean
# of the neighbours' variables, contact by type) on two squares side by side; a reaction rule that
# sees the covering cell's variables; rules that give
# values that are not finite and variables with bad names refused, naming them.
source "$(dirname "$0")/lib.sh"

# The default growth (1 cell to 4 by t = 2) with a clock that the response advances by dt and
# division copies (every cell's is t), an amount of 1 that division splits by area (the sum stays
# 1 to rounding), and a value from the initial rule's chem_random (copied: the same in every cell,
# in (0, 1)); the frames the same at 1 and 2 threads and after a restart, the checkpoint too.
test_cells_variables_through_division_and_restart() {
    mkdir -p "$D/p"
    {
        echo "#include \"$PWD/params/default.h\""
        echo '#define P_CELL_VARS { { .name = "clock", .init = 0 }, { .name = "mass", .init = 1, .split = 1 }, { .name = "u" } }'
        echo '#define P_CELL_INIT vars_init'
        echo '#define P_CHEM_RESPONSE vars_response'
        echo 'static void vars_init(const ChemCell *c, double *v) { v[2] = chem_random(c, 0); }'
        echo 'static void vars_response(const ChemCell *c, ChemAct *a) { a->v[0] = c->v[0] + c->dt; }'
    } > "$D/p/vars.h"
    make -s B="$D/build" PARAMS="$D/p/vars.h" "$D/build/polyhoop" > "$D/make.log" 2>&1 || fail "cannot build: $(tail -n 3 "$D/make.log")"
    P=$D/build/polyhoop
    "$P" -j 1 -n 20 -o "$D/one" inputs/ensemble.off > "$D/banner" 2>&1 || fail "the run failed: $(tail -n 3 "$D/banner")"
    has "$D/banner" "cell variable 0 (clock): init = 0, a level (copied)" "cell variable 1 (mass): init = 1, an amount (split at division)"
    head -n 1 "$D/one/observables.csv" | grep -q ',sum_clock,mean_clock,sum_mass,mean_mass,sum_u,mean_u$' ||
        fail "observables.csv lacks the variables' columns"
    /usr/bin/python3 - "$D/one" << 'PY' || fail "the variables are wrong"
import sys; sys.path.insert(0, "scripts")
import polyhoop_read as pr
run = pr.Run(sys.argv[1])
obs = run.observables()
bad = []
for k in range(len(obs["time"])):
    t = obs["time"][k]
    if abs(obs["mean_clock"][k] - t) > 1e-9: bad.append(f"mean clock {obs['mean_clock'][k]} at t = {t}")
    if abs(obs["sum_mass"][k] - 1) > 1e-12: bad.append(f"the mass sums to {obs['sum_mass'][k]!r} at t = {t}")
c = run.frame(-1).cells
if len(c["clock"]) < 4: bad.append(f"{len(c['clock'])} cells at the end, not 4 or more")
if not (0 < c["u"][0] < 1 and all(x == c["u"][0] for x in c["u"])): bad.append(f"u = {list(c['u'])}")
if abs(sum(c["mass"]) - 1) > 1e-12: bad.append("the frame's masses do not sum to 1")
if len(set(c["mass"])) < 2: bad.append("every cell has the same mass: not split by area")
print("\n".join("  " + b for b in bad), file=sys.stderr)
sys.exit(1 if bad else 0)
PY
    "$P" -j 2 -q -n 20 -o "$D/two" inputs/ensemble.off > /dev/null 2>&1 || fail "the 2-thread run failed"
    "$P" -j 1 -q -n 12 -o "$D/cut" inputs/ensemble.off > /dev/null 2>&1 || fail "the cut run failed"
    "$P" -j 2 -q -n 20 --restart "$D/cut" > /dev/null 2>&1 || fail "the restart failed"
    for k in 000013 000020; do
        cmp -s "$D/one/frame$k.vtp" "$D/two/frame$k.vtp" || fail "frame$k.vtp differs between 1 and 2 threads"
        cmp -s "$D/one/frame$k.vtp" "$D/cut/frame$k.vtp" || fail "frame$k.vtp differs after the restart"
    done
    cmp -s "$D/one/checkpoint.bin" "$D/cut/checkpoint.bin" || fail "the checkpoints differ after the restart"
    cmp -s "$D/one/observables.csv" "$D/cut/observables.csv" || fail "observables.csv differs after the restart"
    # a checkpoint whose last variable is NaN (the checksum made anew) is refused, naming it
    /usr/bin/python3 - "$D/cut/checkpoint.bin" << 'PY'
import struct, sys, zlib
b = bytearray(open(sys.argv[1], "rb").read())
at = len(b) - 4 - 304 - 8   # (before the build's section and the checksum: the last value)
b[at:at + 8] = struct.pack("<d", float("nan"))
b[-4:] = struct.pack("<I", zlib.crc32(bytes(b[:-4])))
open(sys.argv[1], "wb").write(bytes(b))
PY
    status 2 errs "$D/err" "$P" -q -n 21 --restart "$D/cut"
    matches "$D/err" "checkpoint.bin: variable 2 (u) of polygon [0-9][0-9]* is not finite"
    # --png-color takes a variable's name
    "$P" -q -n 0 --png-color mass -o "$D/png" inputs/ensemble.off > /dev/null 2>&1 || fail "--png-color mass refused"
    [ -s "$D/png/frame000000.png" ] || fail "no picture coloured by mass"
}

# Two unit squares 0.01 apart (the left of type 0 at level 1, the right of type 1 at level 2):
# each sees one neighbour, a contact length of the shared side (1, with the corners' vertices
# within reach: at most 1.05, the same for both), the other's level as its neighbours' mean, and
# contact with type 1 on the left only.
test_cells_contacts_between_two_squares() {
    mkdir -p "$D/p"
    /usr/bin/python3 - "$D/two.off" << 'PY'
import sys
def square(x0, n=40):
    return ([(x0 + k / n, 0) for k in range(n)] + [(x0 + 1, k / n) for k in range(n)] +
            [(x0 + 1 - k / n, 1) for k in range(n)] + [(x0, 1 - k / n) for k in range(n)])
a, b = square(-1.005), square(0.005)
with open(sys.argv[1], "w") as f:
    f.write("OFF\n%d 2 0\n" % (len(a) + len(b)))
    f.writelines("%.6f %.6f 1\n" % p for p in a)
    f.writelines("%.6f %.6f 3\n" % p for p in b)
    f.write("%d %s\n" % (len(a), " ".join(map(str, range(len(a))))))
    f.write("%d %s\n" % (len(b), " ".join(map(str, range(len(a), len(a) + len(b))))))
PY
    {
        echo "#include \"$PWD/params/default.h\""
        echo '#undef P_alpha_mu'
        echo '#define P_alpha_mu 0.0'
        echo '#undef P_ntypes'
        echo '#define P_ntypes 2'
        echo '#define P_CELL_VARS { { .name = "level" }, { .name = "heard" }, { .name = "contact" }, { .name = "nb" }, { .name = "with1" } }'
        echo '#define P_CELL_INIT touch_init'
        echo '#define P_CHEM_RESPONSE touch_response'
        echo '#define P_CELL_CONTACTS 1'
        echo 'static void touch_init(const ChemCell *c, double *v) { v[0] = c->x > 0 ? 2 : 1; }'
        echo 'static void touch_response(const ChemCell *c, ChemAct *a)'
        echo '{ a->v[1] = c->vn[0]; a->v[2] = c->contact; a->v[3] = c->neighbors; a->v[4] = c->contact_type[1]; }'
    } > "$D/p/touch.h"
    make -s B="$D/build" PARAMS="$D/p/touch.h" "$D/build/polyhoop" > "$D/make.log" 2>&1 || fail "cannot build: $(tail -n 3 "$D/make.log")"
    "$D/build/polyhoop" -j 1 -q -n 1 -s 10 -o "$D/run" "$D/two.off" > "$D/out" 2>&1 || fail "the run failed: $(tail -n 3 "$D/out")"
    /usr/bin/python3 - "$D/run" << 'PY' || fail "the neighbour fields are wrong"
import sys; sys.path.insert(0, "scripts")
import polyhoop_read as pr
c = pr.Run(sys.argv[1]).frame(-1).cells
bad = []
for p, (level, heard) in enumerate([(1, 2), (2, 1)]):
    if c["level"][p] != level or c["heard"][p] != heard: bad.append(f"cell {p}: level {c['level'][p]}, heard {c['heard'][p]}")
    if c["nb"][p] != 1: bad.append(f"cell {p}: {c['nb'][p]} neighbours")
    if not 1 <= c["contact"][p] <= 1.05: bad.append(f"cell {p}: contact length {c['contact'][p]}")
if c["contact"][0] != c["contact"][1]: bad.append("the contact lengths differ")
if c["with1"][0] != c["contact"][0] or c["with1"][1] != 0: bad.append(f"contact with type 1: {list(c['with1'])}")
print("\n".join("  " + b for b in bad), file=sys.stderr)
sys.exit(1 if bad else 0)
PY
}

# P_CHEM_REACTION_CELL sees the covering cell's variables: the two squares of the test above make
# species m at the rate of their variable rate (1 on the left, 3 on the right) and nothing moves
# it (D = k = 0): after t = 0.01 the nodes well inside the left cell hold 0.01 and those inside
# the right 0.03 (to rounding; the squares' corners round off, so their rims' nodes are partly
# covered), and none more than 0.03.
test_cells_reaction_sees_the_cell() {
    mkdir -p "$D/p"
    /usr/bin/python3 - "$D/two.off" << 'PY'
import sys
def square(x0, n=40):
    return ([(x0 + k / n, 0) for k in range(n)] + [(x0 + 1, k / n) for k in range(n)] +
            [(x0 + 1 - k / n, 1) for k in range(n)] + [(x0, 1 - k / n) for k in range(n)])
a, b = square(-1.005), square(0.005)
with open(sys.argv[1], "w") as f:
    f.write("OFF\n%d 2 0\n" % (len(a) + len(b)))
    f.writelines("%.6f %.6f 1\n" % p for p in a + b)
    f.write("%d %s\n" % (len(a), " ".join(map(str, range(len(a))))))
    f.write("%d %s\n" % (len(b), " ".join(map(str, range(len(a), len(a) + len(b))))))
PY
    {
        echo "#include \"$PWD/params/default.h\""
        for kv in "alpha_mu 0.0" "NS 1" "chem_x0 -1.5" "chem_x1 1.5" "chem_y0 -0.5" "chem_y1 1.5"; do
            set -- $kv
            echo "#undef P_$1"
            echo "#define P_$1 $2"
        done
        echo '#define P_CHEM_SPECIES { { .name = "m", .D_in = 0, .D_out = 0, .k = 0 } }'
        echo '#define P_CELL_VARS { { .name = "rate" } }'
        echo '#define P_CELL_INIT r_init'
        echo '#define P_CHEM_REACTION_CELL r_react'
        echo 'static void r_init(const ChemCell *c, double *v) { v[0] = c->x > 0 ? 3 : 1; }'
        echo 'static double r_react(int s, const double *c, int type, const double *v) { (void)s; (void)c; (void)type; return v ? v[0] : 0; }'
    } > "$D/p/react.h"
    make -s B="$D/build" PARAMS="$D/p/react.h" "$D/build/polyhoop" > "$D/make.log" 2>&1 || fail "cannot build: $(tail -n 3 "$D/make.log")"
    "$D/build/polyhoop" -j 1 --ascii -n 1 -s 100 -o "$D/run" "$D/two.off" > "$D/out" 2>&1 || fail "the run failed: $(tail -n 3 "$D/out")"
    has "$D/out" "P_CHEM_REACTION_CELL"
    /usr/bin/python3 - "$D/run/frame000001.vti" << 'PY' || fail "the reaction did not follow the cells' variables"
import re, sys
c = [float(v) for v in re.search(r'Name="m"[^>]*>([^<]*)<', open(sys.argv[1]).read()).group(1).split()]
bad = 0
for k, val in enumerate(c):   # (31 x 21 nodes from (-1.5, -0.5), dx 0.1)
    x, y = -1.5 + 0.1 * (k % 31), -0.5 + 0.1 * (k // 31)
    if 0.15 < y < 0.85 and (-0.85 < x < -0.15 or 0.15 < x < 0.85):
        bad += abs(val - (0.03 if x > 0 else 0.01)) > 1e-15
    bad += not 0 <= val <= 0.03 + 1e-15
print(f"  {sum(abs(v - 0.03) < 1e-15 for v in c)} nodes at 0.03, {sum(abs(v - 0.01) < 1e-15 for v in c)} at 0.01, {bad} wrong", file=sys.stderr)
sys.exit(1 if bad else 0)
PY
}

# A response that makes a variable NaN ends the run (status 2, naming the cell, the variable and
# its value; frame 0 written); an initial rule's infinity refuses the input; a variable named like
# a built-in cell array, or two alike, are refused at start; more than 16 do not compile.
test_cells_bad_rules_and_names_refused() {
    mkdir -p "$D/p"
    base="#include \"$PWD/params/default.h\""
    printf '%s\n#define P_CELL_VARS { { .name = "x" } }\n#define P_CHEM_RESPONSE r\nstatic void r(const ChemCell *c, ChemAct *a) { a->v[0] = c->t > 0.05 ? NAN : 0; }\n' "$base" > "$D/p/nan.h"
    printf '%s\n#define P_CELL_VARS { { .name = "x" } }\n#define P_CELL_INIT i\nstatic void i(const ChemCell *c, double *v) { v[0] = c->area > 0 ? INFINITY : 0; }\n' "$base" > "$D/p/init.h"
    printf '%s\n#define P_CELL_VARS { { .name = "area" } }\n' "$base" > "$D/p/area.h"
    printf '%s\n#define P_CELL_VARS { { .name = "a" }, { .name = "a" } }\n' "$base" > "$D/p/twice.h"
    printf '%s\n#define P_CELL_VARS { {"a"},{"b"},{"c"},{"d"},{"e"},{"f"},{"g"},{"h"},{"i"},{"j"},{"k"},{"l"},{"m"},{"n"},{"o"},{"p"},{"q"} }\n' "$base" > "$D/p/many.h"
    for h in nan init area twice; do
        make -s B="$D/b$h" PARAMS="$D/p/$h.h" "$D/b$h/polyhoop" > "$D/make.log" 2>&1 || fail "cannot build $h.h: $(tail -n 3 "$D/make.log")"
    done
    status 2 errs "$D/err" "$D/bnan/polyhoop" -q -n 1 -o "$D/r1" inputs/ensemble.off
    has "$D/err" "at t = 0.0501 (step 501), the response rule gave polygon 0 (id 2, cell type 0) the variable x = nan, which must be finite" \
        "must give every polygon a cell type in 0 .. 0 and a finite growth rate and force and variables"
    [ -e "$D/r1/frame000000.vtp" ] || fail "the first frame is missing"
    status 2 errs "$D/err" "$D/binit/polyhoop" -q -n 1 -o "$D/r2" inputs/ensemble.off
    has "$D/err" "inputs/ensemble.off: the rule P_CELL_INIT gave cell id 0 a variable that is not finite"
    status 2 errs "$D/err" "$D/barea/polyhoop" -q -n 1 -o "$D/r3" inputs/ensemble.off
    has "$D/err" "cells: variable 0 of P_CELL_VARS is named 'area', like a cell array every frame has"
    status 2 errs "$D/err" "$D/btwice/polyhoop" -q -n 1 -o "$D/r4" inputs/ensemble.off
    has "$D/err" "cells: variables 0 and 1 of P_CELL_VARS are both named 'a'"
    ! gcc -std=c11 -fsyntax-only -Isrc -iquote . -DPH_PARAMS_FILE="\"$D/p/many.h\"" src/params.c 2> "$D/many.err" ||
        fail "17 variables compiled"
    has "$D/many.err" "P_CELL_VARS lists more than 16 variables"
}

# docs/usage.md's worked examples, compiled as they stand (the code block of "Writing a model")
# on a static hexagonal packing of 100 cells, with a chemical step every 10 steps: Notch-Delta
# lateral inhibition (Collier et al. 1996) from Delta levels within 5 % of each other makes a
# salt-and-pepper pattern by t = 4: every cell's Delta near 0 or 1 (none in [0.1, 0.9]), a fifth
# to a half of the cells high, and fewer than 5 % of the high cells' neighbours high; the same
# bits at 2 threads and through a restart.
test_cells_docs_example_lateral_inhibition() {
    mkdir -p "$D/p"
    /usr/bin/python3 scripts/make_hex.py 100 "$D/hex.off" > /dev/null || fail "make_hex.py failed"
    {
        echo "#include \"$PWD/params/default.h\""
        for kv in "alpha_mu 0.0" "Amax_mu INFINITY" "ntypes 2" "chem_every 10" "Nf 20" "Ns 2000"; do
            set -- $kv
            echo "#undef P_$1"
            echo "#define P_$1 $2"
        done
        /usr/bin/python3 - docs/usage.md << 'PY'
import re, sys
text = open(sys.argv[1]).read()
part = text[text.index("## Writing a model"):]
part = part[:part.index("\n## ", 1)]
print(re.search(r"```c\n(.*?)```", part, re.S).group(1))
PY
    } > "$D/p/ni.h"
    make -s B="$D/build" PARAMS="$D/p/ni.h" "$D/build/polyhoop" > "$D/make.log" 2>&1 || fail "docs/usage.md's example does not build: $(tail -n 3 "$D/make.log")"
    "$D/build/polyhoop" -j 1 -q -o "$D/run" "$D/hex.off" > "$D/out" 2>&1 || fail "the run failed: $(tail -n 3 "$D/out")"
    /usr/bin/python3 - "$D/run" << 'PY' || fail "no salt-and-pepper pattern"
import sys; sys.path.insert(0, "scripts")
import tissue_stats as ts
fr = ts.read_frame(sorted(__import__("glob").glob(sys.argv[1] + "/frame*.vtp"))[-1])
d, typ = fr["arrays"]["delta"], fr["arrays"]["type"]
nbr = ts.neighbour_sets(fr["polys"], 0.03)
high = [k for k in range(len(d)) if d[k] > 0.5]
middle = [x for x in d if 0.1 <= x <= 0.9]
pairs = sum(len(nbr[k]) for k in high)
hh = sum(1 for k in high for q in nbr[k] if d[q] > 0.5)
share = hh / pairs if pairs else 1
print(f"  t = {fr['time']:g}: {len(high)} of {len(d)} cells high, {len(middle)} between, "
      f"{hh} of {pairs} of the high cells' neighbours high ({share:.3f})", file=sys.stderr)
ok = not middle and 0.2 <= len(high) / len(d) <= 0.5 and share < 0.05
ok = ok and all(t == (x > 0.5) for t, x in zip(typ, d))
sys.exit(0 if ok else 1)
PY
    # the neighbour fields the same at 2 threads and through a restart
    "$D/build/polyhoop" -j 2 -q -o "$D/two" "$D/hex.off" > /dev/null 2>&1 || fail "the 2-thread run failed"
    "$D/build/polyhoop" -j 1 -q -n 10 -o "$D/cut" "$D/hex.off" > /dev/null 2>&1 || fail "the cut run failed"
    "$D/build/polyhoop" -j 2 -q -n 20 --restart "$D/cut" > /dev/null 2>&1 || fail "the restart failed"
    cmp -s "$D/run/frame000020.vtp" "$D/two/frame000020.vtp" || fail "the last frame differs between 1 and 2 threads"
    cmp -s "$D/run/frame000020.vtp" "$D/cut/frame000020.vtp" || fail "the last frame differs after the restart"
    cmp -s "$D/run/checkpoint.bin" "$D/cut/checkpoint.bin" || fail "the checkpoints differ after the restart"
}
run_file "$@"
