#!/usr/bin/env bash
# Hopper discharge of rigid grains, stepped from collision to collision
# (stepping = events): hexagons and pebbles through apertures of 3 to 6 m,
# under two settings of the collision law (restitution 0.5 without
# tangential dissipation; restitution 0.1 with ξ_t = 0.5 kg). The discharge
# rate — grains through the aperture per second while the hopper empties —
# against the aperture, and how many collisions were events. Then the
# schemes: the bouncy hexagons through 3, 5 and 6 m, five seeds each
# (the lattice's orientations), stepped by events with resting clusters
# time-stepped, by events with whole steps time-stepped, and by time steps
# alone: their rates, the share of the grains' steps flown by events and
# the wall time. SHAPES, APERTURES, LAWS, SCHEME_APERTURES and SEEDS pick
# others. See data/examples/README.md and docs/VALIDATION.md.
source "$(dirname "$0")/../common.sh"

if [[ $REDUCED == 1 ]]; then
  shapes="hexagon" apertures="4 6" laws="bouncy" count=60 duration=4
  scheme_apertures="5" seed_count=6
else
  shapes=${SHAPES:-"hexagon pebble"} apertures=${APERTURES:-"3 4 5 6"} laws=${LAWS:-"bouncy damped"} count=150 duration=8
  scheme_apertures=${SCHEME_APERTURES:-"3 5 6"} seed_count=${SEEDS:-5}
fi
schemes="events events_whole_steps steps"
declare -A law_line=([bouncy]="law = 0 0 rigid restitution=0.5" [damped]="law = 0 0 rigid restitution=0.1 xi_t=0.5")
declare -A law_name=([bouncy]="e = 0.5" [damped]="e = 0.1 and ξ_t = 0.5 kg")
declare -A scheme_name=([events]="events, resting clusters time-stepped" [events_whole_steps]="events, whole steps time-stepped" [steps]="time steps")
# The share of the grains' steps flown by events is read at this time.
share_at=4

# area SHAPE: the area of a shape of the library.
area() { sphero shape info "$EXAMPLE_DIR/../../shapes/$1.shape" | awk '$1 == "'"$1"'" { print $5 }'; }

