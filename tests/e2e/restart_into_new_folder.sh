#!/usr/bin/env bash
# restart_into_new_folder.sh SPHERO SCENE WORKDIR: a checkpoint continued
# into a folder that holds no run (a branch) ends where the straight run
# ends, byte for byte, with frames and energy rows from the checkpoint's
# time on, and leaves the run it came from untouched; a folder holding only
# part of a run, or another run, is refused by name.
set -euo pipefail
sphero=$1; scene=$2; work=$3
rm -rf "$work"; mkdir -p "$work"
# refused_untouched WHAT FOLDER CHECKPOINT WORDS [HOW...]: restarting
# CHECKPOINT into FOLDER (or running with HOW CHECKPOINT, e.g. --from,
# --overwrite) fails with status 1, its message matching WORDS (a pattern
# whose only wildcard is *), and leaves every file of FOLDER as it was.
refused_untouched() {
  local what=$1 folder=$2 checkpoint=$3 words=$4 before message status how=("${@:5}")
  [ ${#how[@]} -gt 0 ] || how=(--restart)
  before=$(cat "$folder"/* | cksum)
  set +e
  message=$("$sphero" run "$scene" --quiet --output "$folder" --duration 0.5 "${how[@]}" "$checkpoint" 2>&1)
  status=$?
  set -e
  # shellcheck disable=SC2053  # WORDS is a pattern
  [ "$status" = 1 ] && [[ "$message" == $words ]] || { echo "$what: status $status, '$message'"; exit 1; }
  [ "$(cat "$folder"/* | cksum)" = "$before" ] || { echo "$what: the folder was changed"; exit 1; }
}
"$sphero" run "$scene" --quiet --output "$work/straight" --duration 0.5 > /dev/null
"$sphero" run "$scene" --quiet --output "$work/first" --duration 0.25 > /dev/null
before=$(cat "$work"/first/* | cksum)
break_line=$(tail -n 1 "$work/first/energy.csv")
break_step=$(echo "$break_line" | cut -d, -f2)
"$sphero" run "$scene" --quiet --output "$work/branch" --duration 0.5 --restart "$work/first/final.ckpt" > /dev/null
"$(dirname "$0")/same_state.sh" "$work/straight/final.ckpt" "$work/branch/final.ckpt"
[ "$(cat "$work"/first/* | cksum)" = "$before" ] || { echo "the run continued from was changed"; exit 1; }
# The branch's log: the same header, its first row the checkpoint's state
# (the first run's last row), then the straight run's rows after it.
cmp <(grep -v '^[0-9]' "$work/straight/energy.csv") <(grep -v '^[0-9]' "$work/branch/energy.csv")
[ "$(grep '^[0-9]' "$work/branch/energy.csv" | head -n 1)" = "$break_line" ] ||
  { echo "the branch's first energy row is not the checkpoint's state"; exit 1; }
cmp <(grep '^[0-9]' "$work/straight/energy.csv" | awk -F, -v s="$break_step" '$2 > s') \
    <(grep '^[0-9]' "$work/branch/energy.csv" | tail -n +2)
# Its frames: the first at the checkpoint's time, the last the straight run's.
first_time=$(grep -o 'timestep="[^"]*"' "$work/branch/state.pvd" | head -n 1 | cut -d'"' -f2)
break_time=$(echo "$break_line" | cut -d, -f1)
awk -v a="$first_time" -v b="$break_time" 'BEGIN { exit !(a - b < 1e-12 && b - a < 1e-12) }' ||
  { echo "the branch's first frame is at $first_time, not at the checkpoint's $break_time"; exit 1; }
cmp "$(ls "$work/straight"/state_*.vtu | tail -n 1)" "$(ls "$work/branch"/state_*.vtu | tail -n 1)"
# A run's folder that lost its frames (the energy log and checkpoint left)
# is part of a run: refused, untouched.
mkdir -p "$work/part"; cp "$work/first/energy.csv" "$work/first/final.ckpt" "$work/part/"
refused_untouched "a folder holding part of a run" "$work/part" "$work/part/final.ckpt" \
  "*state.pvd: missing, beside the energy.csv of the run to continue*"
[ "$(ls "$work/part" | tr '\n' ' ')" = "energy.csv final.ckpt " ] || { echo "the refused folder was written to"; exit 1; }
# A folder holding another run: refused and untouched, or, with
# --overwrite, that run replaced by the branch.
"$sphero" run "$scene" --quiet --output "$work/other" --duration 0.1 > /dev/null
refused_untouched "another run's folder" "$work/other" "$work/first/final.ckpt" \
  "*holds another run than the one that wrote*branch it into a new folder*"
"$sphero" run "$scene" --quiet --output "$work/other" --duration 0.5 --restart "$work/first/final.ckpt" --overwrite > /dev/null
"$(dirname "$0")/same_state.sh" "$work/straight/final.ckpt" "$work/other/final.ckpt"
cmp "$work/branch/energy.csv" "$work/other/energy.csv"
# Runs have identities: the branch is a run of its own recording its
# parent's, and a checkpoint of one run copied into another's folder does
# not continue that folder's run (wherever the file lies).
first_run=$(sed -n 's/^run = //p' "$work/first/run.sphero")
[ -n "$first_run" ] && grep -q "^parent = $first_run$" "$work/branch/run.sphero" &&
  ! grep -q "^run = $first_run$" "$work/branch/run.sphero" || { echo "the branch's identity: $(cat "$work/branch/run.sphero")"; exit 1; }
"$sphero" run "$scene" --quiet --output "$work/third" --duration 0.1 > /dev/null
cp "$work/first/final.ckpt" "$work/third/copied.ckpt"
refused_untouched "a checkpoint copied into another run's folder" "$work/third" "$work/third/copied.ckpt" \
  "*holds another run than the one that wrote*run $first_run (the checkpoint's)*"
# A folder whose run.sphero is damaged holds a run that cannot be told:
# not continued by a checkpoint lying there, nor by its own.
"$sphero" run "$scene" --quiet --output "$work/damaged" --duration 0.1 > /dev/null
cp "$work/first/final.ckpt" "$work/damaged/copied.ckpt"
sed -i 's/^run = /run = zz/' "$work/damaged/run.sphero"
refused_untouched "a checkpoint copied into a folder whose run.sphero is damaged" "$work/damaged" \
  "$work/damaged/copied.ckpt" "*holds a run whose run.sphero cannot be read*run.sphero:*the file is damaged*mend*--overwrite*"
refused_untouched "a damaged folder's own checkpoint" "$work/damaged" "$work/damaged/final.ckpt" \
  "*run.sphero cannot be read*"
# It may be the run a --from checkpoint lying there came from: never
# replaced by its child, even with --overwrite. (A --from run applies its
# scene as a stage: one that adds no grains.)
sed '/^grains/d' "$scene" > "$work/no-grains.ini"
scene=$work/no-grains.ini refused_untouched "--from into a damaged folder" "$work/damaged" "$work/damaged/final.ckpt" \
  "*may be the run the checkpoint came from*cannot be read*" --overwrite --from
# Its own folder's run goes on under its identity.
"$sphero" run "$scene" --quiet --output "$work/first" --duration 0.5 --restart "$work/first/final.ckpt" > /dev/null
grep -q "^run = $first_run$" "$work/first/run.sphero" || { echo "a restart changed its run's identity"; exit 1; }
"$(dirname "$0")/same_state.sh" "$work/straight/final.ckpt" "$work/first/final.ckpt"
echo "restart into a new folder: the straight run's end, its frames and rows from the checkpoint on; another run's folder refused, or replaced with --overwrite"
