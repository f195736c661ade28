#!/usr/bin/env bash
# Hopper discharge of rigid grains, stepped from collision to collision
# (stepping = events): hexagons and pebbles through apertures of 3 to 6 m,
# under two settings of the collision law (restitution 0.5 without
# tangential dissipation; restitution 0.1 with ξ_t = 0.5 kg). The discharge
# rate — grains through the aperture per second while the hopper empties —
# against the aperture, and how many collisions were events. SHAPES,
# APERTURES and LAWS pick others. See data/examples/README.md and
# docs/VALIDATION.md.
source "$(dirname "$0")/../common.sh"

if [[ $REDUCED == 1 ]]; then
  shapes="hexagon" apertures="4 6" laws="bouncy" count=60 duration=4
else
  shapes=${SHAPES:-"hexagon pebble"} apertures=${APERTURES:-"3 4 5 6"} laws=${LAWS:-"bouncy damped"} count=150 duration=8
fi
declare -A law_line=([bouncy]="law = 0 0 rigid restitution=0.5" [damped]="law = 0 0 rigid restitution=0.1 xi_t=0.5")
declare -A law_name=([bouncy]="e = 0.5" [damped]="e = 0.1 and ξ_t = 0.5 kg")

# area SHAPE: the area of a shape of the library.
area() { sphero shape info "$EXAMPLE_DIR/../../shapes/$1.shape" | awk '$1 == "'"$1"'" { print $5 }'; }

