#!/usr/bin/env bash
# chosen_arrays_test.sh SPHERO PVPYTHON PLUGIN SCENE WORKDIR: runs SCENE
# without contacts and with contacts that leave out normal_force, and
# checks the plugin's filters on both (chosen_arrays_test.py).
set -euo pipefail
sphero=$1; pvpython=$2; plugin=$3; scene=$4; work=$5
here=$(cd "$(dirname "$0")" && pwd)
rm -rf "$work"; mkdir -p "$work"; cd "$work"
"$sphero" run "$scene" --quiet --output without-contacts --fields state,walls > /dev/null
"$sphero" run "$scene" --quiet --output chosen \
  --fields state,contacts:force_on_a,contact_normal,vertex_contacts,tangential_force,overlap,sliding,walls > /dev/null
grep -q 'NumberOfCells="[1-9]' chosen/contacts_*.vtu || { echo "the chosen run has no contacts: a weak test"; exit 1; }
"$pvpython" --no-mpi --force-offscreen-rendering "$here/chosen_arrays_test.py" --plugin "$plugin" \
  --without-contacts without-contacts --chosen chosen
