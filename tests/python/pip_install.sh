#!/usr/bin/env bash
# pip_install.sh SOURCE BUILD WORKDIR: `pip install --no-build-isolation .`
# (pyproject.toml, setup.py) puts the module into a virtual environment made
# with --system-site-packages from Debian's Python, reusing the build; that
# environment's Python, not /usr/bin/python3, imports it and steps a scene.
set -euo pipefail
source=$1; build=$2; work=$3
rm -rf "$work"; mkdir -p "$work"
/usr/bin/python3 -m venv --system-site-packages "$work/venv"
SPHERO_BUILD_DIR=$build "$work/venv/bin/python" -m pip install --quiet --no-build-isolation --no-deps --no-index \
  "$source" >"$work/pip.log" 2>&1 || { cat "$work/pip.log"; exit 1; }
cd "$work"
env -u PYTHONPATH "$work/venv/bin/python" - "$source" <<'PY'
import os, sys
import sphero
here = os.path.realpath(sphero.__file__)
assert here.startswith(os.path.realpath(sys.prefix)), f"sphero imported from {here}, not from {sys.prefix}"
scene = sphero.scene(base=os.path.join(sys.argv[1], "data", "shapes"), duration=0.1, dt=2e-4, gravity=(0, -9.81),
                     law=["0 0 linear kn=1e5 kt=5e4 mu=0.5 gamma_n=20"],
                     wall=[dict(radius=0.05, points=[(0, 10), (0, 0), (8, 0), (8, 10)])],
                     grains=[dict(shape="disk.shape", count=6, region=(0.5, 0.5, 7.5, 5))])
sim = sphero.Simulation(scene)
sim.run(steps=100)
print(f"pip-installed sphero in {sys.prefix}: {sim.positions.shape[0]} bodies stepped to t = {sim.time:g} s")
PY
