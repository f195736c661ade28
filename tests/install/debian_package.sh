#!/usr/bin/env bash
# debian_package.sh BUILD_DIR WORKDIR: cpack makes sphero_<version>_amd64.deb
# with its dependencies declared and everything in it — the program, the
# plugin where ParaView loads it, the Python module in dist-packages, data,
# docs, headers and the CMake package — and its unpacked program runs.
set -euo pipefail
build=$1; work=$2
rm -rf "$work"; mkdir -p "$work"
(cd "$build" && cpack -G DEB -B "$work" > "$work/cpack.log") || { tail -20 "$work/cpack.log"; exit 1; }
deb=$(ls "$work"/sphero_*_amd64.deb)
dpkg-deb --info "$deb" > "$work/info.txt"
for field in "Package: sphero" "Architecture: amd64" "Depends: paraview (>= 5.11)," "python3-numpy"; do
  grep -q -- "$field" "$work/info.txt" || { echo "dpkg-deb --info lacks '$field'"; cat "$work/info.txt"; exit 1; }
done
dpkg-deb --contents "$deb" > "$work/contents.txt"
for path in ./usr/bin/sphero ./usr/lib/paraview-5.11/plugins/SpheroPlugin/SpheroPlugin.so \
            ./usr/lib/python3/dist-packages/sphero/__init__.py ./usr/share/sphero/shapes/cow.shape \
            ./usr/share/sphero/scenes/hopper.ini ./usr/lib/cmake/Sphero/SpheroConfig.cmake \
            ./usr/include/sphero/engine/engine.h ./usr/share/doc/sphero/README.md; do
  grep -q " $path\$" "$work/contents.txt" || { echo "the package lacks $path"; exit 1; }
done
grep -q " ./usr/lib/python3/dist-packages/sphero/_sphero.*\.so$" "$work/contents.txt" || { echo "no _sphero module"; exit 1; }
grep -q " ./usr/bin/plugins -> ../lib/paraview-5.11/plugins/SpheroPlugin$" "$work/contents.txt" \
  || { echo "no /usr/bin/plugins link to the plugin"; grep plugins "$work/contents.txt"; exit 1; }
if grep -q "libSpheroReaders" "$work/contents.txt"; then echo "the plugin's build-time libraries were packaged"; exit 1; fi
dpkg-deb -x "$deb" "$work/root"
"$work/root/usr/bin/sphero" --version | grep -qx "data: $work/root/usr/share/sphero" \
  || { "$work/root/usr/bin/sphero" --version; exit 1; }
echo "package ok: $(basename "$deb"), $(grep -c . "$work/contents.txt") entries, $(stat -c %s "$deb") bytes"
