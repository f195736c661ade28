#!/usr/bin/env bash
# packing_figures.sh SPHERO STATE_FILE WORKDIR: `sphero pack` says how to look
# at what it wrote, and `sphero figure` draws a packing file and a run's
# state file (grains and walls) by size, by local packing fraction or as
# outlines; a plot that needs a run is refused with what to use instead.
set -euo pipefail
sphero=$1; state=$2; work=$3
rm -rf "$work"; mkdir -p "$work"; cd "$work"
"$sphero" pack voronoi --box 0,0,10,10 --count 40 --radius 0.05 -o vm.vtu | tee pack.txt > /dev/null
grep -q "look at it: sphero figure vm.vtu" pack.txt || { echo "pack does not say how to look"; cat pack.txt; exit 1; }
"$sphero" figure vm.vtu | grep -q "sizes of vm.vtu, 40 grains, 0 walls -> vm-sizes.png"
"$sphero" figure vm.vtu --plot packing-map -o map.svg > /dev/null
"$sphero" figure vm.vtu --plot network -o outlines.pdf > /dev/null
[ "$(stat -c %s vm-sizes.png)" -gt 5000 ] || { echo "vm-sizes.png is nearly empty"; exit 1; }
grep -q "<svg" map.svg || { echo "map.svg is not an SVG"; exit 1; }
[ "$(head -c 5 outlines.pdf)" = "%PDF-" ] || { echo "outlines.pdf is not a PDF"; exit 1; }
"$sphero" figure "$state" -o state.png | grep -q ", 20 grains, 1 walls -> state.png"
if "$sphero" figure vm.vtu --plot rose 2> err.txt; then echo "accepted --plot rose for a packing"; exit 1; fi
grep -q -- "--plot rose: a packing file has one frame and no contacts; use sizes (the default), packing-map or network" err.txt \
  || { cat err.txt; exit 1; }
echo "packing figures ok"
