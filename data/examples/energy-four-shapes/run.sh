#!/usr/bin/env bash
# Energy conservation with four shapes and both integrators: the relative
# energy error of each run. See data/examples/README.md and docs/VALIDATION.md.
#
# Two variants: the parameters as published (k = 1, dt = 0.05), and the
# same gas with k = 2000 and dt scaled to keep dt / contact period (1/110):
# at k = 1 and speed 1 the overlaps, v sqrt(m / k) ~ 0.9, exceed the
# sphero-radii (0.15 to 0.5), skeletons cross and the forces stop deriving
# from a potential; at k = 2000 the overlaps stay under a fifth of them.
source "$(dirname "$0")/../common.sh"

if [[ $REDUCED == 1 ]]; then
  count=100 box=20.5 duration_given=100 duration_stiff=10  # a quarter of the grains and of the box
else
  count=400 box=41 duration_given=1000 duration_stiff=100
fi
table=$OUT/energy-errors.csv
echo "variant,shape,integrator,largest_relative_energy_error,final_relative_energy_error,deepest_overlap" >"$table"
walls=$(awk -v b="$box" 'BEGIN { c = b + 0.5; printf "-0.5,-0.5;%g,-0.5;%g,%g;-0.5,%g;-0.5,-0.5", c, c, c, c }')
sed "s/^wall = .*/wall = radius=0.5 points=$walls/" "$EXAMPLE_DIR/scene.ini" >"$OUT/scene-given.ini"
sed 's/^law = .*/law = 0 0 linear kn=2000/; s/^dt = .*/dt = 1.118e-3/' "$OUT/scene-given.ini" >"$OUT/scene-stiff.ini"
for shape in disk rice peanut pebble; do
  mkdir -p "$OUT/$shape"
  sphero pack gas --box "0,0,$box,$box" --shape "$EXAMPLE_DIR/../../shapes/$shape.shape" --count "$count" \
    --packing-fraction 0.186 --spread 0.1 --speed 1 --seed 1 -o "$OUT/$shape/gas.vtu" >/dev/null
  for variant in given stiff; do
    duration=$duration_given
    [[ $variant == stiff ]] && duration=$duration_stiff
    for integrator in verlet gear; do
      run=$OUT/$shape/$variant-$integrator
      summary=$(sphero run "$OUT/scene-$variant.ini" --packing "$OUT/$shape/gas.vtu" --integrator "$integrator" \
        --duration "$duration" --output "$run" --overwrite --quiet 2>&1)
      deepest=$(sed -n 's/.*deepest overlap \([^ ]*\) of.*/\1/p' <<<"$summary")
      read -r worst final < <(csv "$run/energy.csv" mechanical_J |
        awk 'NR == 1 { e0 = $1 } { d = $1 - e0; if (d < 0) d = -d; if (d > w) w = d; last = $1 - e0 }
             END { printf "%.4g %.4g\n", w / e0, last / e0 }')
      echo "$variant,$shape,$integrator,$worst,$final,$deepest" >>"$table"
      result "${variant}_${shape}_${integrator}_largest_relative_energy_error" "$worst" "max over frames of |E - E0| / E0"
      result "${variant}_${shape}_${integrator}_deepest_overlap" "$deepest" "deepest overlap / sum of the sphero-radii"
    done
  done
done
sphero figure "$OUT/peanut/given-verlet" --plot energy -o "$OUT/energy-peanuts-given.png" --title "Peanuts, k = 1, velocity Verlet"
sphero figure "$OUT/peanut/stiff-verlet" --plot energy -o "$OUT/energy-peanuts-stiff.png" --title "Peanuts, k = 2000, velocity Verlet"

# With the overlaps small (k = 2000), dt = 1/110 of the contact period
# leaves Verlet a bounded error of order (omega dt)^2 = 3e-3 of the energy
# stored in contacts, a fraction of the total in this dilute gas; Gear's
# fourth-order predictor-corrector is accurate while no contact opens or
# closes but is not symplectic. 1e-2 flags a sign, a factor or a missing
# torque (errors of order 1). (Before the corner contacts were made
# continuous, rice, peanuts and pebbles gained 2-4% here, whatever dt: a
# vertex sliding off an edge's end lost its contact with a finite overlap;
# now 5e-4 to 1e-3.) As published (k = 1) the runs are reported,
# not checked: head-on at relative speed 2 even two disks overlap by
# 2 sqrt(m*/k) = 1.25 > 1, the sum of their radii, and pass through each
# other (and through the walls).
while IFS=, read -r variant shape integrator worst final deepest; do
  [[ $variant == variant ]] && continue
  if [[ $variant == stiff ]]; then
    check "$variant, $shape, $integrator: energy conserved (largest relative error)" "$worst" "<" 1e-2
  fi
  if [[ $variant == stiff ]]; then
    check "$variant, $shape, $integrator: skeletons kept apart (deepest overlap / sum of radii)" "$deepest" "<" 0.5
  fi
done <"$table"
finish
