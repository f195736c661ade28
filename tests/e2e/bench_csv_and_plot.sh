#!/usr/bin/env bash
# sphero bench --csv (with and without contact lists) and sphero plot of its
# table: a header and a row per case, the same pairs of features whatever
# the lists when listing all of them, a chart on log axes, and the plot's
# mistakes named.
set -euo pipefail
sphero=$1
out=bench_plot
rm -rf "$out" && mkdir -p "$out"
"$sphero" bench --scene polygon3,polygon16 --n 60 --steps 10 --settle-steps 200 --threads 1 --csv >"$out/lists.csv"
"$sphero" bench --scene polygon16 --n 60 --steps 10 --settle-steps 200 --threads 1 --csv --no-contact-lists >"$out/all.csv"
head -1 "$out/lists.csv" | grep -q '^scene,n,vertices,contact_lists,steps,threads,wall_s,cpu_s,cundall,'
test "$(wc -l <"$out/lists.csv")" -eq 3
grep -q '^polygon16,60,16,false,10,1,' "$out/all.csv"
# Every vertex pair of neighbours: many times the pairs the lists evaluate.
pairs='NR == 1 { for (i = 1; i <= NF; ++i) if ($i == "pairs_per_particle_step") c = i } $1 == "polygon16" { print $c }'
with=$(awk -F, "$pairs" "$out/lists.csv")
without=$(awk -F, "$pairs" "$out/all.csv")
awk -v a="$with" -v b="$without" 'BEGIN { exit !(b > 10 * a) }'

"$sphero" plot "$out/lists.csv" --x vertices --y cundall,pairs_per_particle_step --log-x --log-y --style markers \
  -o "$out/plot.png" | grep -q "2 curve(s) of 2 rows"
test "$(head -c 8 "$out/plot.png" | od -An -c | tr -d ' ')" = '211PNG\r\n032\n'
"$sphero" plot "$out/lists.csv" --x n --y cundall --by scene -o "$out/by.svg" | grep -q "2 curve(s)"
grep -q "<svg" "$out/by.svg"
if "$sphero" plot "$out/lists.csv" --x n --y colour 2>"$out/err.txt"; then exit 1; fi
grep -q "lists.csv: no column 'colour'; the columns are scene, n, vertices" "$out/err.txt"
if "$sphero" plot "$out/missing.csv" --x n --y cundall 2>"$out/err.txt"; then exit 1; fi
grep -q "missing.csv: cannot open the table" "$out/err.txt"
echo "bench csv and plot ok"
