#!/usr/bin/env bash
# stages_and_from.sh SPHERO DATA_DIR WORKDIR MPIEXEC SAME_FRAMES: a two-stage scene writes the
# bytes of its first stage run alone followed by `--from` with the second
# (final checkpoint, energy.csv's rows, every frame), also when it adds
# grains; a stage keeps every contact, so a biaxial test continues a compressed sample's stresses; a rigid
# run --from takes the scene's solver and tolerance; a run
# stopped in its second stage restarts to the same end; what a stage or
# --from cannot take is refused by name, before anything is written; on 2
# MPI ranks --from and a scene of stages write the serial run's frames and
# rows.
set -euo pipefail
sphero=$1; data=$2; work=$3; mpiexec=$4; same=$5
here=$(cd "$(dirname "$0")" && pwd)
rm -rf "$work"; mkdir -p "$work"; cd "$work"
fail() { echo "FAIL: $*"; exit 1; }
run() { "$sphero" run "$@" --quiet >/dev/null; }

"$sphero" pack gas --box 0,0,12,12 --shape "$data/shapes/disk.shape" --shape "$data/shapes/pebble.shape" --count 40 \
  --packing-fraction 0.3 --spread 0.2 -o gas.vtu >/dev/null
"$sphero" pack compress --packing gas.vtu --pressure 100 --kn 1e5 --kt 5e4 --mu 0.5 -o dense.vtu >/dev/null

first='duration = 0.2
law = 0 0 linear kn=1e5 kt=5e4 mu=0.5 gamma_n=20
packing = dense.vtu
output_interval = 0.02'
press='set_wall = top pressure=150 inward=0,-1 span=left,right
law = 0 0 linear kn=1e5 kt=5e4 mu=0.3 gamma_n=20
gravity = 0,-1'
printf '%s\noutput = two\n\n[stage press]\nduration = 0.2\n%s\n' "$first" "$press" >two.ini
printf '%s\noutput = one\n' "$first" >one.ini
printf 'duration = 0.2\nlaw = 0 0 linear kn=1e5 kt=5e4 mu=0.3 gamma_n=20\noutput_interval = 0.02\noutput = second\n%s\n' \
  "$(grep -v '^law' <<<"$press")" >second.ini
run two.ini
run one.ini
run second.ini --from one/final.ckpt
"$(dirname "$0")/same_state.sh" two/final.ckpt second/final.ckpt || fail "the two-stage run's final checkpoint differs from one run and --from"
# The stage's first state replaces the last row and frame of the stage before.
diff <(tail -n +3 two/energy.csv) <(tail -n +3 one/energy.csv | head -n -1; tail -n +3 second/energy.csv) >/dev/null ||
  fail "energy.csv's rows differ"
n1=$(ls one/state_*.vtu | wc -l); n2=$(ls second/state_*.vtu | wc -l)
[[ $(ls two/state_*.vtu | wc -l) == $((n1 + n2 - 1)) ]] || fail "the two-stage run has $(ls two/state_*.vtu | wc -l) frames, not $((n1 + n2 - 1))"
cmp -s two/shapes.vtu one/shapes.vtu || fail "the two-stage run's shape table differs"
for field in state contacts walls; do
  for ((k = 0; k < n1 - 1; ++k)); do
    cmp -s "$(printf "two/%s_%05d.vtu" $field $k)" "$(printf "one/%s_%05d.vtu" $field $k)" || fail "$field frame $k differs"
  done
  # --from's frames go on from its parent's numbers: the same names.
  for ((k = n1 - 1; k < n1 - 1 + n2; ++k)); do
    cmp -s "$(printf "two/%s_%05d.vtu" $field $k)" "$(printf "second/%s_%05d.vtu" $field $k)" ||
      fail "$field frame $k differs from --from's"
  done
done
[[ $(grep -o 'state_[0-9]*' second/state.pvd | head -1) == $(printf 'state_%05d' $((n1 - 1))) ]] ||
  fail "--from's frames do not go on from its parent's numbers: $(grep -o 'state_[0-9]*' second/state.pvd | head -1)"
"$sphero" analyze second --no-local-packing >/dev/null || fail "sphero analyze cannot read a --from run's frames"
[[ $(($(wc -l <second/analysis.csv) - $(grep -c '^#' second/analysis.csv) - 1)) == "$n2" ]] ||
  fail "sphero analyze read $(wc -l <second/analysis.csv) lines of a --from run of $n2 frames"

