# Shared by the examples' run.sh scripts: finding sphero, the arguments
# (--reduced, the output directory), the cases (run $JOBS at once, each kept
# once finished so that a rerun resumes), the results table, the physics
# checks and the tables and figures of docs/VALIDATION.md. Sourced, not run.
set -euo pipefail

EXAMPLE_DIR=$(cd "$(dirname "${BASH_SOURCE[1]}")" && pwd)
EXAMPLE=$(basename "$EXAMPLE_DIR")
REPO=$(cd "$EXAMPLE_DIR/../../.." && pwd)
REDUCED=0
OUT=""

usage() {
  cat <<USAGE
usage: $0 [--reduced] [OUTPUT_DIR]

Runs the '$EXAMPLE' example and its analysis into OUTPUT_DIR (default
./$EXAMPLE-output): frames, figures, results.txt. --reduced runs the short
version the test suite uses. Exits 1 if a physics check fails.
sphero is \$SPHERO, else $REPO/build/sphero, else the one on PATH.
USAGE
}

for argument in "$@"; do
  case $argument in
    --reduced) REDUCED=1 ;;
    -h | --help) usage; exit 0 ;;
    -*) echo "$0: unknown option '$argument'" >&2; usage >&2; exit 2 ;;
    *) [[ -z $OUT ]] || { echo "$0: one output directory, not '$OUT' and '$argument'" >&2; exit 2; }; OUT=$argument ;;
  esac
done
OUT=${OUT:-$PWD/$EXAMPLE-output}
mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)

if [[ -z ${SPHERO:-} ]]; then
  if [[ -x $REPO/build/sphero ]]; then SPHERO=$REPO/build/sphero
  elif command -v sphero >/dev/null; then SPHERO=$(command -v sphero)
  else echo "$0: no sphero: build it (README) or set SPHERO=/path/to/sphero" >&2; exit 2
  fi
fi
sphero() { "$SPHERO" "$@"; }

# hexagon_bed N: a scene of a box twice as wide as high holding N hexagons
# (circumradius 0.5) on a lattice, 2 m² each, falling under gravity (the
# parallel-scaling example's bed, and the ranks' memory in
# performance/tables.sh).
hexagon_bed() {
  awk -v n="$1" -v shape="$REPO/data/shapes/hexagon.shape" 'BEGIN {
    h = sqrt(n); w = 2 * h
    printf "dt = auto\ngravity = 0,-9.81\nlaw = 0 0 linear kn=1e5 kt=5e4 mu=0.4 gamma_n=20\n"
    printf "wall = radius=0.1 points=0,%g;0,0;%g,0;%g,%g\n", h, w, w, h
    printf "grains = shape=%s count=%d region=1,1,%g,%g\n", shape, n, w - 1, h - 1
    printf "output_interval = 1000\n" }'
}

