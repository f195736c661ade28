#!/usr/bin/env bash
# walls_by_name.sh SPHERO DATA_DIR WORKDIR: a compressed sample's plates are
# named and keep their pressure; set_wall and span= take names; energy.csv
# names the walls' columns and gives a plate's load beside the grains'
# force; --check lists the walls and the sources; a list key on the command
# line replaces the scene's.
set -euo pipefail
sphero=$1; data=$2; work=$3
rm -rf "$work"; mkdir -p "$work"; cd "$work"
fail() { echo "FAIL: $*"; exit 1; }

"$sphero" pack gas --box 0,0,12,12 --shape "$data/shapes/disk.shape" --shape "$data/shapes/pebble.shape" --count 40 \
  --packing-fraction 0.3 --spread 0.2 -o gas.vtu >/dev/null
"$sphero" pack compress --packing gas.vtu --pressure 100 --kn 1e5 --kt 5e4 --mu 0.5 -o dense.vtu >/dev/null
printf 'duration = 0.2\nlaw = 0 0 linear kn=1e5 kt=5e4 mu=0.5 gamma_n=20\npacking = dense.vtu\noutput_interval = 0.02\n' \
  >dense.ini

check=$("$sphero" run dense.ini --check)
for line in "40 left: pressure 100 N/m inward (1, 0) over the span between bottom and top, material 0" \
  "43 top: pressure 100 N/m inward (0, -1) over the span between left and right, material 0" \
  "packing dense.vtu (dense.ini:3): 40 grains, 4 walls"; do
  grep -qF -- "$line" <<<"$check" || fail "--check does not list '$line':"$'\n'"$check"
done

# The top plate driven down, by name; the others keep their pressure.
"$sphero" run dense.ini --quiet --set_wall "top velocity=0,-0.01" --set_wall "left pressure=100 inward=1,0 span=bottom,top"
header=$(sed -n 2p sphero-output/energy.csv)
for column in left_fx_N left_fy_N left_x_m left_y_m left_load_fx_N left_load_fy_N top_fx_N top_fy_N top_x_m top_y_m; do
  grep -qE "(^|,)$column(,|$)" <<<"$header" || fail "energy.csv has no column $column: $header"
done
grep -q "top_load" <<<"$header" && fail "the driven top plate has load columns: $header"
# A quasi-static pressure plate: the grains push it back with its load.
awk -F, -v header="$header" 'NR == 1 { n = split(header, names, ","); for (k = 1; k <= n; ++k) at[names[k]] = k; next }
  NR > 2 { f = $at["left_fx_N"]; load = $at["left_load_fx_N"]
           if (!(load > 0) || (f + load) * (f + load) > (0.02 * load) ^ 2) { print "row " NR ": fx " f ", load " load; bad = 1 }
           if ($at["top_fy_N"] <= 0) { print "row " NR ": the grains pull the top plate down: " $at["top_fy_N"]; bad = 1 } }
  END { exit bad }' sphero-output/energy.csv || fail "the plates' forces are not the grains' reaction to their loads"
grep -q "^format = 6$" sphero-output/run.sphero || fail "run.sphero is not format 6"

# The biaxial plots find the plates by name: the top driven down 0.002 m
# over a span of about 12 m, the sides held at their pressure.
summary=$("$sphero" figure sphero-output --plot volumetric-strain -o volumetric.png)
[ -s volumetric.png ] || fail "no volumetric-strain figure"
axial=$(sed -n 's/.*axial strain \([^,]*\),.*/\1/p' <<<"$summary")
awk -v a="$axial" 'BEGIN { exit !(a > 5e-5 && a < 5e-4) }' || fail "axial strain $axial from the plates: $summary"
"$sphero" figure sphero-output --plot stress-ratio -o ratio.png | grep -q "q/p" || fail "no stress-ratio summary"
[ -s ratio.png ] || fail "no stress-ratio figure"

# --packing on the command line replaces the scene's packing.
"$sphero" run dense.ini --packing gas.vtu --check | grep -q "valid. 40 grains, 0 walls" ||
  fail "--packing added to the scene's packing instead of replacing it"
"$sphero" run dense.ini --packing gas.vtu --add-wall "radius=0.1 points=-1,-1;13,-1" --set_wall "wall0 fixed" --check |
  grep -qF "0 wall0: fixed" || fail "an unnamed wall is not known as wallN"
echo "walls by name ok"
