#!/usr/bin/env bash
# Packing and biaxial test with disks, rice, peanuts and pebbles, several
# samples (seeds) of each: the packing fraction after the isotropic stage,
# the peak and critical-state stress ratios (mean and spread), sigma_yy and
# the void ratio against axial strain, and the force chains at peak stress.
# See data/examples/README.md and docs/VALIDATION.md.
source "$(dirname "$0")/../common.sh"

p0=0.001  # 0.001 kn
shapes="disk rice peanut pebble"
if [[ $REDUCED == 1 ]]; then
  count=100 box=20.5 strain=0.03 samples=1
else
  count=400 box=41 strain=0.12 samples=${SAMPLES:-4}
fi
# Quasi-static: inertial number I = (strain rate) d sqrt(rho / p0) = 1e-3,
# so the axial strain rate is 1e-3 sqrt(p0) / d with d = 1.
rate=$(awk -v p="$p0" 'BEGIN { printf "%.6g", 1e-3 * sqrt(p) }')

# biaxial_case SHAPE SEED DIR: the gas, its isotropic compression to p0,
# the biaxial test; DIR/measured: "phi e0 peak_sigma_yy peak_strain
# peak_q_over_p mean_sigma_xx peak_frame critical_q_over_p", the critical
# state's q/p being its mean over the last third of the axial strain.
biaxial_case() {
  local shape=$1 seed=$2 dir=$3 compress phi velocity duration interval
  sphero pack gas --box "0,0,$box,$box" --shape "$EXAMPLE_DIR/../../shapes/$shape.shape" --count "$count" \
    --packing-fraction 0.3 --spread 0.1 --seed "$seed" -o "$dir/gas.vtu"
  compress=$(sphero pack compress --packing "$dir/gas.vtu" --pressure "$p0" --kn 1 --kt 0.1 --mu 0.5 -o "$dir/isotropic.vtu")
  echo "$compress" >"$dir/isotropic.txt"
  phi=$(sed -n 's/.*packing fraction \([0-9.]*\).*/\1/p' <<<"$compress")
  # The plates' height apart gives the velocities for the strain rate, and
  # the duration for the strain. The packing names its plates left, right,
  # bottom and top.
  sphero run "$EXAMPLE_DIR/scene.ini" --packing "$dir/isotropic.vtu" --output "$dir/probe" --duration 1e-9 \
    --overwrite --quiet
  read -r velocity duration interval < <(csv "$dir/probe/energy.csv" bottom_y_m top_y_m | head -1 |
    awk -v rate="$rate" -v strain="$strain" '{ h = $2 - $1; t = strain / rate
      printf "%.6g %.6g %.6g\n", 0.5 * rate * h, t, t / 100 }')
  rm -rf "$dir/probe"
  sphero run "$EXAMPLE_DIR/scene.ini" --packing "$dir/isotropic.vtu" --output "$dir/biaxial" --overwrite --quiet \
    --set_wall "left pressure=$p0 inward=1,0 span=bottom,top material=1" \
    --set_wall "right pressure=$p0 inward=-1,0 span=bottom,top material=1" \
    --set_wall "bottom velocity=0,$velocity material=1" --set_wall "top velocity=0,-$velocity material=1" \
    --duration "$duration" --output_interval "$interval"
  sphero analyze "$dir/biaxial" --no-local-packing
  # Peak: the frame of the largest sigma_yy; strain from the sample's height.
  # sigma_xx: its mean over the test (slip events make single frames swing).
  csv "$dir/biaxial/analysis.csv" frame sigma_yy height_m p q sigma_xx void_ratio |
    awk -v phi="$phi" -v strain="$strain" '
      NR == 1 { h0 = $3; e0 = $7 }
      $2 > best { best = $2; s = 1 - $3 / h0; r = $5 / $4; f = $1 }
      NR > 1 { sxx += $6; ++n }
      1 - $3 / h0 >= 2 * strain / 3 { critical += $5 / $4; ++late }
      END { printf "%s %.5f %.6g %.5f %.4f %.6g %d %.4f\n", phi, e0, best, s, r, sxx / n, f, critical / late }' \
    >"$dir/measured"
}

for shape in $shapes; do
  for seed in $(seeds "$samples"); do run_case "$shape/seed-$seed" biaxial_case "$shape" "$seed"; done
done
cases_finished

