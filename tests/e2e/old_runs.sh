#!/usr/bin/env bash
# old_runs.sh SPHERO DATA_DIR WORKDIR: a run written before light frames
# (tests/e2e/old_runs/format3: manifest format 3, drawn outlines in
# particles_NNNNN.vtu, format-1 state frames, a version-13 checkpoint)
# still reads: sphero analyze and sphero figure take it as before, and its
# checkpoint restarts, as a branch that writes light frames.
set -euo pipefail
sphero=$1; data=$2; work=$3
here=$(cd "$(dirname "$0")" && pwd)
fail() { echo "FAIL: $*"; exit 1; }
rm -rf "$work"; mkdir -p "$work"; cd "$work"
cp -r "$here/old_runs/format3" old
"$sphero" analyze old --window 0,0,8,14 >/dev/null || fail "sphero analyze refused the old run"
[[ $(grep -c '^[0-9]' old/analysis.csv) == 3 ]] || fail "analysis.csv: $(grep -c '^[0-9]' old/analysis.csv) rows, not 3"
"$sphero" analyze old --frames 2:2 --add-fields >/dev/null || fail "--add-fields refused the old run"
grep -aq 'Name="local_packing_fraction"' old/particles_00002.vtu || fail "--add-fields did not reach particles_00002.vtu"
"$sphero" figure old -o network.png >/dev/null && [ -s network.png ] || fail "sphero figure refused the old run"
# The scene the checkpoint was written under, fields by their old names.
sed -e "s#shape=[^ ]*/shapes/#shape=$data/shapes/#" -e 's/^fields = .*/fields = particles,contacts,walls,state,contact_points/' \
  "$here/scenes/small.ini" > scene.ini
"$sphero" run scene.ini --restart old/final.ckpt --output branch --duration 0.2 --quiet >/dev/null ||
  fail "the version-13 checkpoint did not restart"
grep -q '^format = 6$' branch/run.sphero && [ -s branch/shapes.vtu ] && [ -s branch/outlines_00000.vtu ] ||
  fail "the branch did not write light frames: $(ls branch | head)"
# A checkpoint from before runs had identities restarts as a run of its own.
grep -Eq '^run = [0-9a-f]{32}$' branch/run.sphero && ! grep -q '^parent' branch/run.sphero ||
  fail "the old checkpoint's restart has no identity of its own: $(cat branch/run.sphero)"
"$sphero" analyze branch >/dev/null || fail "sphero analyze refused the branch"
echo "old runs read"
