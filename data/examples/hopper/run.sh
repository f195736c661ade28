#!/usr/bin/env bash
# Hopper flow: 400 cows and 400 disks of equal area discharged through
# apertures of 20 to 40 m; for each, whether the flow jams and when, and a
# snapshot 8 s after opening (APERTURES="10 15" picks others). See data/examples/README.md and docs/VALIDATION.md.
source "$(dirname "$0")/../common.sh"

if [[ $REDUCED == 1 ]]; then
  # 100 disks: an aperture of about 2 diameters (2.9 m) must jam, one of 10 must empty the hopper.
  shapes="disks" apertures="6 30" count=100 region=2,62,98,80 fill=5 open=6
else
  shapes="cows disks" apertures=${APERTURES:-"20 25 30 35 40"} count=400 region=2,62,98,138 fill=8 open=8
fi
table=$OUT/hopper.csv
echo "shape,aperture_m,grains,left_in_hopper,jammed,jammed_at_s,emptied_at_s" >"$table"
for shape in $shapes; do
  shape_file=$EXAMPLE_DIR/../../shapes/cow.shape
  [[ $shape == disks ]] && shape_file=$EXAMPLE_DIR/disk-cow-area.shape
  for a in $apertures; do
    dir=$OUT/$shape-$a
    mkdir -p "$dir"
    # The aperture between x = 50 -+ a/2 at y = 20; the gate overlaps both sides.
    awk -v a="$a" -v shape="$shape_file" -v n="$count" -v region="$region" -v fill="$fill" '
      /^wall = radius=0.2 points=0,140;0,60;35,20/ { $0 = "wall = radius=0.2 points=0,140;0,60;" 50 - a / 2 ",20" }
      /^wall = radius=0.2 points=65,20;100,60;100,140/ { $0 = "wall = radius=0.2 points=" 50 + a / 2 ",20;100,60;100,140" }
      /^wall = radius=0.2 points=33,19.6;67,19.6/ { $0 = "wall = radius=0.2 points=" 48 - a / 2 ",19.6;" 52 + a / 2 ",19.6" }
      /^grains = / { $0 = "grains = shape=" shape " count=" n " generator=lattice region=" region }
      /^duration = / { $0 = "duration = " fill }
      { print }' "$EXAMPLE_DIR/scene.ini" >"$dir/fill.ini"
    sphero run "$dir/fill.ini" --output "$dir/fill" --overwrite --quiet --fields state --output_interval "$fill" >/dev/null
    rested=$(ls "$dir"/fill/state_*.vtu | tail -1)
    # Opened: the rested hopper (its state holds the walls as bodies 0 to 3
    # and the grains) without the gate, body 2.
    sed '/^wall = /d; /^grains = /d' "$dir/fill.ini" >"$dir/open.ini"
    sphero run "$dir/open.ini" --output "$dir/open" --overwrite --quiet --duration "$open" --output_interval 0.1 \
      --packing "$rested" --set_wall "2 remove" >/dev/null
    # Grains still in the hopper (centre above the aperture's height), per frame.
    sphero analyze "$dir/open" --window -1000,20,1000,1000 --no-local-packing >/dev/null
    read -r left jammed jammed_at emptied_at < <(csv "$dir/open/analysis.csv" time_s particles |
      awk -v open="$open" '{ t[NR] = $1; n[NR] = $2 } END {
        last = n[NR]; since = t[NR]
        for (k = NR; k > 1 && n[k - 1] == last; --k) since = t[k - 1]
        emptied = last == 0 ? sprintf("%.1f", since) : "-"
        # Jammed: grains left and none out over the last 2 s (10 frames would be 1 s).
        jam = last > 0 && t[NR] - since >= 2.0
        printf "%d %s %s %s\n", last, jam ? "yes" : "no", jam ? sprintf("%.1f", since) : "-", emptied }')
    echo "$shape,$a,$count,$left,$jammed,$jammed_at,$emptied_at" >>"$table"
    result "${shape}_${a}m" "$jammed" "jammed? $left of $count grains left in the hopper ${open} s after opening; jammed at ${jammed_at} s, emptied at ${emptied_at} s"
    sphero figure "$dir/open" --plot network --frame last -o "$OUT/snapshot-$shape-${a}m.png" \
      --title "Hopper, $shape, aperture $a m, $open s after opening" >/dev/null
  done
done

# The reduced test's physics: an aperture of 2 grain diameters arches and
# jams (disks jam with certainty below about 3 diameters); one of 10
# diameters lets the whole hopper flow out within 6 s (a 20 m column of
# grains empties at Beverloo's rate, about 20 grains per second here).
if [[ $REDUCED == 1 ]]; then
  while IFS=, read -r shape a n left jammed jammed_at emptied_at; do
    [[ $shape == shape ]] && continue
    if [[ $a == 6 ]]; then
      check "$shape, aperture $a m (2 diameters): grains left in a jammed hopper" "$left" ">" 0
    else
      check "$shape, aperture $a m (10 diameters): the hopper emptied" "$left" "==" 0
    fi
  done <"$table"
fi
finish