# hopper_case SHAPE LAW APERTURE DIR: one discharge; DIR/row: its line of
# discharge.csv, DIR/count.csv: the grains below the aperture per frame.
hopper_case() {
  local shape=$1 law=$2 a=$3 dir=$4
  awk -v shape="$EXAMPLE_DIR/../../shapes/$shape.shape" -v a="$a" -v n="$count" -v duration="$duration" \
      -v law="${law_line[$law]}" '
    /^law = / { print law; next }
    /^wall = radius=0.05 points=0.05,26;/ { printf "wall = radius=0.05 points=0.05,26;%g,20\n", 12 - a / 2; next }
    /^wall = radius=0.05 points=14.5,20;/ { printf "wall = radius=0.05 points=%g,20;23.95,26\n", 12 + a / 2; next }
    /^grains = / { $0 = sprintf("grains = shape=%s count=%d generator=lattice region=1,27,23,49", shape, n) }
    /^duration = / { $0 = "duration = " duration }
    { print }' "$EXAMPLE_DIR/scene.ini" >"$dir/scene.ini"
  sphero run "$dir/scene.ini" --output "$dir/run" --overwrite --threads 1 --fields state >"$dir/summary.txt"
  # Grains below the aperture, frame by frame: the packing fraction of the
  # bin by whole grains, times its area over a grain's.
  sphero analyze "$dir/run" --window 0,0,24,20 --packing-by-centres --no-local-packing
  csv "$dir/run/analysis.csv" time_s packing_fraction |
    awk -v g="$(area "$shape")" '{ printf "%s,%.0f\n", $1, $2 * 24 * 20 / g }' >"$dir/count.csv"
  # The rate: a least-squares line through the frames with 20% to 80% of
  # the grains through (0 if the flow stopped before that).
  local rate through events handed overlap
  rate=$(awk -F, -v n="$count" '$2 >= 0.2 * n && $2 <= 0.8 * n { sx += $1; sy += $2; sxx += $1 * $1; sxy += $1 * $2; ++k }
    END { if (k < 3) print 0; else printf "%.2f", (k * sxy - sx * sy) / (k * sxx - sx * sx) }' "$dir/count.csv")
  through=$(tail -1 "$dir/count.csv" | cut -d, -f2)
  events=$(sed -n 's/.*events: \([0-9]*\) collisions met.*/\1/p' "$dir/summary.txt")
  handed=$(sed -n 's/.*; \([0-9]*\) of the [0-9]* steps handed.*/\1/p' "$dir/summary.txt")
  overlap=$(sed -n 's/.*deepest overlap \([0-9.e+-]*\) of the two.*/\1/p' "$dir/summary.txt")
  local rises
  rises=$(csv "$dir/run/energy.csv" damping_dissipation_J | awk 'NR > 1 && $1 < last - 1e-9 * (1 + last) { ++r } { last = $1 } END { print r + 0 }')
  echo "$shape,$law,$a,$rate,$through,${events:-0},${handed:-0},$overlap,$rises" >"$dir/row"
}

for shape in $shapes; do
  for law in $laws; do
    for a in $apertures; do run_case "$shape-$law-$a" hopper_case "$shape" "$law" "$a"; done
  done
done
cases_finished

table=$OUT/discharge.csv
echo "shape,law,aperture_m,rate_per_s,through,events,steps_handed_over,deepest_overlap,dissipation_falls,case" >"$table"
for name in "${CASES[@]}"; do
  IFS=, read -r shape law a rate through events handed overlap rises <"$OUT/$name/row"
  echo "$shape,$law,$a,$rate,$through,$events,$handed,$overlap,$rises,${shape}s ${law_name[$law]}" >>"$table"
  result "${shape}_${law}_${a}m" "$rate" "grains per second through a $a m aperture; $through of $count through at $duration s; $events collisions as events, $handed steps handed over"
done
sphero plot "$table" --x aperture_m --y rate_per_s --by case --style markers \
  --title "Rigid hopper (stepping = events): discharge rate against aperture" --x-label "aperture (m)" \
  --y-label "grains through per second" -o "$OUT/discharge.png"
page_figure "$OUT/discharge.png" discharge
{
  echo "| grains | law | aperture (m) | discharge rate (grains/s) | through at the end | collisions as events | steps handed to the time-stepping |"
  echo "| --- | --- | --- | --- | --- | --- | --- |"
  tail -n +2 "$table" | while IFS=, read -r shape law a rate through events handed _ _ _; do
    # Fewer than a fifth through: the flow stopped (an arch) before it had a rate.
    [[ $rate == 0 ]] && rate="— (stopped)"
    echo "| ${shape}s | ${law_name[$law]} | $a | $rate | $through of $count | $events | $handed |"
  done
} | page_table discharge
{
  printf '| rigid hopper, events: discharge rate | '
  awk -F, 'NR > 1 { printf "%s%s %s %s m: %s", (n++ ? ", " : ""), $1, $2, $3, ($4 > 0 ? $4 "/s" : "stopped") }' "$table"
  echo " | grows with the aperture; arches at narrow apertures where the law dissipates more |"
} | page_table summary

# The physics: each flow runs through the aperture (none stalls), faster
# through the widest aperture than the narrowest, never making energy,
# with the overlaps of rigid grains (from the time-stepping of the pile)
# below 15% of their sphero-radii.
while IFS=, read -r shape law a rate through events handed overlap rises _; do
  [[ $shape == shape ]] && continue
  check "$shape $law $a m: frames whose dissipation fell" "$rises" "==" 0
  check "$shape $law $a m: collisions met as events" "$events" ">" 0
  check "$shape $law $a m: deepest overlap, fraction of the sphero-radii" "$overlap" "<" 0.15
done <"$table"
for shape in $shapes; do
  for law in $laws; do
    narrow=$(awk -F, -v s="$shape" -v l="$law" 'NR > 1 && $1 == s && $2 == l { if (m == "" || $3 < m) { m = $3; r = $4 } } END { print r }' "$table")
    wide=$(awk -F, -v s="$shape" -v l="$law" 'NR > 1 && $1 == s && $2 == l { if ($3 > m) { m = $3; r = $4 } } END { print r }' "$table")
    check "$shape $law: rate through the widest aperture above the narrowest's" "$wide" ">" "$narrow"
    check "$shape $law: rate through the widest aperture" "$wide" ">" 0
  done
done
finish
