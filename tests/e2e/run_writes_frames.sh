#!/usr/bin/env bash
# run_writes_frames.sh SPHERO SCENE OUT DURATION FRAMES: `sphero run` leaves
# what it promises — the manifest, each field's collection with FRAMES
# frames (`any`: as many as state.pvd, at least two) and their files, energy.csv up to the scene's duration with a
# first law that closes, and the final checkpoint — whatever its summary
# says.
set -euo pipefail
sphero=$1; scene=$2; out=$3; duration=$4; frames=$5
"$sphero" run "$scene" --quiet --overwrite --output "$out" > /dev/null
[ -f "$out/run.sphero" ] || { echo "no run.sphero"; exit 1; }
[ -f "$out/final.ckpt" ] || { echo "no final.ckpt"; exit 1; }
[ -f "$out/state.pvd" ] || { echo "no state.pvd"; exit 1; }
[ -s "$out/shapes.vtu" ] || { echo "no shapes.vtu"; exit 1; }
if [ "$frames" = any ]; then
  frames=$(grep -c '<DataSet' "$out/state.pvd")
  [ "$frames" -ge 2 ] || { echo "state.pvd lists $frames frames"; exit 1; }
fi
for field in state contacts walls contact_points outlines; do
  [ -f "$out/$field.pvd" ] || continue
  listed=$(grep -c '<DataSet' "$out/$field.pvd")
  [ "$listed" -eq "$frames" ] || { echo "$field.pvd lists $listed frames, not $frames"; exit 1; }
  for file in $(grep -o 'file="[^"]*"' "$out/$field.pvd" | cut -d'"' -f2); do
    [ -s "$out/$file" ] || { echo "$field.pvd names $file, which is missing or empty"; exit 1; }
  done
done
# The last row of energy.csv is at the end of the run, and the first law's
# residual is small against the energies involved.
awk -F, -v duration="$duration" '
  function abs(x) { return x < 0 ? -x : x }
  /^#/ { next }
  !header { for (k = 1; k <= NF; ++k) column[$k] = k; header = 1; next }
  !first { first = 1; start = abs($column["mechanical_J"]) }
  { if ($column["deepest_overlap_so_far"] < deepest) { print "deepest_overlap_so_far fell at t = " $column["time_s"]; exit 1 }
    deepest = $column["deepest_overlap_so_far"]
    time = $column["time_s"]; residual = abs($column["first_law_residual_J"])
    scale = start + abs($column["external_work_J"]) + abs($column["damping_dissipation_J"]) + abs($column["sliding_dissipation_J"]) }
  END {
    if (time < 0.98 * duration || time > duration * 1.01) { print "energy.csv ends at t = " time; exit 1 }
    if (residual > 1e-2 * scale + 1e-9) { print "first-law residual " residual " J against " scale " J"; exit 1 }
    if (!(deepest > 0 && deepest < 1)) { print "deepest_overlap_so_far " deepest " at the end, not in (0, 1)"; exit 1 }
  }' "$out/energy.csv"
echo "run files ok"
