#!/usr/bin/env bash
# A gas of cows, several realisations (seeds): translational and rotational
# kinetic energy against time, their ratio once stationary, and the
# distribution of eps = E_k / <E_k> against Maxwell–Boltzmann for three
# quadratic degrees of freedom: its L1 distance and a fitted beta (3/2 in
# units of <E_k>). See data/examples/README.md and docs/VALIDATION.md.
source "$(dirname "$0")/../common.sh"

# The published histogram window (1 s to 8 s, a frame every 0.01 s;
# reduced: 1 s to 2 s every 0.02 s), then the run goes on with sparser
# frames so that the ratio of rotational to translational energy and the
# histogram are measured once stationary.
if [[ $REDUCED == 1 ]]; then
  scene=$EXAMPLE_DIR/reduced.ini frames=50:100 stage_end=2 long=3 long_interval=0.1 stationary_from=2 realisations=1
else
  scene=$EXAMPLE_DIR/scene.ini frames=100:800 stage_end=8 long=40 long_interval=0.1 stationary_from=20
  realisations=${REALISATIONS:-3}
fi
stationary_frames=$(awk -v f="$frames" -v e="$stage_end" -v s="$stationary_from" -v l="$long" -v i="$long_interval" \
  'BEGIN { split(f, r, ":"); printf "%d:%d", r[2] + (s - e) / i + 0.5, r[2] + (l - e) / i + 0.5 }')

# L1 distance between the measured density and Maxwell–Boltzmann over [0, 5).
l1_distance() {
  awk -F, '!/^#/ && $1 != "eps" { if (!w) w = 2 * $1; d = $2 - $3; if (d < 0) d = -d; l1 += d * w }
    END { printf "%.4f\n", l1 }' "$1"
}
# fitted_beta HISTOGRAM: beta of P(eps) ∝ sqrt(eps) exp(-beta eps), the
# Maxwell–Boltzmann form for three quadratic degrees of freedom, fitted by
# least squares to ln(P / sqrt(eps)) over the bins holding at least 20
# samples, each weighted by its count (the variance of ln P is 1/count).
fitted_beta() {
  local samples
  samples=$(grep -o '([0-9]* samples' "$1" | tr -dc 0-9)
  awk -F, -v n="$samples" '!/^#/ && $1 != "eps" {
      if (!w) w = 2 * $1; count = $2 * w * n; if (count < 20) next
      x = $1; y = log($2 / sqrt(x)); s += count; sx += count * x; sy += count * y; sxx += count * x * x; sxy += count * x * y }
    END { printf "%.12g\n", -(s * sxy - sx * sy) / (s * sxx - sx * sx) }' "$1"
}

