#!/usr/bin/env bash
# Regenerates the measured tables of docs/PERFORMANCE.md, docs/PARALLEL.md
# and docs/OPENCL.md on this machine: runs each table's benchmark (a case of
# its own, kept once finished, so that an interrupted run resumes), keeps
# the raw results as CSV in docs/benchmarks/MACHINE/ and writes each table,
# with its provenance, between the docs' `<!-- table NAME -->` and
# `<!-- /table -->` markers. About 50 minutes on 2 cores; run it on an
# otherwise idle machine, one case at a time.
#   tables.sh [OUTPUT_DIR]                      every table
#   ONLY="hopper events-gas" tables.sh ...      these cases only (the others' results kept)
#   PAGES_ONLY=1 tables.sh ...                  run nothing: the pages from OUTPUT_DIR's results
#   MACHINE=name                                the folder under docs/benchmarks (default: CPU and cores)
# The OpenCL tables need a device (PoCL will do); the ranks' tables need
# mpirun and GNU time. Where one is missing its tables are left as they are.
source "$(dirname "$0")/../common.sh"
[[ $REDUCED == 1 ]] && { echo "$0: no reduced version: the test suite times nothing" >&2; exit 2; }
EXAMPLES=$(cd "$EXAMPLE_DIR/.." && pwd)

# bench_csv NAME ARGS... DIR: `sphero bench ARGS... --csv` into DIR/NAME.csv,
# the command beside it (NAME.command) for the table's provenance.
bench_csv() {
  local dir=${!#}
  echo "sphero bench ${*:2:$#-2} --csv" >"$dir/$1.command"
  sphero bench "${@:2:$#-2}" --csv >"$dir/$1.csv"
}
# Whether an OpenCL device answers (asked once, before the cases: its
# first use compiles the kernels).
opencl=0
has_opencl() { [[ $opencl == 1 ]]; }
has_mpirun() { command -v mpirun >/dev/null && [[ -x /usr/bin/time ]]; }
backends() { has_opencl && echo cpu,opencl || echo cpu; }

# The soft model against N, threads and backends: settled beds of disks,
# hexagons and cows (cundall-vs-n, threads, opencl-device).
beds() {
  bench_csv beds --scene disks,hexagons,cows --n 1000,10000,100000 --threads 1,2 --backend "$(backends)" --seconds 2 \
    --repeat 2 "$1"
}
vertices() { bench_csv vertices --scene polygon6,polygon16,polygon32,polygon64 --n 1000,10000 --threads 1 --seconds 2 --repeat 2 "$1"; }
hopper() { bench_csv hopper --scene hopper --threads 1,2 --backend "$(backends)" --repeat 2 "$1"; }
neighbours() {
  local scenes="" shape spread
  for shape in disks hexagons; do
    for spread in dense1 dense10 dense30 gas1 gas10 gas30; do scenes+=${scenes:+,}$shape-$spread; done
  done
  bench_csv neighbours --scene "$scenes" --n 1000,10000,100000 --threads 1 --neighbours cells,triangulation --seconds 1 "$1"
}
rigid_collapse() { bench_csv rigid-collapse --scene rigid --n 3000,10000 --rigid-solver interior_point --rigid-tolerance 1e-9,1e-6 "$1"; }
# The compact heap, with ξ_t and with Coulomb friction (Gauss–Seidel only):
# gathered for 1500 steps at 1e-4, then 5 steps timed.
rigid_compact() {
  bench_csv rigid-compact --scene rigid --n 1000,10000 --settle-steps 1500 --steps 5 \
    --rigid-solver gauss_seidel,interior_point --rigid-mu 0,0.5 --rigid-tolerance 1e-6 "$1"
}
opencl_rebuilds() {
  # The device compiles these scenes' kernels on first use: not timed.
  sphero bench --scene hexagons-gas1,hexagons-gas10,disks-gas10 --n 1000 --threads 1 --backend opencl --steps 20 >/dev/null
  bench_csv opencl-rebuilds --scene hexagons-gas1,hexagons-gas10,disks-gas10 --n 100000 --threads 1 --backend cpu,opencl \
    --steps 100 "$1"
}

# The CPU time of a sheared layer against the Verlet distance: the
# performance example's third part.
skin() {
  echo "data/examples/performance/run.sh, its third part (PARTS=skin)" >"$1/skin-vs-shear.command"
  PARTS=skin SPHERO=$SPHERO "$EXAMPLE_DIR/run.sh" "$1/run" >"$1/log.txt"
  cp "$1/run/cpu-vs-verlet-distance.csv" "$1/skin-vs-shear.csv"
}

# The rigid heap of the rigid-heap example, rigid and soft, at N = 1000.
rigid_heap() {
  echo "SHAPES='hexagon pebble cow' SIZES=1000 data/examples/rigid-heap/run.sh" >"$1/rigid-heap.command"
  SHAPES="hexagon pebble cow" SIZES=1000 OTHER_SIZES=1000 SOFT_SIZES=1000 SPHERO=$SPHERO \
    "$EXAMPLES/rigid-heap/run.sh" "$1/run" >"$1/log.txt"
  cp "$1/run/heap.csv" "$1/rigid-heap.csv"
}

# A gas of elastic disks stepped by events: N disks at 5 m/s in a box of
# side L, 0.5 s.
events_gas() {
  echo "sphero run of N elastic disks at 5 m/s in a box, stepping = events, 0.5 s, one thread" >"$1/events-gas.command"
  echo "disks,box_side_m,events,wall_s" >"$1/events-gas.csv"
  local n side summary
  for case in "5000 150" "20000 300"; do
    read -r n side <<<"$case"
    cat >"$1/gas-$n.ini" <<SCENE
model = rigid
stepping = events
duration = 0.5
dt = 1e-2
law = 0 0 rigid restitution=1
wall = radius=0.1 points=0,0;$side,0;$side,$side;0,$side;0,0
grains = shape=$REPO/data/shapes/disk.shape count=$n generator=random region=1,1,$((side - 1)),$((side - 1)) speed=5
output_interval = 0.5
SCENE
    summary=$(sphero run "$1/gas-$n.ini" --threads 1 --output "$1/gas-$n" --overwrite --quiet --fields state)
    echo "$n,$side,$(sed -n 's/.*events: \([0-9]*\) collisions.*/\1/p' <<<"$summary" | head -1),$(
      sed -n 's/.* \([0-9.]*\) s wall.*/\1/p' <<<"$summary" | head -1)" >>"$1/events-gas.csv"
  done
}

