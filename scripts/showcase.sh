#!/usr/bin/env bash
# A showcase of the paper from one command: builds the program for params/NAME.h in its own
# build folder (./polyhoop is left alone), makes the input, and runs it into outputs/NAME/ with a
# PNG picture of every frame.
#   scripts/showcase.sh NAME [--quick]     (make showcase NAME=foam [QUICK=1])
# NAME: tissue (Fig. 2A), migration (2B), foam (2F), emulsion (2G), hourglass (2H), organ (3).
# --quick runs 10 frames only (a minute or less), to see that it works.
case "${1:-}" in -h|--help|"") sed -n '2,/^[^#]/{/^#/s/^# \{0,1\}//p}' "$0"; [ -n "${1:-}" ]; exit $?;; esac
set -euo pipefail
cd "$(dirname "$0")/.."
name=$1 quick=${2:-}
build=build/showcase/$name
case "$name" in
    tissue)    input=inputs/ensemble.off; extra=(--max-cells 1000 --png-color generation) ;;
    organ)     input=inputs/ensemble.off; extra=(--png-color age) ;;
    foam)      input=inputs/foam.off;     extra=(--png-color area) ;;
    emulsion)  input=inputs/emulsion.off; extra=(--png-color phase) ;;
    hourglass) input=inputs/hourglass.off; extra=(--png-color rigid) ;;
    migration) input=$build/tissue.off;   extra=(--png-color attracted) ;;
    *) echo "showcase: no showcase '$name' (tissue, migration, foam, emulsion, hourglass, organ)" >&2; exit 2 ;;
esac
case "$quick" in "") frames=() ;; --quick) frames=(-n 10) ;; *) echo "showcase: unknown option '$quick' (--quick)" >&2; exit 2 ;; esac
make -s --no-print-directory B="$build" PARAMS="params/$name.h" "$build/polyhoop"
if [ "$name" = migration ] && [ ! -f "$input" ]; then
    python3 scripts/make_tissue.py 1000 "$input.tmp" --seed 1 && mv "$input.tmp" "$input"
fi
mkdir -p outputs
"$build/polyhoop" -q --overwrite -o "outputs/$name" --png "${extra[@]}" "${frames[@]}" "$input"
echo "showcase $name: frames in outputs/$name/ (frames.pvd for ParaView, frame*.png pictures)"
