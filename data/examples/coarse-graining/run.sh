#!/usr/bin/env bash
# Coarse-grained fields, a worked study (docs/ANALYSIS.md): the shear band
# example's profiles across the band (velocity, shear and normal stress,
# density) for kernel widths from a quarter of a grain to three grains, with
# the bulk stresses checked against the plates' traction; the pressure
# field of a jammed hopper with its principal directions; and the time to
# coarse-grain a frame of 10^4 Voronoi grains on a 200 x 200 grid.
# Python with NumPy and the sphero module: $PYTHON (default /usr/bin/python3),
# the build's module first when there is one.
source "$(dirname "$0")/../common.sh"
PYTHON=${PYTHON:-/usr/bin/python3}
[[ -d $REPO/build/python/sphero ]] && export PYTHONPATH=$REPO/build/python${PYTHONPATH:+:$PYTHONPATH}

shear_band=$EXAMPLE_DIR/../shear-band/scene.ini
hopper=$EXAMPLE_DIR/../hopper/scene.ini
grain=1.1  # m: the pentagons' size across
if [[ $REDUCED == 1 ]]; then
  compact=1 shear=1 widths="0.55 1.1 2.2" cows=60 region=2,62,98,90 fill=5 open=4 cells=2500 side=50
else
  compact=3 shear=10 widths="0.275 0.55 1.1 2.2 3.3" cows=250 region=2,62,98,138 fill=10 open=8 cells=10000 side=100
fi

# shear_case DIR: the shear band's pentagons compacted, then sheared at
# 2 m/s under 100 N/m, a frame every 0.1 s.
shear_case() {
  local dir=$1
  sed "s|shape=../../shapes/|shape=$EXAMPLE_DIR/../../shapes/|; /^output = /d" "$shear_band" >"$dir/compact.ini"
  sphero run "$dir/compact.ini" --duration "$compact" --output "$dir/compact" --quiet --fields state \
    --output_interval "$compact"
  sed '/^wall = /d; /^grains = /d' "$dir/compact.ini" >"$dir/shear.ini"
  sphero run "$dir/shear.ini" --packing "$(ls "$dir"/compact/state_*.vtu | tail -1)" \
    --set_wall "1 pressure=100 inward=0,-1 velocity=2,0" --duration "$shear" --output "$dir/shear" --quiet
  rm -rf "$dir/compact"
}

# hopper_case DIR: the hopper example's cows filled in, rested, and let out
# through an aperture of 6 m (two cows' lengths), where they jam.
hopper_case() {
  local dir=$1
  awk -v n="$cows" -v region="$region" -v fill="$fill" -v shapes="$EXAMPLE_DIR/../../shapes" '
    /^wall = radius=0.2 points=0,140;0,60;35,20/ { $0 = "wall = radius=0.2 points=0,140;0,60;47,20" }
    /^wall = radius=0.2 points=65,20;100,60;100,140/ { $0 = "wall = radius=0.2 points=53,20;100,60;100,140" }
    /^wall = radius=0.2 points=33,19.6;67,19.6/ { $0 = "wall = radius=0.2 points=45,19.6;55,19.6" }
    /^grains = / { $0 = "grains = shape=" shapes "/cow.shape count=" n " generator=random region=" region }
    /^duration = / { $0 = "duration = " fill }
    /^output = / { next }
    { print }' "$hopper" >"$dir/fill.ini"
  sphero run "$dir/fill.ini" --output "$dir/fill" --quiet --fields state --output_interval "$fill"
  sed '/^wall = /d; /^grains = /d' "$dir/fill.ini" >"$dir/open.ini"
  sphero run "$dir/open.ini" --output "$dir/open" --quiet --duration "$open" --output_interval 0.5 \
    --packing "$(ls "$dir"/fill/state_*.vtu | tail -1)" --set_wall "2 remove"
  rm -rf "$dir/fill"
}

# bed_case DIR: a frame of CELLS Voronoi grains resting in a box.
bed_case() {
  local dir=$1
  sphero pack voronoi --box "0,0,$side,$side" --count "$cells" --radius 0.02 --seed 1 -o "$dir/cells.vtu" >/dev/null
  printf 'duration = 0.002\noutput_interval = 0.002\ngravity = 0,-9.81\nlaw = 0 0 linear kn=1e5 kt=5e4 mu=0.5 gamma_n=20\npacking = %s\nwall = radius=0.05 points=-1,%s;-1,-1;%s,-1;%s,%s\n' \
    "$dir/cells.vtu" $((side + 10)) $((side + 1)) $((side + 1)) $((side + 10)) >"$dir/bed.ini"
  sphero run "$dir/bed.ini" --output "$dir/bed" --quiet --fields state,contacts,walls
}

run_case shear shear_case
run_case hopper hopper_case
run_case bed bed_case
cases_finished