# Strong and weak scaling on this machine's cores, ranks against threads.
ranks_scaling() {
  local ranks="1" k
  for ((k = 2; k <= $(nproc); k *= 2)); do ranks+=" $k"; done
  echo "RANKS='$ranks' STRONG=100000 WEAK=50000 data/examples/parallel-scaling/run.sh" >"$1/ranks-scaling.command"
  RANKS=$ranks STRONG=100000 WEAK=50000 SPHERO=$SPHERO "$EXAMPLES/parallel-scaling/run.sh" "$1/run" >"$1/log.txt"
  cp "$1/run/scaling.csv" "$1/ranks-scaling.csv"
}

# The largest resident memory of each process of a run of 40 000 hexagons
# on 1, 2 and 3 ranks: at its start (--check) and over 1 s.
rank_memory() {
  local dir=$1 p label
  [[ $(id -u) == 0 ]] && export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
  hexagon_bed 40000 >"$dir/bed.ini"
  local span=(--duration 1 --output_interval 0.25)
  echo "sphero run of 40 000 hexagons (parallel-scaling's bed) on 2 and 3 ranks and alone, maximum resident memory by GNU time" >"$dir/rank-memory.command"
  echo "run,processes,rank,maxrss_kb" >"$dir/rank-memory.csv"
  for p in 2 3; do
    for label in start run; do
      local args=(--threads 1 --quiet "${span[@]}" --output "$dir/$label-$p" --overwrite) logs=$dir/logs-$label-$p
      [[ $label == start ]] && args=(--check --quiet "${span[@]}")
      rm -rf "$logs"
      mpirun -np "$p" --oversubscribe --output-filename "$logs" /usr/bin/time -f 'maxrss_kb %M' \
        "$SPHERO" run "$dir/bed.ini" "${args[@]}" >/dev/null
      for ((k = 0; k < p; ++k)); do
        echo "$label,$p,$k,$(sed -n 's/^maxrss_kb //p' "$logs"/1/rank.$k/stderr)" >>"$dir/rank-memory.csv"
      done
    done
  done
  /usr/bin/time -f 'maxrss_kb %M' -o "$dir/serial.time" "$SPHERO" run "$dir/bed.ini" --threads 1 --quiet \
    "${span[@]}" --output "$dir/run-1" --overwrite >/dev/null
  echo "run,1,0,$(sed -n 's/^maxrss_kb //p' "$dir/serial.time")" >>"$dir/rank-memory.csv"
}

# measured FUNCTION DIR: a case, then the build that measured it
# (DIR/build.txt), which its tables' provenance names when kept.
measured() {
  "$1" "$2"
  python3 "$EXAMPLE_DIR/tables.py" --build --sphero "$SPHERO" --repo "$REPO" >"$2/build.txt"
}

# NAME FUNCTION [NEEDS]: the cases, the quick ones first, and what one
# cannot run without. A case that fails leaves its table as it is.
cases=(
  "events-gas events_gas"
  "hopper hopper"
  "rank-memory rank_memory mpirun"
  "skin skin"
  "ranks-scaling ranks_scaling mpirun"
  "opencl-rebuilds opencl_rebuilds opencl"
  "vertices vertices"
  "beds beds"
  "neighbours neighbours"
  "rigid-collapse rigid_collapse"
  "rigid-compact rigid_compact"
  "rigid-heap rigid_heap"
)
if [[ ${PAGES_ONLY:-0} != 1 ]]; then
  "$SPHERO" bench --scene disks --n 10 --threads 1 --steps 1 --backend opencl >/dev/null 2>&1 && opencl=1
  for entry in "${cases[@]}"; do
    read -r name function needs <<<"$entry"
    [[ -n ${ONLY:-} && " $ONLY " != *" $name "* ]] && continue
    if [[ $needs == opencl ]] && ! has_opencl; then echo "$name: no OpenCL device; its table is left as it is"; continue; fi
    if [[ $needs == mpirun ]] && ! has_mpirun; then echo "$name: no mpirun or GNU time; left as it is"; continue; fi
    echo "$name: $(date -u +%H:%M:%S)"
    # Not cases_finished, which would end the script: the other cases run.
    run_case "$name" measured "$function"
    wait
    [[ -f $OUT/$name/.finished ]] || { echo "$name: failed, its table left as it is; $OUT/$name/log ends:"; tail -3 "$OUT/$name/log"; }
  done
fi

machine=${MACHINE:-$(python3 "$EXAMPLE_DIR/tables.py" --slug)}
python3 "$EXAMPLE_DIR/tables.py" --results "$OUT" --benchmarks "$REPO/docs/benchmarks/$machine" \
  --sphero "$SPHERO" --repo "$REPO" "$REPO/docs/PERFORMANCE.md" "$REPO/docs/PARALLEL.md" "$REPO/docs/OPENCL.md"
