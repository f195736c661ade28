#!/usr/bin/env bash
# The bouncing cow: energy terms over time and the largest relative
# deviation of the total (mechanical) energy, for velocity Verlet and Gear
# over halvings of the time step (the published one is 1e-5 s): a table, a
# log-log plot and the observed orders. See data/examples/README.md and
# docs/VALIDATION.md.
source "$(dirname "$0")/../common.sh"

if [[ $REDUCED == 1 ]]; then
  duration=1.5 steps="2e-5 1e-5 5e-6"  # two impacts on the landscape
else
  duration=10 steps="4e-5 2e-5 1e-5 5e-6 2.5e-6"
fi
reference_dt=1e-5

# cow_case INTEGRATOR DT DIR: the run, and DIR/measured: "E0 largest
# relative deviation, bounces, largest translational kinetic energy".
# E0 is the initial mechanical energy (at rest: m g h above the landscape's
# lowest skeleton point); the deviation is taken over every frame (0.01 s).
# A bounce is a minimum of the height (gravitational energy): contacts last
# a few milliseconds, shorter than the frame interval, so they are seen by
# what they do.
cow_case() {
  local integrator=$1 dt=$2 dir=$3
  sphero run "$EXAMPLE_DIR/scene.ini" --output "$dir/run" --duration "$duration" --integrator "$integrator" --dt "$dt" \
    --overwrite --quiet
  csv "$dir/run/energy.csv" mechanical_J gravitational_J kinetic_translational_J |
    awk 'NR == 1 { e0 = $1 } { d = $1 - e0; if (d < 0) d = -d; if (d > worst) worst = d
         if (NR > 2 && previous < before && $2 > previous) ++bounces; before = previous; previous = $2
         if ($3 > k) k = $3 }
         END { printf "%.10g %.6g %d %.6g\n", e0, worst / e0, bounces, k }' >"$dir/measured"
}

for integrator in verlet gear; do
  for dt in $steps; do run_case "$integrator-dt$dt" cow_case "$integrator" "$dt"; done
done
cases_finished

reference=$OUT/verlet-dt$reference_dt
sphero figure "$reference/run" --plot energy -o "$OUT/energy.png" --title "Bouncing cow, velocity Verlet, dt = $reference_dt s"
sphero figure "$reference/run" --plot network --frame last -o "$OUT/last-frame.png" --title "Bouncing cow"
page_figure "$OUT/energy.png" energy
read -r e0 worst bounces kmax <"$reference/measured"
result initial_energy_J "$e0" "mechanical energy at rest (m g h)"
result largest_relative_energy_deviation "$worst" "max over frames of |E(t) - E0| / E0, Verlet, dt = $reference_dt s"
result bounces "$bounces" "minima of the cow's height"
result largest_translational_kinetic_J "$kmax" "the energy exchanged with gravity"

# The convergence table: the error per integrator and dt, the order between
# successive halvings, the least-squares slope of log(error) against log(dt),
# and the largest dt whose error is under the published 1e-6.
table=$OUT/convergence.csv
echo "integrator,dt_s,largest_relative_energy_error,bounces" >"$table"
for integrator in verlet gear; do
  for dt in $steps; do
    read -r _ error count _ <"$OUT/$integrator-dt$dt/measured"
    echo "$integrator,$dt,$error,$count" >>"$table"
  done
done
# order_of INTEGRATOR: "slope dt_at_1e-6" over the table's rows.
order_of() { awk -F, -v who="$1" '$1 == who { print $2, $3 }' "$table" | order_in_dt 1e-6; }
for integrator in verlet gear; do
  read -r slope at <<<"$(order_of "$integrator")"
  result "${integrator}_observed_order" "$slope" "slope of log(largest energy error) against log(dt), dt = ${steps// /, } s"
  result "${integrator}_dt_under_1e-6" "$at" "the largest dt whose energy error is at most 1e-6"
done
sphero plot "$table" --x dt_s --y largest_relative_energy_error --by integrator --style markers --log-x --log-y \
  --x-label "time step (s)" --y-label "largest |E - E0| / E0 over $duration s" \
  --title "Bouncing cow: energy error against the time step" -o "$OUT/convergence.png"
page_figure "$OUT/convergence.png" convergence
{
  echo "| dt (s) | Verlet: largest \|ΔE\|/E₀ | order | Gear: largest \|ΔE\|/E₀ | order |"
  echo "| --- | --- | --- | --- | --- |"
  awk -F, 'NR > 1 { e[$1, $2] = $3; if (!seen[$2]++) dts[++n] = $2 }
    function order(who, k) { return k > 1 ? sprintf("%.2f", log(e[who, dts[k - 1]] / e[who, dts[k]]) / log(dts[k - 1] / dts[k])) : "" }
    END { for (k = 1; k <= n; ++k)
            printf "| %s | %.2e | %s | %.2e | %s |\n", dts[k], e["verlet", dts[k]], order("verlet", k),
                   e["gear", dts[k]], order("gear", k) }' "$table"
  read -r vs va <<<"$(order_of verlet)"
  read -r gs ga <<<"$(order_of gear)"
  echo "| slope, fitted | | **$vs** | | **$gs** |"
  echo "| largest dt with error ≤ 10⁻⁶ | $va | | $ga | |"
} | page_table convergence

{
  read -r vs va <<<"$(order_of verlet)"
  read -r gs ga <<<"$(order_of gear)"
  echo "| bouncing cow, $duration s | largest \|E − E₀\|/E₀ $(printf '%.2g' "$worst") at dt = $reference_dt s (Verlet); fitted order in dt: Verlet $vs, Gear $gs; at most 10⁻⁶ from dt = $va (Verlet), $ga (Gear) | bounded, falling with dt |"
} | page_table summary

# Velocity Verlet is symplectic: its energy error stays bounded, of order
# (omega dt)^2 of the energy in the contact, omega = sqrt(kn/m) = 1.2e3 /s
# here, (omega dt)^2 = 1.5e-4 at dt = 1e-5. A wrong sign, factor or missing
# torque gives errors of order 1, and a force that does not derive from a
# potential an error that does not fall with dt.
check "the cow bounced off the landscape" "$bounces" ">=" 1
check "energy conserved (relative deviation, Verlet, dt = $reference_dt s)" "$worst" "<" 1e-3
read -r slope _ <<<"$(order_of verlet)"
check "Verlet's energy error falls with dt at second order (fitted slope)" "$slope" ">" 1.7
finish
