#!/usr/bin/env bash
# The rigid model's heap (docs/VALIDATION.md, "The heap"): hexagons,
# pebbles and cows drawn together by a central field, as rigid bodies
# (A-CD²) at N = 1000 and 3000 and as soft ones beside them at N = 1000:
# time per step against N split into contact detection and assembly and
# the collision programs, the final packing fraction and coordination,
# energy and overlaps. See data/examples/README.md.
source "$(dirname "$0")/../common.sh"

if [[ $REDUCED == 1 ]]; then
  shapes="hexagon" sizes="100" soft_sizes="100" duration=4.5 other_sizes="100"
else
  # The paper's sizes, 1000 and 3000, for hexagons; 1000 for the others.
  shapes=${SHAPES-"hexagon pebble cow"} sizes=${SIZES-"1000 3000"} soft_sizes=${SOFT_SIZES-"1000"} duration=5
  other_sizes=${OTHER_SIZES-"1000"}
fi

# area SHAPE: the area of a shape of the library (its mass at density 1).
area() { sphero shape info "$EXAMPLE_DIR/../../shapes/$1.shape" | awk '$1 == "'"$1"'" { print $5 }'; }

# heap_scene MODEL SHAPE N: the scene of one heap, on stdout. The square's
# area is N times the grain's area over 0.15, whatever the shape; the soft
# law's stiffness and damping grow with the grain's mass, so that its
# overlaps and its restitution (near 0.2) are those of the hexagons'.
heap_scene() {
  local model=$1 shape=$2 n=$3
  awk -v model="$model" -v shape="$EXAMPLE_DIR/../../shapes/$shape.shape" -v n="$n" -v duration="$duration" \
      -v a="$(area "$shape")" '
    BEGIN { half = 40 * sqrt(n / 1000 * a / 0.980935); field = 10; kn = 1e5 * a / 0.980935; gamma = 200 * a / 0.980935 }
    /^model = / { if (model == "soft") { print "model = soft"; next } }
    /^dt = / { if (model == "soft") { print "dt = auto"; next } }
    /^attractor = / { $0 = "attractor = 0,0 " field }
    /^law = / { if (model == "soft") { printf "law = 0 0 linear kn=%g gamma_n=%g\n", kn, gamma; next } }
    /^grains = / { $0 = sprintf("grains = shape=%s count=%d generator=random region=%g,%g,%g,%g", shape, n, -half, -half, half, half) }
    /^duration = / { $0 = "duration = " duration }
    { print }' "$EXAMPLE_DIR/scene.ini"
}

# heap_case MODEL SHAPE N DIR: one heap; DIR/row: its line of heap.csv.
heap_case() {
  local model=$1 shape=$2 n=$3 dir=$4
  heap_scene "$model" "$shape" "$n" >"$dir/scene.ini"
  # The scene's shape path is absolute: the scene may live anywhere.
  sphero run "$dir/scene.ini" --output "$dir/run" --overwrite --threads 1 >"$dir/summary.txt"
  local steps wall detection programs overlap
  steps=$(sed -n 's/.* in \([0-9]*\) steps, .*/\1/p' "$dir/summary.txt")
  wall=$(sed -n 's/.* steps, \([0-9.]*\) s wall.*/\1/p' "$dir/summary.txt")
  detection=$(sed -n 's/.*contacts and assembly \([0-9.]*\) s.*/\1/p' "$dir/summary.txt")
  programs=$(sed -n 's/.*programs \([0-9.]*\) s, corrections.*/\1/p' "$dir/summary.txt")
  overlap=$(sed -n 's/.*deepest overlap \([0-9.e+-]*\) of the two.*/\1/p' "$dir/summary.txt")
  # The heap's middle: a circle of half its radius (about sqrt(N a / (pi
  # 0.8)) for grains of area a).
  local w
  w=$(awk -v n="$n" -v a="$(area "$shape")" 'BEGIN { printf "%.3f", 0.5 * sqrt(n * a / (3.14159 * 0.8)) }')
  sphero analyze "$dir/run" --circle "0,0,$w" --no-local-packing
  local phi z kinetic residual dissipated rises
  read -r phi z < <(csv "$dir/run/analysis.csv" packing_fraction coordination | tail -1)
  read -r kinetic residual dissipated < <(csv "$dir/run/energy.csv" kinetic_translational_J first_law_residual_J damping_dissipation_J | tail -1)
  # Frames whose dissipation is below the one before: a collision that made energy.
  rises=$(csv "$dir/run/energy.csv" damping_dissipation_J | awk 'NR > 1 && $1 < last - 1e-9 * (1 + last) { ++r } { last = $1 } END { print r + 0 }')
  echo "$model,$shape,$n,$steps,$wall,${detection:-0},${programs:-0},$(awk -v w="$wall" -v s="$steps" 'BEGIN { printf "%.3f", 1e3 * w / s }'),$phi,$z,$overlap,$kinetic,$residual,$dissipated,$rises" >"$dir/row"
  sphero figure "$dir/run" --plot network --frame last -o "$dir/heap.png" --title "$model model, $n ${shape}s"
}

