# Sourced by the bad-input scripts: `expect CASE WORDS CMD...` passes when
# CMD fails without a signal, its message holds WORDS (fixed text) and names
# no C++ internal; `finish` prints the tally and fails on any failure.
failures=0; cases=0
expect() {
  local name=$1 words=$2; shift 2
  cases=$((cases + 1))
  set +e
  local message; message=$(timeout 60 "$@" 2>&1 >/dev/null); local status=$?
  set -e
  if [ $status -eq 0 ]; then echo "FAIL $name: exit 0"; failures=$((failures + 1)); return; fi
  if [ $status -eq 124 ]; then echo "FAIL $name: still running after 60 s"; failures=$((failures + 1)); return; fi
  if [ $status -ge 128 ]; then echo "FAIL $name: signal $((status - 128)): $message"; failures=$((failures + 1)); return; fi
  if grep -qE 'std::|what\(\)|basic_string|_M_|bad_alloc|stod|stoi' <<<"$message"; then
    echo "FAIL $name: a C++ internal in the message: $message"; failures=$((failures + 1)); return
  fi
  if ! grep -qF -- "$words" <<<"$message"; then
    echo "FAIL $name: the message lacks '$words': $message"; failures=$((failures + 1)); return
  fi
}
finish() {
  echo "$((cases - failures)) passed, $failures failed"
  [ $failures -eq 0 ]
}
