#!/usr/bin/env bash
# The bouncing cow: energy terms over time and the largest relative
# deviation of the total (mechanical) energy. See data/examples/README.md and docs/VALIDATION.md.
source "$(dirname "$0")/../common.sh"

duration=10
[[ $REDUCED == 1 ]] && duration=1.5  # two impacts on the landscape
sphero run "$EXAMPLE_DIR/scene.ini" --output "$OUT/run" --duration "$duration" --overwrite --quiet
sphero figure "$OUT/run" --plot energy -o "$OUT/energy.png" --title "Bouncing cow"
sphero figure "$OUT/run" --plot network --frame last -o "$OUT/last-frame.png" --title "Bouncing cow"

# E0 is the initial mechanical energy (at rest: m g h above the landscape's
# lowest skeleton point); the deviation is taken over every frame (0.01 s).
# A bounce is a minimum of the height (gravitational energy): contacts last
# a few milliseconds, shorter than the frame interval, so they are seen by
# what they do.
read -r e0 worst bounces kmax < <(csv "$OUT/run/energy.csv" mechanical_J gravitational_J kinetic_translational_J |
  awk 'NR == 1 { e0 = $1 } { d = $1 - e0; if (d < 0) d = -d; if (d > worst) worst = d
       if (NR > 2 && previous < before && $2 > previous) ++bounces; before = previous; previous = $2
       if ($3 > k) k = $3 }
       END { printf "%.10g %.6g %d %.6g\n", e0, worst / e0, bounces, k }')
result initial_energy_J "$e0" "mechanical energy at rest (m g h)"
result largest_relative_energy_deviation "$worst" "max over frames of |E(t) - E0| / E0"
result bounces "$bounces" "minima of the cow's height"
result largest_translational_kinetic_J "$kmax" "the energy exchanged with gravity"

# Velocity Verlet is symplectic: its energy error stays bounded, of order
# (omega dt)^2 of the energy in the contact, omega = sqrt(kn/m) = 1.2e3 /s
# here, (omega dt)^2 = 1.5e-4. A wrong sign, factor or missing torque gives
# errors of order 1.
check "the cow bounced off the landscape" "$bounces" ">=" 1
check "energy conserved (relative deviation)" "$worst" "<" 1e-3
finish