# A stage that pours four disks onto the sample: the same bytes as --from
# with the grains line, the grains numbered after every body, their
# energy booked as work in so that the first law still closes.
pour="grains = shape=$data/shapes/disk.shape count=4 region=3.5,10.6,8.5,12 speed=0.5"
printf '%s\ngravity = 0,-1\noutput = pour\n\n[stage pour]\nduration = 0.2\ndt = auto\n%s\n' "$first" "$pour" >pour.ini
printf '%s\ngravity = 0,-1\noutput = rest\n' "$first" >rest.ini
printf 'duration = 0.2\nlaw = 0 0 linear kn=1e5 kt=5e4 mu=0.5 gamma_n=20\noutput_interval = 0.02\ngravity = 0,-1\noutput = poured\n%s\n' \
  "$pour" >poured.ini
run pour.ini
run rest.ini
run poured.ini --from rest/final.ckpt
"$(dirname "$0")/same_state.sh" pour/final.ckpt poured/final.ckpt || fail "a stage adding grains differs from --from with them"
diff <(tail -n +3 pour/energy.csv) <(tail -n +3 rest/energy.csv | head -n -1; tail -n +3 poured/energy.csv) >/dev/null ||
  fail "a stage adding grains wrote other rows than --from"
bodies_in() { grep -ao 'NumberOfCells="[0-9]*"' "$1" | head -1 | tr -dc 0-9; }
poured_first=$(ls poured/state_*.vtu | head -1)
[[ $(($(bodies_in "$poured_first") - $(bodies_in rest/state_00000.vtu))) == 4 ]] ||
  fail "the poured run holds $(bodies_in "$poured_first") bodies, not the rest's $(bodies_in rest/state_00000.vtu) and 4"
awk -F, '/^[0-9]/ { for (k = 1; k <= NF; ++k) if (names[k] == "first_law_residual_J") r = $k; else if (names[k] == "external_work_J") w = $k }
  /^time_s/ { for (k = 1; k <= NF; ++k) names[k] = $k }
  END { exit !(w > 30 && r * r < (1e-4 * w) ^ 2) }' pour/energy.csv ||
  fail "the poured grains' energy is not booked: $(tail -1 pour/energy.csv | cut -c1-200)"

# Stopped in its second stage (the checkpoint 0.15 s into it), the run
# restarts to the straight run's end.
cp -r two stopped
run two.ini --checkpoint_interval 0.15 --output stopped --overwrite
"$(dirname "$0")/same_state.sh" two/final.ckpt stopped/final.ckpt || fail "checkpoint_interval changed the run"
rm stopped/final.ckpt
run two.ini --output stopped --restart stopped/checkpoint.ckpt
"$(dirname "$0")/same_state.sh" two/final.ckpt stopped/final.ckpt || fail "a restart in the second stage did not reach the straight run's end"
cmp two/energy.csv stopped/energy.csv || fail "a restart in the second stage wrote other rows"

# A stage with fields of its own: the collections name the frames that
# hold each field, run.sphero lists them all, and a restart in that stage
# keeps them so.
printf '%s\noutput = fields\nfields = outlines,contacts\n\n[stage shear]\nduration = 0.2\n%s\n%s\n' "$first" \
  'fields = particles,contact_points' 'set_wall = top velocity=0.01,0' >fields.ini
run fields.ini
count() { grep -c '<DataSet' "fields/$1.pvd"; }
[[ $(count outlines) == 23 && $(count contacts) == 11 && $(count state) == 23 && $(count contact_points) == 12 ]] ||
  fail "a stage's fields: outlines $(count outlines), contacts $(count contacts), state $(count state), contact_points $(count contact_points)"
grep -q '^fields = outlines,contacts,contact_points,state$' fields/run.sphero || fail "run.sphero: $(cat fields/run.sphero)"
run fields.ini --checkpoint_interval 0.15 --output fields-stopped
rm fields-stopped/final.ckpt
run fields.ini --output fields-stopped --restart fields-stopped/checkpoint.ckpt
for file in final.ckpt energy.csv outlines.pvd contacts.pvd state.pvd contact_points.pvd run.sphero shapes.vtu; do
  "$(dirname "$0")/same_state.sh" "fields/$file" "fields-stopped/$file" || fail "a restart in a stage with fields of its own wrote another $file"
done
printf '%s\n[stage s]\nduration = 1\nfields = contacts\n' "$first" >no_particles.ini

