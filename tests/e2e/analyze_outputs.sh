#!/usr/bin/env bash
# analyze_outputs.sh SPHERO RUN_DIR WORKDIR: `sphero analyze` on a copy of a
# run writes a row per frame, the distributions, the chain files and, with
# --add-fields, per-particle arrays back into the frames; `sphero figure
# --plot` draws every plot; bad requests are refused with the option named.
set -euo pipefail
sphero=$1; run=$2; work=$3
rm -rf "$work"; mkdir -p "$work"; cp -r "$run" "$work/run"; run=$work/run
"$sphero" analyze "$run" --window 0,0,8,14 --add-fields > /dev/null
frames=$(grep -c '<DataSet' "$run/state.pvd")
[ "$(grep -c '^[0-9]' "$run/analysis.csv")" -eq "$frames" ] || { echo "analysis.csv: not one row per frame"; exit 1; }
grep '^frame,' "$run/analysis.csv" | grep -q '^frame,time_s,sigma_xx,sigma_yy,sigma_xy,p,q,packing_fraction,void_ratio,mean_local_packing_fraction,.*coordination,.*fabric_anisotropy,.*wall[0-9]*_face0_sigma_n,' \
  || { echo "analysis.csv: unexpected columns"; grep '^frame,' "$run/analysis.csv"; exit 1; }
if grep -q ',nan,\|,inf,' "$run/analysis.csv"; then echo "analysis.csv has nan/inf"; exit 1; fi
[ "$(grep -c '^[0-9]' "$run/ke_histogram.csv")" -eq 100 ] || { echo "ke_histogram.csv: not 100 bins"; exit 1; }
[ "$(grep -c '^[0-9]' "$run/force_distribution.csv")" -eq 100 ] || { echo "force_distribution.csv: not 100 bins"; exit 1; }
# Frames analysed one at a time or several at once give the same files.
cp -r "$run" "$work/one-thread"
"$sphero" analyze "$work/one-thread" --window 0,0,8,14 --add-fields --threads 1 > /dev/null
for table in analysis.csv coordination.csv roses.csv shapes.csv ke_histogram.csv force_distribution.csv "chains_$(printf '%05d' $((frames - 1))).csv"; do
  cmp -s "$run/$table" "$work/one-thread/$table" || { echo "$table differs between --threads 1 and all cores"; exit 1; }
done
[ "$(grep -c '^[0-9]' "$run/roses.csv")" -eq $((frames * 18)) ] || { echo "roses.csv: not 18 bins per frame"; exit 1; }
grep -q '^[0-9]*,[0-9.e-]*,0,' "$run/coordination.csv" || { echo "coordination.csv: no z = 0 row"; exit 1; }
# The small run's disks and peanuts: a row per shape and frame, 12 disks.
[ "$(grep -c '^[0-9]*,[0-9.e-]*,disk,12,' "$run/shapes.csv")" -eq "$frames" ] || { echo "shapes.csv: not 12 disks a frame"; exit 1; }
[ "$(grep -c '^[0-9]*,[0-9.e-]*,peanut,' "$run/shapes.csv")" -eq "$frames" ] || { echo "shapes.csv: no peanuts a frame"; exit 1; }
last=$(printf '%05d' $((frames - 1)))
test -s "$run/chains_$last.csv"
for array in local_packing_fraction chain_id pressure deviator_stress major_stress_direction stress_from_walls; do
  grep -aq "Name=\"$array\"" "$run/state_$last.vtu" || { echo "state_$last.vtu lacks $array"; exit 1; }
done
# The mean local packing fraction lies between 0 and 1 on every frame.
awk -F, '/^[0-9]/ { if ($10 <= 0 || $10 >= 1) { print "local packing fraction " $10; exit 1 } }' "$run/analysis.csv"
for plot in network packing-map rose stress-strain void-ratio energy ke-histogram; do
  "$sphero" figure "$run" --plot "$plot" -o "$work/$plot.png" > /dev/null
  [ "$(stat -c %s "$work/$plot.png")" -gt 5000 ] || { echo "$plot.png is nearly empty"; exit 1; }
