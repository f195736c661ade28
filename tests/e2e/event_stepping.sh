#!/usr/bin/env bash
# event_stepping.sh SPHERO SCENE WORKDIR: a rigid run stepped from
# collision to collision (stepping = events) through a hopper: it
# finishes, says how many collisions were events and what share of the
# grains' steps was flown and time-stepped, dissipates energy without ever giving it back, and
# continues bit for bit from its checkpoint (which refuses another scheme
# of stepping) and with two threads. A piston
# driven at 500 m/s (half a metre a step) strikes the disk in its way with
# events, and is refused with time steps.
set -euo pipefail
sphero=$1; scene=$2; work=$3
rm -rf "$work"; mkdir -p "$work"
"$sphero" run "$scene" --output "$work/straight" > "$work/summary.txt"
grep -qE "events: [1-9][0-9]* collisions met at their instants; [0-9.]+% of the body-steps flown by events, [0-9.]+% time-stepped \(clusters of resting contacts\); [0-9]+ of the 1500 steps handed" "$work/summary.txt" ||
  { cat "$work/summary.txt"; exit 1; }
awk -F, '/^#/ || /^time/ { next } { d = $10; if (d < last - 1e-12) bad = 1; last = d }
  END { if (bad || last <= 0) { print "damping_dissipation_J fell or stayed at zero: " last; exit 1 } }' "$work/straight/energy.csv"
"$sphero" run "$scene" --quiet --output "$work/split" --duration 0.75 > /dev/null
"$sphero" run "$scene" --quiet --output "$work/split" --restart "$work/split/final.ckpt" > /dev/null
"$(dirname "$0")/same_state.sh" "$work/straight/final.ckpt" "$work/split/final.ckpt"
"$sphero" run "$scene" --quiet --output "$work/threads" --threads 2 > /dev/null
"$(dirname "$0")/same_state.sh" "$work/straight/final.ckpt" "$work/threads/final.ckpt"
if "$sphero" run "$scene" --quiet --output "$work/split" --restart "$work/split/final.ckpt" --stepping steps \
  --duration 2 2> "$work/error.txt"; then exit 1; fi
grep -q "the scene asks for stepping = steps (stepping)" "$work/error.txt"
if "$sphero" run "$scene" --quiet --output "$work/split" --restart "$work/split/final.ckpt" \
  --stepping events_whole_steps --duration 2 2> "$work/error.txt"; then exit 1; fi
grep -q "(stepping = events), the scene asks for stepping = events_whole_steps (stepping)" "$work/error.txt"
if "$sphero" run "$scene" --check --model soft 2> "$work/error.txt"; then exit 1; fi
grep -q "stepping: belongs to the rigid model" "$work/error.txt"
disk=$(cd "$(dirname "$scene")" && pwd)/../../../data/shapes/disk.shape
printf 'model = rigid\nstepping = events\nduration = 0.02\ndt = 1e-3\nlaw = 0 0 rigid restitution=0.5\nwall = radius=0.1 points=0,-3;0,3 velocity=500,0\ngrains = shape=%s count=1 region=3,-1,5,1\noutput_interval = 0.01\n' \
  "$disk" > "$work/piston.ini"
"$sphero" run "$work/piston.ini" --output "$work/piston" > "$work/piston.txt"
grep -qE "events: 1 collisions met at their instants; 100.0% of the body-steps flown by events, 0.0% time-stepped \(clusters of resting contacts\); 0 of the 20 steps handed to the time-stepping .*; [1-9][0-9]* lists made anew" \
  "$work/piston.txt" || { cat "$work/piston.txt"; exit 1; }
if "$sphero" run "$work/piston.ini" --check --stepping steps 2> "$work/error.txt"; then exit 1; fi
grep -q "moves 0.5 m in one step of 0.001 s" "$work/error.txt" || { cat "$work/error.txt"; exit 1; }
echo "event stepping: events and time-stepped shares reported, dissipation booked, restart and threads bit-exact, a fast piston swept"
