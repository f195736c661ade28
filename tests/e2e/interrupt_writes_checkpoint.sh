#!/usr/bin/env bash
# interrupt_writes_checkpoint.sh SPHERO SCENE WORKDIR: Ctrl-C (SIGINT) stops a
# run within half a second with a checkpoint and the command to continue;
# continuing works.
set -uo pipefail
sphero=$1; scene=$2; work=$3
rm -rf "$work"; mkdir -p "$work"
"$sphero" run "$scene" --quiet --output "$work/out" --duration 1000 > "$work/stdout" 2> "$work/stderr" &
pid=$!
sleep 2
sent=$(date +%s.%N)
kill -INT $pid
wait $pid; status=$?
latency=$(awk -v a="$sent" -v b="$(date +%s.%N)" 'BEGIN { printf "%.3f", b - a }')
[ $status -eq 130 ] || { echo "exit status $status, expected 130"; cat "$work/stderr"; exit 1; }
# Within half a second of the signal, the checkpoint written.
awk -v l="$latency" 'BEGIN { exit !(l < 0.5) }' || { echo "the run took $latency s to stop"; exit 1; }
grep -q "stopped by signal 2 at t = " "$work/stderr" || { echo "no message"; cat "$work/stderr"; exit 1; }
grep -q -- "--restart $work/out/checkpoint.ckpt" "$work/stderr" || { echo "no restart hint"; cat "$work/stderr"; exit 1; }
[ -s "$work/out/checkpoint.ckpt" ] || { echo "no checkpoint"; exit 1; }
# Continue a little further than where it stopped.
stopped=$(sed -n 's/.*at t = \([0-9.e+-]*\) s.*/\1/p' "$work/stderr")
until=$(awk -v t="$stopped" 'BEGIN { print t + 0.1 }')
# Follow the printed command as it is (from another folder, where a missing
# --output would write elsewhere), with only a shorter duration.
hint=$(sed -n '/continue with/{n;p}' "$work/stderr")
grep -q -- "--output $work/out " <<<"$hint" || { echo "the hint lacks --output: $hint"; exit 1; }
hint=${hint/--duration 1000/--duration $until}
(cd / && eval "${hint/sphero /\"$sphero\" } --quiet") > "$work/continued" \
  || { echo "following the hint failed: $hint"; exit 1; }
grep -q "done, t = " "$work/continued" || { echo "continuation did not finish"; cat "$work/continued"; exit 1; }
echo "interrupted at t = $stopped in $latency s, continued to $until"
