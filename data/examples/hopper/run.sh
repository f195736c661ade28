#!/usr/bin/env bash
# Hopper flow: 400 cows and 400 disks of equal area discharged through
# apertures of 15 to 40 m, 8 realisations each (random filling): the
# fraction that jams within 8 s, the time to jam, the discharged mass, and
# snapshots 10 s after opening. SHAPES="cows", APERTURES="10 15" and
# REALISATIONS=N pick others. See data/examples/README.md and docs/VALIDATION.md.
source "$(dirname "$0")/../common.sh"

if [[ $REDUCED == 1 ]]; then
  # 100 disks: an aperture of about 2 diameters (2.9 m) must jam, one of 10 must empty the hopper.
  shapes="disks" apertures="6 30" realisations=1 count=100 region=2,62,98,90 fill=6 within=6
else
  shapes=${SHAPES:-"cows disks"} apertures=${APERTURES:-"15 20 25 30 35 40"} realisations=${REALISATIONS:-8}
  count=400 region=2,62,98,170 fill=10 within=8
fi
# A flow is jammed when grains remain above the aperture and none has left
# for 2 s: the run goes on 2 s beyond the time within which a jam counts.
open=$((within + 2))
grain_mass=6.56059  # kg per unit thickness: a cow's area (and the disks') at density 1
declare -A grain_length=([cows]=3.1 [disks]=2.8902)  # m: the cow's length, the disk's diameter

# hopper_case SHAPE APERTURE SEED DIR: fill the closed hopper from random
# places (the seed's), let it settle, open it, and write DIR/outcome:
# "grains_left jammed time_to_jam time_emptied", grains left at $within s,
# and whether the flow stopped by then for good ('-' where it does not apply).
hopper_case() {
  local shape=$1 a=$2 seed=$3 dir=$4
  local shape_file=$EXAMPLE_DIR/../../shapes/cow.shape
  [[ $shape == disks ]] && shape_file=$EXAMPLE_DIR/disk-cow-area.shape
  # The aperture between x = 50 -+ a/2 at y = 20; the gate overlaps both sides.
  awk -v a="$a" -v shape="$shape_file" -v n="$count" -v region="$region" -v fill="$fill" '
    /^wall = radius=0.2 points=0,140;0,60;35,20/ { $0 = "wall = radius=0.2 points=0,140;0,60;" 50 - a / 2 ",20" }
    /^wall = radius=0.2 points=65,20;100,60;100,140/ { $0 = "wall = radius=0.2 points=" 50 + a / 2 ",20;100,60;100,140" }
    /^wall = radius=0.2 points=33,19.6;67,19.6/ { $0 = "wall = radius=0.2 points=" 48 - a / 2 ",19.6;" 52 + a / 2 ",19.6" }
    /^grains = / { $0 = "grains = shape=" shape " count=" n " generator=random region=" region }
    /^duration = / { $0 = "duration = " fill }
    { print }' "$EXAMPLE_DIR/scene.ini" >"$dir/fill.ini"
  sphero run "$dir/fill.ini" --seed "$seed" --output "$dir/fill" --overwrite --quiet --fields state \
    --output_interval "$fill"
  local rested
  rested=$(ls "$dir"/fill/state_*.vtu | tail -1)
  # Opened: the rested hopper (its state holds the walls as bodies 0 to 3
  # and the grains) without the gate, body 2.
  sed '/^wall = /d; /^grains = /d' "$dir/fill.ini" >"$dir/open.ini"
  sphero run "$dir/open.ini" --output "$dir/open" --overwrite --quiet --duration "$open" --output_interval 0.1 \
    --packing "$rested" --set_wall "2 remove"
  # Grains still in the hopper (centre above the aperture's height), per frame.
  sphero analyze "$dir/open" --window -1000,20,1000,1000 --no-local-packing
  csv "$dir/open/analysis.csv" time_s particles | awk -v within="$within" '
    { t[NR] = $1; n[NR] = $2; if ($1 <= within + 1e-6) left = $2 }
    END {
      last = n[NR]; since = t[NR]
      for (k = NR; k > 1 && n[k - 1] == last; --k) since = t[k - 1]
      jam = last > 0 && since <= within + 1e-6 && t[NR] - since >= 2.0 - 1e-6
      printf "%d %s %s %s\n", left, jam ? "yes" : "no", jam ? sprintf("%.1f", since) : "-",
             last == 0 && since <= within + 1e-6 ? sprintf("%.1f", since) : "-" }' >"$dir/outcome"
  sphero figure "$dir/open" --plot network --frame last -o "$dir/snapshot.png" \
    --title "Hopper, $shape, aperture $a m, $open s after opening (seed $seed)"
  # The outcome and the snapshot are what the summary reads: the frames go.
  rm -rf "$dir/open" "$dir/fill"
}

