#!/usr/bin/env bash
# The frames of every parameter header in params/, hashed, to show that a change of the code left
# the results as they were: one line per header and file, "sha256  NAME/FILE". Each header is
# built in build/hash/NAME/ (the Makefile's rules) and run on one thread, ASCII frames, on its
# showcase's input (scripts/showcase.sh --input-only) or else inputs/ensemble.off (hex: 100 cells
# of scripts/make_hex.py). The frames' version and input comment lines, which name the revision
# and the folder, are left out of the hashes; the observables and events are hashed too.
#   scripts/frame_hashes.sh [-n FRAMES] [NAME...] > hashes.txt     (default: 2 frames, every header)
#   diff old.txt new.txt
case "${1:-}" in -h|--help) sed -n '2,/^[^#]/{/^#/s/^# \{0,1\}//p}' "$0"; exit 0;; esac
set -euo pipefail
cd "$(dirname "$0")/.."
frames=2
[ "${1:-}" != -n ] || { frames=$2; shift 2; }
names=${*:-$(cd params && ls *.h | sed 's/\.h$//')}
for name in $names; do
    [ -f "params/$name.h" ] || { echo "frame_hashes: no params/$name.h" >&2; exit 2; }
    b=build/hash/$name
    make -s --no-print-directory B="$b" PARAMS="params/$name.h" "$b/polyhoop" >&2
    vel=()
    case "$name" in
        default|bench_gradient|population|scale) input=inputs/ensemble.off ;;
        hex) input=$b/hex100.off; [ -f "$input" ] || python3 scripts/make_hex.py 100 "$input" > /dev/null ;;
        *) { read -r input; read -r v || true; } < <(scripts/showcase.sh "$name" --input-only)
           [ -z "${v:-}" ] || vel=(--velocities "$v"); v= ;;
    esac
    rm -rf "$b/out"
    OMP_NUM_THREADS=1 "$b/polyhoop" -q -j 1 --ascii -n "$frames" -o "$b/out" "${vel[@]}" "$input" >&2
    for f in "$b"/out/frame*.vtp "$b"/out/*.vti "$b"/out/observables.csv "$b"/out/events.csv; do
        [ -e "$f" ] || continue
        printf '%s  %s/%s\n' "$(grep -v -e '<!-- polyhoop' -e 'input:' "$f" | sha256sum | cut -c1-64)" "$name" "${f##*/}"
    done
done
