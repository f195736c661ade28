#!/usr/bin/env bash
# Parallel scaling (docs/PARALLEL.md, docs/PERFORMANCE.md): a bed of
# hexagons falling in a box, timed on 1, 2, 4, ... MPI ranks of one thread
# (strong scaling: the same bed; weak scaling: the same grains per rank)
# and on as many threads of one process (strong scaling with threads).
# Each point is the wall time per step, taken as the difference of two
# runs of D and 2D seconds (start-up and the last frame cancel). Writes
# scaling.csv, scaling.png and results.txt; checks that every run of the
# strong-scaling bed writes the serial run's energy.csv byte for byte. The
# weak-scaling efficiency is per grain: the serial rate of grain-steps over
# the rate on P ranks with P times the grains. See data/examples/README.md.
#   RANKS="1 2 4 8 16"   the rank (and thread) counts
#   STRONG=1000000       grains of the strong-scaling bed
#   WEAK=100000          grains per rank of the weak-scaling beds
#   MPIRUN=mpirun        the launcher
source "$(dirname "$0")/../common.sh"

if [[ $REDUCED == 1 ]]; then
  ranks=${RANKS:-"1 2"} strong=${STRONG:-3000} weak=${WEAK:-1500} duration=0.5
else
  ranks=${RANKS:-"1 2 4 8 16"} strong=${STRONG:-1000000} weak=${WEAK:-100000} duration=0.5
fi
mpirun_=${MPIRUN:-mpirun}
command -v "$mpirun_" >/dev/null || { echo "$0: no $mpirun_ (install openmpi-bin, or set MPIRUN)" >&2; exit 2; }
# OpenMPI refuses root unless told twice; containers and CI run as root.
if [[ $(id -u) == 0 ]]; then export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1; fi
cores=$(nproc)

# timed P T N SECONDS DIR: one run of the bed of N grains on P ranks of T
# threads (P = 1: no launcher); prints its steps and wall seconds.
timed() {
  local p=$1 t=$2 n=$3 seconds=$4 dir=$5 launch=()
  hexagon_bed "$n" >"$dir.ini"
  if ((p > 1)); then
    launch=("$mpirun_" -np "$p")
    ((p * t > cores)) && launch+=(--oversubscribe)
  fi
  local start=$EPOCHREALTIME
  "${launch[@]}" "$SPHERO" run "$dir.ini" --quiet --threads "$t" --duration "$seconds" --fields state \
    --output "$dir" --overwrite >"$dir.log"
  local end=$EPOCHREALTIME
  echo "$(sed -n 's/.* in \([0-9]*\) steps, .*/\1/p' "$dir.log") $(awk -v a="$start" -v b="$end" 'BEGIN { print b - a }')"
}

# point KIND P T N DIR: seconds per step on P ranks of T threads, N grains.
point() {
  local kind=$1 p=$2 t=$3 n=$4 dir=$5 s1 w1 s2 w2
  mkdir -p "$dir"
  read -r s1 w1 < <(timed "$p" "$t" "$n" "$duration" "$dir/short")
  read -r s2 w2 < <(timed "$p" "$t" "$n" "$(awk -v d="$duration" 'BEGIN { print 2 * d }')" "$dir/long")
  awk -v k="$kind" -v p="$p" -v t="$t" -v n="$n" -v s="$((s2 - s1))" -v w="$(awk -v a="$w2" -v b="$w1" 'BEGIN { print a - b }')" \
    -v over="$((p * t > cores))" 'BEGIN { printf "%s,%d,%d,%d,%d,%.6g,%d\n", k, p, t, n, s, w / s, over }' >>"$OUT/points.csv"
}

echo "kind,ranks,threads,grains,steps,seconds_per_step,oversubscribed" >"$OUT/points.csv"
for p in $ranks; do
  point strong_ranks "$p" 1 "$strong" "$OUT/strong-ranks-$p"
  ((p > 1)) && point strong_threads 1 "$p" "$strong" "$OUT/strong-threads-$p"
  ((p > 1)) && point weak_ranks "$p" 1 "$((weak * p))" "$OUT/weak-ranks-$p"
done
point weak_ranks 1 1 "$weak" "$OUT/weak-ranks-1"

# Speed-up and efficiency against one rank of one thread: strong, T1 / TP
# and T1 / (P TP); weak, per grain.
awk -F, 'NR == 1 { print $0 ",workers,speedup,efficiency"; next }
  { row[NR] = $0; kind[NR] = $1; w[NR] = $2 * $3; t[NR] = $6; n[NR] = $4
    if ($2 == 1 && $3 == 1) { if ($1 == "weak_ranks") weak1 = $6 / $4; else strong1 = $6 } }
  END { for (r = 2; r <= NR; ++r) {
          s = kind[r] == "weak_ranks" ? weak1 * n[r] / t[r] : strong1 / t[r]
          print row[r] "," w[r] "," s "," s / w[r] } }' "$OUT/points.csv" >"$OUT/scaling.csv"
sphero plot "$OUT/scaling.csv" --x workers --y efficiency --by kind --style markers --log-x \
  --title "Parallel efficiency (hexagon beds; $cores cores)" --x-label "ranks or threads" \
  --y-label "efficiency (1 = ideal)" -o "$OUT/scaling.png" >/dev/null

while IFS=, read -r kind p t n steps spp over workers speedup efficiency; do
  [[ $kind == kind ]] && continue
  result "${kind}_${workers}_seconds_per_step" "$spp" "$n grains, $p ranks of $t threads$([[ $over == 1 ]] && echo ", oversubscribed")"
  result "${kind}_${workers}_efficiency" "$efficiency" "speed-up $speedup on $workers"
done <"$OUT/scaling.csv"

# Every run of one bed, on ranks or threads, books the serial run's
# energies to the bit (docs/PARALLEL.md).
differing=0 compared=0
for dir in "$OUT"/strong-*-*/long; do
  compared=$((compared + 1))
  cmp -s "$dir/energy.csv" "$OUT/strong-ranks-1/long/energy.csv" || differing=$((differing + 1))
done
result energy_logs_differing "$differing" "of $compared strong runs, those whose energy.csv is not the serial run's byte for byte"
check "the strong runs on ranks or threads are compared" "$compared" ">" 1
check "every strong run writes the serial run's energy.csv" "$differing" "==" 0
finish