# gas_case SEED DIR: the run to $long s; DIR/measured: "E0, largest
# relative energy deviation, E_rot/E_trans at the end, <E_rot>/<E_trans>
# once stationary, histogram samples, L1 and beta over the published
# window, L1 and beta once stationary". Frames go once measured, but the
# histograms and energy.csv stay.
gas_case() {
  local seed=$1 dir=$2
  sphero run "$scene" --seed "$seed" --output "$dir/run" --overwrite --quiet
  sphero run "$scene" --seed "$seed" --restart "$dir/run/final.ckpt" --output "$dir/run" --duration "$long" \
    --output_interval "$long_interval" --quiet
  sphero figure "$dir/run" --plot energy -o "$dir/energy.png" --title "Gas of cows (seed $seed)"
  sphero analyze "$dir/run" --frames "$stationary_frames" --no-local-packing --histogram-bins 100
  cp "$dir/run/ke_histogram.csv" "$dir/ke-histogram-stationary.csv"
  sphero figure "$dir/run" --plot ke-histogram --frames "$stationary_frames" -o "$dir/ke-histogram-stationary.png" \
    --title "Gas of cows (seed $seed), t = $stationary_from s to $long s"
  sphero analyze "$dir/run" --frames "$frames" --no-local-packing --histogram-bins 100
  cp "$dir/run/ke_histogram.csv" "$dir/ke-histogram.csv"
  sphero figure "$dir/run" --plot ke-histogram --frames "$frames" -o "$dir/ke-histogram.png" \
    --title "Gas of cows (seed $seed), frames $frames"
  local e0 worst final_ratio stationary_ratio
  read -r e0 worst final_ratio < <(csv "$dir/run/energy.csv" mechanical_J kinetic_rotational_J kinetic_translational_J |
    awk 'NR == 1 { e0 = $1 } { d = $1 - e0; if (d < 0) d = -d; if (d > worst) worst = d; ratio = $2 / $3 }
         END { printf "%.10g %.6g %.6g\n", e0, worst / e0, ratio }')
  stationary_ratio=$(csv "$dir/run/energy.csv" time_s kinetic_rotational_J kinetic_translational_J |
    awk -v from="$stationary_from" '$1 >= from { rot += $2; trans += $3 } END { printf "%.6g\n", rot / trans }')
  echo "$e0 $worst $final_ratio $stationary_ratio $(grep -o '([0-9]* samples' "$dir/ke-histogram.csv" | tr -dc 0-9)" \
    "$(l1_distance "$dir/ke-histogram.csv") $(fitted_beta "$dir/ke-histogram.csv")" \
    "$(l1_distance "$dir/ke-histogram-stationary.csv") $(fitted_beta "$dir/ke-histogram-stationary.csv")" >"$dir/measured"
}

for seed in $(seeds "$realisations"); do run_case "seed-$seed" gas_case "$seed"; done
cases_finished

# Each measured column over the realisations: "mean spread n".
column_stats() { stats $(for seed in $(seeds "$realisations"); do awk -v c="$1" '{ print $c }' "$OUT/seed-$seed/measured"; done); }
names=(initial_energy_J largest_relative_energy_deviation rotational_over_translational_final
  rotational_over_translational_stationary histogram_samples histogram_l1_distance_to_maxwell_boltzmann
  histogram_fitted_beta stationary_histogram_l1_distance_to_maxwell_boltzmann stationary_histogram_fitted_beta)
what=("kinetic energy at the start (translational only)" "max over frames of |E(t) - E0| / E0 (no friction, no damping)"
  "E_rot / E_trans at the end" "<E_rot> / <E_trans> from t = $stationary_from s to $long s (equipartition: 0.5)"
  "per-cow energies in the histogram, frames $frames"
  "integral of |P(eps) - P_MB(eps)| over [0, 5), frames $frames (0: identical, 2: disjoint)"
  "beta of P ∝ sqrt(eps) exp(-beta eps), frames $frames (Maxwell–Boltzmann: 1.5)"
  "the L1 distance over frames $stationary_frames (t = $stationary_from s to $long s)"
  "the fitted beta over frames $stationary_frames (Maxwell–Boltzmann: 1.5)")
for k in "${!names[@]}"; do
  read -r mean spread n <<<"$(column_stats $((k + 1)))"
  result "${names[$k]}" "$mean" "${what[$k]}; mean of $n realisations, spread $spread"
done
value() { sed -n "s/^$1 = \\([^ ]*\\).*spread \\([^ ]*\\)\$/\\1 ± \\2/p" "$RESULTS" | awk '{ printf "%.3g ± %.2g", $1, $3 }'; }
{
  echo "| measured ($realisations realisations, mean ± spread) | value | Maxwell–Boltzmann, equipartition |"
  echo "| --- | --- | --- |"
  echo "| largest \\|E − E₀\\|/E₀ over $long s | $(value largest_relative_energy_deviation) | 0 (conservative) |"
  echo "| ⟨E_rot⟩/⟨E_trans⟩, t = $stationary_from–$long s | $(value rotational_over_translational_stationary) | 0.5 |"
  echo "| E_rot/E_trans at $long s | $(value rotational_over_translational_final) | 0.5 |"
  echo "| fitted β, t = 1–$stage_end s | $(value histogram_fitted_beta) | 1.5 |"
  echo "| fitted β, t = $stationary_from–$long s | $(value stationary_histogram_fitted_beta) | 1.5 |"
  echo "| L1 distance to MB, t = 1–$stage_end s | $(value histogram_l1_distance_to_maxwell_boltzmann) | 0 (sampling noise aside) |"
  echo "| L1 distance to MB, t = $stationary_from–$long s | $(value stationary_histogram_l1_distance_to_maxwell_boltzmann) | 0 (sampling noise aside) |"
} | page_table statistics
echo "| gas of $(grep -o 'count=[0-9]*' "$scene" | tr -dc 0-9) cows, $realisations realisations | ⟨E_rot⟩/⟨E_trans⟩ $(value rotational_over_translational_stationary) once stationary; Maxwell–Boltzmann β $(value stationary_histogram_fitted_beta); largest \|ΔE\|/E₀ $(value largest_relative_energy_deviation) | equipartition 0.5; β = 1.5 |" |
  page_table summary
sphero figure "$OUT/seed-1/run" --plot energy -o "$OUT/energy.png" --title "Gas of cows (seed 1)"
page_figure "$OUT/energy.png" energy
page_figure "$OUT/seed-1/ke-histogram-stationary.png" ke-histogram-stationary
page_figure "$OUT/seed-1/ke-histogram.png" ke-histogram

# Frictionless and undamped: E is conserved up to Verlet's error, of order
# (omega dt)^2 ~ (2 pi / 50)^2 = 0.016 of the energy in a contact during each
# collision, left behind as a random walk over the collisions (measured on
# the reduced gas: 3.8e-4, 1.3e-4, 3.0e-5 at dt, dt/2, dt/4 over 2 s: second
# order). 2e-3 is a few times that walk and far below what a wrong sign,
# factor or torque gives (order 1). Rotation can only come from the torques
# of collisions: the ratio must leave zero. The fit of beta is checked on
# Maxwell–Boltzmann's own density (it must return 3/2); once stationary
# (the full run), the gas's beta must be near it: a histogram of the wrong
# shape or normalisation moves it far from 1.5. The reduced gas, at 1-3 s,
# still holds a spike of cows at their initial energy.
awk -F, 'BEGIN { OFS = "," } /^#/ || $1 == "eps" { print; next } { $2 = $3; print }' \
  "$OUT/seed-1/ke-histogram.csv" >"$OUT/maxwell-boltzmann.csv"
check "the fit of beta returns 1.5 on the Maxwell–Boltzmann density itself" \
  "$(fitted_beta "$OUT/maxwell-boltzmann.csv" | awk '{ d = $1 - 1.5; print d < 0 ? -d : d }')" "<" 1e-9
for seed in $(seeds "$realisations"); do
  read -r _ worst final_ratio _ _ _ _ _ stationary_beta <"$OUT/seed-$seed/measured"
  check "seed $seed: energy conserved (relative deviation)" "$worst" "<" 2e-3
  check "seed $seed: collisions feed rotation: E_rot / E_trans at the end" "$final_ratio" ">" 0.05
  if [[ $REDUCED == 0 ]]; then
    check "seed $seed: stationary, Maxwell–Boltzmann-like (fitted beta above 1.2)" "$stationary_beta" ">" 1.2
    check "seed $seed: stationary, Maxwell–Boltzmann-like (fitted beta below 1.8)" "$stationary_beta" "<" 1.8
  fi
done
finish
