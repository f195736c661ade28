#!/usr/bin/env bash
# Performance (Alonso-Marroquín 2008): the Cundall
# number (particle-steps per CPU second) against N, against the vertices per
# particle with and without contact lists, and CPU time against the Verlet
# distance for several shear velocities. Timings are this machine's: the
# checks are on what does not depend on it (pairs evaluated); SIZES=100,1000 picks the N, PARTS="n vertices skin"
# the parts to run. See data/examples/README.md and docs/VALIDATION.md.
source "$(dirname "$0")/../common.sh"
parts=" ${PARTS:-n vertices skin} "

# The reduced version times barely settled scenes: their vertex-count sweep
# uses a fixed, thin Verlet distance so that the pairs evaluated reflect the
# contact geometry rather than how far the grains still move.
if [[ $REDUCED == 1 ]]; then
  sizes=100,200 size=100 settle=(--settle-steps 1000) timing=(--steps 20) n_timing=(--steps 20) skin=(--verlet-distance 0.005)
  compact=1 shear=0.1 velocities="2" distances="0.01 0.1"
else
  sizes=${SIZES:-100,1000,10000,100000} size=1000 settle=() timing=(--seconds 3) n_timing=(--seconds 10) skin=()
  compact=3 shear=1 velocities="0.5 2 8" distances="0.005 0.01 0.02 0.05 0.1 0.2"
fi

# 1. Against N: disks, hexagons and cows, one thread, settled before timing
#    (large N: copies of a settled block of 1000, bench/standard_scenes.cpp); 10 s
#    each, so that the large scenes' timing spans list rebuilds too.
if [[ $parts == *" n "* ]]; then
sphero bench --scene disks,hexagons,cows --n "$sizes" --threads 1 "${n_timing[@]}" "${settle[@]}" --csv \
  >"$OUT/cundall-vs-n.csv"
sphero plot "$OUT/cundall-vs-n.csv" --x n --y cundall --by scene --style markers --log-x --log-y \
  --title "Cundall number against N (one core)" --x-label "particles N" \
  --y-label "particle-steps per CPU second" -o "$OUT/cundall-vs-n.png" >/dev/null
fi

# 2. Against the vertices per particle, with contact lists (the vertex pairs
#    within reach, kept between rebuilds) and without (every vertex pair of
#    neighbouring particles, each step).
if [[ $parts == *" vertices "* ]]; then
scenes=polygon3,polygon6,polygon16,polygon32,polygon64
sphero bench --scene "$scenes" --n "$size" --threads 1 "${timing[@]}" "${settle[@]}" "${skin[@]}" --csv \
  >"$OUT/cundall-vs-vertices.csv"
sphero bench --scene "$scenes" --n "$size" --threads 1 "${timing[@]}" "${settle[@]}" "${skin[@]}" --csv --no-contact-lists |
  tail -n +2 >>"$OUT/cundall-vs-vertices.csv"
sphero plot "$OUT/cundall-vs-vertices.csv" --x vertices --y cundall --by contact_lists --style markers --log-x --log-y \
  --title "Cundall number against vertices per particle, N = $size" --x-label "vertices per particle" \
  --y-label "particle-steps per CPU second (contact lists: true / false)" -o "$OUT/cundall-vs-vertices.png" >/dev/null
sphero plot "$OUT/cundall-vs-vertices.csv" --x vertices --y pairs_per_particle_step --by contact_lists --style markers \
  --log-x --log-y --title "Vertex pairs evaluated per particle-step, N = $size" --x-label "vertices per particle" \
  --y-label "pairs per particle-step (contact lists: true / false)" -o "$OUT/pairs-vs-vertices.png" >/dev/null
fi

# 3. CPU time against the Verlet distance for several shear velocities: the
#    shear-band example's pentagons, compacted once, then sheared for a
#    while with each fixed distance (and with the automatic one).
if [[ $parts == *" skin "* ]]; then
shear_example=$EXAMPLE_DIR/../shear-band
sphero run "$shear_example/scene.ini" --output "$OUT/compact" --overwrite --quiet --fields state --duration "$compact" \
  --output_interval "$compact" >/dev/null
