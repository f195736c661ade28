#!/usr/bin/env bash
# stages_remove.sh SPHERO DATA_DIR WORKDIR MPIEXEC SAME_FRAMES: a stage that
# removes grains (by region and by id) and a wall writes the bytes of its
# first stage run alone followed by `--from` with the same lines, serially
# and on 2 MPI ranks; the grains kept keep their ids, the removed wall's
# energy.csv columns are empty from then on, the first law still closes,
# a restart inside the stage reaches the straight run's end, and the
# readers take the run.
set -euo pipefail
sphero=$1; data=$2; work=$3; mpiexec=$4; same=$5
rm -rf "$work"; mkdir -p "$work"; cd "$work"
fail() { echo "FAIL: $*"; exit 1; }
run() { "$sphero" run "$@" --quiet >/dev/null; }

"$sphero" pack gas --box 0,0,12,12 --shape "$data/shapes/disk.shape" --shape "$data/shapes/pebble.shape" --count 40 \
  --packing-fraction 0.3 --spread 0.2 -o gas.vtu >/dev/null
"$sphero" pack compress --packing gas.vtu --pressure 100 --kn 1e5 --kt 5e4 --mu 0.5 -o dense.vtu >/dev/null

first='duration = 0.2
law = 0 0 linear kn=1e5 kt=5e4 mu=0.5 gamma_n=20
packing = dense.vtu
output_interval = 0.02
fields = state,contacts,walls,contact_points,outlines
dt = 3e-4
gravity = 0,-1'
# The side plates held where they are, the lid lifted off, the upper part
# of the sample and grains 0 and 5 taken out.
cut='set_wall = left fixed
set_wall = right fixed
set_wall = top remove
remove = region=-1,5,13,13
remove = ids=0,5'
printf '%s\noutput = two\n\n[stage cut]\nduration = 0.2\n%s\n' "$first" "$cut" >two.ini
printf '%s\noutput = one\n' "$first" >one.ini
printf '%s\noutput = second\n%s\n' "$(sed 's/^packing.*//' <<<"$first")" "$cut" >second.ini
run two.ini
run one.ini
run second.ini --from one/final.ckpt
"$(dirname "$0")/same_state.sh" two/final.ckpt second/final.ckpt || fail "a stage removing bodies differs from one run and --from"
# energy.csv: the same rows in every column both have (the --from run has
# the columns of the walls its checkpoint holds, loaded as its scene makes
# them; the two-stage run's keep every wall it had).
columns_of() {
  awk -F, -v names="$2" 'BEGIN { n = split(names, want, ",") }
    /^time_s/ { for (k = 1; k <= NF; ++k) at[$k] = k; next }
    /^[0-9]/ { line = ""; for (k = 1; k <= n; ++k) line = line (k > 1 ? "," : "") $at[want[k]]; print line }' "$1"
}
shared=$(comm -12 <(grep '^time_s' two/energy.csv | tr , '\n' | sort) <(grep '^time_s' second/energy.csv | tr , '\n' | sort) |
  paste -sd,)
[[ $shared == *first_law_residual_J* && $shared == *left_x_m* ]] || fail "energy.csv's columns: $shared"
diff <(columns_of two/energy.csv "$shared" | tail -n +2) \
  <(columns_of one/energy.csv "$shared" | tail -n +2 | head -n -1; columns_of second/energy.csv "$shared") >/dev/null ||
  fail "energy.csv's rows differ"
n1=$(ls one/outlines_*.vtu | wc -l); n2=$(ls second/outlines_*.vtu | wc -l)
for field in outlines contacts walls state contact_points; do
  for ((k = n1 - 1; k < n1 - 1 + n2; ++k)); do
    cmp -s "$(printf "two/%s_%05d.vtu" $field $k)" "$(printf "second/%s_%05d.vtu" $field $k)" ||
      fail "$field frame $k differs from --from's"
  done
done

