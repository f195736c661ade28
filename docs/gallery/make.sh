#!/usr/bin/env bash
# bash docs/gallery/make.sh [WORK]: the figure gallery of docs/ANALYSIS.md, remade
# from three runs — the built-in hopper of cows, the biaxial test of
# data/examples/biaxial-protocol and the periodic shear cell of
# data/examples/shear-band, both reduced — into docs/gallery/*.png (700
# wide), with the runs in WORK (default: a temporary folder, removed
# after). About 20 s on 2 cores. sphero is $SPHERO, else build/sphero.
set -euo pipefail
gallery=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$gallery/../.." && pwd)
sphero=${SPHERO:-$repo/build/sphero}
if [[ -n ${1:-} ]]; then
  work=$1
  mkdir -p "$work"
else
  work=$(mktemp -d)
  trap 'rm -rf "$work"' EXIT
fi
export SPHERO=$sphero

"$sphero" run --output "$work/hopper" --overwrite --quiet
"$repo/data/examples/biaxial-protocol/run.sh" --reduced "$work/biaxial" > "$work/biaxial.log"
"$repo/data/examples/shear-band/run.sh" --reduced "$work/shear" > "$work/shear.log"
hopper=$work/hopper biaxial=$work/biaxial/protocol/run shear=$work/shear/voronoi/shear
# The biaxial stage's frames: from the end of the compress and relax stages
# (400 s each in the reduced example) to the end of unloading.
loading=$(awk -F, '/^[0-9]/ && $2 >= 800 - 1e-6 { print $1 ":"; exit }' "$biaxial/analysis.csv")
[[ -n $loading ]] || { echo "make.sh: $biaxial/analysis.csv has no frame from t = 800 s (the biaxial stage)" >&2; exit 1; }

figure() {  # figure NAME RUN ARGS...: docs/gallery/NAME.png
  local name=$1 run=$2
  shift 2
  "$sphero" figure "$run" --width 700 -o "$gallery/$name.png" "$@"
}
figure hopper-network "$hopper" --plot network --title "Hopper of 200 cows"
figure hopper-packing-map "$hopper" --plot packing-map --title "Hopper of 200 cows"
figure hopper-rose "$hopper" --plot rose --title "Hopper of 200 cows"
figure hopper-energy "$hopper" --plot energy --title "Hopper of 200 cows"
figure hopper-speed "$hopper" --plot field:speed --title "Hopper of 200 cows"
figure biaxial-network "$biaxial" --plot network --title "Biaxial test, 100 disks and pebbles"
figure biaxial-stress-ratio "$biaxial" --plot stress-ratio --frames "$loading" --title "Biaxial test, 100 disks and pebbles"
figure biaxial-volumetric-strain "$biaxial" --plot volumetric-strain --frames "$loading" \
  --title "Biaxial test, 100 disks and pebbles"
figure biaxial-stress-strain "$biaxial" --plot stress-strain --frames "$loading" \
  --title "Biaxial test, 100 disks and pebbles"
figure biaxial-void-ratio "$biaxial" --plot void-ratio --x time --title "Biaxial test, 100 disks and pebbles"
figure shear-network "$shear" --plot network --title "Periodic shear cell, 289 Voronoi grains"
figure shear-velocity "$shear" --plot field:velocity_x --arrows --title "Periodic shear cell, 289 Voronoi grains"
figure shear-rose "$shear" --plot rose --title "Periodic shear cell, 289 Voronoi grains"
figure shear-stress-ratio "$shear" --plot shear-stress-ratio --title "Periodic shear cell, 289 Voronoi grains"
figure shear-dilatancy "$shear" --plot dilatancy --title "Periodic shear cell, 289 Voronoi grains"
echo "gallery: $(ls "$gallery"/*.png | wc -l) figures in $gallery"
