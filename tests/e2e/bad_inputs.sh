#!/usr/bin/env bash
# bad_inputs.sh SPHERO DATA_DIR WORKDIR: shapes and scenes with numbers out of
# reason — huge or tiny coordinates, radii, vertex counts, durations and
# steps — are refused with the file, the line or key, and the limit; never
# a signal, a hang, a C++ internal or exit 0.
set -euo pipefail
sphero=$1; data=$2; work=$3
source "$(cd "$(dirname "$0")" && pwd)/expect_lib.sh"
rm -rf "$work"; mkdir -p "$work"; cd "$work"
disk=$data/shapes/disk.shape

# shape FILE KIND RADIUS "x y" ...: a shape file.
shape() {
  local file=$1 kind=$2 radius=$3; shift 3
  { echo "sphero-shape 1"; echo "kind $kind"; echo "radius $radius"; echo "vertices $#"; printf '%s\n' "$@"; } > "$file"
}
# scene FILE LINES...: a scene that runs disks, plus the given lines.
scene() {
  local file=$1; shift
  { echo "duration = 0.01"; echo "law = 0 0 linear kn=1e4"; printf '%s\n' "$@"; } > "$file"
}

shape huge.shape polygon 0.1 "0 0" "1e308 0" "1 1" "0.5 0.2" "0 1"
expect huge-coordinate "lies beyond 1e+09 from the origin" "$sphero" shape info huge.shape
shape tiny.shape polygon 1e-301 "0 0" "1e-300 0" "1e-300 1e-300" "0 1e-300"
expect tiny-shape "a shape must be at least 1e-09 across" "$sphero" shape info tiny.shape
shape fat.shape point 1e300 "0 0"
expect huge-radius "the radius 1e+300 exceeds 1e+09" "$sphero" shape info fat.shape
python3 -c "
import math
n = 12000
print('sphero-shape 1'); print('kind polygon'); print('radius 0.01'); print('vertices', n)
for k in range(n): print(math.cos(2 * math.pi * k / n), math.sin(2 * math.pi * k / n))" > many.shape
expect too-many-vertices "12000 vertices; a skeleton has at most 10000" "$sphero" shape info many.shape

scene wall.ini "wall = radius=0.1 points=0,0;1e308,0" "grains = shape=$disk count=2 region=1,1,5,5"
expect huge-wall "wall.ini:3: wall" "$sphero" run wall.ini --check
scene wall2.ini "wall = radius=0.1 points=0,0;1e308,0" "grains = shape=$disk count=2 region=1,1,5,5"
expect huge-wall-limit "lies beyond 1e+09" "$sphero" run wall2.ini --check
scene long.ini "grains = shape=$disk count=2 region=0,0,5,5"
expect huge-duration "is inf steps; a run takes at most 1e+12" "$sphero" run long.ini --check --duration 1e308
expect tiny-dt "dt = 1e-300 s is 1e+298 steps" "$sphero" run long.ini --check --dt 1e-300
expect huge-output-interval "output_interval = 1e+300 s" "$sphero" run long.ini --output out1 --output_interval 1e300

finish && echo "bad inputs refused"
