#!/usr/bin/env bash
# folder_claims.sh SPHERO DATA_DIR WORKDIR: an output folder is one
# writer's at a time, with real processes: a second run, an --overwrite run
# and `sphero analyze` are refused while a run writes there (naming it, and
# nothing deleted); of two runs started at once into one new folder exactly
# one proceeds; a run killed with SIGKILL leaves its lock, which the next
# run takes over, saying so; another host's lock is refused unless taken
# over with --take-over; a run leaves no lock behind.
set -euo pipefail
sphero=$1; data=$2; work=$3
rm -rf "$work"; mkdir -p "$work"; cd "$work"
fail() { echo "FAIL: $*"; exit 1; }
scene="$data/scenes/hopper.ini"

# A run that keeps writing until it is killed.
"$sphero" run "$scene" --duration 1000 --output_interval 0.05 --checkpoint_interval 0.05 --output busy --quiet \
  >/dev/null 2>&1 &
busy=$!
trap 'kill -9 $busy 2>/dev/null || true' EXIT
for _ in $(seq 1 400); do [[ -e busy/.sphero.lock && -e busy/checkpoint.ckpt ]] && break; sleep 0.05; done
[[ -e busy/.sphero.lock ]] || fail "the running run holds no lock"
refused() {
  local words=$1; shift
  local message
  if message=$("$sphero" "$@" 2>&1 >/dev/null); then fail "accepted while busy: $*"; fi
  grep -qF -- "$words" <<<"$message" || fail "'$*' said: $message (expected '$words')"
}
refused "the folder 'busy' is in use by sphero run, process $busy on this host" run "$scene" --output busy
refused "is in use by sphero run, process $busy" run "$scene" --output busy --overwrite
refused "is in use by sphero run, process $busy" analyze busy --no-local-packing
[[ -e busy/state_00000.vtu && -e busy/energy.csv ]] || fail "a refused command deleted the busy run's files"

# Killed, the run leaves its lock; its restart takes it over and says so.
kill -9 $busy; wait $busy 2>/dev/null || true
[[ -e busy/.sphero.lock ]] || fail "SIGKILL left no lock to take over"
until_then=$(awk -F, '/^[0-9]/ { t = $1 } END { print t + 0.5 }' busy/energy.csv)  # past the checkpoint, which frames may lag
said=$("$sphero" run "$scene" --duration "$until_then" --output_interval 0.05 --output busy \
  --restart busy/checkpoint.ckpt --quiet 2>&1 >/dev/null) || fail "the restart after SIGKILL failed: $said"
grep -qF "taking over 'busy' from sphero run, process $busy on this host, since" <<<"$said" ||
  fail "the take-over was not said: $said"
grep -qF "which no longer runs" <<<"$said" || fail "the take-over did not say why: $said"
[[ ! -e busy/.sphero.lock ]] || fail "a finished run left its lock"

# Another host's lock: refused, then taken over on the user's word.
printf 'sphero-lock 1\nprocess 4242\nhost elsewhere.example\ncommand sphero run\nsince 2026-12-01T10:00:00Z\n' \
  >busy/.sphero.lock
refused "claimed by sphero run, process 4242 on host 'elsewhere.example'" analyze busy --no-local-packing
refused "pass --take-over" run "$scene" --duration 0.01 --output busy --overwrite
"$sphero" analyze busy --no-local-packing --take-over >/dev/null 2>&1 || fail "analyze --take-over refused"
[[ ! -e busy/.sphero.lock && -e busy/analysis.csv ]] || fail "analyze --take-over left a lock or no tables"

# Two runs started at once into one new folder: exactly one proceeds.
for k in 1 2; do
  "$sphero" run "$scene" --duration 0.05 --output twice --quiet >"run$k.out" 2>&1 &
  pids[$k]=$!
done
ok=0
for k in 1 2; do if wait "${pids[$k]}"; then ok=$((ok + 1)); fi; done
[[ $ok == 1 ]] || fail "$ok of two runs into one new folder proceeded: $(cat run1.out run2.out)"
grep -qE "is in use by sphero run|already holds files" run1.out run2.out || fail "the loser said: $(cat run1.out run2.out)"
echo "folder claims ok"