# shape_stats SHAPE COLUMN: "mean spread n" of a measured column over the samples.
shape_stats() { stats $(for seed in $(seeds "$samples"); do awk -v c="$2" '{ print $c }' "$OUT/$1/seed-$seed/measured"; done); }
table=$OUT/biaxial.csv
echo "shape,seed,isotropic_packing_fraction,isotropic_void_ratio,peak_sigma_yy,peak_strain,peak_q_over_p,mean_sigma_xx,peak_frame,critical_q_over_p" >"$table"
for shape in $shapes; do
  for seed in $(seeds "$samples"); do
    echo "$shape,$seed,$(tr ' ' , <"$OUT/$shape/seed-$seed/measured")" >>"$table"
  done
  for column in "1 isotropic_packing_fraction after the isotropic compression to p0 = $p0 (pack compress)" \
    "5 peak_q_over_p q/p at the peak of sigma_yy" "8 critical_q_over_p q/p averaged over the last third of the axial strain" \
    "3 peak_sigma_yy the largest sigma_yy" "6 mean_sigma_xx lateral stress, mean over the test (the plates keep $p0)"; do
    read -r k name description <<<"$column"
    read -r mean spread n <<<"$(shape_stats "$shape" "$k")"
    result "${shape}_$name" "$mean" "$description; mean of $n samples, spread $spread"
  done
done
# The curves and force chains of the first sample of each shape.
for shape in $shapes; do
  frame=$(awk '{ print $7 }' "$OUT/$shape/seed-1/measured")
  sphero figure "$OUT/$shape/seed-1/biaxial" --plot network --frame "$frame" --view grains \
    -o "$OUT/force-chains-$shape.png" --title "Biaxial test, $shape, peak stress"
done
# One curve per shape; the runs are labelled by their directory: name them.
ln -sfn "$OUT/disk/seed-1/biaxial" "$OUT/disks"
ln -sfn "$OUT/rice/seed-1/biaxial" "$OUT/rice grains"
ln -sfn "$OUT/peanut/seed-1/biaxial" "$OUT/peanuts"
ln -sfn "$OUT/pebble/seed-1/biaxial" "$OUT/pebbles"
for plot in stress-strain void-ratio; do
  sphero figure "$OUT/disks" --compare "$OUT/rice grains" --compare "$OUT/peanuts" --compare "$OUT/pebbles" \
    --plot "$plot" -o "$OUT/$plot.png" --title "Biaxial test, p0 = 0.001 kn, one sample of each shape"
  page_figure "$OUT/$plot.png" "$plot"
done
page_figure "$OUT/force-chains-peanut.png" force-chains-peanut
page_figure "$OUT/force-chains-disk.png" force-chains-disk
{
  echo "| shape | φ after isotropic compression | peak σ_yy / p₀ | axial strain at peak | q/p at peak | q/p, critical state | mean σ_xx / p₀ |"
  echo "| --- | --- | --- | --- | --- | --- | --- |"
  for shape in $shapes; do
    cell() { shape_stats "$shape" "$1" | awk -v scale="$2" -v f="$3" '{ printf f " ± " f, $1 * scale, $2 * scale }'; }
    echo "| $shape | **$(cell 1 1 %.3f)** | $(cell 3 1000 %.2f) | $(cell 4 100 %.1f)% | $(cell 5 1 %.2f) | $(cell 8 1 %.2f) | $(cell 6 1000 %.4f) |"
  done
} | page_table results
{
  printf '| biaxial test, %s samples per shape | q/p at peak: ' "$samples"
  for shape in $shapes; do printf '%s%s %s' "$([[ $shape == disk ]] || echo ", ")" "$shape" "$(shape_stats "$shape" 5 | awk '{ printf "%.2f ± %.2f", $1, $2 }')"; done
  printf '; critical state: '
  for shape in $shapes; do printf '%s%s %s' "$([[ $shape == disk ]] || echo ", ")" "$shape" "$(shape_stats "$shape" 8 | awk '{ printf "%.2f ± %.2f", $1, $2 }')"; done
  echo " | non-circular grains stronger than disks at the same friction; σ_xx held at p₀ |"
} | page_table summary

# Checks: the smooth lateral plates hold the sample at p0, so in quasi-static
# equilibrium its mean sigma_xx (Love-Weber over all its contacts, the
# plates' included) is p0 — averaged over the test within 5% for the inertia
# left at I = 1e-3 and the window (the box around the outlines) against the
# plates' span (measured within 3%; single frames swing by up to 20% during
# slip events); axial loading must build
# a deviator: at peak, q/p above 0.1 (a frictional packing's strength,
# sin(phi), is 0.2 to 0.5); isotropic packing fractions of random packings.
while IFS=, read -r shape seed phi e0 peak strain ratio sxx frame critical; do
  [[ $shape == shape ]] && continue
  check "$shape, sample $seed: isotropic packing fraction of a random packing" "$phi" ">" 0.7
  check "$shape, sample $seed: isotropic packing fraction below the crystal's" "$phi" "<" 0.95
  check "$shape, sample $seed: sigma_xx held near p0 (upper)" "$sxx" "<" "$(awk -v p=$p0 'BEGIN { print 1.05 * p }')"
  check "$shape, sample $seed: sigma_xx held near p0 (lower)" "$sxx" ">" "$(awk -v p=$p0 'BEGIN { print 0.95 * p }')"
  check "$shape, sample $seed: deviator at peak, q/p" "$ratio" ">" 0.1
done <"$table"
finish
