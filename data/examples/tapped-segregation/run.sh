#!/usr/bin/env bash
# Segregation in a tapped bed of two sizes (the Brazil-nut effect): 8 large
# hexagons under 150 small ones in a container that makes one cycle of a
# sine every 3 s. The large grains' mean height against the number of
# taps, for the soft model at Γ = 2 and 4 (neighbours from the
# triangulated void space) and for rigid grains stepped from collision to
# collision (stepping = events) at Γ = 4. CASES and TAPS pick others. See
# data/examples/README.md and docs/VALIDATION.md.
source "$(dirname "$0")/../common.sh"

if [[ $REDUCED == 1 ]]; then
  cases="soft-4 rigid-4" taps=4 rigid_taps=1
else
  cases=${CASES:-"soft-2 soft-4 rigid-4"} taps=${TAPS:-40} rigid_taps=${TAPS:-40}
fi
readonly interval=3 frequency=1 grains=158

# settle_case DIR: the bed settled under gravity; DIR/settled.vtu.
settle_case() {
  local dir=$1
  sed "s|^grains = shape=large-hexagon.shape|grains = shape=$EXAMPLE_DIR/large-hexagon.shape|;
       s|shape=../../shapes/|shape=$EXAMPLE_DIR/../../shapes/|" "$EXAMPLE_DIR/settle.ini" >"$dir/settle.ini"
  sphero run "$dir/settle.ini" --output "$dir/run" --overwrite --threads 1 --fields state >"$dir/summary.txt"
  cp "$(ls "$dir"/run/state_*.vtu | tail -1)" "$dir/settled.vtu"
  cp "$dir/run/shapes.vtu" "$dir/shapes.vtu"  # the shape table the state frame names
}

# tap_case MODEL GAMMA TAPS DIR: the settled bed tapped TAPS times at Γ;
# DIR/heights.csv: per tap, the mean heights of the large and the small
# grains and the grains inside the container; DIR/row: the run's summary.
tap_case() {
  local model=$1 gamma=$2 n=$3 dir=$4
  local amplitude
  amplitude=$(awk -v g="$gamma" -v f="$frequency" 'BEGIN { printf "%.6g", g * 9.81 / (2 * 3.14159265358979 * f) ^ 2 }')
  awk -v packing="$OUT/settle/settled.vtu" -v a="$amplitude" -v f="$frequency" -v t="$interval" -v n="$n" -v model="$model" '
    /^duration = / { print "duration = " n * t; next }
    /^packing = / { print "packing = " packing; next }
    /^set_wall = 0 / { printf "set_wall = 0 fixed amplitude=0,%s frequency=%s tap_interval=%s\n", a, f, t; next }
    model == "rigid" && /^dt = / { print "model = rigid\nstepping = events\ndt = 2e-3"; next }
    model == "rigid" && /^law = / { print "law = 0 0 rigid restitution=0.3 xi_t=0.5"; next }
    { print }' "$EXAMPLE_DIR/tap.ini" >"$dir/scene.ini"
  sphero run "$dir/scene.ini" --output "$dir/run" --overwrite --threads 1 --fields state >"$dir/summary.txt"
  # Frames at the start of each tap: the bed at rest after the taps before.
  sphero analyze "$dir/run" --window 0,0,16,100 --packing-by-centres --no-local-packing >/dev/null
  awk -F, '/^#/ || $1 == "frame" { next }
    { tap[$1] = $1; count[$1] += $4; if ($3 == "large-hexagon") large[$1] = $7; else small[$1] = $7 }
    END { print "tap,large_height_m,small_height_m,large_minus_small_m,grains_inside"
          for (k = 0; k in tap; ++k) printf "%d,%.4f,%.4f,%.4f,%d\n", k, large[k], small[k], large[k] - small[k], count[k] }' \
    "$dir/run/shapes.csv" >"$dir/heights.csv"
  local work residual overlap falls
  read -r work residual < <(csv "$dir/run/energy.csv" external_work_J first_law_residual_J | tail -1)
  overlap=$(sed -n 's/.*deepest overlap \([0-9.e+-]*\) of the two.*/\1/p' "$dir/summary.txt")
  falls=$(csv "$dir/run/energy.csv" damping_dissipation_J sliding_dissipation_J |
    awk '{ d = $1 + $2 } NR > 1 && d < last - 1e-9 * (1 + last) { ++r } { last = d } END { print r + 0 }')
  local events handed
  events=$(sed -n 's/.*events: \([0-9]*\) collisions met.*/\1/p' "$dir/summary.txt")
  handed=$(sed -n 's/.*; \([0-9]*\) of the [0-9]* steps handed.*/\1/p' "$dir/summary.txt")
  echo "$work,$residual,$overlap,$falls,${events:--},${handed:--}" >"$dir/row"
}