# Cases: the independent simulations of an example. `run_case NAME FUNCTION
# ARGS...` runs `FUNCTION ARGS... $OUT/NAME` in the background, at most $JOBS
# at a time, its output in $OUT/NAME/log. A case that finishes leaves a stamp
# naming the sphero binary (its checksum), the function (the checksum of its
# text), the example's scenes and shapes (the checksum of its .ini and
# .shape files) and its arguments; a later run with the same four keeps it
# instead of running it again, so an interrupted run resumes where it
# stopped.
# KEEP_CASES=1 keeps finished cases run by another sphero binary too (for
# a build whose change cannot move the results, e.g. of the figures only):
# the stamps still name the binary that ran each case. `cases_finished` waits for them
# all and stops the script if one failed.
JOBS=${JOBS:-1}
[[ $JOBS =~ ^[1-9][0-9]*$ ]] || { echo "$0: JOBS must be a positive integer, not '$JOBS'" >&2; exit 2; }
SPHERO_ID=$(sha256sum "$SPHERO" | cut -c1-16)
INPUTS_ID=$(find "$EXAMPLE_DIR" -maxdepth 1 -type f \( -name '*.ini' -o -name '*.shape' \) | sort | xargs -r cat | sha256sum | cut -c1-16)
CASES=()
run_case() {
  local name=$1
  shift
  local dir=$OUT/$name key
  key="$SPHERO_ID $(declare -f "$1" | sha256sum | cut -c1-16) $INPUTS_ID $*"
  CASES+=("$name")
  if [[ -f $dir/.finished ]]; then
    local stamp
    stamp=$(<"$dir/.finished")
    [[ $stamp == "$key" ]] && return 0
    [[ ${KEEP_CASES:-0} == 1 && ${stamp#* } == "${key#* }" ]] && return 0
  fi
  while (($(jobs -rp | wc -l) >= JOBS)); do wait -n || true; done
  rm -rf "$dir"
  mkdir -p "$dir"
  (
    "$@" "$dir" >"$dir/log" 2>&1
    echo "$key" >"$dir/.finished"
  ) &
}
cases_finished() {
  wait || true
  local name failed=0
  for name in "${CASES[@]}"; do
    [[ -f $OUT/$name/.finished ]] && continue
    echo "$EXAMPLE: case $name failed; see $OUT/$name/log:" >&2
    tail -5 "$OUT/$name/log" >&2
    failed=1
  done
  [[ $failed == 0 ]] || exit 1
}

# The seeds of a case's realisations: 1 to N.
seeds() { seq 1 "$1"; }

RESULTS=$OUT/results.txt
FAILED=0
{
  echo "# $EXAMPLE: $([[ $REDUCED == 1 ]] && echo reduced || echo full) run, $(date -u '+%Y-%m-%d %H:%M UTC'), $(uname -n)"
  echo "# key = value  # what it is"
} >"$RESULTS"

# result KEY VALUE DESCRIPTION: one line of results.txt, echoed.
result() {
  printf '%s = %s  # %s\n' "$1" "$2" "$3" | tee -a "$RESULTS"
}

# check DESCRIPTION VALUE OP BOUND: a physics check (OP one of < <= > >= ==);
# a failure is reported and makes the script exit 1 at `finish`.
check() {
  local description=$1 value=$2 op=$3 bound=$4
  if awk -v v="$value" -v b="$bound" -v op="$op" 'BEGIN {
      if (v != v + 0) exit 1
      ok = (op == "<" && v < b) || (op == "<=" && v <= b) || (op == ">" && v > b) || (op == ">=" && v >= b) ||
           (op == "==" && v == b)
      exit ok ? 0 : 1 }'; then
    printf 'check passed: %s: %s %s %s\n' "$description" "$value" "$op" "$bound" | tee -a "$RESULTS"
  else
    printf 'CHECK FAILED: %s: %s is not %s %s\n' "$description" "$value" "$op" "$bound" | tee -a "$RESULTS" >&2
    FAILED=1
  fi
}

# The page: `page_table NAME` writes stdin (a Markdown table) and
# `page_figure FILE NAME` copies a figure as the table or image NAME of
# docs/VALIDATION.md, prefixed with the example's name; `data/examples/validate`
# puts them in the page.
rm -rf "$OUT/page"
mkdir -p "$OUT/page"
page_table() { cat >"$OUT/page/$EXAMPLE-$1.md"; }
page_figure() { cp "$1" "$OUT/page/$EXAMPLE-$2.png"; }

# order_in_dt BOUND: from "dt error" lines on stdin, "slope dt": the
# least-squares slope of log(error) against log(dt) (the observed order),
# and the largest dt whose error is at most BOUND ("none down to" the
# smallest dt where none is).
order_in_dt() {
  awk -v bound="$1" '{ x = log($1); y = log($2); sx += x; sy += y; sxx += x * x; sxy += x * y; ++n
                       if ($2 <= bound && ($1 > best || best == "")) best = $1; smallest = $1 }
    END { printf "%.2f %s\n", (n * sxy - sx * sy) / (n * sxx - sx * sx), best == "" ? "none down to " smallest : best }'
}

# stats VALUES...: "mean spread n" of the values (spread: the sample
# standard deviation, 0 for one value).
stats() {
  printf '%s\n' "$@" | awk '{ s += $1; ss += $1 * $1; ++n }
    END { m = s / n; v = n > 1 ? (ss - n * m * m) / (n - 1) : 0; printf "%.6g %.6g %d\n", m, sqrt(v > 0 ? v : 0), n }'
}

finish() {
  if [[ $FAILED == 1 ]]; then
    echo "$EXAMPLE: a physics check failed; see $RESULTS" >&2
    exit 1
  fi
  echo "$EXAMPLE: done; results in $RESULTS"
}

# csv FILE COLUMN...: those columns of a Sphero CSV table (comments skipped),
# space-separated, one row per line.
csv() {
  local file=$1
  shift
  awk -F, -v want="$*" '
    /^#/ { next }
    !header { header = 1; n = split(want, names, " ")
              for (k = 1; k <= n; ++k) { for (c = 1; c <= NF; ++c) if ($c == names[k]) index_of[k] = c
                                          if (!index_of[k]) { print "no column " names[k] > "/dev/stderr"; exit 2 } }
              next }
    { line = ""; for (k = 1; k <= n; ++k) line = line (k > 1 ? " " : "") $(index_of[k]); print line }' "$file"
}
