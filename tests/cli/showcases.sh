#!/usr/bin/env bash
# The showcases of scripts/showcase.sh: every parameter header compiles, every showcase builds
# and runs a few steps; and the measured facts that the README's gallery states for two of them
# (test_scripts_showcase_claims, about 90 s; alone: tests/cli/showcases.sh claims).
source "$(dirname "$0")/lib.sh"

# Every parameter header compiles with its checks (src/params.c, warnings as errors), and every
# showcase of scripts/showcase.sh --list builds in build/showcase/NAME (the builds run two at a
# time first), makes its input and runs 2 frames of 20 steps with --check into a temporary folder:
# exit status 0, and the last frame holds numbers only, all finite.
test_scripts_showcases_build_and_run() {
    names=$(scripts/showcase.sh --list)
    [ "$(echo "$names" | wc -w)" -ge 10 ] || fail "scripts/showcase.sh --list named: $names"
    headers=0
    for h in params/*.h; do
        gcc -std=c11 -fsyntax-only -Wall -Wextra -Wpedantic -Werror -Isrc -iquote . -DPH_PARAMS_FILE="\"$h\"" src/params.c ||
            fail "$h does not compile"
        headers=$((headers + 1))
    done
    [ $headers -gt "$(echo "$names" | wc -w)" ] || fail "only $headers parameter headers"
    for name in $names; do [ -r "params/$name.h" ] || fail "showcase $name has no params/$name.h"; done
    echo "$names" | xargs -P 2 -I {} make -s --no-print-directory B=build/showcase/{} PARAMS=params/{}.h build/showcase/{}/polyhoop > /dev/null ||
        fail "building the showcases failed"
    for name in $names; do
        scripts/showcase.sh "$name" --out "$D/$name" -- -n 2 -s 20 --check --ascii > "$D/$name.log" 2>&1 ||
            fail "showcase $name exited $?: see $D/$name.log"
        # every number in the <DataArray> elements (the XML comment before them may say "inf"
        # for a parameter such as Amax), and there are some
        awk 'BEGIN { RS = "<DataArray" }
             NR > 1 { from = index($0, ">"); to = index($0, "</DataArray")
                      if (!from || to < from) bad = 1
                      k = split(substr($0, from + 1, to - from - 1), v)
                      for (i = 1; i <= k; i++) if (v[i] !~ /^[-+]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][-+]?[0-9]+)?$/ || v[i] - v[i] != 0) bad = 1
                      numbers += k }
             END { exit bad || !numbers }' "$D/$name/frame000002.vtp" ||
            fail "showcase $name: $D/$name/frame000002.vtp is missing or holds a non-finite value"
    done
}

# hex_packing's interior cells pressed into hexagons (mean shape index L / sqrt(A) at least 3.70,
# a regular hexagon's being 3.72 and a circle's 3.54; six neighbours each), and the emulsion's
# drops fused (at least 20 fusions) into continuous phases, the rising one (phase -1) held for the
# most part by one polygon at the end. Runs both full showcases side by side, one thread each,
# and prints each figure.
test_scripts_showcase_claims() {
    command -v python3 > /dev/null || skip "python3 is not on PATH"
    pids=()
    for name in hex_packing emulsion; do
        scripts/showcase.sh "$name" --out "$D/$name" -- -j 1 --png-size 200x200 > "$D/$name.log" 2>&1 &
        pids+=($!)
    done
    for pid in "${pids[@]}"; do wait "$pid" || fail "a showcase failed: see $D/*.log"; done
    fusions=$(sed -n 's/^events: .*fusions (type I) \([0-9]*\),.*/\1/p' "$D/emulsion.log")
    python3 - "$D" "${fusions:-0}" << 'PY'
import sys
sys.path.insert(0, "scripts")
import tissue_stats as ts
d, fusions = sys.argv[1], int(sys.argv[2])
def last(name):
    return ts.frame_stats(*ts.frame_files(f"{d}/{name}")[-1], None)
hexs, emu = last("hex_packing"), last("emulsion")
si, nb = hexs["interior_shape_index"]["mean"], hexs["interior_neighbors"]["mean"]
rising = emu["phases"]["-1"]["largest_share"]
print(f"  hex_packing: {hexs['cells']} cells, interior shape index {si:.4f}, interior neighbours {nb:.3f}", file=sys.stderr)
print(f"  emulsion: {fusions} fusions; the rising phase's largest polygon holds {100 * rising:.0f} % of its area", file=sys.stderr)
bad = []
if not si >= 3.70: bad.append(f"hex_packing's interior shape index {si:.4f} < 3.70")
if not nb >= 5.9: bad.append(f"hex_packing's interior neighbours {nb:.3f} < 5.9")
if not fusions >= 20: bad.append(f"the emulsion fused {fusions} times, not 20 or more")
if not rising > 0.5: bad.append(f"the emulsion's rising phase is {100 * rising:.0f} % in one polygon, not most of it")
for b in bad:
    print("  " + b, file=sys.stderr)
sys.exit(1 if bad else 0)
PY
}

run_file "$@"