# The shear band: profiles averaged over the second half of the shearing.
run=$OUT/shear/shear
frames=$(grep -c '<DataSet' "$run/state.pvd")
first=$((frames / 2)) last=$((frames - 1))
"$PYTHON" "$EXAMPLE_DIR/profiles.py" "$run" "$first" "$last" "$grain" "$OUT/profiles.csv" "$OUT/summary.csv" $widths
declare -A label=([velocity_x_m_per_s]="velocity v_x (m/s)" [stress_yx_N_per_m]="shear stress σ_yx (N/m)"
                   [stress_yy_N_per_m]="normal stress σ_yy (N/m)" [density_kg_per_m2]="density ρ (kg/m²)")
for quantity in velocity_x_m_per_s stress_yx_N_per_m stress_yy_N_per_m density_kg_per_m2; do
  sphero plot "$OUT/profiles.csv" --x y_m --y "$quantity" --by w_over_d -o "$OUT/profile-$quantity.png" \
    --x-label "height y (m)" --y-label "${label[$quantity]}" \
    --title "Shear band, frames $first to $last: ${label[$quantity]} across the band, one curve per w / d" >/dev/null
done
sphero coarse-grain "$run" --width "$grain" --frames "$first:$last" --average >/dev/null
sphero figure "$run" --plot field:speed --arrows --frames "$first:$last" --kernel-width "$grain" \
  -o "$OUT/shear-speed.png" --title "Shear band, pentagons" >/dev/null
{
  echo "| w / d | bulk σ_yx (N/m) | its spread over y | bulk σ_yy (N/m) | plate's F_x / L (N/m) | plate's F_y / L (N/m) | band width (m) |"
  echo "| --- | --- | --- | --- | --- | --- | --- |"
  tail -n +2 "$OUT/summary.csv" | awk -F, '{ printf "| %s | %.4g | %.3g | %.4g | %.4g | %.4g | %.3g |\n", $1, $2, $3, $4, $5, $6, $7 }'
} >"$OUT/shear-band.md"
cat "$OUT/shear-band.md"
# Momentum balance: the bulk's σ_yx and σ_yy carry the plate's traction (a
# width of a grain, the middle of the plateau).
read -r syx syy fx fy < <(awk -F, -v d=1 '$1 == d { print $2, $4, $5, $6 }' "$OUT/summary.csv")
result shear_bulk_stress_yx "$syx" "N/m, w = d, mean over the bulk and frames $first-$last"
result shear_plate_traction_x "$fx" "N/m, the grains' force on the top plate over its 20 m"
result shear_bulk_stress_yy "$syy" "N/m"
# The plate's traction on the grains is −F/L, and σ·n = −t with n = +y:
# σ_yx = F_x/L, σ_yy = F_y/L.
check "the bulk's shear stress carries the plate's shear traction (|σ_yx - F_x/L| / |F_x/L|)" \
  "$(awk -v s="$syx" -v f="$fx" 'BEGIN { d = s - f; if (d < 0) d = -d; print d / (f < 0 ? -f : f) }')" "<" 0.1
check "the bulk's normal stress carries the plate's pressure (|σ_yy - F_y/L| / (F_y/L))" \
  "$(awk -v s="$syy" -v f="$fy" 'BEGIN { d = s - f; if (d < 0) d = -d; print d / f }')" "<" 0.1

# The hopper at the jam: the last frame's pressure and principal directions.
hopper_run=$OUT/hopper/open
sphero figure "$hopper_run" --plot field:pressure --principal-directions --window 0,15,100,80 \
  -o "$OUT/hopper-pressure.png" --title "Hopper of cows jammed at a 6 m aperture" >/dev/null
sphero analyze "$hopper_run" --window -1000,20,1000,1000 --no-local-packing --frames "$(($(grep -c '<DataSet' "$hopper_run/state.pvd") - 1))" >/dev/null
result hopper_grains_left "$(csv "$hopper_run/analysis.csv" particles | tail -1)" "grains above the aperture at the end"

# Speed: one frame of CELLS grains on a grid of about 200 x 200, w = one grain.
read -r read_s grid_s nodes < <("$PYTHON" - "$OUT/bed/bed" "$side" <<'PY'
import sys, time
import sphero
run, side = sys.argv[1], float(sys.argv[2])
start = time.process_time()
frame = sphero.read_frame(run, sphero.frame_count(run) - 1)
read = time.process_time() - start
d = side / len(frame.ids) ** 0.5
best = float("inf")
for _ in range(3):
    start = time.process_time()
    fields = sphero.coarse_grain(frame, width=d, cell=side / 200)
    best = min(best, time.process_time() - start)
print(f"{read:.3f} {best:.3f} {fields['density'].size}")
PY
)
result coarse_grain_seconds "$grid_s" "CPU s to coarse-grain a frame of $cells grains on $nodes nodes, w = a grain (best of 3)"
result frame_read_seconds "$read_s" "CPU s to read that frame"
finish