# A biaxial test continuing the compressed sample once it has settled,
# every step a frame about the boundary: the stresses' means over the 100
# steps either side agree within 0.5% (the loading itself moves sigma_yy by
# about 0.2% in 100 steps).
cat >protocol.ini <<'SCENE'
duration = 0.5
dt = 3e-4
law = 0 0 linear kn=1e5 kt=5e4 mu=0.5 gamma_n=300
packing = dense.vtu
output_interval = 0.1
output = protocol

[stage rest]
duration = 0.03
output_interval = 3e-4

[stage biaxial]
duration = 0.03
set_wall = top velocity=0,-0.0005
set_wall = bottom velocity=0,0.0005
SCENE
run protocol.ini
"$sphero" analyze protocol --no-local-packing >/dev/null
# The last 201 frames: the rest stage's 100 steps from its start, the
# biaxial stage's 100 from its start, and the run's end.
grep -v '^#' protocol/analysis.csv | awk -F, '
  NR == 1 { for (k = 1; k <= NF; ++k) at[$k] = k; next }
  { f = NR - 2; xx[f] = $at["sigma_xx"]; yy[f] = $at["sigma_yy"] }
  END { for (k = f - 200; k < f - 100; ++k) { xx0 += xx[k]; yy0 += yy[k]; xx1 += xx[k + 100]; yy1 += yy[k + 100] }
        dx = (xx1 - xx0) / xx0; dy = (yy1 - yy0) / yy0
        printf "means over 100 steps either side of the boundary: sigma_xx %.6g -> %.6g, sigma_yy %.6g -> %.6g\n",
               xx0 / 100, xx1 / 100, yy0 / 100, yy1 / 100
        exit !(f > 200 && dx * dx < 0.005 ^ 2 && dy * dy < 0.005 ^ 2) }' || fail "the stresses jump at the stage boundary"

# Refused by name, nothing written.
refused() {
  local words=$1; shift
  local message
  if message=$("$sphero" run "$@" 2>&1 >/dev/null); then fail "accepted: $*"; fi
  grep -qF -- "$words" <<<"$message" || fail "'$*' said: $message (expected '$words')"
}
printf '%s\n[stage s]\nduration = 1\nseed = 4\n' "$first" >bad_key.ini
refused "bad_key.ini:7: 'seed' cannot change in a stage (stage s)" bad_key.ini --check
# Every frame holds the state, which frames are found by, named or not.
"$sphero" run no_particles.ini --output no_particles --quiet --duration 0.1 >/dev/null || fail "a stage's fields = contacts was refused"
grep -q '^fields = contacts,walls,state$' no_particles/run.sphero || fail "run.sphero: $(cat no_particles/run.sphero)"
printf '%s\nfields = contact_points\n[stage s]\nduration = 1\n' "$first" >points_only.ini
"$sphero" run points_only.ini --check >/dev/null || fail "a run writing only contact_points in two stages was refused"
printf '%s\n[stage s]\nduration = 1\nset_wall = lid fixed\n' "$first" >bad_wall.ini
refused "bad_wall.ini:7: set_wall: no wall is named 'lid'" bad_wall.ini --check
printf '%s\n[stage s]\nduration = -1\n' "$first" >bad_duration.ini
refused "bad_duration.ini:6: duration: must be positive, found -1" bad_duration.ini --check
printf '%s\n[stage s]\ngravity = 0,-1\n' "$first" >no_duration.ini
refused "no_duration.ini:5: stage s: missing 'duration = SECONDS'" no_duration.ini --check
printf '%s\n[stage s]\nduration = 1\n[stage s]\nduration = 1\n' "$first" >twice.ini
refused "twice.ini:7: a second stage named 's' (the first is on line 5)" twice.ini --check
printf '%s\n[shear]\nduration = 1\n' "$first" >section.ini
refused "section.ini:5: '[shear]': the only sections of a scene are '[stage NAME]'" section.ini --check
refused "a continued run adds no packing" one.ini --from one/final.ckpt --output elsewhere
refused "is the run the checkpoint came from" second.ini --from one/final.ckpt --output one --overwrite
printf 'duration = 1\nlaw = 0 0 linear kn=1e5\nwall = name=top radius=0.3 points=0,0;1,0\n' >reshaped.ini
refused "wall 43 of the run continued has another shape" reshaped.ini --from one/final.ckpt --output reshaped
printf 'duration = 1\nmodel = rigid\ndt = 1e-3\nlaw = 0 0 rigid restitution=0.5\n' >rigid.ini
refused "it is a soft run, the scene asks for the rigid model (model)" rigid.ini --from one/final.ckpt --output rigid
# A rigid run gathered loosely by Gauss-Seidel continues --from under the
# scene's solver and tolerance; another rigid_gap is refused.
rigid_scene='model = rigid
dt = 2e-3
attractor = 0,0 10
law = 0 0 rigid restitution=0.2 xi_t=0.5
rigid_gap = 1e-3'
printf '%s\nduration = 0.4\nrigid_solver = gauss_seidel\nrigid_tolerance = 1e-4\nseed = 3\n' "$rigid_scene" >loose.ini
printf 'grains = shape=%s count=30 generator=random region=-6,-6,6,6\n' "$data/shapes/hexagon.shape" >>loose.ini
run loose.ini --output loose
printf '%s\nduration = 0.02\nrigid_solver = interior_point\nrigid_tolerance = 1e-8\n' "$rigid_scene" >tight.ini
"$sphero" run tight.ini --from loose/final.ckpt --output tight --quiet >tight.txt
grep -Eq 'interior-point iterations per program, largest KKT residual ([0-9.]+e-(09|1[0-9])|0)[ ,]' tight.txt ||
  fail "--from kept the checkpoint's solver or tolerance: $(grep collisions tight.txt)"
