#!/usr/bin/env bash
# cases_resume.sh REPO WORKDIR: the examples' case machinery (common.sh).
# A finished case is kept and not run again; a failed one is run again; a
# case whose function or whose example's scenes changed is run again; JOBS
# runs cases at once; a failed case stops the example with its log named.
set -euo pipefail
repo=$1 work=$2
rm -rf "$work"
mkdir -p "$work/examples/toy"
cp "$repo/data/examples/common.sh" "$work/examples/"
# A toy example: three cases that count their runs in a shared file; case 2
# fails while $work/fail exists.
cat >"$work/examples/toy/run.sh" <<'TOY'
source "$(dirname "$0")/../common.sh"
toy_case() {
  echo "$1" >>"$RUNS"
  [[ $1 == 2 && -e $FAIL ]] && exit 1
  echo "value $1" >"$2/value"
}
for k in 1 2 3; do run_case "case-$k" toy_case "$k"; done
cases_finished
finish
TOY
export SPHERO=/bin/true RUNS=$work/runs FAIL=$work/fail
out=$work/out
fail() { echo "FAIL: $*" >&2; exit 1; }
runs() { sort "$RUNS" | tr '\n' ' '; }

touch "$FAIL"
if JOBS=2 bash "$work/examples/toy/run.sh" "$out" >"$work/log" 2>&1; then fail "a failed case did not stop the example"; fi
grep -q "case case-2 failed; see $out/case-2/log" "$work/log" || fail "the failed case is not named: $(cat "$work/log")"
[[ $(runs) == "1 2 3 " ]] || fail "first run ran: $(runs)"
rm "$FAIL" "$RUNS"
bash "$work/examples/toy/run.sh" "$out" >/dev/null || fail "the resumed run failed"
[[ $(runs) == "2 " ]] || fail "resuming ran $(runs), not only the failed case 2"
rm "$RUNS"
bash "$work/examples/toy/run.sh" "$out" >/dev/null
[[ ! -e $RUNS ]] || fail "a finished example ran again: $(runs)"
# A changed case function runs every case again.
sed -i 's/echo "value $1"/echo "value: $1"/' "$work/examples/toy/run.sh"
bash "$work/examples/toy/run.sh" "$out" >/dev/null
[[ $(runs) == "1 2 3 " ]] || fail "a changed case ran $(runs), not every case"
rm "$RUNS"
# A changed scene file of the example runs every case again.
echo "duration = 1" >"$work/examples/toy/scene.ini"
bash "$work/examples/toy/run.sh" "$out" >/dev/null
[[ $(runs) == "1 2 3 " ]] || fail "a changed scene ran $(runs), not every case"
rm "$RUNS"
# Another sphero build runs them again, unless KEEP_CASES=1.
SPHERO=/bin/false KEEP_CASES=1 bash "$work/examples/toy/run.sh" "$out" >/dev/null
[[ ! -e $RUNS ]] || fail "KEEP_CASES=1 ran $(runs) again"
SPHERO=/bin/false bash "$work/examples/toy/run.sh" "$out" >/dev/null
[[ $(runs) == "1 2 3 " ]] || fail "another build ran $(runs), not every case"
echo "cases resume"
