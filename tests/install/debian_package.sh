#!/usr/bin/env bash
# debian_package.sh BUILD_DIR WORKDIR: cpack makes sphero-paraview_<version>_amd64.deb
# from the ParaView build — the plugin alone, its copyright and changelog, and
# the environment files that make ParaView load it at start — with its
# dependencies declared by dpkg-shlibdeps; lintian finds no error in it; and
# pvpython, in a shell that read the package's profile script, opens Sphero's
# readers without being told where the plugin is. (The package `sphero` is
# made from a second build against Debian's VTK: tools/debian-packages.)
set -euo pipefail
build=$1; work=$2
rm -rf "$work"; mkdir -p "$work"
(cd "$build" && DEBFULLNAME="Sphero Test" DEBEMAIL="test@sphero.invalid" cpack -G DEB -B "$work" > "$work/cpack.log" 2>&1) \
  || { tail -20 "$work/cpack.log"; exit 1; }
deb=$(ls "$work"/sphero-paraview_*_amd64.deb)
dpkg-deb --info "$deb" > "$work/info.txt"
for field in "Package: sphero-paraview" "Architecture: amd64" "paraview (>= 5.11" "paraview (<< 5.11" \
             "Maintainer: Sphero Test <test@sphero.invalid>" "Recommends: sphero (= " \
             "Description: ParaView plugin for Sphero" "Breaks: sphero (<< 0.1.0-2)" \
             "Replaces: sphero (<< 0.1.0-2)"; do
  grep -q -- "$field" "$work/info.txt" || { echo "dpkg-deb --info lacks '$field'"; cat "$work/info.txt"; exit 1; }
done
dpkg-deb --contents "$deb" > "$work/contents.txt"
for path in ./usr/lib/paraview-5.11/plugins/SpheroPlugin/SpheroPlugin.so ./etc/profile.d/sphero-paraview.sh \
            ./usr/lib/environment.d/60-sphero-paraview.conf ./usr/share/doc/sphero-paraview/copyright \
            ./usr/share/doc/sphero-paraview/changelog.Debian.gz; do
  grep -q " $path\$" "$work/contents.txt" || { echo "the package lacks $path"; exit 1; }
done
# The command line, its data and the plugin's build-time libraries belong elsewhere.
for path in ./usr/bin/ ./usr/share/sphero/ ./usr/include/ libSpheroReaders; do
  if grep -q -- "$path" "$work/contents.txt"; then echo "the package holds $path"; exit 1; fi
done
dpkg-deb --ctrl-tarfile "$deb" | tar -xO ./conffiles | grep -qx /etc/profile.d/sphero-paraview.sh \
  || { echo "the profile script is not a conffile"; exit 1; }

dpkg-deb -x "$deb" "$work/root"
zcat "$work/root/usr/share/doc/sphero-paraview/changelog.Debian.gz" | head -1 | grep -q "^sphero-paraview (" \
  || { echo "the changelog does not name the package"; exit 1; }
grep -q "^Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/" \
  "$work/root/usr/share/doc/sphero-paraview/copyright" || { echo "the copyright file is not DEP-5"; exit 1; }
# The unpacked profile script, pointed at the unpacked plugin.
sed "s|/usr/lib/paraview-5.11|$work/root/usr/lib/paraview-5.11|g" \
  "$work/root/etc/profile.d/sphero-paraview.sh" > "$work/profile.sh"
env -u PV_PLUGIN_PATH bash -c ". '$work/profile.sh' && . '$work/profile.sh' && echo \"\$PV_PLUGIN_PATH\"" \
  > "$work/plugin_path.txt"
[ "$(cat "$work/plugin_path.txt")" = "$work/root/usr/lib/paraview-5.11/plugins/SpheroPlugin" ] \
  || { echo "the profile script set PV_PLUGIN_PATH to '$(cat "$work/plugin_path.txt")'"; exit 1; }
env -u PV_PLUGIN_PATH bash -c ". '$work/profile.sh' && pvpython -c 'import paraview.simple as s; print(\"readers:\", hasattr(s, \"SpheroRunReader\"))'" \
  > "$work/pvpython.txt" 2>&1 || { cat "$work/pvpython.txt"; exit 1; }
grep -q "readers: True" "$work/pvpython.txt" || { echo "pvpython did not load the plugin"; cat "$work/pvpython.txt"; exit 1; }

if command -v lintian > /dev/null; then
  lintian --fail-on error "$deb" > "$work/lintian.txt" 2>&1 || { echo "lintian:"; cat "$work/lintian.txt"; exit 1; }
else
  echo "lintian is not installed (tools/install-dependencies installs it)"; exit 1
fi
echo "package ok: $(basename "$deb"), $(grep -c . "$work/contents.txt") entries, $(stat -c %s "$deb") bytes"