sed 's/rigid_gap = 1e-3/rigid_gap = 2e-3/' tight.ini >regapped.ini
refused "its rigid_gap is 0.001 m and the scene asks for 0.002 m" regapped.ini --from loose/final.ckpt --output regapped
head -c 2000 one/final.ckpt >cut.ckpt
refused "cut.ckpt" second.ini --from cut.ckpt --output cut
for folder in elsewhere reshaped rigid regapped cut; do [[ ! -e $folder ]] || fail "a refused run wrote $folder"; done
# On ranks: --from and stages as the serial run.
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
timeout 300 "$mpiexec" -np 2 --oversubscribe "$sphero" run second.ini --from one/final.ckpt --output second-ranks \
  --quiet >/dev/null
"$same" second second-ranks >/dev/null || fail "--from on 2 ranks wrote other frames"
cmp second/energy.csv second-ranks/energy.csv || fail "--from on 2 ranks wrote other rows"
# A scene of stages on 2 ranks: the serial run's frames, rows and final
# checkpoint's state (the whole state is gathered on rank 0 between stages).
timeout 300 "$mpiexec" -np 2 --oversubscribe "$sphero" run two.ini --output two-ranks --quiet >/dev/null
"$same" two two-ranks >/dev/null || fail "two stages on 2 ranks wrote other frames"
cmp two/energy.csv two-ranks/energy.csv || fail "two stages on 2 ranks wrote other rows"
timeout 300 "$mpiexec" -np 2 --oversubscribe "$sphero" run fields.ini --output fields-ranks --quiet >/dev/null
"$same" fields fields-ranks >/dev/null || fail "a stage's fields on 2 ranks wrote other frames"
for file in outlines.pvd contacts.pvd contact_points.pvd state.pvd run.sphero; do
  [[ $(grep -c '<DataSet' "fields/$file") == $(grep -c '<DataSet' "fields-ranks/$file") ]] ||
    fail "a stage's fields on 2 ranks: $file lists other frames"
done
# A checkpoint at a frame's step reuses the frame's share of the state: the
# same bytes as one taken where no frame is written.
for interval in 0.02 0.03; do
  timeout 300 "$mpiexec" -np 2 --oversubscribe "$sphero" run two.ini --output "two-ranks-$interval" --quiet \
    --output_interval "$interval" --checkpoint_interval 0.1 >/dev/null
done
"$(dirname "$0")/same_state.sh" two-ranks-0.02/checkpoint.ckpt two-ranks-0.03/checkpoint.ckpt ||
  fail "on 2 ranks a checkpoint at a frame's step differs from one between frames"
timeout 300 "$mpiexec" -np 2 --oversubscribe "$sphero" run pour.ini --output pour-ranks --quiet >/dev/null
"$same" pour pour-ranks >/dev/null || fail "a stage adding grains on 2 ranks wrote other frames"
cmp pour/energy.csv pour-ranks/energy.csv || fail "a stage adding grains on 2 ranks wrote other rows"
echo "stages and --from ok"
