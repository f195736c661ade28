#!/usr/bin/env bash
# ranks_run.sh SPHERO MPIEXEC WORKDIR SCENE SAME_FRAMES: the scene run on
# 2 and 3 MPI ranks writes each frame in pieces, one per rank, which read
# back (SAME_FRAMES) as the serial run's frames bit for bit, and its energy
# log byte for byte, and its checkpoint in parts the same bytes each time;
# `sphero analyze` reads the pieces as the serial frames; a
# run stopped on 3 ranks continues on 2, and on one without mpirun, to the
# same last frame; a periodic cell gives the serial frames; what ranks
# cannot run is refused once, clearly, on every rank.
set -euo pipefail
sphero=$1; mpiexec=$2; work=$3; scene=$4; same=$5
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
ranks() { local n=$1; shift; timeout 300 "$mpiexec" -np "$n" --oversubscribe "$sphero" "$@"; }
rm -rf "$work"; mkdir -p "$work"
"$sphero" run "$scene" --quiet --threads 1 --output "$work/serial" --duration 1 > /dev/null
for n in 2 3; do
  ranks $n run "$scene" --quiet --threads 1 --output "$work/ranks$n" --duration 1 > "$work/ranks$n.log"
  grep -q "ranks: $n, grains shared out" "$work/ranks$n.log"
  "$same" "$work/serial" "$work/ranks$n"
  "$(dirname "$0")/same_state.sh" "$work/serial/run.sphero" "$work/ranks$n/run.sphero"
  cmp "$work/serial/shapes.vtu" "$work/ranks$n/shapes.vtu"  # rows numbered as the serial run numbers them
  # One .pvtu per frame and field, naming a piece per rank.
  for pvd in "$work/serial"/*.pvd; do
    field=$(basename "$pvd" .pvd)
    [ "$(grep -c "file=\"${field}_[0-9]*\.pvtu\"" "$work/ranks$n/$field.pvd")" -eq "$(grep -c "<DataSet" "$pvd")" ]
    [ "$(grep -c "<Piece Source=" "$work/ranks$n/${field}_00000.pvtu")" -eq $n ]
  done
  cmp "$work/serial/energy.csv" "$work/ranks$n/energy.csv"
  echo "$n ranks: frames in $n pieces, read back as the serial run's; energy.csv byte for byte"
done
# The checkpoint in parts: the same run writes the same bytes.
ranks 2 run "$scene" --quiet --threads 1 --output "$work/ranks2-again" --duration 1 > /dev/null
[ "$(head -c 8 "$work/ranks2/final.ckpt")" = SPHEROPT ]
"$(dirname "$0")/same_state.sh" "$work/ranks2/final.ckpt" "$work/ranks2-again/final.ckpt"
echo "a checkpoint in parts: the same bytes from the same run"
# The analysis reads the pieces: every table is the serial run's.
"$sphero" analyze "$work/serial" > /dev/null
"$sphero" analyze "$work/ranks2" > /dev/null
for f in "$work/serial"/*.csv; do
  cmp "$f" "$work/ranks2/$(basename "$f")"
done
"$sphero" figure "$work/serial" -o "$work/serial.png" > /dev/null
"$sphero" figure "$work/ranks2" -o "$work/ranks2.png" > /dev/null
cmp "$work/serial.png" "$work/ranks2.png"
echo "sphero analyze and sphero figure on 2 ranks' pieces: the serial run's tables and figure"
# A state frame in pieces is a packing: the same bodies as the serial one.
for from in serial/state_00001.vtu ranks3/state_00001.pvtu; do
  { printf 'duration = 0.05\noutput_interval = 0.01\npacking = %s\n' "$work/$from"; grep -E '^ *law *=' "$scene"; } \
    > "$work/from-${from%%/*}.ini"
  "$sphero" run "$work/from-${from%%/*}.ini" --quiet --threads 1 --output "$work/from-${from%%/*}" > /dev/null
done
"$same" "$work/from-serial" "$work/from-ranks3"
echo "a state frame written in pieces is the serial one as a packing"
# Gear's integrator on 2 ranks, pressure plates included.
"$sphero" run "$scene" --quiet --threads 1 --output "$work/gear-1" --duration 0.5 --integrator gear > /dev/null
ranks 2 run "$scene" --quiet --threads 1 --output "$work/gear-2" --duration 0.5 --integrator gear > /dev/null
"$same" "$work/gear-1" "$work/gear-2"
cmp "$work/gear-1/energy.csv" "$work/gear-2/energy.csv"
echo "Gear on 2 ranks: the serial frames and energy.csv"
# Threads within ranks: 2 ranks of 2 threads, the same frames.
ranks 2 run "$scene" --quiet --threads 2 --output "$work/threads" --duration 1 > /dev/null
"$same" "$work/serial" "$work/threads"
cmp "$work/serial/energy.csv" "$work/threads/energy.csv"
echo "2 ranks of 2 threads: the serial frames and energy.csv"
# Stopped on 3 ranks half-way, continued on 2 and on one rank.
ranks 3 run "$scene" --quiet --threads 1 --output "$work/split" --duration 0.5 > /dev/null
break_step=$(tail -n 1 "$work/split/energy.csv" | cut -d, -f2)
cp -r "$work/split" "$work/split-serial"
cp "$work/split/final.ckpt" "$work/split-serial/checkpoint-at-break.ckpt"
ranks 2 run "$scene" --quiet --threads 1 --output "$work/split" --duration 1 --restart "$work/split/final.ckpt" > /dev/null
"$sphero" run "$scene" --quiet --threads 1 --output "$work/split-serial" --duration 1 --restart "$work/split-serial/final.ckpt" > /dev/null
# (The split runs also wrote a frame where the first part ended.)
"$same" --last "$work/serial" "$work/split"
"$same" --last "$work/serial" "$work/split-serial"
for split in split split-serial; do
  cmp <(grep -v "^[^,]*,$break_step," "$work/serial/energy.csv") <(grep -v "^[^,]*,$break_step," "$work/$split/energy.csv")
done
echo "a run stopped on 3 ranks continues on 2, and on one, to the serial run's last frame and energy.csv"
# Continued on 2 ranks into a new folder (a branch): from its first frame,
# at the checkpoint's time, to the serial run's last, and the same rows.
ranks 2 run "$scene" --quiet --threads 1 --output "$work/branch" --duration 1 --restart "$work/split-serial/checkpoint-at-break.ckpt" > /dev/null
"$same" --last "$work/serial" "$work/branch"
[ "$(grep -c '<DataSet' "$work/branch/state.pvd")" -eq "$(grep -c "^[0-9]" "$work/branch/energy.csv")" ]
cmp <(grep "^[0-9]" "$work/serial/energy.csv" | awk -F, -v s="$break_step" '$2 > s') \
    <(grep "^[0-9]" "$work/branch/energy.csv" | tail -n +2)
echo "continued on 2 ranks into a new folder: frames from the checkpoint on, to the serial run's last"
# A cell periodic in x: disks cross its side, on 2 ranks as on one.
data=$("$sphero" --version | sed -n 's/^data: //p')
printf 'duration = 1\ndt = auto\ngravity = 0,-9.81\nlaw = 0 0 linear kn=1e4 kt=5e3 mu=0.4 gamma_n=5\nperiodic = x\ncell = 0,-1,8,20\nwall = radius=0.05 points=-2,0;10,0\ngrains = shape=%s count=40 region=0.5,0.5,7.5,12 speed=3\noutput_interval = 0.25\n' \
  "$data/shapes/disk.shape" > "$work/periodic.ini"
"$sphero" run "$work/periodic.ini" --quiet --threads 1 --output "$work/periodic-1" > /dev/null
ranks 2 run "$work/periodic.ini" --quiet --threads 1 --output "$work/periodic-2" > /dev/null
"$same" "$work/periodic-1" "$work/periodic-2"
cmp "$work/periodic-1/energy.csv" "$work/periodic-2/energy.csv"
echo "a periodic cell on 2 ranks: every frame and energy.csv the serial ones"
# A pressure plate shaken sideways while it presses down, with Gear.
printf 'duration = 0.5\ndt = auto\nintegrator = gear\ngravity = 0,-9.81\nlaw = 0 0 linear kn=1e4 kt=5e3 mu=0.4 gamma_n=5\nwall = radius=0.05 points=0,9;0,0;8,0;8,9\nwall = radius=0.05 points=-1,6;9,6 pressure=10 inward=0,-1 amplitude=0.1,0 frequency=5\ngrains = shape=%s count=20 region=0.5,0.5,7.5,5\noutput_interval = 0.1\n' \
  "$data/shapes/disk.shape" > "$work/shaken.ini"
"$sphero" run "$work/shaken.ini" --quiet --threads 1 --output "$work/shaken-1" > /dev/null
ranks 2 run "$work/shaken.ini" --quiet --threads 1 --output "$work/shaken-2" > /dev/null
"$same" "$work/shaken-1" "$work/shaken-2"
cmp "$work/shaken-1/energy.csv" "$work/shaken-2/energy.csv"
echo "a shaken pressure plate with Gear on 2 ranks: every frame and energy.csv the serial ones"
# Refusals: said once (rank 0), exit status 1, no hang.
printf 'model = rigid\nduration = 0.1\ndt = 1e-3\ngravity = 0,-9.81\nlaw = 0 0 rigid restitution=0.5\nwall = radius=0.05 points=0,0;8,0\ngrains = shape=%s count=4 region=0.5,0.5,7.5,4\n' \
  "$data/shapes/disk.shape" > "$work/rigid.ini"
set +e
message=$(ranks 2 run "$work/rigid.ini" --quiet --output "$work/rigid" 2>&1); status=$?
pack=$(ranks 2 pack gas --help 2>&1); pack_status=$?
set -e
[ $status -eq 1 ] || { echo "a rigid scene on 2 ranks: exit $status: $message"; exit 1; }
[ "$(grep -c 'the rigid model does not run on several ranks yet' <<<"$message")" -eq 1 ] || { echo "refusal not said once: $message"; exit 1; }
[ $pack_status -ne 0 ] && grep -q "only \`sphero run\` runs on several ranks" <<<"$pack" || { echo "pack on ranks: $pack"; exit 1; }
echo "refusals: a rigid scene and another command, each said once"
# Rank 0 alone builds the scene: what it cannot build stops every rank,
# said once, with the serial run's message.
printf 'duration = 0.1\nlaw = 0 0 linear kn=1e4\npacking = %s/nowhere.vtu\n' "$work" > "$work/nowhere.ini"
set +e
serial_message=$("$sphero" run "$work/nowhere.ini" --quiet --output "$work/nowhere-1" 2>&1)
message=$(ranks 2 run "$work/nowhere.ini" --quiet --output "$work/nowhere-2" 2>&1); status=$?
set -e
[ $status -eq 1 ] || { echo "a missing packing on 2 ranks: exit $status: $message"; exit 1; }
[ "$(grep -cF "$serial_message" <<<"$message")" -eq 1 ] || { echo "not the serial message once: $message"; exit 1; }
echo "a scene rank 0 cannot build stops every rank with the serial message"
# A run gone unstable on ranks (dt three times the hopper's stable limit)
# stops as the serial run does: exit status 3, the same message (the same
# step and body), its last good state kept.
status=0
"$sphero" run --quiet --threads 1 --output "$work/unstable-1" --dt 0.003 --allow_large_time_step true \
  > /dev/null 2> "$work/unstable-1.err" || status=$?
[ "$status" -eq 3 ] || { echo "serial: exit $status, not 3"; exit 1; }
status=0
ranks 2 run --quiet --threads 1 --output "$work/unstable-2" --dt 0.003 --allow_large_time_step true \
  > /dev/null 2> "$work/unstable-2.err" || status=$?
[ "$status" -eq 3 ] || { echo "2 ranks: exit $status, not 3"; cat "$work/unstable-2.err"; exit 1; }
# (mpirun adds its own note of the exit status below.)
cmp "$work/unstable-1.err" <(sed "s/unstable-2/unstable-1/" "$work/unstable-2.err" | head -n "$(wc -l < "$work/unstable-1.err")")
"$same" --last "$work/unstable-1" "$work/unstable-2"
cmp "$work/unstable-1/energy.csv" "$work/unstable-2/energy.csv"
[ -f "$work/unstable-2/last-good.ckpt" ]
echo "an unstable run stops on 2 ranks with the serial run's message and last good frame"
# A .pvtu that names one piece twice (under two spellings) is refused, not
# analysed with its grains counted twice.
cp -r "$work/branch" "$work/piece-twice"
sed -i 's#<Piece Source="state_00000_1.vtu"/>#<Piece Source="./state_00000_0.vtu"/>#' \
  "$work/piece-twice/state_00000.pvtu"
if "$sphero" analyze "$work/piece-twice" --no-local-packing 2> "$work/piece-twice.err" > /dev/null; then
  echo "a piece named twice was analysed"; exit 1
fi
grep -q "state_00000.pvtu: pieces 1 and 2 are the same file" "$work/piece-twice.err"
echo "a frame naming a piece twice is refused"
# A piece of another frame, or a frame's piece copied over its other
# piece, is refused by what the pieces say they are.
cp -r "$work/branch" "$work/other-piece"
sed -i 's#<Piece Source="state_00000_1.vtu"/>#<Piece Source="state_00001_1.vtu"/>#' \
  "$work/other-piece/state_00000.pvtu"
if "$sphero" analyze "$work/other-piece" --no-local-packing 2> "$work/other-piece.err" > /dev/null; then
  echo "a piece of another frame was analysed"; exit 1
fi
grep -q "state_00000.pvtu: its piece state_00001_1.vtu is of t = .* s, its piece state_00000_0.vtu of t = .*; a piece of another frame or run?" \
  "$work/other-piece.err" || { cat "$work/other-piece.err"; exit 1; }
cp -r "$work/branch" "$work/piece-copied"
cp "$work/piece-copied/state_00000_0.vtu" "$work/piece-copied/state_00000_1.vtu"
if "$sphero" analyze "$work/piece-copied" --no-local-packing 2> "$work/piece-copied.err" > /dev/null; then
  echo "a piece copied over another was analysed"; exit 1
fi
grep -q "its pieces state_00000_0.vtu and state_00000_1.vtu are both piece 0 of the frame" "$work/piece-copied.err" ||
  { cat "$work/piece-copied.err"; exit 1; }
echo "pieces of another frame are refused"
