#!/usr/bin/env bash
# A showcase of the paper from one command: builds the program for params/NAME.h in its own
# build folder build/showcase/NAME/ (./polyhoop is left alone), makes the input, and runs it into
# outputs/NAME/ with a PNG picture of every frame.
#   scripts/showcase.sh NAME [--quick] [--out DIR] [-- POLYHOOP-OPTIONS...]
#                                         (make showcase NAME=foam [QUICK=1])
#   scripts/showcase.sh --list            the names, one a line
#   scripts/showcase.sh NAME --input-only makes NAME's input (if it is generated) and prints its
#                                         path, and on a second line its velocities file if it
#                                         has one; builds and runs nothing (scripts/sweep.py)
# NAME: tissue (Fig. 2A), migration (2B), vesicles (2C), floppy (2D), rubber_bands (2E),
# foam (2F), emulsion (2G), hourglass (2H), organ (3), hex_packing (4C/D); projectiles (a jet of
# particles shot at a cell, after Campello & Zohdi 2014; docs/model.md 5.2); gradient (a
# morphogen made by a strip of source cells and degraded, decaying as exp(-x / sqrt(D/k));
# docs/model.md 11), chemotaxis (cells drifting up an attractant's gradient at chi |grad c| / cv),
# sorting (two cell types that adhere only to their own kind gather into domains), turing
# (Schnakenberg's activator and inhibitor form spots of the wavelength of the fastest growing mode
# on a static tissue, read by the cells as their type; docs/model.md 11.1), nutrient (a colony
# that takes up a nutrient supplied from the sides grows at its rim only; docs/model.md 11.2).
# --quick runs 10 frames only (a minute or two), to see that it works; --out DIR writes there
# instead of outputs/NAME/; options after -- go to polyhoop (e.g. -n 2 -s 20 --check).
names="tissue migration vesicles floppy rubber_bands foam emulsion hourglass organ hex_packing projectiles gradient chemotaxis sorting turing nutrient"
case "${1:-}" in
    -h|--help|"") sed -n '2,/^[^#]/{/^#/s/^# \{0,1\}//p}' "$0"; [ -n "${1:-}" ]; exit $?;;
    --list) printf '%s\n' $names; exit 0;;
esac
set -euo pipefail
cd "$(dirname "$0")/.."
name=$1; shift
build=build/showcase/$name
out=outputs/$name
frames=()
input_only=0
while [ $# -gt 0 ]; do
    case "$1" in
        --quick) frames=(-n 10) ;;
        --input-only) input_only=1 ;;
        --out) [ $# -ge 2 ] || { echo "showcase: --out needs a folder" >&2; exit 2; }; out=$2; shift ;;
        --) shift; break ;;
        *) echo "showcase: unknown option '$1' (--quick, --out DIR, --input-only, -- POLYHOOP-OPTIONS)" >&2; exit 2 ;;
    esac
    shift
done
# the input (made into the build folder when it is generated), its initial velocities if any,
# and how to colour the pictures
vel=
case "$name" in
    tissue)       input=inputs/ensemble.off;  extra=(--max-cells 1000 --png-color generation) ;;
    migration)    input=$build/tissue.off;    extra=(--png-color attracted) ;;
    vesicles)     input=$build/vesicles.off;  extra=(--png-color phase) ;;
    floppy)       input=$build/floppy.off;    extra=(--png-color area) ;;
    rubber_bands) input=$build/rubber_bands.off; extra=(--png-color area) ;;
    foam)         input=inputs/foam.off;      extra=(--png-color area) ;;
    emulsion)     input=inputs/emulsion.off;  extra=(--png-color phase) ;;
    hourglass)    input=inputs/hourglass.off; extra=(--png-color rigid) ;;
    organ)        input=inputs/ensemble.off;  extra=(--max-cells 10000 --png-color age) ;;
    hex_packing)  input=$build/hex_packing.off; extra=(--png-color neighbors) ;;
    gradient)     input=$build/gradient.off;  extra=(--png-field morphogen) ;;
    sorting)      input=$build/sorting.off;   extra=(--png-color type) ;;
    turing)       input=$build/turing.off;    extra=(--png-color type) ;;
    nutrient)     input=inputs/ensemble.off;  extra=(--png-color type --png-view -12,-12,12,12) ;;
    chemotaxis)   input=$build/chemotaxis.off; extra=(--png-field attractant --png-view -0.5,-0.5,20.5,6.5) ;;
    projectiles)  input=$build/projectiles.off; vel=$build/projectiles.vel
                  extra=(--png-color velocity --png-view -2.2,-1.4,1.4,1.4 --velocities "$vel") ;;
    *) echo "showcase: no showcase '$name' ($names)" >&2; exit 2 ;;
