#!/usr/bin/env bash
# figure_formats.sh SPHERO RUN_DIR WORKDIR: the force-network figure comes out
# as PNG (of the asked width), SVG and PDF, non-empty, and bad requests fail.
set -euo pipefail
sphero=$1; run=$2; work=$3
rm -rf "$work"; mkdir -p "$work"
"$sphero" figure "$run" -o "$work/f.png" --width 800 > /dev/null
"$sphero" figure "$run" -o "$work/f.svg" --frame 3 > /dev/null
"$sphero" figure "$run" -o "$work/f.pdf" > /dev/null
[ "$(head -c 8 "$work/f.png" | od -An -tx1 | tr -d ' \n')" = "89504e470d0a1a0a" ] || { echo "not a PNG"; exit 1; }
width=$((16#$(od -An -tx1 -j16 -N4 "$work/f.png" | tr -d ' \n')))
[ "$width" -eq 800 ] || { echo "PNG is $width wide, not 800"; exit 1; }
grep -q "<svg" "$work/f.svg" || { echo "not an SVG"; exit 1; }
[ "$(head -c 5 "$work/f.pdf")" = "%PDF-" ] || { echo "not a PDF"; exit 1; }
for f in f.png f.svg f.pdf; do [ "$(stat -c %s "$work/$f")" -gt 2000 ] || { echo "$f is nearly empty"; exit 1; }; done
if "$sphero" figure "$run" -o "$work/f.gif" 2> "$work/err"; then echo "accepted .gif"; exit 1; fi
grep -q "unknown figure format; use .png, .svg or .pdf" "$work/err" || { cat "$work/err"; exit 1; }
if "$sphero" figure "$run" --frame 999 -o "$work/g.png" 2> "$work/err"; then echo "accepted frame 999"; exit 1; fi
grep -q "frame 999 does not exist; the run has frames 0 to" "$work/err" || { cat "$work/err"; exit 1; }
# Framed on the grains: a different picture; a bad view is named.
"$sphero" figure "$run" --view grains --frame 3 -o "$work/g.svg" > /dev/null
if cmp -s "$work/g.svg" "$work/f.svg"; then echo "--view grains changed nothing"; exit 1; fi
if "$sphero" figure "$run" --view pie -o "$work/v.png" 2> "$work/err"; then echo "accepted --view pie"; exit 1; fi
grep -q -- "--view: use 'auto', 'all' or 'grains'" "$work/err" || { cat "$work/err"; exit 1; }
# Two runs compared on one chart (here the same run twice, under two names).
ln -sfn "$run" "$work/again"
"$sphero" figure "$run" --compare "$work/again" --plot stress-strain -o "$work/c.svg" > /dev/null
"$sphero" figure "$run" --plot stress-strain -o "$work/s.svg" > /dev/null
if cmp -s "$work/c.svg" "$work/s.svg"; then echo "the compared run changed nothing"; exit 1; fi
if "$sphero" figure "$run" --compare "$work/again" --plot energy -o "$work/e.png" 2> "$work/err"; then
  echo "compared energy plots"; exit 1
fi
grep -q "only stress-strain and void-ratio plots compare runs" "$work/err" || { cat "$work/err"; exit 1; }
echo "figures: PNG 800 px wide, SVG, PDF; bad format and frame refused; runs compared"
