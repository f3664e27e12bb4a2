#!/usr/bin/env bash
# The tissue the default run grows, measured over several seeds by scripts/compare_reference.py
# and scripts/tissue_stats.py (with Debian's /usr/bin/python3; skipped without it), against the
# published program's statistics.
source "$(dirname "$0")/lib.sh"

# The default growth has the structure of the paper's program (docs/model.md 5 and 10): over
# seeds 1-4 at t = 10 (one thread a run), the mean cell area of every run in [2.055, 2.070] and
# its contact pairs in [320, 337], the published program's range over 5 runs (its mean area 2.062
# [2.060, 2.064]; with the earlier rules, refinement into ceil(l / lmax) pieces and a division
# that dropped the vertices within h of the cut, 2.041 to 2.051), no set of four cells pairwise
# in contact in at least 3 of the 4, and 128 cells. It grows on time: the first frame with 4, 8,
# ..., 128 cells within 2 frames of 17, 32, 48, 65, 81, 98 in every run.
test_topology_default_tissue_structure() {
    [ -x /usr/bin/python3 ] || skip "/usr/bin/python3 missing"
    /usr/bin/python3 scripts/compare_reference.py --program tests/polyhoop --seeds 1-4 --jobs 2 --keep "$D" --json > "$D/stats" 2> "$D/err" ||
        fail "compare_reference.py failed: $D/err"
    for seed in 1 2 3 4; do
        /usr/bin/python3 scripts/tissue_stats.py --json --growth "$D/seed$seed" > "$D/growth$seed"
    done
    /usr/bin/python3 - "$D" << 'PY'
import json, sys
d = sys.argv[1]
runs = {r["seed"]: r["stats"] for r in json.load(open(f"{d}/stats"))["runs"]}
bad, clean = [], 0
for seed in 1, 2, 3, 4:
    if seed not in runs:
        bad.append(f"no statistics of seed {seed}")
        continue
    s = runs[seed]
    if not (s["time"] == 10 and s["cells"] == 128): bad.append(f"seed {seed}: {s['cells']} cells at t = {s['time']}")
    if not 2.055 <= s["area"]["mean"] <= 2.070: bad.append(f"seed {seed}: mean area {s['area']['mean']:.5g}")
    if not 320 <= s["contact_pairs"] <= 337: bad.append(f"seed {seed}: {s['contact_pairs']} contact pairs")
    clean += s["cliques4"] == 0
    growth = json.load(open(f"{d}/growth{seed}"))["growth"]
    for count, frame in (4, 17), (8, 32), (16, 48), (32, 65), (64, 81), (128, 98):
        first = growth.get(str(count))
        if first is None or abs(first - frame) > 2:
            bad.append(f"seed {seed}: {count} cells first at frame {first}, not about {frame}")
if clean < 3: bad.append(f"4-cell cliques in {4 - clean} of 4 runs")
for b in bad:
    print("  " + b, file=sys.stderr)
sys.exit(1 if bad else 0)
PY
}

run_file "$@"
