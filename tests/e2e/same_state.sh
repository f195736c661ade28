#!/usr/bin/env bash
# same_state.sh A B: whether two files of runs hold the same data byte for
# byte, whatever runs they are of: checkpoints (.ckpt) past the run's
# identity (docs/FILE-FORMATS.md, "Checkpoints"; the magic and format
# before it too), run.sphero without its run and parent lines, any other
# file whole.
set -euo pipefail
[ $# -eq 2 ] || { echo "usage: $0 A B" >&2; exit 2; }
case $1 in
  *.ckpt) cmp -s -n 12 "$1" "$2" && cmp -s -i 52 "$1" "$2" ;;
  *run.sphero) diff -q <(grep -Ev '^(run|parent) = ' "$1") <(grep -Ev '^(run|parent) = ' "$2") >/dev/null ;;
  *) cmp -s "$1" "$2" ;;
esac || { echo "$1 and $2 differ" >&2; exit 1; }
