#!/usr/bin/env bash
# bench_frames.sh SPHERO: `sphero bench --frames` reports a record per field
# and for the light set in double and single precision, each with its bytes
# per grain and write time, and single precision writes fewer bytes.
set -euo pipefail
sphero=$1
fail() { echo "FAIL: $*"; exit 1; }
out=$("$sphero" bench --scene hexagons --n 150 --steps 20 --settle-steps 300 --threads 1 --frames)
records=$(grep '"record": "frame"' <<<"$out") || fail "no frame records: $out"
[[ $(wc -l <<<"$records") -eq 7 ]] || fail "not 7 frame records: $records"
for fields in outlines contacts walls contact_points state; do
  grep -q "\"fields\": \"$fields\", \"precision\": \"double\", \"bytes_per_grain\": [1-9][0-9.]*, \"write_ms\": [0-9.]*" \
    <<<"$records" || fail "no record of $fields: $records"
done
bytes() { grep "\"fields\": \"contacts+walls+state\", \"precision\": \"$1\"" <<<"$records" |
  sed 's/.*"bytes_per_grain": \([0-9.]*\).*/\1/'; }
double=$(bytes double); single=$(bytes single)
[[ -n $double && -n $single ]] || fail "no light-set records: $records"
awk -v d="$double" -v s="$single" 'BEGIN { exit !(s < d) }' || fail "single precision: $single bytes a grain, double $double"
"$sphero" bench --scene hexagons --n 150 --frames --csv 2>/dev/null && fail "--frames with --csv was accepted"
echo "bench frames ok: the light set $double bytes a grain, $single in single precision"