run_case settle settle_case
cases_finished
for c in $cases; do
  model=${c%-*} gamma=${c#*-}
  run_case "$c" tap_case "$model" "$gamma" "$([[ $model == rigid ]] && echo "$rigid_taps" || echo "$taps")"
done
cases_finished

declare -A label=([soft]="soft" [rigid]="rigid (events)")
table=$OUT/heights.csv
echo "tap,large_height_m,small_height_m,large_minus_small_m,grains_inside,case" >"$table"
for c in $cases; do
  model=${c%-*} gamma=${c#*-}
  tail -n +2 "$OUT/$c/heights.csv" | sed "s/\$/,${label[$model]} Γ = $gamma/" >>"$table"
done
sphero plot "$table" --x tap --y large_minus_small_m --by case \
  --title "Tapped bed of two sizes: the large grains rise" --x-label "taps" \
  --y-label "mean height of the large grains less the small ones' (m)" -o "$OUT/segregation.png"
page_figure "$OUT/segregation.png" segregation
{
  echo "| model | Γ | taps | large grains' mean height (m), first → last | small grains' (m) | difference (m) | first-law residual / work | collisions as events | steps handed to the time-stepping |"
  echo "| --- | --- | --- | --- | --- | --- | --- | --- | --- |"
  for c in $cases; do
    model=${c%-*} gamma=${c#*-}
    IFS=, read -r work residual _ _ events handed <"$OUT/$c/row"
    awk -F, -v m="${label[$model]}" -v g="$gamma" -v w="$work" -v r="$residual" -v e="$events" -v h="$handed" '
      NR == 2 { first = $0 } NR > 1 { last = $0; n = $1 }
      END { split(first, a, ","); split(last, b, ",")
            printf "| %s | %s | %d | %.2f → %.2f | %.2f → %.2f | %.2f → %.2f | %.1e | %s | %s |\n", m, g, n, a[2], b[2], a[3], b[3],
                   a[4], b[4], (r < 0 ? -r : r) / w, e, h }' "$OUT/$c/heights.csv"
  done
} | page_table heights
{
  printf '| tapped bed of two sizes: the large grains\x27 mean height less the small ones\x27 | '
  for c in $cases; do
    model=${c%-*} gamma=${c#*-}
    awk -F, -v c="${label[$model]} Γ = $gamma" 'NR == 2 { f = $4 } NR > 1 { l = $4; n = $1 }
      END { printf "%s: %+.2f → %+.2f m in %d taps", c, f, l, n }' "$OUT/$c/heights.csv"
    [[ $c == "${cases##* }" ]] || printf '; '
  done
  echo " | the large grains rise through the small ones (Brazil-nut effect), faster the stronger the taps |"
} | page_table summary

for c in $cases; do
  IFS=, read -r work residual overlap falls _ _ <"$OUT/$c/row"
  read -r first last taps_done < <(awk -F, 'NR == 2 { f = $4 } NR > 1 { l = $4; n = $1 } END { print f, l, n }' "$OUT/$c/heights.csv")
  result "${c}_rise_m" "$(awk -v f="$first" -v l="$last" 'BEGIN { printf "%.3f", l - f }')" \
    "how far the large grains rose against the small ones over $taps_done taps ($first to $last m)"
  # The physics: no grain leaves the container, the drive's work balances
  # the energy (the first law), the dissipation never falls, and the
  # overlaps stay small.
  outside=$(awk -F, -v n="$grains" 'NR > 1 && $5 != n { ++k } END { print k + 0 }' "$OUT/$c/heights.csv")
  check "$c: frames with a grain outside the container" "$outside" "==" 0
  check "$c: first-law residual over the drive's work" "$(awk -v w="$work" -v r="$residual" 'BEGIN { printf "%.3g", (r < 0 ? -r : r) / w }')" "<" 0.01
  check "$c: frames whose dissipation fell" "$falls" "==" 0
  check "$c: deepest overlap, fraction of the sphero-radii" "$overlap" "<" 0.3
  # Segregation needs tens of taps: in the full run the large grains rise
  # against the small ones by more than a small grain's size at Γ = 4.
  if [[ $REDUCED == 0 && ${c#*-} == 4 ]]; then
    check "$c: rise of the large grains against the small ones over $taps_done taps (m)" \
      "$(awk -v f="$first" -v l="$last" 'BEGIN { print l - f }')" ">" 1.2
  fi
done
# Stronger taps segregate faster.
if [[ $REDUCED == 0 && " $cases " == *" soft-2 "* && " $cases " == *" soft-4 "* ]]; then
  rise() { awk -F, 'NR == 2 { f = $4 } NR > 1 { l = $4 } END { print l - f }' "$OUT/$1/heights.csv"; }
  check "soft: the rise at Γ = 4 over the rise at Γ = 2" "$(awk -v a="$(rise soft-4)" -v b="$(rise soft-2)" 'BEGIN { printf "%.3g", a / b }')" ">" 2
fi
finish
