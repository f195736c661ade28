#!/usr/bin/env bash
# coarse_grain.sh SPHERO RUN_DIR DATA_DIR WORKDIR: `sphero coarse-grain` on
# a copy of a run writes a field file per frame and their collection, a
# mean, a time-smoothed series, the same files whatever the threads; a new
# coarse-graining replaces the old files, `run --overwrite` removes them; a
# periodic shear cell's grid spans its period; a run without state frames
# is refused with what to do. The numbers are tested in the unit and
# Python tests.
set -euo pipefail
sphero=$1; run=$2; data=$3; work=$4
fail() { echo "FAIL: $*"; exit 1; }
rm -rf "$work"; mkdir -p "$work"; cp -r "$run" "$work/run"; run=$work/run
frames=$(grep -c '<DataSet' "$run/state.pvd")
"$sphero" coarse-grain "$run" --width 0.8 > "$work/out.txt"
grep -q "fields.pvd: .* nodes 0.4 × 0.4 m apart, gaussian kernel of width 0.8 m (reach 2.4 m), frames 0 to" "$work/out.txt" ||
  fail "unexpected summary: $(cat "$work/out.txt")"
[ "$(ls "$run" | grep -c '^fields_[0-9]*\.vti$')" -eq "$frames" ] || fail "not one fields file per frame"
[ "$(grep -c '<DataSet' "$run/fields.pvd")" -eq "$frames" ] || fail "fields.pvd does not list every frame"
# Batches of frames on several threads write the same bytes as one thread.
"$sphero" coarse-grain "$run" --width 0.8 --threads 1 -o "$work/one-thread" > /dev/null
"$sphero" coarse-grain "$run" --width 0.8 --threads 3 -o "$work/three-threads" > /dev/null
for f in "$run"/fields_*.vti; do
  cmp -s "$f" "$work/one-thread/$(basename "$f")" || fail "$(basename "$f") differs between one thread and all cores"
  cmp -s "$f" "$work/three-threads/$(basename "$f")" || fail "$(basename "$f") differs between one thread and three"
done
# Smoothing in time over a width far under the frames' spacing leaves each
# frame alone: the same bytes.
"$sphero" coarse-grain "$run" --width 0.8 --time-width 1e-9 -o "$work/smoothed-alone" > /dev/null
for f in "$run"/fields_*.vti; do
  cmp -s "$f" "$work/smoothed-alone/$(basename "$f")" || fail "$(basename "$f") moved under a vanishing time width"
done
# A frame that fails leaves the earlier fields as they were, and nothing else.
cp -r "$run" "$work/damaged"
last=$(ls "$work/damaged"/state_*.vtu | tail -1)
head -c 300 "$last" > "$last.cut" && mv "$last.cut" "$last"
if "$sphero" coarse-grain "$work/damaged" --width 0.8 --kernel lucy 2> "$work/damaged.txt"; then fail "a damaged frame was coarse-grained"; fi
for f in "$run"/fields_*.vti "$run/fields.pvd"; do
  cmp -s "$f" "$work/damaged/$(basename "$f")" || fail "a failed coarse-graining changed $(basename "$f")"
done
ls -a "$work/damaged" | grep -q '^\.fields' && fail "a failed coarse-graining left its staging folder"
# A mean replaces the series; a smoothed series replaces the mean.
"$sphero" coarse-grain "$run" --width 0.8 --average --frames 1:3 > /dev/null
[ -f "$run/fields_mean.vti" ] && [ -f "$run/fields_mean.pvd" ] || fail "no fields_mean.vti"
ls "$run" | grep -q '^fields_[0-9]' && fail "the earlier series was left beside the mean"
"$sphero" coarse-grain "$run" --width 0.8 --kernel lucy --time-width 0.1 > /dev/null
[ -f "$run/fields_mean.vti" ] && fail "the mean was left beside the smoothed series"
[ "$(ls "$run" | grep -c '^fields_[0-9]*\.vti$')" -eq "$frames" ] || fail "not one smoothed file per frame"
# Field figures, in every format, with arrows and principal directions.
for format in png svg pdf; do
  "$sphero" figure "$run" --plot field:pressure --arrows --principal-directions -o "$work/pressure.$format" > /dev/null
  [ -s "$work/pressure.$format" ] || fail "no field figure in $format"
done
"$sphero" figure "$run" --plot field:speed --frames 1:3 --kernel lucy --kernel-width 1 > /dev/null
[ -s "$run/field-speed.png" ] || fail "no field-speed.png in the run's folder"
# A new run over the folder removes them with the other analysis files.
cat > "$work/again.ini" <<INI
duration = 0.05
output_interval = 0.05
law = 0 0 linear kn=1e5 kt=5e4 mu=0.5 gamma_n=20
wall = radius=0.05 points=0,10;0,0;8,0;8,10
grains = shape=$data/shapes/disk.shape count=6 region=0.5,0.5,7.5,5
INI
"$sphero" run "$work/again.ini" --output "$run" --overwrite --quiet
ls "$run" | grep -q '^fields' && fail "run --overwrite left the fields files"
# A periodic shear cell: the grid spans the period (20 m) in whole cells,
# and the manifest names the cell.
sed -e 's/^duration = .*/duration = 0.02/' -e 's/^output_interval = .*/output_interval = 0.01/' \
  -e "s|shape=../../shapes/|shape=$data/shapes/|" -e '/^output = /d' "$data/examples/shear-band/scene.ini" > "$work/shear.ini"
"$sphero" run "$work/shear.ini" --output "$work/shear" --quiet
grep -q '^periodic = x$' "$work/shear/run.sphero" && grep -q '^cell = 0,-10,20,40$' "$work/shear/run.sphero" ||
  fail "the shear cell's manifest lacks its periodic cell: $(cat "$work/shear/run.sphero")"
"$sphero" coarse-grain "$work/shear" --width 1.1 --cell 0.3 > "$work/shear.txt"
grep -q ": 67 × [0-9]* nodes 0.298507 × 0.3 m apart" "$work/shear.txt" || fail "the grid does not span the period: $(cat "$work/shear.txt")"
echo "coarse-grain ok"
