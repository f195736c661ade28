#!/usr/bin/env bash
# portable_bundle.sh SOURCE_DIR BUILD_DIR WORKDIR: tools/portable-bundle makes
# a folder whose `sphero` needs nothing from the build or the source tree:
# every library it links but the C and C++ runtimes resolves inside the
# folder, it finds its data there, and it steps on the CPU and on the
# OpenCL device to the same bits. Bad calls are refused with a message.
set -euo pipefail
source=$1; build=$2; work=$3
rm -rf "$work"; mkdir -p "$work"
out=$work/sphero-portable
"$source/tools/portable-bundle" "$build" "$out" > "$work/bundle.log"
grep -q "portable-bundle: $out (" "$work/bundle.log" || { cat "$work/bundle.log"; exit 1; }
runtime='^(linux-vdso|ld-linux|libc|libm|libpthread|libdl|librt|libresolv|libutil|libstdc\+\+|libgcc_s)\.so'
LD_LIBRARY_PATH="$out/lib" ldd "$out/bin/sphero.bin" | awk '/=>/ {print $1, $3}' | while read -r name path; do
  if echo "$name" | grep -qE "$runtime"; then continue; fi
  case "$path" in "$out/lib/"*) ;; *) echo "not bundled: $name ($path)"; exit 1 ;; esac
done
# A minimal environment: no SPHERO_DATA_DIR, no library path, run from elsewhere.
(cd "$work" && env -i PATH=/usr/bin:/bin HOME="$HOME" "$out/bin/sphero" --version) > "$work/version.txt"
grep -qx "data: $out/share/sphero" "$work/version.txt" || { cat "$work/version.txt"; exit 1; }
(cd "$work" && env -i PATH=/usr/bin:/bin HOME="$HOME" "$out/bin/sphero" bench --scene hexagons --n 200 --steps 20 \
   --settle-steps 50 --threads 1 --backend cpu,opencl) > "$work/bench.txt"
test "$(grep -c '"identical_to_first": true' "$work/bench.txt")" -eq 2 || { cat "$work/bench.txt"; exit 1; }
# Refusals: no program built there; a folder that is not a bundle.
if "$source/tools/portable-bundle" "$work/nowhere" "$work/x" 2> "$work/err1.txt"; then exit 1; fi
grep -q "portable-bundle: $work/nowhere/sphero is not there; build first" "$work/err1.txt"
mkdir -p "$work/precious"; touch "$work/precious/keep"
if "$source/tools/portable-bundle" "$build" "$work/precious" 2> "$work/err2.txt"; then exit 1; fi
grep -q "portable-bundle: $work/precious exists and is not a bundle; name another folder" "$work/err2.txt"
test -e "$work/precious/keep"
echo "bundle ok: $(du -sh "$out" | cut -f1)"
