#!/usr/bin/env bash
# bad_catalogue.sh SPHERO DATA_DIR RUN_DIR WORKDIR: runs every case of
# tests/e2e/bad/catalogue (its header says what a case asserts) and fails
# when any exits otherwise, ends on a signal, hangs, names a C++ internal or
# lacks its words.
set -euo pipefail
sphero=$1; data=$2; run=$3; work=$4
here=$(cd "$(dirname "$0")" && pwd)
rm -rf "$work"; mkdir -p "$work"
failures=0; cases=0
while IFS='|' read -r name status words arguments; do
  name=$(echo "$name" | xargs); status=$(echo "$status" | xargs)
  words=$(sed 's/^ *//; s/ *$//' <<<"$words")
  arguments=${arguments//\{bad\}/$here/bad}; arguments=${arguments//\{data\}/$data}
  arguments=${arguments//\{good\}/$here/good_vtu}; arguments=${arguments//\{run\}/$run}
  arguments=${arguments//\{work\}/$work}
  cases=$((cases + 1))
  read -r -a argv <<<"$arguments"
  set +e
  message=$(cd "$work" && timeout 60 "$sphero" "${argv[@]}" 2>&1 >/dev/null); got=$?
  set -e
  problem=""
  if [ $got -eq 124 ]; then problem="still running after 60 s"
  elif [ $got -ge 128 ]; then problem="signal $((got - 128))"
  elif [ "$got" != "$status" ]; then problem="exit $got, not $status"
  elif grep -qE 'std::|what\(\)|basic_string|_M_|bad_alloc|stod|stoi' <<<"$message"; then problem="a C++ internal in the message"
  elif ! grep -qF -- "$words" <<<"$message"; then problem="the message lacks '$words'"
  fi
  if [ -n "$problem" ]; then
    echo "FAIL $name: $problem: $(head -c 600 <<<"$message")"
    failures=$((failures + 1))
  fi
done < <(grep -v '^#' "$here/bad/catalogue" | grep -v '^ *$')
echo "$((cases - failures)) of $cases bad inputs refused as catalogued"
[ $failures -eq 0 ] && echo "catalogue passed"
