#!/usr/bin/env bash
# run_reader_test.sh SPHERO PVPYTHON PLUGIN SHAPES WORKDIR [rigid | ranks
# MPIEXEC | old RUN]: makes a small static, loaded sample (so that it has
# stresses and force chains), runs it with frames (with the rigid model, or
# on 2 MPI ranks, which write each frame in pieces, when asked; or takes a
# copy of RUN, a run written before light frames), analyses it with
# sphero analyze --add-fields and sphero coarse-grain, and checks the
# plugin's reader and filters against them in pvpython.
set -euo pipefail
sphero=$1; pvpython=$2; plugin=$3; shapes=$4; work=$5; model=${6:-soft}; mpiexec=${7:-}; old_run=${7:-}
here=$(cd "$(dirname "$0")" && pwd)
rm -rf "$work"; mkdir -p "$work"; cd "$work"
if [[ $model == old ]]; then
  cp -r "$old_run" sphero-output
else
  "$sphero" pack gas --box 0,0,12,12 --shape "$shapes/disk.shape" --shape "$shapes/pebble.shape" \
    --shape "$shapes/peanut.shape" --count 60 --packing-fraction 0.3 --spread 0.2 -o gas.vtu > /dev/null
  "$sphero" pack compress --packing gas.vtu --pressure 100 --kn 1e5 --kt 5e4 --mu 0.5 -o dense.vtu > /dev/null
  if [[ $model == rigid ]]; then
    # The same sample as rigid grains under gravity, its pressure plates held
    # (the rigid model moves walls at imposed velocities) and its gap above
    # the soft compression's overlaps.
    printf 'model = rigid\nduration = 0.02\ndt = 1e-4\noutput_interval = 0.002\nrigid_gap = 0.005\ngravity = 0,-9.81\nlaw = 0 0 rigid restitution=0.2 xi_t=0.5\npacking = dense.vtu\n' > dense.ini
    for plate in 60 61 62 63; do echo "set_wall = $plate fixed" >> dense.ini; done
  else
    printf 'duration = 0.02\noutput_interval = 0.002\nlaw = 0 0 linear kn=1e5 kt=5e4 mu=0.5 gamma_n=50\npacking = dense.vtu\n' > dense.ini
  fi
  # Light frames and the vertex contacts; on ranks the drawn outlines too,
  # which ParaView opens without the plugin.
  if [[ $model == ranks ]]; then
    echo 'fields = state,contacts,walls,contact_points,outlines' >> dense.ini
  else
    echo 'fields = state,contacts,walls,contact_points' >> dense.ini
  fi
  if [[ $model == ranks ]]; then
    OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 timeout 300 "$mpiexec" -np 2 --oversubscribe \
      "$sphero" run dense.ini --quiet --threads 1 > /dev/null
    [ -f sphero-output/state_00000.pvtu ] && [ -f sphero-output/outlines_00000.pvtu ]
  else
    "$sphero" run dense.ini --quiet > /dev/null
  fi
fi
"$sphero" analyze sphero-output --add-fields > /dev/null
"$sphero" coarse-grain sphero-output --width 0.6 --kernel lucy --window 1,1,11,11 > /dev/null
periodic=()
if [[ $model == soft ]]; then
  # A periodic shear cell (the shear band example, briefly): the filter's
  # fields wrap across its seam as the command line's do.
  data=$(cd "$shapes/.." && pwd)
  sed -e 's/^duration = .*/duration = 0.02/' -e 's/^output_interval = .*/output_interval = 0.01/' \
    -e "s|shape=../../shapes/|shape=$shapes/|" -e '/^output = /d' "$data/examples/shear-band/scene.ini" > shear.ini
  "$sphero" run shear.ini --output shear --quiet > /dev/null
  "$sphero" coarse-grain shear --width 1.1 > /dev/null
  periodic=(--periodic-run shear)
fi
"$pvpython" --no-mpi --force-offscreen-rendering "$here/run_reader_test.py" --plugin "$plugin" --run sphero-output \
  --sphero "$sphero" "${periodic[@]}" $([[ $model == old ]] && echo --before-light-frames)
