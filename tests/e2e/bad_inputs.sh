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
expect too-many-vertices "the vertex count 12000 must be a whole number from 1 to 10000" "$sphero" shape info many.shape

scene wall.ini "wall = radius=0.1 points=0,0;1e308,0" "grains = shape=$disk count=2 region=1,1,5,5"
expect huge-wall "wall.ini:3: wall" "$sphero" run wall.ini --check
scene wall2.ini "wall = radius=0.1 points=0,0;1e308,0" "grains = shape=$disk count=2 region=1,1,5,5"
expect huge-wall-limit "points = 1e308: give -1e+09 to 1e+09 m" "$sphero" run wall2.ini --check
scene long.ini "grains = shape=$disk count=2 region=0,0,5,5"
expect huge-duration "is more than 1e308 steps; a run takes at most 1e+12" "$sphero" run long.ini --check --duration 1e308
expect tiny-dt "dt = 1e-300 s is 1e+298 steps" "$sphero" run long.ini --check --dt 1e-300
expect huge-output-interval "output_interval = 1e+300 s" "$sphero" run long.ini --output out1 --output_interval 1e300

scene materials.ini "law = 0 50000 linear kn=1e4" "grains = shape=$disk count=2 region=0,0,5,5"
expect huge-material "materials.ini:3: law: material 50000; materials are numbered 0 to 999" "$sphero" run materials.ini --check
scene arcs.ini "arc_resolution = 1e9" "grains = shape=$disk count=2 region=0,0,5,5"
expect huge-arc-resolution "arc_resolution: 1000000000 chords per circle; at most 4096" "$sphero" run arcs.ini --check
python3 -c "print('duration = ' + '9' * 10000000)" > long-value.ini
expect long-value "characters in all" "$sphero" run long-value.ini --check
set +e; message=$("$sphero" run long-value.ini --check 2>&1); set -e
[ ${#message} -lt 1000 ] || { echo "FAIL long-value: a ${#message}-character message"; failures=$((failures + 1)); }
expect gas-fraction "the fraction '1e999' is not a positive number" \
  "$sphero" pack gas --box 0,0,10,10 --shape "$disk:1e999" --count 5 --packing-fraction 0.1 -o gas.vtu
shape long-word.shape point "$(python3 -c "print('1' * 100000 + 'x')")" "0 0"
expect long-word "characters in all" "$sphero" shape info long-word.shape
expect huge-lloyd "--lloyd: 2000000000 steps; give 0 to 10000" \
  "$sphero" pack voronoi --box 0,0,10,10 --count 10 --radius 0.05 --lloyd 2000000000 -o v.vtu
expect huge-lattice "at most 10000000 grains" \
  "$sphero" pack lattice --shape "$disk" --columns 100000 --rows 100000 --spacing 1.1 -o l.vtu
expect huge-count "--count: 2000000000 grains; give 1 to 10000000" \
  "$sphero" pack voronoi --box 0,0,10,10 --count 2000000000 --radius 0.05 -o v.vtu
scene count.ini "grains = shape=$disk count=1e9 region=0,0,5,5"
expect huge-grains-count "count=1000000000; at most 10000000 grains a line" "$sphero" run count.ini --check
scene many.ini "grains = shape=$disk count=300000 region=0,0,720,720 generator=random"
cases=$((cases + 1))
start=$(date +%s)
"$sphero" run many.ini --check > many.txt 2>&1 || { echo "FAIL many-random: $(tail -1 many.txt)"; failures=$((failures + 1)); }
echo "300 000 random disks checked in $(( $(date +%s) - start )) s"

# Empty names, which the catalogue's space-split arguments cannot give: no
# silent fall-back to the built-in scene or to a new run.
scene small.ini "grains = shape=$disk count=3 region=0,0,5,5"
expect empty-scene-name "an empty scene file name" "$sphero" run "" --check
expect empty-restart-name "--restart needs a checkpoint file" "$sphero" run small.ini --restart "" --output empty-restart
expect empty-output-name "output: an empty folder name" "$sphero" run small.ini --output ""
expect empty-figure-name "-o: an empty file name" "$sphero" figure . -o ""
expect empty-bench-scene "--scene: give at least one scene, or all" "$sphero" bench --scene "" --n 100

# An --output that cannot be a folder is named as such, never with the
# file system's raw text; nothing is written through it.
ln -s loop loop; ln -s nowhere/x dangling; echo "a user's notes" > notes.txt
expect output-link-loop "'loop' leads through a loop of symbolic links" "$sphero" run small.ini --output loop
expect output-inside-link-loop "'loop/run' leads through a loop of symbolic links" "$sphero" run small.ini --output loop/run
expect output-dangling-link "'dangling' is a symbolic link to 'nowhere/x', which does not exist" \
  "$sphero" run small.ini --output dangling
expect output-a-file "'notes.txt' is a file, not a folder" "$sphero" run small.ini --output notes.txt --overwrite
[ "$(cat notes.txt)" = "a user's notes" ] || { echo "FAIL output-a-file: the file was changed"; exit 1; }
[ ! -e nowhere ] || { echo "FAIL output-dangling-link: its target was created"; exit 1; }

finish && echo "bad inputs refused"
