#!/usr/bin/env bash
# expect_error.sh REGEX CMD [ARGS...]: passes when CMD exits non-zero, did
# not crash (no signal), and its stderr matches the extended regex REGEX.
set -u
regex=$1; shift
stderr=$("$@" 2>&1 >/dev/null); status=$?
if [ $status -eq 0 ]; then echo "expected a failure, got exit 0"; exit 1; fi
if [ $status -ge 128 ]; then echo "crashed with signal $((status - 128)): $stderr"; exit 1; fi
if ! grep -qE -- "$regex" <<<"$stderr"; then echo "stderr does not match /$regex/:"; echo "$stderr"; exit 1; fi
echo "ok (exit $status): $stderr"