done
"$sphero" figure "$run" --plot void-ratio --x time -o "$work/void-ratio-time.pdf" > /dev/null
[ "$(head -c 5 "$work/void-ratio-time.pdf")" = "%PDF-" ] || { echo "not a PDF"; exit 1; }
# A shear study's plots need plates named bottom and top, which this run lacks.
if "$sphero" figure "$run" --plot dilatancy 2> "$work/err"; then echo "drew dilatancy without plates"; exit 1; fi
grep -q -- "--plot dilatancy: the run has no plates named bottom and top" "$work/err" || { cat "$work/err"; exit 1; }
if "$sphero" figure "$run" --plot pie 2> "$work/err"; then echo "accepted --plot pie"; exit 1; fi
grep -q -- "--plot: unknown plot 'pie'" "$work/err" || { cat "$work/err"; exit 1; }
if "$sphero" analyze "$run" --window 1,1,0,0 2> "$work/err"; then echo "accepted an empty window"; exit 1; fi
grep -q -- "--window: expected X0 < X1" "$work/err" || { cat "$work/err"; exit 1; }
# Open ends: 2: runs to the last frame, :2 from the first.
for range in "2:" ":2"; do
  cp -r "$run" "$work/open-$range"
  "$sphero" analyze "$work/open-$range" --frames "$range" > /dev/null
  expected=$([ "$range" = "2:" ] && echo $((frames - 2)) || echo 3)
  [ "$(grep -c '^[0-9]' "$work/open-$range/analysis.csv")" -eq "$expected" ] \
    || { echo "--frames $range: not $expected rows"; exit 1; }
done
[ "$(grep '^[0-9]' "$work/open-2:/analysis.csv" | head -1 | cut -d, -f1)" = 2 ] || { echo "--frames 2: does not start at 2"; exit 1; }
if "$sphero" analyze "$run" --frames 3:999 2> "$work/err"; then echo "accepted frames 3:999"; exit 1; fi
grep -q -- "--frames: the run has frames 0 to" "$work/err" || { cat "$work/err"; exit 1; }
if "$sphero" analyze "$run" --chain-links best 2> "$work/err"; then echo "accepted --chain-links best"; exit 1; fi
grep -q -- "--chain-links: unknown chain links 'best': use ahead-and-behind (Peters et al. 2005) or two-best-aligned" "$work/err" \
  || { cat "$work/err"; exit 1; }
# The other link rule runs too, and finds chains no more often than a grain
# may hold two links on one side.
cp -r "$run" "$work/two-best"
"$sphero" analyze "$work/two-best" --no-local-packing --chain-links two-best-aligned > /dev/null
[ "$(grep -c '^[0-9]' "$work/two-best/analysis.csv")" -eq "$frames" ] || { echo "two-best-aligned: not one row per frame"; exit 1; }
# A shape whose name holds a comma and quotes stays one column of
# shapes.csv (RFC 4180), and sphero plot reads the table back.
sed 's/^name disk$/name big,"cow"/' "$(dirname "$0")/../../data/shapes/disk.shape" > "$work/odd.shape"
printf 'duration = 0.02\nlaw = 0 0 linear kn=1e4\ngrains = shape=odd.shape count=3 region=0,0,5,5\n' > "$work/odd.ini"
"$sphero" run "$work/odd.ini" --output "$work/odd" --quiet > /dev/null
"$sphero" analyze "$work/odd" --no-local-packing > /dev/null
grep -q '^0,0,"big,""cow""",3,' "$work/odd/shapes.csv" || { echo "shapes.csv: the odd name is not quoted"; exit 1; }
"$sphero" plot "$work/odd/shapes.csv" --x frame --y grains --by shape -o "$work/odd.png" | grep -q "1 curve(s)" \
  || { echo "sphero plot did not read shapes.csv back as one shape"; exit 1; }
echo "analysis ok: $frames frames, distributions, chains, fields, 8 plots, any thread count; bad options refused"
