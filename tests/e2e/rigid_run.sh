#!/usr/bin/env bash
# rigid_run.sh SPHERO SCENE WORKDIR: a rigid run (model = rigid) writes the
# soft runs' files and more — contacts.vtu with the percussions, energy.csv
# with the collisions' dissipation — which analyze and figure read
# unchanged; --check lists its solver and laws; it continues bit for bit
# from its checkpoint, and gives the same bits with 1 and 2 threads.
set -euo pipefail
sphero=$1; scene=$2; work=$3
rm -rf "$work"; mkdir -p "$work"
"$sphero" run "$scene" --output "$work/straight" > "$work/summary.txt"
grep -q "collisions: .* steps with contacts" "$work/summary.txt"
last=$(ls "$work/straight"/contacts_*.vtu | tail -n 1)
for array in percussion_on_a normal_percussion tangential_percussion force_on_a; do
  grep -q "Name=\"$array\"" "$last" || { echo "no $array in $last"; exit 1; }
done
# The collisions dissipated energy, and never gave any back.
awk -F, '/^#/ || /^time/ { next } { d = $10; if (d < last - 1e-12) bad = 1; last = d }
  END { if (bad || last <= 0) { print "damping_dissipation_J fell or stayed at zero: " last; exit 1 } }' "$work/straight/energy.csv"
"$sphero" analyze "$work/straight" --no-local-packing > /dev/null
test -s "$work/straight/analysis.csv"
"$sphero" figure "$work/straight" -o "$work/network.png" > /dev/null
test -s "$work/network.png"
# --check lists the solver and the laws.
"$sphero" run "$scene" --check > "$work/check.txt"
grep -q "^  rigid model: gauss_seidel, tolerance 1e-06, contact gap" "$work/check.txt"
grep -q "^    0 0: restitution 0.3" "$work/check.txt"
# Restart: half, then the rest from the checkpoint.
"$sphero" run "$scene" --quiet --output "$work/split" --duration 0.5 > /dev/null
"$sphero" run "$scene" --quiet --output "$work/split" --restart "$work/split/final.ckpt" > /dev/null
"$(dirname "$0")/same_state.sh" "$work/straight/final.ckpt" "$work/split/final.ckpt"
# A restart under another tolerance of the collision programs is refused, by name.
if "$sphero" run "$scene" --quiet --output "$work/split" --restart "$work/split/final.ckpt" --duration 1.5 \
    --rigid_tolerance 1e-7 > /dev/null 2> "$work/tolerance.txt"; then
  echo "a restart under another rigid_tolerance was accepted"; exit 1
fi
grep -q "the collision programs' tolerance is 1e-06 there, 1e-07 here (rigid_tolerance)" "$work/tolerance.txt"
# Threads.
"$sphero" run "$scene" --quiet --output "$work/threads" --threads 2 > /dev/null
"$(dirname "$0")/same_state.sh" "$work/straight/final.ckpt" "$work/threads/final.ckpt"
echo "rigid run: percussions in contacts.vtu, dissipation booked, analyze and figure read it, restart and threads bit-exact"
