#!/usr/bin/env bash
# Benchmarks: each scenario at 1 and 2 threads, the minimum compute time of REPEATS runs.
# Writes bench/results.csv and prints a table (with the contact phase's time per listed edge that
# the steps walked, ns_per_edge), the neighbour list's statistics (bench/list.txt), the ratio of a
# growing tissue's vertex updates per second to a static packing's, and what a sparse extent costs
# (a packing with a far triangle against the packing alone; a ring). Frame writing is excluded
# from the compute time (the program times it as its own phase) and reported separately.
#   scripts/bench.sh [REPEATS [SCENARIO...]]
#                                   (make bench: all scenarios, 3 repeats)
#   scripts/bench.sh --parse LOG THREADS RSS_KB
#                                   only the CSV fields (wall, compute, output, vertex updates,
#                                   MB, vertices, phase shares, ns per edge) of one run's summary
#   scripts/bench.sh --scenario NAME
#                                   only the scenario's parameter header and the program's
#                                   arguments, one a line (for scripts/compare.sh)
#   scripts/bench.sh --inputs       only the inputs, made into build-bench/ where missing
parse_log() {   # parse_log LOG THREADS RSS_KB: a run's summary as the CSV fields that once prints
    # compute time = sum of the phases except output; vertex updates from the summary (the
    # conditional in printf's arguments is in parentheses: a bare > would redirect the output)
    awk -v rss="$3" -v th="$2" '
        /^done:/ { for (i = 1; i <= NF; i++) { if ($i == "wall,") wall = $(i - 2); if ($i == "vertex" && $(i + 1) == "updates,") vus = $(i - 1);
                                               if ($i == "vertices" && $(i + 1) == "at") nv = $(i - 1) } }
        /^contact list:/ { for (i = 1; i <= NF; i++) if ($i == "listed") walked = $(i - 1) }
        /^  [a-z].* %$/ { t[$1] = $(NF - 3); if ($1 != "output") comp += $(NF - 3); else outp = $(NF - 3) }
        END { tot = comp > 0 ? comp : 1
              printf "%s,%s,%s,%.0f,%.1f,%.0f,%.4g,%.4g,%.4g,%.4g,%.4g,%.4g,%.3g", wall, comp, outp, vus, rss / 1024, nv,
                     100 * t["remodel"] / tot, 100 * t["internal"] / tot, 100 * t["contact"] / tot,
                     100 * t["integrate"] / tot, 100 * t["fusion"] / tot, 100 * t["topology"] / tot,
                     (walked > 0 ? 1e9 * t["contact"] * th / walked : 0) }' "$1"
}
# The scenarios, in the order the table lists them: name, parameter header, the program's arguments.
SCENARIOS="default gradient hex2500 hex10000 foam tissue3000 tissue3000_static hex400 sparse sparse_near ring"
scenario_def() {   # scenario_def NAME: its header and arguments, one a line
    local a
    case "$1" in
        default)           a="params/default.h -n 100 -s 1000";;
        gradient)          a="params/bench_gradient.h -n 100 -s 1000";;
        hex2500)           a="params/hex.h build-bench/hex2500.off -n 1 -s 1000";;
        hex10000)          a="params/hex.h build-bench/hex10000.off -n 1 -s 1000";;
        foam)              a="params/emulsion.h inputs/emulsion.off -n 10 -s 1000";;
        tissue3000)        a="params/scale.h build-bench/tissue3000.off -n 1 -s 1000";;
        tissue3000_static) a="params/hex.h build-bench/tissue3000.off -n 1 -s 1000";;
        hex400)            a="params/hex.h build-bench/hex400.off -n 1 -s 1000";;
        sparse)            a="params/hex.h build-bench/hex400_30000.off -n 1 -s 1000";;
        sparse_near)       a="params/hex.h build-bench/hex400_50.off -n 1 -s 1000";;
        ring)              a="params/hex.h build-bench/ring.off -n 1 -s 200";;
        *) echo "bench: no scenario '$1' (scenarios: $SCENARIOS)" >&2; return 1;;
    esac
    printf '%s\n' $a
}
make_inputs() {   # the inputs, made into build-bench/ where missing
    mkdir -p build-bench
    [ -f build-bench/hex2500.off ] || python3 scripts/make_hex.py 2500 build-bench/hex2500.off
    [ -f build-bench/hex10000.off ] || python3 scripts/make_hex.py 10000 build-bench/hex10000.off
    [ -f build-bench/tissue3000.off ] || python3 scripts/make_tissue.py 3000 build-bench/tissue3000.off
    # sparse extents: the 400-cell packing alone, with a small triangle (sides 0.1) 30,000 away
    # diagonally, and with the same triangle 50 from the packing's corner, just above it (what the
    # triangle itself costs); a single ring of 100,000 vertices 0.1 apart (radius 1,592)
    [ -f build-bench/hex400.off ] || python3 scripts/make_hex.py 400 build-bench/hex400.off
    for d in 30000 50; do [ -f "build-bench/hex400_$d.off" ] || python3 - build-bench/hex400.off "build-bench/hex400_$d.off" "$d" <<'PY'
import sys
lines = open(sys.argv[1]).read().split("\n")
at = next(k for k, l in enumerate(lines) if l.strip() == "OFF") + 1
nv, nf = map(int, lines[at].split()[:2])
d = float(sys.argv[3]) / 2 ** 0.5
tri = ["%.12g %.12g 1" % (d + x, d + y) for x, y in ((0, 0), (0.1, 0), (0.05, 0.0866))]
faces = [l for l in lines[at + 1 + nv:] if l.strip()]
out = lines[:at] + ["%d %d 0" % (nv + 3, nf + 1)] + lines[at + 1:at + 1 + nv] + tri + faces + ["3 %d %d %d" % (nv, nv + 1, nv + 2)]
open(sys.argv[2], "w").write("\n".join(out) + "\n")
PY
    done
    [ -f build-bench/ring.off ] || python3 - build-bench/ring.off <<'PY'
import math, sys
n = 100000
r = 0.1 / (2 * math.sin(math.pi / n))
with open(sys.argv[1], "w") as f:
    f.write("# a ring of %d vertices 0.1 apart, radius %.6g\nOFF\n%d 1 0\n" % (n, r, n))
    for k in range(n):
        f.write("%.12g %.12g 1\n" % (r * math.cos(2 * math.pi * k / n), r * math.sin(2 * math.pi * k / n)))
    f.write("%d %s\n" % (n, " ".join(map(str, range(n)))))
PY
}
if [ "${1:-}" = --parse ]; then parse_log "$2" "$3" "$4"; echo; exit 0; fi
if [ "${1:-}" = --scenario ]; then scenario_def "$2"; exit; fi
if [ "${1:-}" = --inputs ]; then set -euo pipefail; cd "$(dirname "$0")/.."; make_inputs; exit 0; fi
case "${1:-}" in -h|--help) sed -n '2,/^[^#]/{/^#/s/^# \{0,1\}//p}' "$0"; exit 0;; esac
set -euo pipefail
shopt -s inherit_errexit   # (a failed run inside $(...) stops the script too)
cd "$(dirname "$0")/.."
repeats=${1:-3}
[[ $repeats =~ ^[1-9][0-9]*$ ]] || { echo "bench: REPEATS is a positive integer, not '$repeats'" >&2; exit 2; }
shift $(($# > 0 ? 1 : 0))
if [ $# -gt 0 ]; then for n in "$@"; do scenario_def "$n" > /dev/null; done; SCENARIOS="$*"; fi
out=bench
mkdir -p "$out" build-bench
build() {   # build PARAMS: build-bench/polyhoop_NAME with that parameter header params/NAME.h (the Makefile's rules)
    local name; name=$(basename "$1" .h)
    make -s --no-print-directory B="build-bench/$name" PARAMS="$1" "build-bench/$name/polyhoop"
    cp "build-bench/$name/polyhoop" "build-bench/polyhoop_$name"
}
for h in $(for n in $SCENARIOS; do scenario_def "$n" | sed -n 1p; done | sort -u); do build "$h"; done
make_inputs

csv="$out/results.csv"
echo "scenario,threads,wall_s,compute_s,output_s,vertex_steps,mvu_per_s_per_thread,peak_rss_mb,bytes_per_vertex,vertices,remodel,internal,contact,integrate,fusion,topology,ns_per_edge" > "$csv"
once() {   # once THREADS PROGRAM ARGS...: one run; prints wall,compute,output,vertex updates,rss MB,vertices,phase shares
    local threads=$1 prog=$2; shift 2
    rm -rf "build-bench/run"
    /usr/bin/time -f "%M" -o build-bench/rss env OMP_NUM_THREADS="$threads" "build-bench/polyhoop_$prog" -q -o build-bench/run --checkpoint-every 0 "$@" > build-bench/log
    parse_log build-bench/log "$threads" "$(tail -n 1 build-bench/rss)"
}
scenario() {   # scenario NAME PROGRAM ARGS...: REPEATS rounds of a 1-thread and a 2-thread run, alternating
    # (so that a slow spell of this shared machine does not fall on one thread count only); keeps the fastest
    local name=$1 prog=$2; shift 2
    local best1="" best2="" line comp r t
    for r in $(seq "$repeats"); do
        for t in 1 2; do
            line=$(once "$t" "$prog" "$@")
            comp=${line#*,}; comp=${comp%%,*}
            [ -n "$comp" ] || { echo "bench: $name on $t threads printed no timing (see build-bench/log)" >&2; exit 1; }
            local best; [ "$t" = 1 ] && best=$best1 || best=$best2
            if [ -z "$best" ] || awk -v a="$comp" -v b="${best#*,}" 'BEGIN { split(b, x, ","); exit !(a < x[1]) }'; then
                [ "$t" = 1 ] && best1=$line || best2=$line
            fi
        done
    done
    # the neighbour list's statistics (the same at any thread count): of the scenario's last run
    sed -n 's/^contact list: /'"$name"': /p' build-bench/log >> "$out/list.txt"
    for t in 1 2; do
        [ "$t" = 1 ] && line=$best1 || line=$best2
        IFS=, read -r wall comp outp vsteps rss maxv p1 p2 p3 p4 p5 p6 nse <<< "$line"
        local mvu bpv
        mvu=$(awk -v v="$vsteps" -v c="$comp" -v t="$t" 'BEGIN { printf "%.3f", v / c / t / 1e6 }')
        bpv=$(awk -v r="$rss" -v m="$maxv" 'BEGIN { printf "%.0f", (m > 0 ? r * 1048576 / m : 0) }')
        echo "$name,$t,$wall,$comp,$outp,$vsteps,$mvu,$rss,$bpv,$maxv,$p1,$p2,$p3,$p4,$p5,$p6,$nse" >> "$csv"
    done
}
: > "$out/list.txt"
for n in $SCENARIOS; do
    def=$(scenario_def "$n")
    header=${def%%$'\n'*}
    mapfile -t args < <(printf '%s\n' "$def" | tail -n +2)
    scenario "$n" "$(basename "$header" .h)" "${args[@]}"
done
echo "minimum of $repeats repeats; compute = wall time without frame writing; MVU/s = million vertex updates per second per thread;"
echo "ns_per_edge = the contact phase's time x threads over the listed edges its steps walked (builds included in the time)"
column -s, -t < "$csv" | cut -c1-230
echo "contact list (steps that built it, patched it, reused it):"
sed 's/^/  /' "$out/list.txt"
# what one chemical species on a 201 x 201 grid costs the default growth (params/bench_gradient.h)
awk -F, '$1 == "default" { d[$2] = $4 } $1 == "gradient" { g[$2] = $4 }
         END { for (t = 1; t <= 2; t++) if (d[t] && t in g) printf "gradient / default, %d thread%s: %.2f of the compute time\n", t, (t > 1 ? "s" : ""), g[t] / d[t] }' "$csv"
# the growing tissue (3,000 cells dividing, about 105,000 vertices) against static packings of
# about the same size, per thread: the hex packing (120,000 vertices, cells touching at points)
# and the same tissue without growth (every edge in contact, as in the paper's benchmark)
awk -F, '$1 == "hex2500" { h[$2] = $7 } $1 == "tissue3000" { g[$2] = $7 } $1 == "tissue3000_static" { s[$2] = $7 }
         END { for (t = 1; t <= 2; t++) if (h[t] && s[t] && t in g) printf "growing / static, %d thread%s: %.2f of hex2500, %.2f of tissue3000_static\n",
                                                t, (t > 1 ? "s" : ""), g[t] / h[t], g[t] / s[t] }' "$csv"
# sparse extents: the compute time (the same steps) of the 400-cell packing with a triangle 30,000
# away against the packing alone and against the triangle 50 away (the extent alone), and the
# ring's frames (the wall time outside the steps, halved: input, its check, frames 0 and 1 with
# their checks) and vertex updates per second per thread
awk -F, '$1 == "hex400" { a[$2] = $4 } $1 == "sparse" { f[$2] = $4 } $1 == "sparse_near" { n[$2] = $4 } $1 == "ring" { w[$2] = ($3 - $4) / 2; r[$2] = $7 }
         END { for (t = 1; t <= 2; t++) if (a[t] && n[t] && t in f && t in r) printf "sparse, %d thread%s: %.2f of hex400, %.2f of sparse_near; ring: %.2f s a frame, %.3g M vertex updates/s per thread\n",
                                                t, (t > 1 ? "s" : ""), f[t] / a[t], f[t] / n[t], w[t], r[t] }' "$csv"
