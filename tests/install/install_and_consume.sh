#!/usr/bin/env bash
# install_and_consume.sh BUILD_DIR SOURCE_DIR WORKDIR: `cmake --install` into a
# fresh prefix gives a `sphero` that finds its data there, the shape library,
# headers and a CMake package; a project of a user's own finds it with
# find_package(Sphero), builds, and steps the installed hopper scene.
set -euo pipefail
build=$1; source=$2; work=$3
rm -rf "$work"; mkdir -p "$work"
prefix=$work/prefix
cmake --install "$build" --prefix "$prefix" > "$work/install.log"
for f in bin/sphero share/sphero/shapes/cow.shape share/sphero/scenes/hopper.ini include/sphero/engine/engine.h \
         include/sphero/analysis/frame_analysis.h; do
  [ -e "$prefix/$f" ] || { echo "not installed: $f"; exit 1; }
done
config=$(find "$prefix" -name SpheroConfig.cmake | head -1)
[ -n "$config" ] || { echo "no SpheroConfig.cmake under $prefix"; exit 1; }
# The installed program looks for its data beside itself, not in the source tree.
(cd "$work" && env -u SPHERO_DATA_DIR "$prefix/bin/sphero" --version) > "$work/version.txt"
grep -qx "data: $prefix/share/sphero" "$work/version.txt" || { cat "$work/version.txt"; exit 1; }
(cd "$work" && env -u SPHERO_DATA_DIR "$prefix/bin/sphero" run --check > "$work/check.txt") \
  || { cat "$work/check.txt"; exit 1; }
# A user's project.
cmake -S "$source/tests/install/consumer" -B "$work/consumer" -DCMAKE_PREFIX_PATH="$prefix" > "$work/consumer.log" 2>&1 \
  || { tail -30 "$work/consumer.log"; exit 1; }
cmake --build "$work/consumer" > "$work/consumer-build.log" 2>&1 || { tail -30 "$work/consumer-build.log"; exit 1; }
"$work/consumer/step_scene" "$prefix/share/sphero/scenes/hopper.ini" 200 > "$work/stepped.txt"
grep -Eq '^bodies 203 steps 200 time [0-9.e-]+ kinetic [0-9.e+-]+ first_law_residual' "$work/stepped.txt" \
  || { cat "$work/stepped.txt"; exit 1; }
# The run driver, as `sphero run` uses it: a run's folder that `sphero`
# itself analyses.
"$work/consumer/run_scene" "$prefix/share/sphero/scenes/hopper.ini" "$work/driven" --duration 0.2 \
  --output_interval 0.05 > "$work/driven.txt" || { cat "$work/driven.txt"; exit 1; }
grep -Eq '^run [0-9a-f]{32}: 5 frames, [0-9]+ steps, t = 0.2' "$work/driven.txt" || { cat "$work/driven.txt"; exit 1; }
[ -s "$work/driven/final.ckpt" ] && [ -s "$work/driven/state.pvd" ] && grep -q '^run = ' "$work/driven/run.sphero" ||
  { ls "$work/driven"; exit 1; }
env -u SPHERO_DATA_DIR "$prefix/bin/sphero" analyze "$work/driven" > "$work/analyzed.txt" || { cat "$work/analyzed.txt"; exit 1; }
echo "install ok: $(cat "$work/stepped.txt"); $(cat "$work/driven.txt")"
