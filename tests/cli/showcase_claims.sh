#!/usr/bin/env bash
# The measured facts that the README's gallery states for two showcases whose pictures depend on
# them: hex_packing's interior cells pressed into hexagons (mean shape index L / sqrt(A) at least
# 3.70, a regular hexagon's being 3.72 and a circle's 3.54; six neighbours each), and the
# emulsion's drops fused (at least 20 fusions) into continuous phases, the rising one (phase -1)
# held for the most part by one polygon at the end. Runs both full showcases side by side, one
# thread each (about 90 s), into DIR (default: a new temporary folder), and prints each figure.
#   tests/cli/showcase_claims.sh [DIR]
set -euo pipefail
cd "$(dirname "$0")/../.."
dir=${1:-$(mktemp -d /tmp/ph_claims_XXXXXX)}
mkdir -p "$dir"
pids=()
for name in hex_packing emulsion; do
    scripts/showcase.sh "$name" --out "$dir/$name" -- -j 1 --png-size 200x200 > "$dir/$name.log" 2>&1 &
    pids+=($!)
done
for k in 0 1; do wait "${pids[$k]}" || { echo "showcase_claims: a showcase failed: see $dir/*.log" >&2; exit 1; }; done
fusions=$(sed -n 's/^events: .*fusions (type I) \([0-9]*\),.*/\1/p' "$dir/emulsion.log")
python3 - "$dir" "${fusions:-0}" <<'PY'
import sys
sys.path.insert(0, "scripts")
import tissue_stats as ts
d, fusions = sys.argv[1], int(sys.argv[2])
def last(name):
    return ts.frame_stats(*ts.frame_files(f"{d}/{name}")[-1], None)
hexs, emu = last("hex_packing"), last("emulsion")
si, nb = hexs["interior_shape_index"]["mean"], hexs["interior_neighbors"]["mean"]
rising = emu["phases"]["-1"]["largest_share"]
print(f"hex_packing: {hexs['cells']} cells, interior shape index {si:.4f}, interior neighbours {nb:.3f}")
print(f"emulsion: {fusions} fusions; the rising phase's largest polygon holds {100 * rising:.0f} % of its area")
bad = []
if not si >= 3.70: bad.append(f"hex_packing's interior shape index {si:.4f} < 3.70")
if not nb >= 5.9: bad.append(f"hex_packing's interior neighbours {nb:.3f} < 5.9")
if not fusions >= 20: bad.append(f"the emulsion fused {fusions} times, not 20 or more")
if not rising > 0.5: bad.append(f"the emulsion's rising phase is {100 * rising:.0f} % in one polygon, not most of it")
for b in bad:
    print("showcase_claims: " + b, file=sys.stderr)
sys.exit(1 if bad else 0)
PY
