#!/usr/bin/env bash
# render_test.sh PVPYTHON PLUGIN RUN_DIR OUTPUT.png: the ParaView force-chain
# figure script renders a run to a non-empty PNG, under one Xvfb started for
# this test (not xvfb-run per call, which was flaky here) and stopped after.
set -euo pipefail
pvpython=$1; plugin=$2; run=$3; output=$4
here=$(cd "$(dirname "$0")" && pwd)
# Xvfb picks a free display and writes its number to the given descriptor
# once it accepts connections (-displayfd): no guessing, no race.
ready=$(mktemp)
Xvfb -displayfd 3 -screen 0 1920x1200x24 -nolisten tcp 3> "$ready" > /dev/null 2>&1 &
xvfb=$!
trap 'kill $xvfb 2> /dev/null || true; rm -f "$ready"' EXIT
for _ in $(seq 600); do [ -s "$ready" ] && break; sleep 0.1; done  # a loaded machine can take seconds
display=$(tr -d '[:space:]' < "$ready")
[ -n "$display" ] || { echo "Xvfb did not start"; exit 1; }
rm -f "$output"
render() { DISPLAY=":$display" "$pvpython" --no-mpi "$here/../../docs/paraview/force_chains.py" --plugin "$plugin" --run "$run" -o "$output" --width 800; }
# Mesa's GLX under Xvfb has now and then, on a loaded machine, aborted in
# vtkXOpenGLRenderWindow::CreateAWindow before drawing anything: the
# harness's display, not the figure. One retry, said aloud.
if ! render; then
  echo "the first render failed (above); retrying once"
  render
fi
[ "$(head -c 8 "$output" | od -An -tx1 | tr -d ' \n')" = "89504e470d0a1a0a" ] || { echo "not a PNG"; exit 1; }
[ "$(stat -c %s "$output")" -gt 10000 ] || { echo "$output is nearly empty"; exit 1; }
width=$((16#$(od -An -tx1 -j16 -N4 "$output" | tr -d ' \n')))
[ "$width" -eq 800 ] || { echo "PNG is $width wide, not 800"; exit 1; }
echo "force-chain figure rendered: $output"
