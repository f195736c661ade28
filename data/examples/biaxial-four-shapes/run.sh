#!/usr/bin/env bash
# Packing and biaxial test with disks, rice, peanuts and pebbles: the packing
# fraction after the isotropic stage, sigma_yy and the void ratio against
# axial strain for the four shapes, and the force chains at peak stress.
# See data/examples/README.md and docs/VALIDATION.md.
source "$(dirname "$0")/../common.sh"

p0=0.001  # 0.001 kn
if [[ $REDUCED == 1 ]]; then
  count=100 box=20.5 strain=0.03
else
  count=400 box=41 strain=0.12
fi
# Quasi-static: inertial number I = (strain rate) d sqrt(rho / p0) = 1e-3,
# so the axial strain rate is 1e-3 sqrt(p0) / d with d = 1.
rate=$(awk -v p="$p0" 'BEGIN { printf "%.6g", 1e-3 * sqrt(p) }')
table=$OUT/biaxial.csv
echo "shape,isotropic_packing_fraction,isotropic_void_ratio,peak_sigma_yy,peak_strain,peak_q_over_p,mean_sigma_xx,peak_frame" >"$table"
runs=()
for shape in disk rice peanut pebble; do
  dir=$OUT/$shape
  mkdir -p "$dir"
  sphero pack gas --box "0,0,$box,$box" --shape "$EXAMPLE_DIR/../../shapes/$shape.shape" --count "$count" \
    --packing-fraction 0.3 --spread 0.1 --seed 1 -o "$dir/gas.vtu" >/dev/null
  compress=$(sphero pack compress --packing "$dir/gas.vtu" --pressure "$p0" --kn 1 --kt 0.1 --mu 0.5 -o "$dir/isotropic.vtu")
  echo "$compress" >"$dir/isotropic.txt"
  phi=$(sed -n 's/.*packing fraction \([0-9.]*\).*/\1/p' <<<"$compress")
  # The plates' height apart gives the velocities for the strain rate, and
  # the duration for the strain.
  # The plates are bodies count to count + 3: left, right, bottom, top.
  left=$count right=$((count + 1)) bottom=$((count + 2)) top=$((count + 3))
  read -r velocity duration interval < <(sphero run "$EXAMPLE_DIR/scene.ini" --packing "$dir/isotropic.vtu" \
      --output "$dir/probe" --duration 1e-9 --overwrite --quiet >/dev/null &&
    csv "$dir/probe/energy.csv" "wall${bottom}_y_m" "wall${top}_y_m" | head -1 |
    awk -v rate="$rate" -v strain="$strain" '{ h = $2 - $1; t = strain / rate
      printf "%.6g %.6g %.6g\n", 0.5 * rate * h, t, t / 100 }')
  rm -rf "$dir/probe"
  sphero run "$EXAMPLE_DIR/scene.ini" --packing "$dir/isotropic.vtu" --output "$dir/biaxial" --overwrite --quiet \
    --set_wall "$left pressure=$p0 inward=1,0 span=$bottom,$top material=1" \
    --set_wall "$right pressure=$p0 inward=-1,0 span=$bottom,$top material=1" \
    --set_wall "$bottom velocity=0,$velocity material=1" --set_wall "$top velocity=0,-$velocity material=1" \
    --duration "$duration" --output_interval "$interval" >/dev/null
  sphero analyze "$dir/biaxial" --no-local-packing >/dev/null
  # Peak: the frame of the largest sigma_yy; strain from the sample's height.
  # sigma_xx: its mean over the test (slip events make single frames swing).
  read -r peak peak_strain peak_ratio peak_frame final_sxx e0 < <(
    csv "$dir/biaxial/analysis.csv" frame sigma_yy height_m p q sigma_xx void_ratio |
    awk 'NR == 1 { h0 = $3; e0 = $7 } $2 > best { best = $2; s = 1 - $3 / h0; r = $5 / $4; f = $1 }
         NR > 1 { sxx += $6; ++n }
         END { printf "%.6g %.5f %.4f %d %.6g %.5f\n", best, s, r, f, sxx / n, e0 }')
  echo "$shape,$phi,$e0,$peak,$peak_strain,$peak_ratio,$final_sxx,$peak_frame" >>"$table"
  result "${shape}_isotropic_packing_fraction" "$phi" "after the isotropic compression to p0 = $p0 (pack compress)"
  result "${shape}_peak_sigma_yy" "$peak" "at axial strain $peak_strain, q/p = $peak_ratio (frame $peak_frame)"
  result "${shape}_mean_sigma_xx" "$final_sxx" "lateral stress, mean over the test (the plates keep $p0)"
  sphero figure "$dir/biaxial" --plot network --frame "$peak_frame" --view grains -o "$OUT/force-chains-$shape.png" \
    --title "Biaxial test, $shape, peak stress" >/dev/null
  runs+=("$dir/biaxial")
done
# One curve per shape; the runs are labelled by their directory: name them.
ln -sfn "$OUT/disk/biaxial" "$OUT/disks"
ln -sfn "$OUT/rice/biaxial" "$OUT/rice grains"
ln -sfn "$OUT/peanut/biaxial" "$OUT/peanuts"
ln -sfn "$OUT/pebble/biaxial" "$OUT/pebbles"
for plot in stress-strain void-ratio; do
  sphero figure "$OUT/disks" --compare "$OUT/rice grains" --compare "$OUT/peanuts" --compare "$OUT/pebbles" \
    --plot "$plot" -o "$OUT/$plot.png" --title "Biaxial test, p0 = 0.001 kn"
done

# Checks: the smooth lateral plates hold the sample at p0, so in quasi-static
# equilibrium its mean sigma_xx (Love-Weber over all its contacts, the
# plates' included) is p0 — averaged over the test within 5% for the inertia
# left at I = 1e-3 and the window (the box around the outlines) against the
# plates' span (measured within 3%; single frames swing by up to 20% during
# slip events); axial loading must build
# a deviator: at peak, q/p above 0.1 (a frictional packing's strength,
# sin(phi), is 0.2 to 0.5); isotropic packing fractions of random packings.
while IFS=, read -r shape phi e0 peak strain ratio sxx frame; do
  [[ $shape == shape ]] && continue
  check "$shape: isotropic packing fraction of a random packing" "$phi" ">" 0.75
  check "$shape: isotropic packing fraction below the crystal's" "$phi" "<" 0.95
  check "$shape: sigma_xx held near p0 (upper)" "$sxx" "<" "$(awk -v p=$p0 'BEGIN { print 1.05 * p }')"
  check "$shape: sigma_xx held near p0 (lower)" "$sxx" ">" "$(awk -v p=$p0 'BEGIN { print 0.95 * p }')"
  check "$shape: deviator at peak, q/p" "$ratio" ">" 0.1
done <"$table"
finish