# What is left: fewer grains, three walls, the lid's columns empty from the
# stage on and filled before it.
cells() { grep -ao 'NumberOfCells="[0-9]*"' "$1" | head -1 | tr -dc 0-9; }
before=$(cells one/outlines_00000.vtu); after=$(cells "$(printf 'two/outlines_%05d.vtu' $((n1 - 1)))")
((before == 40 && after < 38 && after > 10)) || fail "the cut sample holds $after grains of $before"
column() { awk -F, -v name="$2" -v row="$3" '/^time_s/ { for (k = 1; k <= NF; ++k) if ($k == name) c = k; next }
  /^[0-9]/ { if (++n == row) { print $c; exit } }' "$1"; }
rows=$(grep -c '^[0-9]' two/energy.csv)
[[ -n $(column two/energy.csv top_fy_N 1) && -z $(column two/energy.csv top_fy_N "$rows") ]] ||
  fail "the removed lid's columns: '$(column two/energy.csv top_fy_N 1)' first, '$(column two/energy.csv top_fy_N "$rows")' last"
[[ -n $(column two/energy.csv left_fx_N "$rows") ]] || fail "a kept wall's column is empty"
# The removed bodies' energy left the books as work out: the first law
# closes to the integrator's error.
awk -F, '/^time_s/ { for (k = 1; k <= NF; ++k) at[$k] = k; next }
  /^[0-9]/ { r = $at["first_law_residual_J"]; d = $at["damping_dissipation_J"] + $at["sliding_dissipation_J"]; w = $at["external_work_J"] }
  END { printf "external work %g J, dissipated %g J, residual %g J\n", w, d, r; exit !(r * r < (0.01 * d) ^ 2) }' \
  two/energy.csv || fail "the first law does not close after the removal"

# Readers: analyze, an energy figure and a plot of the lid's empty column.
"$sphero" analyze two --no-local-packing >/dev/null || fail "sphero analyze cannot read a run that removed grains"
"$sphero" figure two --plot energy -o energy.png >/dev/null || fail "the energy figure of a run that removed a wall"
"$sphero" plot two/energy.csv --x time_s --y top_fy_N,left_fx_N -o walls.png >/dev/null ||
  fail "sphero plot refused the removed wall's empty cells"

# Stopped inside the stage, the run restarts to the straight run's end.
run two.ini --checkpoint_interval 0.15 --output stopped
rm stopped/final.ckpt
run two.ini --output stopped --restart stopped/checkpoint.ckpt
"$(dirname "$0")/same_state.sh" two/final.ckpt stopped/final.ckpt || fail "a restart in the removing stage did not reach the straight run's end"
cmp two/energy.csv stopped/energy.csv || fail "a restart in the removing stage wrote other rows"

# Falling grains cut by a region: which grains it finds is known only when
# the stage begins, and a restart inside the stage still goes on.
printf 'duration = 0.3\nlaw = 0 0 linear kn=1e5 kt=5e4 mu=0.5 gamma_n=20\npacking = gas.vtu\ndt = 3e-4\n%s\n' \
  'gravity = 0,-30' >fall.ini
printf 'output_interval = 0.05\nfields = state,outlines\n' >>fall.ini
printf '[stage cut]\nduration = 0.2\nremove = region=-1,-1,13,3\n' >>fall.ini
run fall.ini --output fall
run fall.ini --output fall-stopped --checkpoint_interval 0.15
rm fall-stopped/final.ckpt
run fall.ini --output fall-stopped --restart fall-stopped/checkpoint.ckpt
"$(dirname "$0")/same_state.sh" fall/final.ckpt fall-stopped/final.ckpt || fail "a restart after a region's removal did not reach the straight run's end"
left=$(cells "$(ls fall/outlines_*.vtu | tail -1)")
((10 < left && left < 35)) || fail "the region took $((40 - left)) of the falling grains"

# On ranks: the serial run's frames, rows and checkpoint.
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
timeout 300 "$mpiexec" -np 2 --oversubscribe "$sphero" run two.ini --output two-ranks --quiet >/dev/null
"$same" two two-ranks >/dev/null || fail "a removing stage on 2 ranks wrote other frames"
cmp two/energy.csv two-ranks/energy.csv || fail "a removing stage on 2 ranks wrote other rows"
echo "stages removing bodies ok"
