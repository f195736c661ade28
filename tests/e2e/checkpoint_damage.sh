#!/usr/bin/env bash
# checkpoint_damage.sh SPHERO SCENE RUN_DIR WORKDIR: a checkpoint with any byte
# changed, or cut short, is refused by its checksum; one whose bodies, laws,
# gravity or time step differ from the scene's is refused by name; what a
# restart may change (duration) it changes.
set -euo pipefail
sphero=$1; scene=$2; run=$3; work=$4
source "$(cd "$(dirname "$0")" && pwd)/expect_lib.sh"
rm -rf "$work"; mkdir -p "$work"
good=$run/final.ckpt
size=$(stat -c %s "$good")

# One byte changed at a time, at 24 places spread through the file.
for k in $(seq 1 24); do
  offset=$(( (size - 1) * k / 25 ))
  cp "$good" "$work/flipped.ckpt"
  byte=$(od -An -tu1 -j "$offset" -N1 "$good" | tr -d ' ')
  printf "$(printf '\\%03o' $(( byte ^ 1 )))" | dd of="$work/flipped.ckpt" bs=1 seek="$offset" conv=notrunc status=none
  expect "flip-at-$offset" "not a usable Sphero checkpoint" \
    "$sphero" run "$scene" --quiet --output "$work/out-$k" --restart "$work/flipped.ckpt" --duration 0.6
done
head -c $(( size / 2 )) "$good" > "$work/half.ckpt"
expect truncated "not a usable Sphero checkpoint" "$sphero" run "$scene" --quiet --output "$work/t" --restart "$work/half.ckpt"
printf 'SPHEROCK' > "$work/header-only.ckpt"
expect header-only "not a usable Sphero checkpoint" "$sphero" run "$scene" --quiet --output "$work/h" --restart "$work/header-only.ckpt"

# The scene it continues under must make the same bodies, laws, gravity and step.
expect other-dt "dt is" "$sphero" run "$scene" --quiet --output "$work/d" --restart "$good" --dt 1e-5
expect other-gravity "(gravity)" "$sphero" run "$scene" --quiet --output "$work/g" --restart "$good" --gravity 0,-1
sed 's/law = 0 0 linear kn=1e4/law = 0 0 linear kn=2e4/' "$scene" > "$work/stiffer.ini"
sed -i "s|\.\./\.\./\.\./data|$(cd "$(dirname "$scene")/../../../data" && pwd)|" "$work/stiffer.ini"
expect other-law "the law between materials 0 and 0 differs (law)" \
  "$sphero" run "$work/stiffer.ini" --quiet --output "$work/l" --restart "$good"
sed 's/count=12 /count=11 /' "$work/stiffer.ini" | sed 's/kn=2e4/kn=1e4/' > "$work/fewer.ini"
expect other-bodies "it holds 21 bodies, the scene makes 20" "$sphero" run "$work/fewer.ini" --quiet --output "$work/b" --restart "$good"

# Continuing into the run's own folder reads its frames and energy.csv:
# damaged, they are named, not trusted.
cp -r "$run" "$work/bad-pvd"
sed -i '0,/timestep="[^"]*"/{s/timestep="[^"]*"/timestep="soon"/}' "$work/bad-pvd/state.pvd"
expect restart-bad-pvd "without a finite timestep" \
  "$sphero" run "$scene" --quiet --output "$work/bad-pvd" --restart "$work/bad-pvd/final.ckpt" --duration 0.6
cp -r "$run" "$work/bad-energy"
sed -i '0,/^[0-9]/{s/^[0-9][^,]*,/zero,/}' "$work/bad-energy/energy.csv"
expect restart-bad-energy "a row that does not start with a time; the run's energy.csv is damaged" \
  "$sphero" run "$scene" --quiet --output "$work/bad-energy" --restart "$work/bad-energy/final.ckpt" --duration 0.6
cp -r "$run" "$work/old-columns"
sed -i 's/,deepest_overlap_so_far//' "$work/old-columns/energy.csv"
expect restart-old-columns "the columns differ from those this run writes" \
  "$sphero" run "$scene" --quiet --output "$work/old-columns" --restart "$work/old-columns/final.ckpt" --duration 0.6

# A longer duration is honoured.
cp -r "$run" "$work/longer"
"$sphero" run "$scene" --quiet --output "$work/longer" --restart "$work/longer/final.ckpt" --duration 0.6 > "$work/longer.txt" || true
grep -qE "done, t = 0\.(59|6)" "$work/longer.txt" || { echo "FAIL longer: $(cat "$work/longer.txt")"; failures=$((failures + 1)); }

finish && echo "checkpoints checked"
