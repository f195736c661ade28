"""A protocol in Python: a Voronoi-Minkowski sample compressed
isotropically to p0, loaded biaxially with the sides held at p0, then
unloaded, every contact kept from one stage to the next; q/p and the
volumetric strain measured on the live simulation (docs/PYTHON.md).

    PYTHONPATH=build/python /usr/bin/python3 docs/python/protocol.py [--grains 150] [-o protocol.png]
"""
import argparse
import math
import os
import tempfile

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

import sphero  # noqa: E402

parser = argparse.ArgumentParser()
parser.add_argument("--grains", type=int, default=150)
parser.add_argument("--strain", type=float, default=0.04, help="axial strain of the loading stage")
parser.add_argument("-o", "--output", default="protocol.png")
args = parser.parse_args()

p0 = 1e-3                     # confining pressure, in units of kn (kn = 1)
rate = 1e-3 * math.sqrt(p0)   # axial strain rate: inertial number 1e-3 for grains of size 1
box = math.sqrt(2.0 * args.grains)
work = tempfile.mkdtemp(prefix="protocol-")

# The sample: Voronoi-Minkowski cells, compressed by four plates named
# left, right, bottom and top, which keep p0 on the sample's sides.
cells = sphero.pack("voronoi", os.path.join(work, "cells.vtu"), box=(0, 0, box, box), count=args.grains,
                    radius=0.05, lloyd=3, seed=1)
sample = sphero.pack("compress", os.path.join(work, "isotropic.vtu"), packing=cells, pressure=p0, kn=1, kt=0.1,
                     mu=0.5)

# Smooth platens (material 1), frictional grains; the plates keep p0.
sim = sphero.Simulation(sphero.scene(
    base=work, duration=1, law=["0 0 linear kn=1 kt=0.1 mu=0.5 gamma_n=0.6", "0 1 linear kn=1 gamma_n=0.6",
                                "1 1 linear kn=1"],
    packing=[sample], set_wall=[f"{side} material=1" for side in ("left", "right", "bottom", "top")]))
plates = {side: sim.wall(side) for side in ("left", "right", "bottom", "top")}


def sample_size(s):
    """The sample's width and height: the plates' distances less their sphero-radii."""
    x, r = s.positions, s.radii
    width = x[plates["right"]][0] - x[plates["left"]][0] - r[plates["right"]] - r[plates["left"]]
    height = x[plates["top"]][1] - x[plates["bottom"]][1] - r[plates["top"]] - r[plates["bottom"]]
    return width, height


w0, h0 = sample_size(sim)
axial, volumetric, ratio, stage_of = [], [], [], []


def measure(s, stage):
    a = sphero.analyze(s, local_packing=False)
    w, h = sample_size(s)
    axial.append(1.0 - h / h0)  # compression positive
    volumetric.append(1.0 - w * h / (w0 * h0))
    ratio.append(a["q"] / a["p"] if a["p"] > 0 else math.nan)
    stage_of.append(stage)


speed = 0.5 * rate * h0
duration = args.strain / rate
every = max(1, round(duration / sim.dt / 80))
# Loading: bottom and top approach; the sides keep p0.
sim.change(set_wall=[f"bottom velocity=0,{speed}", f"top velocity=0,{-speed}"])
sim.run(time=duration, callback=lambda s: measure(s, "loading"), every=every)
# Unloading: they withdraw at the same rate, for a quarter of the strain.
sim.change(set_wall=[f"bottom velocity=0,{-speed}", f"top velocity=0,{speed}"])
sim.run(time=duration / 4, callback=lambda s: measure(s, "unloading"), every=every)

peak = max(range(len(ratio)), key=lambda k: ratio[k] if stage_of[k] == "loading" else -1)
print(f"{args.grains} Voronoi-Minkowski grains, p0 = {p0:g} kn: peak q/p {ratio[peak]:.3f} at axial strain "
      f"{axial[peak]:.4f}, volumetric strain there {volumetric[peak]:.4f}; at the end of loading "
      f"{volumetric[stage_of.index('unloading') - 1]:.4f}; after unloading q/p {ratio[-1]:.3f}")

fig, (stress, volume) = plt.subplots(1, 2, figsize=(10, 4))
for stage, style in (("loading", "-"), ("unloading", "--")):
    k = [i for i, s in enumerate(stage_of) if s == stage]
    stress.plot([axial[i] for i in k], [ratio[i] for i in k], style, label=stage)
    volume.plot([axial[i] for i in k], [volumetric[i] for i in k], style, label=stage)
stress.set_xlabel("axial strain ε_a")
stress.set_ylabel("stress ratio q / p")
volume.set_xlabel("axial strain ε_a")
volume.set_ylabel("volumetric strain ε_v (compression positive)")
stress.legend()
volume.legend()
fig.suptitle(f"Biaxial test of {args.grains} Voronoi-Minkowski grains at p0 = 0.001 kn, loaded then unloaded")
fig.tight_layout()
fig.savefig(args.output, dpi=120)
print(f"figure: {args.output}")