esac
# the one fact each run shows, said when it ends
case "$name" in
    tissue)       fact="one cell grows into a tissue; its cells divide along their short axis (colour: generation)" ;;
    migration)    fact="20 cells pulled by the attractor squeeze through the confluent tissue (colour: attracted)" ;;
    vesicles)     fact="rings of 16 cells settle into rectangles around their lumens and stick (colour: phase)" ;;
    floppy)       fact="particles with excess perimeter fold into puzzle shapes (colour: area)" ;;
    rubber_bands) fact="100 elastic rings fall into the box and pack (colour: area)" ;;
    foam)         fact="150 bubbles settle under gravity into a wet foam (colour: area)" ;;
    emulsion)     fact="drops of two phases pass each other, fuse and nest (colour: phase)" ;;
    hourglass)    fact="frictional particles flow through the neck (colour: rigid walls)" ;;
    organ)        fact="growth to 10,000 cells, the oldest in the middle (colour: age)" ;;
    hex_packing)  fact="400 cells pressed into hexagons: six neighbours each inside (colour: neighbors)" ;;
    projectiles)  fact="fast particles pass the cell's membrane, slow ones bounce off (colour: speed)" ;;
    gradient)     fact="the morphogen decays into the tissue as exp(-x / lambda), lambda = sqrt(D/k) = 3 (background: morphogen)" ;;
    sorting)      fact="cells of two types that adhere to their own kind gather into domains (colour: type; homotypic in observables.csv)" ;;
    turing)       fact="activator-inhibitor spots at the wavelength of the linear stability analysis, 1.50 (colour: type = activator high)" ;;
    nutrient)     fact="the colony grows at its rim, where the nutrient reaches; its core starves (colour: type)" ;;
    chemotaxis)   fact="cells drift up the attractant's gradient at chi |grad c| / cv = 0.025 (background: attractant)" ;;
esac
if [ "$input_only" = 0 ]; then
    echo "showcase $name: building $build/polyhoop (params/$name.h)"
    make -s --no-print-directory B="$build" PARAMS="params/$name.h" "$build/polyhoop"
fi
# a generated input is made again when a generator is newer than it
mkdir -p "$build"
stale=0
for script in scripts/make_*.py; do [ "$input" -nt "$script" ] || stale=1; done
if [[ "$input" == "$build"/* ]] && [ "$stale" = 1 ]; then
    case "$name" in
        migration) python3 scripts/make_tissue.py 1000 "$input.tmp" --seed 1 --wall > /dev/null ;;
        *) mkdir -p "$build/gen" && python3 scripts/make_inputs.py --dir "$build/gen" "$name" > /dev/null &&
           { [ ! -e "$build/gen/$name.vel" ] || mv "$build/gen/$name.vel" "$build/$name.vel"; } &&
           mv "$build/gen/$name.off" "$input.tmp" ;;
    esac
    mv "$input.tmp" "$input"
fi
if [ "$input_only" = 1 ]; then
    echo "$input"
    [ -z "$vel" ] || echo "$vel"
    exit 0
fi
mkdir -p "$(dirname "$out")"
echo "showcase $name: running into $out/ (a line per frame; -- -q: none)"
# the program's status line per frame and its closing lines (not the banner of every parameter);
# the filter ignores SIGINT and SIGTERM, so that a run stopped by them still writes its checkpoint
# and says so
"$build/polyhoop" --overwrite -o "$out" --png "${extra[@]}" "${frames[@]}" "$@" "$input" |
    { trap '' INT TERM; grep --line-buffered -E '^(frame |done:|stopped|events:)' || true; }
last=$(ls "$out"/frame*.png 2> /dev/null | tail -n 1)
echo "showcase $name: frames in $out/ (frames.pvd for ParaView), pictures $out/frame*.png${last:+ (the last: $last)}"
echo "  it shows: $fact"
