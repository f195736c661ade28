#!/usr/bin/env bash
# The angle of repose of rigid grains with Coulomb friction, and of stiff
# soft ones beside them: pebbles (rounded triangles, at three sizes) poured
# slowly onto a fixed base until the heap is at rest (kinetic energy below
# 1e-8 of its peak), for mu = 0.2, 0.5 and 1 and five seeds each; the angle
# of each flank from the heap's surface (repose.py). The angle should grow
# with mu, and the two models agree within the scatter over seeds. SHAPE,
# MUS, SEEDS and GRAINS pick others. Python with NumPy and the sphero module:
# $PYTHON (default /usr/bin/python3), the build's module first when there is
# one. See data/examples/README.md.
source "$(dirname "$0")/../common.sh"
PYTHON=${PYTHON:-/usr/bin/python3}
[[ -d $REPO/build/python/sphero ]] && export PYTHONPATH=$REPO/build/python${PYTHONPATH:+:$PYTHONPATH}

shape=$EXAMPLE_DIR/../../shapes/${SHAPE:-pebble}.shape
if [[ $REDUCED == 1 ]]; then
  mus="0.2 1" seeds=1 grains=80 base=5
else
  mus=${MUS:-"0.2 0.5 1"} seeds=${SEEDS:-5} grains=${GRAINS:-250} base=12
fi

# heap_case MODEL MU SEED DIR: one heap; DIR/row: its line of repose.csv.
heap_case() {
  local model=$1 mu=$2 seed=$3 dir=$4
  "$PYTHON" "$EXAMPLE_DIR/repose.py" --model "$model" --mu "$mu" --seed "$seed" --grains "$grains" --base "$base" \
    --shape "$shape" >"$dir/row"
}

for model in rigid soft; do
  for mu in $mus; do
    for seed in $(seeds "$seeds"); do run_case "$model-$mu-$seed" heap_case "$model" "$mu" "$seed"; done
  done
done
cases_finished

table=$OUT/repose.csv
echo "model,mu,seed,poured,on_heap,time_s,at_rest,kinetic_over_peak,left_deg,right_deg,wall_s" >"$table"
for name in "${CASES[@]}"; do cat "$OUT/$name/row" >>"$table"; done

# Per model and mu: the mean angle of both flanks over the seeds, and its
# spread (the sample standard deviation of the flanks).
summary=$OUT/angles.csv
echo "model,mu,angle_deg,spread_deg,flanks" >"$summary"
for model in rigid soft; do
  for mu in $mus; do
    read -r mean spread n < <(stats $(awk -F, -v m="$model" -v mu="$mu" \
      'NR > 1 && $1 == m && $2 == mu { print $9; print $10 }' "$table" | grep -v nan))
    echo "$model,$mu,$mean,$spread,$n" >>"$summary"
    result "${model}_mu_${mu}_angle_deg" "$mean" "mean angle of the flanks over $seeds seeds (spread $spread deg, $n flanks)"
  done
done
sphero plot "$summary" --x mu --y angle_deg --by model --style markers \
  --title "Angle of repose of poured pebbles against friction" --x-label "Coulomb friction mu" \
  --y-label "angle of the flanks (degrees)" -o "$OUT/repose.png"
page_figure "$OUT/repose.png" angles
{
  echo "| model | μ | angle of repose (°) | spread over seeds (°) | flanks | heaps at rest |"
  echo "| --- | --- | --- | --- | --- | --- |"
  tail -n +2 "$summary" | while IFS=, read -r model mu mean spread n; do
    rest=$(awk -F, -v m="$model" -v mu="$mu" 'NR > 1 && $1 == m && $2 == mu { r += $7; ++k } END { print r "/" k }' "$table")
    printf '| %s | %s | %.1f | %.1f | %s | %s |\n' "$model" "$mu" "$mean" "$spread" "$n" "$rest"
  done
} | page_table angles
{
  printf '| angle of repose of poured pebbles, %s seeds | ' "$seeds"
  awk -F, 'NR > 1 { printf "%s%s μ = %s: %.1f ± %.1f°", (n++ ? ", " : ""), $1, $2, $3, $4 }' "$summary"
  echo " | grows with μ; rigid and soft agree within the scatter over seeds |"
} | page_table summary

# The physics: every heap comes to rest; the angle grows from the smallest
# mu to the largest in both models; and the rigid and soft angles agree
# within twice their combined spread at every mu.
while IFS=, read -r model mu seed _ _ _ rest _ left right _; do
  [[ $model == model ]] && continue
  check "$model mu $mu seed $seed: heap at rest (kinetic energy below 1e-8 of its peak)" "$rest" "==" 1
  # A flank is measured where three columns or more lie between 20% and 90%
  # of the height: always on the full run's base, not always on the reduced one's.
  measured=0
  [[ $left != nan ]] && measured=$((measured + 1))
  [[ $right != nan ]] && measured=$((measured + 1))
  check "$model mu $mu seed $seed: flanks measured" "$measured" ">=" "$((REDUCED == 1 ? 1 : 2))"
done <"$table"
angle() { awk -F, -v m="$1" -v mu="$2" '$1 == m && $2 == mu { print $3 }' "$summary"; }
spread() { awk -F, -v m="$1" -v mu="$2" '$1 == m && $2 == mu { print $4 }' "$summary"; }
low=${mus%% *} high=${mus##* }
for model in rigid soft; do
  check "$model: angle at mu $high above the angle at mu $low" "$(angle "$model" "$high")" ">" "$(angle "$model" "$low")"
done
if [[ $REDUCED == 0 ]]; then
  for mu in $mus; do
    gap=$(awk -v a="$(angle rigid "$mu")" -v b="$(angle soft "$mu")" 'BEGIN { d = a - b; print d < 0 ? -d : d }')
    bound=$(awk -v a="$(spread rigid "$mu")" -v b="$(spread soft "$mu")" 'BEGIN { print 2 * sqrt(a * a + b * b) }')
    check "mu $mu: rigid and soft angles apart by less than twice their combined spread" "$gap" "<" "$bound"
  done
fi
finish
