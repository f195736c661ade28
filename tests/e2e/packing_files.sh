#!/usr/bin/env bash
# packing_files.sh SPHERO RUN_DIR WORKDIR: `sphero pack` says how to look at
# what it wrote; `sphero figure` draws a packing file and a run's state file
# (grains and walls) by size, by local packing fraction or as outlines, and
# refuses a plot that needs a run with what to use instead; `sphero analyze`
# of a state file finds from the geometry alone the coordination and
# packing fraction that the run's own contacts give.
set -euo pipefail
sphero=$1; run=$2; work=$3
rm -rf "$work"; mkdir -p "$work"; cp -r "$run" "$work/run"; cd "$work"
last=$(( $(grep -c '<DataSet' run/state.pvd) - 1 ))
state=run/state_$(printf '%05d' "$last").vtu
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
"$sphero" analyze "$state" > packing.txt
"$sphero" analyze run --frames "$last:$last" --no-local-packing > /dev/null
from_run=$(grep -v '^#' run/analysis.csv | awk -F, 'NR == 1 { for (k = 1; k <= NF; ++k) c[$k] = k; next } { print $c["coordination"], $c["rattlers"] }')
from_packing=$(sed -n 's/.*coordination \([0-9.]*\) (\([0-9]*\) rattlers.*/\1 \2/p' packing.txt)
awk -v a="$from_run" -v b="$from_packing" 'BEGIN { split(a, x, " "); split(b, y, " ");
  if (x[1] - y[1] > 1e-9 || y[1] - x[1] > 1e-9 || x[2] != y[2]) { print "coordination: run " a ", geometry " b; exit 1 } }'
[ "$(wc -l < "${state%.vtu}-grains.csv")" -eq 21 ] || { echo "grains.csv: not one row per grain"; exit 1; }
if "$sphero" analyze missing.vtu 2> err.txt; then echo "analysed a missing file"; exit 1; fi
grep -q "missing.vtu: no such packing or state file" err.txt || { cat err.txt; exit 1; }
echo "packing files ok"
