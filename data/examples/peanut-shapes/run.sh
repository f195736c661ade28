#!/usr/bin/env bash
# What a "peanut" (polyline ⊕ disk) should be: the packing fraction of a
# frictionless isotropic compression against the bend of a 4-vertex
# polyline (straight to strongly bent), against the library's two-lobed
# peanut, and for the four shapes of the published experiments (disks,
# rice, peanuts, pebbles), several samples each, with the shapes drawn.
# See data/examples/README.md and docs/VALIDATION.md.
source "$(dirname "$0")/../common.sh"

p0=0.001  # 0.001 kn, as in the biaxial test
if [[ $REDUCED == 1 ]]; then
  count=100 box=20.5 samples=1 bends="0 0.5"
else
  count=400 box=41 samples=${SAMPLES:-4} bends="0 0.125 0.25 0.375 0.5"
fi
SHAPES=$EXAMPLE_DIR/../../shapes
mkdir -p "$OUT/shapes"
# A rod bent by h: the polyline (-0.6, -h), (-0.2, 0), (0.2, 0), (0.6, -h)
# swept by a disk of radius 0.2 (h = 0.25 is data/shapes/bent-rod.shape);
# straight (h = 0), the segment from (-0.6, 0) to (0.6, 0).
for h in $bends; do
  if [[ $h == 0 ]]; then
    printf '%s\n' "# A straight rod" "sphero-shape 1" "name bent-0" "kind segment" "radius 0.2" "vertices 2" \
      "-0.6 0" "0.6 0" >"$OUT/shapes/bent-0.shape"
    continue
  fi
  cat >"$OUT/shapes/bent-$h.shape" <<SHAPE
# A rod of three segments whose ends drop by $h
sphero-shape 1
name bent-$h
kind polyline
radius 0.2
vertices 4
-0.6 -$h
-0.2 0
0.2 0
0.6 -$h
SHAPE
done
for shape in disk rice peanut pebble; do cp "$SHAPES/$shape.shape" "$OUT/shapes/$shape.shape"; done

# compress_case SHAPE SEED DIR: a gas of the shape (areas spread by 10%)
# compressed isotropically without friction to p0; DIR/phi: its packing
# fraction.
compress_case() {
  local shape=$1 seed=$2 dir=$3
  sphero pack gas --box "0,0,$box,$box" --shape "$OUT/shapes/$shape.shape" --count "$count" \
    --packing-fraction 0.3 --spread 0.1 --seed "$seed" -o "$dir/gas.vtu"
  sphero pack compress --packing "$dir/gas.vtu" --pressure "$p0" --kn 1 -o "$dir/isotropic.vtu" | tee "$dir/compress.txt"
  sed -n 's/.*packing fraction \([0-9.]*\).*/\1/p' "$dir/compress.txt" >"$dir/phi"
  [[ -s $dir/phi ]]
}

studied="$(for h in $bends; do printf 'bent-%s ' "$h"; done)disk rice peanut pebble"
for shape in $studied; do
  for seed in $(seeds "$samples"); do run_case "$shape/seed-$seed" compress_case "$shape" "$seed"; done
done
cases_finished

# phi_of SHAPE: "mean spread n" over its samples.
phi_of() { stats $(cat "$OUT/$1"/seed-*/phi); }
table=$OUT/packing-fractions.csv
echo "shape,bend,packing_fraction,spread,samples" >"$table"
for shape in $studied; do
  read -r mean spread n <<<"$(phi_of "$shape")"
  bend=${shape#bent-}
  [[ $shape == bent-* ]] || bend=""
  echo "$shape,$bend,$mean,$spread,$n" >>"$table"
  result "${shape}_packing_fraction" "$mean" "frictionless isotropic compression to p0 = $p0 kn: mean of $n samples, spread $spread"
done
# The shapes, one grain each.
for shape in $studied; do
  sphero pack lattice --shape "$OUT/shapes/$shape.shape" --columns 1 --rows 1 --spacing 2 -o "$OUT/shapes/$shape.vtu"
  sphero figure "$OUT/shapes/$shape.vtu" --plot network --width 300 -o "$OUT/shape-$shape.png" --title "$shape"
  page_figure "$OUT/shape-$shape.png" "$shape"
done
awk -F, 'NR == 1 || $2 != ""' "$table" >"$OUT/bend.csv"
sphero plot "$OUT/bend.csv" --x bend --y packing_fraction --style markers \
  --x-label "bend h: the polyline's ends drop by h (segments 0.4 long, r = 0.2)" \
  --y-label "packing fraction, frictionless, p0 = $p0 kn" \
  --title "Bent rods: packing fraction against the bend ($samples samples per point)" -o "$OUT/bend.png"
page_figure "$OUT/bend.png" bend
{
  echo "| polyline | drawn | packing fraction (mean ± spread) | samples |"
  echo "| --- | --- | --- | --- |"
  for h in $bends; do
    read -r mean spread n <<<"$(phi_of "bent-$h")"
    echo "| bent rod, h = $h | ![](images/validation/peanut-shapes-bent-$h.png) | $(printf '%.4f ± %.4f' "$mean" "$spread") | $n |"
  done
  read -r mean spread n <<<"$(phi_of peanut)"
  echo "| two-lobed (the library's peanut) | ![](images/validation/peanut-shapes-peanut.png) | $(printf '%.4f ± %.4f' "$mean" "$spread") | $n |"
} | page_table bend
{
  echo "| shape | drawn | packing fraction (mean ± spread) | samples |"
  echo "| --- | --- | --- | --- |"
  for shape in disk rice peanut pebble; do
    read -r mean spread n <<<"$(phi_of "$shape")"
    echo "| $shape | ![](images/validation/peanut-shapes-$shape.png) | $(printf '%.4f ± %.4f' "$mean" "$spread") | $n |"
  done
} | page_table four-shapes

{
  printf '| packing fraction, frictionless isotropic compression, %s samples | ' "$samples"
  for shape in disk rice peanut pebble; do
    read -r mean spread _ <<<"$(phi_of "$shape")"
    printf '%s%s %.3f ± %.3f' "$([[ $shape == disk ]] || echo "; ")" "$shape" "$mean" "$spread"
  done
  read -r straight _ <<<"$(phi_of "bent-${bends%% *}")"
  read -r bent _ <<<"$(phi_of "bent-${bends##* }")"
  printf '; rods from %.3f (straight) to %.3f (bent by %s)' "$straight" "$bent" "${bends##* }"
  echo " | disks near random close packing (about 0.84 in 2D) |"
} | page_table summary

# Random packings of these grains, frictionless: well above the gas they
# come from (0.3; strongly bent rods interlock loosely, near 0.74, and a
# sample that did not compress stays far below) and below the crystal's
# 0.907 for disks (elongated grains reach 0.9).
for shape in $studied; do
  read -r mean _ <<<"$(phi_of "$shape")"
  check "$shape: compressed from the gas at 0.3 (mean packing fraction)" "$mean" ">" 0.6
  check "$shape: below a crystal's packing" "$mean" "<" 0.95
done
finish