for shape in $shapes; do
  rigid_sizes=$other_sizes
  [[ $shape == hexagon ]] && rigid_sizes=$sizes
  for n in $rigid_sizes; do run_case "rigid-$shape-$n" heap_case rigid "$shape" "$n"; done
  for n in $soft_sizes; do run_case "soft-$shape-$n" heap_case soft "$shape" "$n"; done
done
cases_finished

# heap.csv holds the timings too (docs/PERFORMANCE.md); the page's table
# leaves them out, so that it changes only with the physics.
table=$OUT/heap.csv
echo "model,shape,n,steps,wall_s,detection_s,programs_s,ms_per_step,packing_fraction,coordination,deepest_overlap,kinetic_left,first_law_residual,dissipated,dissipation_falls" >"$table"
for name in "${CASES[@]}"; do
  cat "$OUT/$name/row" >>"$table"
  IFS=, read -r model shape n steps wall _ _ _ phi z overlap _ <"$OUT/$name/row"
  result "${model}_${shape}_${n}" "$phi" "packing fraction in the heap's middle; coordination $z; ${steps} steps in ${wall} s; deepest overlap $overlap of the two sphero-radii"
  cp "$OUT/$name/heap.png" "$OUT/heap-$model-$shape-$n.png"
done
{
  echo "| model | grains | packing fraction (heap's middle) | coordination | deepest overlap / (r_i + r_j) | kinetic energy left / dissipated |"
  echo "| --- | --- | --- | --- | --- | --- |"
  tail -n +2 "$table" | sort -t, -k2,2 -k3,3n -k1,1 | while IFS=, read -r model shape n _ _ _ _ _ phi z overlap kinetic _ dissipated _; do
    awk -v m="$model" -v g="$n ${shape}s" -v phi="$phi" -v z="$z" -v o="$overlap" -v k="$kinetic" -v d="$dissipated" \
      'BEGIN { printf "| %s | %s | %.3f | %.2f | %s | %.2g |\n", m, g, phi, z, o, k / d }'
  done
} | page_table heaps
{
  printf '| rigid model (A-CD²): the heap | packing fraction in the middle: '
  awk -F, 'NR > 1 && $1 == "rigid" { printf "%s%d %ss %.3f", n++ ? ", " : "", $3, $2, $9 }' "$table"
  printf '; deepest overlap %s of the sphero-radii; frames whose dissipation fell: %s' \
    "$(awk -F, 'NR > 1 && $1 == "rigid" && $11 > m { m = $11 } END { print m + 0 }' "$table")" \
    "$(awk -F, 'NR > 1 { s += $15 } END { print s + 0 }' "$table")"
  echo " | compact heaps; no collision creates energy; overlaps only from the time stepping |"
} | page_table summary
for figure in heap-rigid-hexagon-1000 heap-soft-hexagon-1000; do
  [[ -f $OUT/$figure.png ]] && page_figure "$OUT/$figure.png" "${figure#heap-}"
done

# The physics every heap must show: a compact heap (a packing fraction of a
# jammed 2D packing, above 0.7, and more than two contacts per grain in
# its middle), overlaps of rigid grains, all from the time stepping, below
# 15% of their sphero-radii (cows, the largest and fastest-turning, reach
# 10%: 2 cm on a 3 m grain), and the motion dissipated.
while IFS=, read -r model shape n steps wall detection programs ms phi z overlap kinetic residual dissipated rises; do
  [[ $model == model ]] && continue
  check "$model $shape $n: frames whose dissipation fell" "$rises" "==" 0
  check "$model $shape $n: packing fraction in the heap's middle" "$phi" ">" 0.7
  check "$model $shape $n: coordination in the heap's middle" "$z" ">" 2
  check "$model $shape $n: kinetic energy left is below a tenth of the dissipated" "$kinetic" "<" "$(awk -v d="$dissipated" 'BEGIN { print 0.1 * d }')"
  if [[ $model == rigid ]]; then
    check "$model $shape $n: deepest overlap, fraction of the sphero-radii" "$overlap" "<" 0.15
  fi
done <"$table"
finish
