#!/usr/bin/env bash
# A biaxial test as one scene of four stages (compress, relax, biaxial,
# unload), every contact and spring carried from stage to stage: the
# stresses continue across the stage boundaries, the side plates hold p0
# through the axial loading, a deviator builds up, and unloading relaxes
# it. See scene.ini, data/examples/README.md and docs/SCENES.md ("Stages").
source "$(dirname "$0")/../common.sh"

p0=0.001  # 0.001 kn, as biaxial-four-shapes
if [[ $REDUCED == 1 ]]; then
  count=100 box=20.5 strain=0.02 compress=400
else
  count=400 box=41 strain=0.06 compress=800
fi
# Quasi-static: inertial number I = (strain rate) d sqrt(rho / p0) = 1e-3,
# so the axial strain rate is 1e-3 sqrt(p0) / d with d = 1; bottom and top
# each move at half the rate times the sample's height (about 0.6 box).
rate=$(awk -v p="$p0" 'BEGIN { printf "%.6g", 1e-3 * sqrt(p) }')
read -r velocity biaxial unload interval < <(awk -v r="$rate" -v b="$box" -v s="$strain" \
  'BEGIN { v = 0.5 * r * 0.6 * b; t = s / r; printf "%.6g %.6g %.6g %.6g\n", v, t, t / 10, t / 100 }')

protocol_case() {
  local dir=$1
  sphero pack gas --box "0,0,$box,$box" --shape "$EXAMPLE_DIR/../../shapes/disk.shape" \
    --shape "$EXAMPLE_DIR/../../shapes/pebble.shape" --count "$count" --packing-fraction 0.3 --spread 0.1 --seed 1 \
    -o "$dir/gas.vtu" >/dev/null
  # The scene at this size: the plates around the box, the stages' rates.
  awk -v b="$box" -v c="$compress" -v v="$velocity" -v t="$biaxial" -v u="$unload" -v i="$interval" '
    /^duration = 800 / { $0 = "duration = " c }
    /^wall = name=(right|top)/ { gsub(/41\.4/, b + 0.4) }
    /^wall = / { gsub(/61/, b + 20) }
    /^set_wall = (bottom|top) velocity=/ { sub(/0\.0025/, v) }
    /^\[stage / { stage = $2 }
    stage == "biaxial]" && /^duration = / { $0 = "duration = " t }
    stage == "biaxial]" && /^output_interval = / { $0 = "output_interval = " i }
    stage == "unload]" && /^duration = / { $0 = "duration = " u }
    { print }' "$EXAMPLE_DIR/scene.ini" >"$dir/scene.ini"
  sphero run "$dir/scene.ini" --packing "$dir/gas.vtu" --output "$dir/run" --overwrite --quiet
  sphero analyze "$dir/run" --no-local-packing >/dev/null
}
run_case protocol protocol_case
cases_finished

# The stages' frames, found by their times: compress, relax (400 s in
# scene.ini), biaxial, unload.
run=$OUT/protocol/run
relax_end=$(awk -v c="$compress" 'BEGIN { print c + 400 }')
biaxial_end=$(awk -v a="$relax_end" -v t="$biaxial" 'BEGIN { print a + t }')
csv "$run/analysis.csv" time_s sigma_xx sigma_yy q p packing_fraction >"$OUT/stresses.txt"
read -r phi sxx peak_ratio syy_end_biaxial syy_end < <(awk -v r="$relax_end" -v b="$biaxial_end" '
  $1 <= r + 1e-6 { phi = $6 }
  $1 > r + 1e-6 && $1 <= b + 1e-6 { sxx += $2; ++n; if ($4 / $5 > best) best = $4 / $5; syy_b = $3 }
  { syy = $3 }
  END { printf "%.4f %.6g %.4f %.6g %.6g\n", phi, sxx / n, best, syy_b, syy }' "$OUT/stresses.txt")
result packing_fraction "$phi" "after the compress and relax stages (box around the outlines)"
result mean_sigma_xx_over_p0 "$(awk -v s="$sxx" -v p="$p0" 'BEGIN { printf "%.4f", s / p }')" \
  "the side plates' stress on the sample during the biaxial stage, over p0"
result peak_q_over_p "$peak_ratio" "q/p at its largest during the biaxial stage"
result sigma_yy_unloaded_over_loaded "$(awk -v a="$syy_end" -v b="$syy_end_biaxial" 'BEGIN { printf "%.4f", a / b }')" \
  "sigma_yy at the end of unloading over that at the end of loading"
check "a dense sample after compression and relaxation" "$phi" ">" 0.75
check "sigma_xx held near p0 during the biaxial stage (upper)" "$sxx" "<" "$(awk -v p=$p0 'BEGIN { print 1.05 * p }')"
check "sigma_xx held near p0 during the biaxial stage (lower)" "$sxx" ">" "$(awk -v p=$p0 'BEGIN { print 0.95 * p }')"
check "a deviator builds up under axial loading, q/p" "$peak_ratio" ">" 0.2
check "unloading relaxes sigma_yy" "$(awk -v a="$syy_end" -v b="$syy_end_biaxial" 'BEGIN { print a / b }')" "<" 0.9
finish