for shape in $shapes; do
  for a in $apertures; do
    for seed in $(seeds "$realisations"); do
      run_case "$shape-$a/seed-$seed" hopper_case "$shape" "$a" "$seed"
    done
  done
done
cases_finished

# Per shape and aperture: the realisations that jammed, with a 95% Wilson
# interval on the probability, the mean time to jam over those that did,
# and the discharged mass (mean and sample spread over all realisations).
table=$OUT/hopper.csv
echo "shape,aperture_m,aperture_over_length,realisations,jammed,jam_probability,probability_low,probability_high,mean_time_to_jam_s,discharged_mass_kg,discharged_mass_spread_kg" >"$table"
for shape in $shapes; do
  for a in $apertures; do
    cat "$OUT/$shape-$a"/seed-*/outcome |
      awk -v shape="$shape" -v a="$a" -v n0="$count" -v m="$grain_mass" -v len="${grain_length[$shape]}" '
        { ++n; out = n0 - $1; s += out; ss += out * out; if ($2 == "yes") { ++j; tj += $3 } }
        END { p = j / n; z = 1.96; d = 1 + z * z / n; c = (p + z * z / (2 * n)) / d
              h = z * sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
              mean = s / n; sd = n > 1 ? sqrt((ss - n * mean * mean) / (n - 1)) : 0
              low = c - h; high = c + h; if (low < 0) low = 0; if (high > 1) high = 1
              printf "%s,%s,%.2f,%d,%d,%.3f,%.3f,%.3f,%s,%.0f,%.0f\n", shape, a, a / len, n, j, p, low, high,
                     (j ? sprintf("%.2f", tj / j) : "-"), mean * m, sd * m }' >>"$table"
  done
done
while IFS=, read -r shape a ratio n jammed p low high tjam mass spread; do
  [[ $shape == shape ]] && continue
  result "${shape}_${a}m_jammed" "$jammed/$n" "realisations that jammed within $within s (probability $p, 95% interval $low-$high); mean time to jam $tjam s; discharged mass at $within s $mass ± $spread kg"
done <"$table"

if [[ $REDUCED == 1 ]]; then
  # The reduced test's physics: an aperture of 2 grain diameters arches and
  # jams (disks jam with certainty below about 3 diameters); one of 10
  # diameters lets the whole hopper flow out within 6 s (a column of
  # grains empties at Beverloo's rate, about 20 grains per second here).
  read -r left jammed _ < "$OUT/disks-6/seed-1/outcome"
  check "disks, aperture 6 m (2 diameters): grains left in a jammed hopper" "$left" ">" 0
  check "disks, aperture 6 m (2 diameters): the flow stopped for good" "$([[ $jammed == yes ]] && echo 1 || echo 0)" "==" 1
  read -r left _ < "$OUT/disks-30/seed-1/outcome"
  check "disks, aperture 30 m (10 diameters): the hopper emptied" "$left" "==" 0
fi

sphero plot "$table" --x aperture_over_length --y jam_probability --by shape --style markers \
  --x-label "aperture / grain length (cow length 3.1 m, disk diameter 2.89 m)" \
  --y-label "fraction of realisations jammed within $within s" \
  --title "Hopper: jamming probability, $realisations realisations per point" -o "$OUT/jamming-probability.png"
page_figure "$OUT/jamming-probability.png" jamming-probability
{
  echo "| aperture | shape | jammed within $within s | 95% interval | mean time to jam | discharged mass at $within s (kg) |"
  echo "| --- | --- | --- | --- | --- | --- |"
  while IFS=, read -r shape a ratio n jammed p low high tjam mass spread; do
    [[ $shape == shape ]] && continue
    echo "| $a m ($ratio lengths) | $shape | $jammed of $n | $low–$high | $([[ $tjam == - ]] && echo – || echo "$tjam s") | $mass ± $spread |"
  done < <(sort -t, -k2,2n -k1,1 "$table")
} | page_table jamming
{
  printf '| hopper, %s realisations per aperture | jammed within %s s: ' "$realisations" "$within"
  for shape in $shapes; do
    printf '%s%s ' "$([[ $shape == "${shapes%% *}" ]] || echo "; ")" "$shape"
    awk -F, -v s="$shape" '$1 == s { printf "%s%s m %d/%d", n++ ? ", " : "", $2, $5, $4 }' "$table"
  done
  echo " | non-convex grains jam at larger apertures than disks of the same area |"
} | page_table summary
for shape in $shapes; do
  for a in $apertures; do
    cp "$OUT/$shape-$a/seed-1/snapshot.png" "$OUT/snapshot-$shape-${a}m.png"
  done
done
for shape in $shapes; do
  if [[ $REDUCED == 0 && -f $OUT/snapshot-$shape-20m.png ]]; then page_figure "$OUT/snapshot-$shape-20m.png" "$shape-20m"; fi
done
finish