sed '/^wall = /d; /^grains = /d' "$shear_example/scene.ini" >"$OUT/shear.ini"
packing=$(ls "$OUT"/compact/state_*.vtu | tail -1)
echo "velocity_m_s,verlet_distance,steps,cpu_s,cundall" >"$OUT/cpu-vs-verlet-distance.csv"
for v in $velocities; do
  for delta in $distances auto; do
    summary=$(sphero run "$OUT/shear.ini" --packing "$packing" --set_wall "1 pressure=100 inward=0,-1 velocity=$v,0" \
      --duration "$shear" --verlet_distance "$delta" --output "$OUT/shear-run" --overwrite --quiet \
      --fields state --output_interval "$shear")
    read -r steps cundall < <(sed -n 's/.* in \([0-9]*\) steps, .* Cundall number \([0-9.e+]*\) .*/\1 \2/p' <<<"$summary")
    cpu=$(awk -v s="$steps" -v c="$cundall" 'BEGIN { printf "%.4g", s * 289 / c }')
    [[ $delta == auto ]] && delta_x=NaN || delta_x=$delta
    echo "$v,$delta_x,$steps,$cpu,$cundall" >>"$OUT/cpu-vs-verlet-distance.csv"
    result "cpu_s_v${v}_delta_${delta}" "$cpu" "CPU seconds for $shear s of shear at $v m/s, Verlet distance $delta ($steps steps)"
  done
done
rm -rf "$OUT/shear-run"
sphero plot "$OUT/cpu-vs-verlet-distance.csv" --x verlet_distance --y cpu_s --by velocity_m_s --style markers --log-x \
  --title "CPU time of $shear s of shear against the Verlet distance, per shear velocity (m/s)" \
  --x-label "Verlet distance (m)" --y-label "CPU seconds" -o "$OUT/cpu-vs-verlet-distance.png" >/dev/null
fi

# What the timings rest on, independent of the machine: without contact
# lists the vertex pairs evaluated per particle-step grow as the square of
# the vertex count ((64/3)^2 = 455 from triangles to 64-gons); with them,
# only the vertices within reach of a contact count, which for 64-gons is
# hundreds of times fewer. (How many pairs the lists hold also depends on
# how settled each scene is, so their growth with M is reported, not checked.)
if [[ $parts != *" vertices "* ]]; then finish; exit 0; fi
pairs() {
  awk -F, -v s="$1" -v l="$2" 'NR == 1 { for (i = 1; i <= NF; ++i) if ($i == "pairs_per_particle_step") c = i }
    $1 == s && $4 == l { print $c }' "$OUT/cundall-vs-vertices.csv"
}
for lists in true false; do
  for m in 3 64; do
    result "pairs_lists_${lists}_${m}_vertices" "$(pairs "polygon$m" "$lists")" "vertex pairs per particle-step"
  done
done
with=$(awk -v a="$(pairs polygon3 true)" -v b="$(pairs polygon64 true)" 'BEGIN { printf "%.3g", b / a }')
without=$(awk -v a="$(pairs polygon3 false)" -v b="$(pairs polygon64 false)" 'BEGIN { printf "%.3g", b / a }')
result pairs_growth_3_to_64_with_lists "$with" "pairs per particle-step, 64-gons over triangles"
result pairs_growth_3_to_64_without_lists "$without" "pairs per particle-step, 64-gons over triangles"
check "without contact lists the pairs grow as M^2 (64-gons over triangles)" "$without" ">" 100
check "64-gons: contact lists evaluate a hundred times fewer pairs than every pair" \
  "$(awk -v a="$(pairs polygon64 true)" -v b="$(pairs polygon64 false)" 'BEGIN { printf "%.4g", b / a }')" ">" 100
finish
