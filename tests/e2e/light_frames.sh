#!/usr/bin/env bash
# light_frames.sh SPHERO SCENE WORKDIR: a run that writes the light set
# (state, contacts, walls) and one that writes every field hold the same
# shape table, state, contacts, walls, energy.csv and checkpoint to the
# byte, and `sphero analyze` and `sphero figure` give the same tables and
# images from either: the drawn outlines add nothing the analysis reads.
set -euo pipefail
sphero=$1; scene=$2; work=$3
fail() { echo "FAIL: $*"; exit 1; }
rm -rf "$work"; mkdir -p "$work"; cd "$work"
"$sphero" run "$scene" --quiet --output full --fields state,contacts,walls,contact_points,outlines >/dev/null
"$sphero" run "$scene" --quiet --output light --fields state,contacts,walls >/dev/null
for file in shapes.vtu energy.csv final.ckpt state.pvd; do "$(dirname "$0")/same_state.sh" "full/$file" "light/$file" || fail "$file differs"; done
for file in full/state_*.vtu full/contacts_*.vtu full/walls_*.vtu; do
  cmp -s "$file" "light/$(basename "$file")" || fail "$(basename "$file") differs"
done
ls light/outlines_* light/contact_points_* >/dev/null 2>&1 && fail "the light run drew outlines or vertex contacts"
grep -q '^fields = contacts,walls,state$' light/run.sphero || fail "light/run.sphero: $(cat light/run.sphero)"
"$sphero" analyze full --window 0,0,8,14 >/dev/null
"$sphero" analyze light --window 0,0,8,14 >/dev/null
for table in analysis.csv coordination.csv roses.csv shapes.csv ke_histogram.csv chains_00005.csv; do
  cmp -s "full/$table" "light/$table" || fail "$table differs: $(diff "full/$table" "light/$table" | head -3)"
done
last=$(($(grep -c '<DataSet' light/state.pvd) - 1))
for plot in network packing-map rose; do
  "$sphero" figure full --frame "$last" --plot "$plot" -o "full-$plot.png" >/dev/null
  "$sphero" figure light --frame "$last" --plot "$plot" -o "light-$plot.png" >/dev/null
  cmp -s "full-$plot.png" "light-$plot.png" || fail "the $plot figure differs"
done
# What the light set saves.
frame=$(printf '%05d' "$last")
light_bytes=$(cat light/{state,contacts,walls}_"$frame".vtu | wc -c)
full_bytes=$(cat full/*_"$frame".vtu | wc -c)
((2 * light_bytes < full_bytes)) || fail "a light frame of $light_bytes bytes against $full_bytes with every field"
# Single precision: the numbers of the frames in 32 bits, the bodies'
# placement in 64; what the analysis derives moves by float rounding only.
"$sphero" run "$scene" --quiet --output single --fields state,contacts,walls --precision single >/dev/null
grep -aq 'type="Float32" Name="velocity"' single/state_00003.vtu && grep -aq 'type="Float64" Name="angle"' single/state_00003.vtu ||
  fail "single precision: the state's velocity is not Float32 or its angle not Float64"
"$sphero" analyze single --window 0,0,8,14 >/dev/null
awk -F, 'FNR == 1 { ++file } /^#/ || /^frame/ { next }
  file == 1 { for (k = 1; k <= NF; ++k) double_[FNR, k] = $k; next }
  { for (k = 3; k <= NF; ++k) { d = $k - double_[FNR, k]; if (d < 0) d = -d; s = double_[FNR, k]; if (s < 0) s = -s
      if (d > 1e-5 * s + 1e-9) { print "single precision moves column " k " of row " FNR " from " double_[FNR, k] " to " $k; bad = 1 } } }
  END { exit bad }' light/analysis.csv single/analysis.csv || fail "single precision moved the analysis"
single_bytes=$(cat single/{state,contacts,walls}_"$frame".vtu | wc -c)
((single_bytes < light_bytes)) || fail "single precision wrote $single_bytes bytes a frame, not fewer than $light_bytes"
# Refused where a float would round points past their meaning.
{ cat "$scene"; echo 'wall = radius=0.05 points=1e6,0;1e6,1'; echo 'precision = single'; } > far.ini
sed -i "s#shape=\.\./\.\./\.\./data/#shape=$(cd "$(dirname "$scene")/../../../data" && pwd)/#" far.ini
if message=$("$sphero" run far.ini --check 2>&1); then fail "a scene 1e6 m wide was accepted in single precision"; fi
grep -q "far.ini: precision = single rounds a point" <<<"$message" || fail "far.ini: $message"
# Arrays chosen within files: the state keeps what its readers need and the
# chosen velocity; contacts:all adds what readers derive; the default
# contacts leave those out; the analysis refuses, by name, a run that left
# out what it reads.
grep -aq 'Name="force_magnitude"' light/contacts_00003.vtu && fail "the default contacts wrote force_magnitude"
grep -aq 'Name="branch_vector"' light/contacts_00003.vtu && fail "the default contacts wrote branch_vector"
"$sphero" run "$scene" --quiet --output chosen --fields state:velocity,contacts:all,walls >/dev/null
arrays() { grep -ao 'Name="[a-z_]*"' "$1" | sed 's/Name="\(.*\)"/\1/' | LC_ALL=C sort | tr '\n' ' '; }
# The imposed motions in use are kept (the walls are held; nothing else
# is imposed).
chosen_state="angle connectivity density held id material offsets shape shape_table"
chosen_state+=" sphero_state_format types velocity wall "
[[ "$(arrays chosen/state_00003.vtu)" == "$chosen_state" ]] ||
  fail "state:velocity wrote $(arrays chosen/state_00003.vtu)"
for name in force_magnitude branch_vector force_on_a contact_normal; do
  grep -aq "Name=\"$name\"" chosen/contacts_00003.vtu || fail "contacts:all left out $name"
done
cmp -s light/walls_00003.vtu chosen/walls_00003.vtu || fail "choosing arrays elsewhere changed the walls"
if message=$("$sphero" analyze chosen 2>&1); then fail "analyze read a run without the stresses"; fi
grep -q "left out state:angular_velocity, state:coordination_number, state:stress_compression_positive" <<<"$message" ||
  fail "analyze on chosen arrays: $message"
if message=$("$sphero" run "$scene" --check --fields state:speed 2>&1); then fail "state:speed was accepted"; fi
grep -q "the field state has no array 'speed'; its arrays are position, id," <<<"$message" || fail "state:speed: $message"
echo "light frames ok: $light_bytes bytes a frame, $single_bytes in single precision, $full_bytes with every field"
