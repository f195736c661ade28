#!/usr/bin/env bash
# background_frames.sh SPHERO: with one engine thread `sphero run` writes
# its frames on a second thread; with two, in the foreground. The files are
# the same, byte for byte. A frame that cannot be written (a directory in
# its place) stops the run either way, naming the file, with the frames
# before it whole on disk and no final checkpoint; so does instability,
# with the same frames and last good state.
set -euo pipefail
sphero=$1
dir=background_frames
rm -rf "$dir"
mkdir -p "$dir"
"$sphero" run --quiet --output "$dir/one" --duration 0.5 --threads 1 > /dev/null
"$sphero" run --quiet --output "$dir/two" --duration 0.5 --threads 2 > /dev/null
files=0
for f in "$dir/one"/*; do
  "$(dirname "$0")/same_state.sh" "$f" "$dir/two/$(basename "$f")"
  files=$((files + 1))
done
[ "$files" -ge 30 ] || { echo "only $files files written"; exit 1; }
for threads in 1 2; do
  for blocked in 2 5; do
    out="$dir/blocked-$threads-$blocked"
    mkdir -p "$out/state_0000$blocked.vtu"
    if "$sphero" run --quiet --overwrite --output "$out" --duration 0.5 --threads "$threads" > /dev/null 2> "$out.err"; then
      echo "threads $threads: a frame that could not be written did not stop the run"
      exit 1
    fi
    grep -q "state_0000$blocked.vtu" "$out.err" || { cat "$out.err"; exit 1; }
    [ -f "$out/state_0000$((blocked - 1)).vtu" ] || { echo "threads $threads: frame $((blocked - 1)) missing"; exit 1; }
    [ ! -e "$out/final.ckpt" ] || { echo "threads $threads: final.ckpt after a failed frame"; exit 1; }
  done
done
# A run gone unstable (dt three times the stable limit, allowed) stops with
# exit status 3, its frames up to the last good one written either way.
for threads in 1 2; do
  status=0
  "$sphero" run --quiet --output "$dir/unstable-$threads" --dt 0.003 --allow_large_time_step true --threads "$threads" \
    > /dev/null 2> "$dir/unstable-$threads.err" || status=$?
  [ "$status" -eq 3 ] || { echo "threads $threads: exit $status, not 3"; cat "$dir/unstable-$threads.err"; exit 1; }
  grep -q "The last good state (t = .*) is frame [0-9]* (state_[0-9]*) in" "$dir/unstable-$threads.err"
done
cmp "$dir/unstable-1.err" <(sed "s/unstable-2/unstable-1/" "$dir/unstable-2.err")
for f in "$dir/unstable-1"/*; do "$(dirname "$0")/same_state.sh" "$f" "$dir/unstable-2/$(basename "$f")"; done
echo "background frames ok"