# hopper_case SHAPE LAW APERTURE STEPPING SEED DIR: one discharge; DIR/row:
# its line of the tables, DIR/count.csv: the grains below the aperture per
# frame.
hopper_case() {
  local shape=$1 law=$2 a=$3 stepping=$4 seed=$5 dir=$6
  awk -v shape="$EXAMPLE_DIR/../../shapes/$shape.shape" -v a="$a" -v n="$count" -v duration="$duration" \
      -v law="${law_line[$law]}" -v stepping="$stepping" -v seed="$seed" '
    /^law = / { print law; next }
    /^stepping = / { print "stepping = " stepping; print "seed = " seed; next }
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
  local rate through events overlap wall
  rate=$(awk -F, -v n="$count" '$2 >= 0.2 * n && $2 <= 0.8 * n { sx += $1; sy += $2; sxx += $1 * $1; sxy += $1 * $2; ++k }
    END { if (k < 3) print 0; else printf "%.2f", (k * sxy - sx * sy) / (k * sxx - sx * sx) }' "$dir/count.csv")
  through=$(tail -1 "$dir/count.csv" | cut -d, -f2)
  events=$(sed -n 's/.*events: \([0-9]*\) collisions met.*/\1/p' "$dir/summary.txt")
  overlap=$(sed -n 's/.*deepest overlap \([0-9.e+-]*\) of the two.*/\1/p' "$dir/summary.txt")
  wall=$(sed -n 's/.*steps, \([0-9.e+-]*\) s wall.*/\1/p' "$dir/summary.txt" | awk -v d="$duration" '{ printf "%.3g", $1 / d }')
  # The share of the grains' steps flown by events up to share_at (the
  # energy.csv columns count them from the start; none with time steps).
  local share=-
  if [[ $stepping != steps ]]; then
    share=$(csv "$dir/run/energy.csv" time_s events_flown_body_steps time_stepped_body_steps |
      awk -v t="$share_at" '$1 <= t + 1e-9 { s = ($2 + $3 > 0) ? $2 / ($2 + $3) : 0 } END { printf "%.3f", s }')
  fi
  local rises
  rises=$(csv "$dir/run/energy.csv" damping_dissipation_J | awk 'NR > 1 && $1 < last - 1e-9 * (1 + last) { ++r } { last = $1 } END { print r + 0 }')
  echo "$shape,$law,$a,$stepping,$seed,$rate,$through,${events:-0},$share,$wall,$overlap,$rises" >"$dir/row"
}

for shape in $shapes; do
  for law in $laws; do
    for a in $apertures; do run_case "$shape-$law-$a" hopper_case "$shape" "$law" "$a" events 1; done
  done
done
for a in $scheme_apertures; do
  for stepping in $schemes; do
    for seed in $(seeds "$seed_count"); do
      run_case "schemes-$a-$stepping-$seed" hopper_case hexagon bouncy "$a" "$stepping" "$seed"
    done
  done
done
cases_finished

table=$OUT/discharge.csv
schemes_table=$OUT/schemes.csv
header="shape,law,aperture_m,stepping,seed,rate_per_s,through,events,flown_share,wall_s_per_s,deepest_overlap,dissipation_falls"
echo "$header,case" >"$table"
echo "$header" >"$schemes_table"
for name in "${CASES[@]}"; do
  IFS=, read -r shape law a stepping seed rate through events share wall overlap rises <"$OUT/$name/row"
  if [[ $name == schemes-* ]]; then
    cat "$OUT/$name/row" >>"$schemes_table"
    continue
  fi
  echo "$(<"$OUT/$name/row"),${shape}s ${law_name[$law]}" >>"$table"
  result "${shape}_${law}_${a}m" "$rate" "grains per second through a $a m aperture; $through of $count through at $duration s; $events collisions as events, $share of the grains' steps flown by events up to $share_at s"
done
sphero plot "$table" --x aperture_m --y rate_per_s --by case --style markers \
  --title "Rigid hopper (stepping = events): discharge rate against aperture" --x-label "aperture (m)" \
  --y-label "grains through per second" -o "$OUT/discharge.png"
page_figure "$OUT/discharge.png" discharge
{
  echo "| grains | law | aperture (m) | discharge rate (grains/s) | through at the end | collisions as events | grains' steps flown by events, first $share_at s |"
  echo "| --- | --- | --- | --- | --- | --- | --- |"
  tail -n +2 "$table" | while IFS=, read -r shape law a _ _ rate through events share _; do
    # Fewer than a fifth through: the flow stopped (an arch) before it had a rate.
    [[ $rate == 0 ]] && rate="— (stopped)"
    echo "| ${shape}s | ${law_name[$law]} | $a | $rate | $through of $count | $events | $(awk -v s="$share" 'BEGIN { printf "%.0f%%", 100 * s }') |"
  done
} | page_table discharge

# Per aperture and scheme: the rate's mean and spread over the seeds (the
# sample standard deviation), the share flown, the wall time.
summary=$OUT/schemes_summary.csv
echo "aperture_m,stepping,rate_per_s,spread_per_s,seeds,flown_share,wall_s_per_s" >"$summary"
for a in $scheme_apertures; do
  for stepping in $schemes; do
    read -r mean spread n < <(stats $(awk -F, -v a="$a" -v s="$stepping" 'NR > 1 && $3 == a && $4 == s { print $6 }' "$schemes_table"))
    read -r share wall < <(awk -F, -v a="$a" -v s="$stepping" 'NR > 1 && $3 == a && $4 == s { f += $9; w += $10; ++k }
      END { printf "%s %.3g\n", (s == "steps" ? "-" : sprintf("%.3f", f / k)), w / k }' "$schemes_table")
    echo "$a,$stepping,$mean,$spread,$n,$share,$wall" >>"$summary"
    result "schemes_${a}m_${stepping}_rate" "$mean" "grains per second, mean over $n seeds (spread $spread); flown share $share; $wall s of wall time per simulated second"
  done
done
{
  echo "| aperture (m) | stepping | discharge rate (grains/s), mean ± spread over $seed_count seeds | grains' steps flown by events, first $share_at s | wall time per simulated second (s) |"
  echo "| --- | --- | --- | --- | --- |"
  tail -n +2 "$summary" | while IFS=, read -r a stepping mean spread n share wall; do
    [[ $share != - ]] && share=$(awk -v s="$share" 'BEGIN { printf "%.0f%%", 100 * s }')
    printf '| %s | %s | %.2f ± %.2f | %s | %s |\n' "$a" "${scheme_name[$stepping]}" "$mean" "$spread" "$share" "$wall"
  done
} | page_table schemes
{
  printf '| rigid hopper, events: discharge rate | '
  awk -F, 'NR > 1 { printf "%s%s %s %s m: %s", (n++ ? ", " : ""), $1, $2, $3, ($6 > 0 ? $6 "/s" : "stopped") }' "$table"
  echo " | grows with the aperture; arches at narrow apertures where the law dissipates more |"
  printf '| rigid hopper, clusters against whole steps and time steps | '
  awk -F, 'NR > 1 { printf "%s%s m %s: %.1f ± %.1f/s%s", (n++ ? ", " : ""), $1, $2, $3, $4, ($6 == "-" ? "" : sprintf(", %.0f%% flown", 100 * $6)) }' "$summary"
  echo " | the same rates within their spread over seeds; the clusters fly most of the grains' steps |"
} | page_table summary

# The physics: each flow runs through the aperture (none stalls), faster
# through the widest aperture than the narrowest, never making energy,
# with the overlaps of rigid grains below 15% of their sphero-radii.
for file in "$table" "$schemes_table"; do
  while IFS=, read -r shape law a stepping seed rate through events share wall overlap rises _; do
    [[ $shape == shape ]] && continue
    check "$shape $law $a m $stepping seed $seed: frames whose dissipation fell" "$rises" "==" 0
    [[ $stepping == steps ]] || check "$shape $law $a m $stepping seed $seed: collisions met as events" "$events" ">" 0
    check "$shape $law $a m $stepping seed $seed: deepest overlap, fraction of the sphero-radii" "$overlap" "<" 0.15
  done <"$file"
done
for shape in $shapes; do
  for law in $laws; do
    narrow=$(awk -F, -v s="$shape" -v l="$law" 'NR > 1 && $1 == s && $2 == l { if (m == "" || $3 < m) { m = $3; r = $6 } } END { print r }' "$table")
    wide=$(awk -F, -v s="$shape" -v l="$law" 'NR > 1 && $1 == s && $2 == l { if ($3 > m) { m = $3; r = $6 } } END { print r }' "$table")
    check "$shape $law: rate through the widest aperture above the narrowest's" "$wide" ">" "$narrow"
    check "$shape $law: rate through the widest aperture" "$wide" ">" 0
  done
done
# The schemes: the clusters fly more of the grains' steps than whole steps
# do, and their rate is the time-stepping's within twice the combined
# spread over seeds (with one seed there is no spread to judge by).
for a in $scheme_apertures; do
  row() { awk -F, -v a="$a" -v s="$1" 'NR > 1 && $1 == a && $2 == s' "$summary"; }
  IFS=, read -r _ _ rate_c spread_c n _ <<<"$(row events)"
  IFS=, read -r _ _ rate_s spread_s _ _ <<<"$(row steps)"
  share_c=$(row events | cut -d, -f6) share_w=$(row events_whole_steps | cut -d, -f6)
  check "$a m: share flown by events, clusters above whole steps" "$share_c" ">" "$share_w"
  if ((n > 1)); then
    check "$a m: clusters' rate minus time steps', against twice the combined spread" \
      "$(awk -v a="$rate_c" -v b="$rate_s" -v p="$spread_c" -v q="$spread_s" 'BEGIN { d = a - b; print (d < 0 ? -d : d) - 2 * sqrt(p * p + q * q) }')" "<=" 0
  fi
done
finish
