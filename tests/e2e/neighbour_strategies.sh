#!/usr/bin/env bash
# neighbour_strategies.sh SPHERO SOFT_SCENE RIGID_SCENE WORKDIR: a run whose
# neighbours come from the void-space triangulation writes the same
# energy.csv and the same frames, byte for byte, as with link cells — for
# the soft model and the rigid one — and says how the triangulation fared.
set -euo pipefail
sphero=$1; soft=$2; rigid=$3; work=$4
rm -rf "$work"; mkdir -p "$work"
for scene in "$soft" "$rigid"; do
  name=$(basename "$scene" .ini)
  "$sphero" run "$scene" --quiet --output "$work/$name-cells" > /dev/null
  "$sphero" run "$scene" --quiet --neighbours triangulation --output "$work/$name-triangulation" > "$work/$name.txt"
  grep -q "neighbours: void-space triangulation, [1-9][0-9]* list rebuilds moved it" "$work/$name.txt"
  cmp "$work/$name-cells/energy.csv" "$work/$name-triangulation/energy.csv"
  frames=0
  for frame in "$work/$name-cells"/*.vtu; do
    cmp "$frame" "$work/$name-triangulation/$(basename "$frame")"
    frames=$((frames + 1))
  done
  test "$frames" -gt 10
done
if "$sphero" run "$soft" --check --neighbours grid 2> "$work/error.txt"; then exit 1; fi
grep -q "neighbours: unknown neighbour strategy 'grid': use cells or triangulation" "$work/error.txt"
echo "neighbour strategies: the same energy.csv and frames with link cells and the triangulation, soft and rigid"
