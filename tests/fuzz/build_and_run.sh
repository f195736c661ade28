#!/usr/bin/env bash
# build_and_run.sh SOURCE_DIR FUZZ_BUILD_DIR [RUNS]: configures (once) and
# builds the fuzz targets in a clang build tree of their own, then runs
# tests/fuzz/run. What ctest's fuzz test does.
set -euo pipefail
source=$1; build=$2; runs=${3:-2000}
if [ ! -f "$build/CMakeCache.txt" ]; then
  CC=clang CXX=clang++ cmake -S "$source" -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DSPHERO_FUZZ=ON \
    -DSPHERO_BUILD_TESTS=OFF -DSPHERO_WITH_PYTHON=OFF > "$build.configure.log" 2>&1 \
    || { tail -30 "$build.configure.log"; exit 1; }
fi
cmake --build "$build" --target sphero_fuzz_targets -j2 > "$build.build.log" 2>&1 || { tail -40 "$build.build.log"; exit 1; }
"$source/tests/fuzz/run" "$build" "$runs"
