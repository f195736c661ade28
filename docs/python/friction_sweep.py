"""A study in Python: the biaxial test's peak stress ratio q/p against the
grains' friction coefficient (docs/PYTHON.md).

    PYTHONPATH=build/python /usr/bin/python3 docs/python/friction_sweep.py [--grains 100] [-o friction-sweep.png]

One isotropic sample of disks (gas, then compressed to p0 = 0.001 kn with
`sphero pack`), then for each friction coefficient a strain-controlled
biaxial test: side plates at constant pressure p0, top and bottom plates
closing at a constant strain rate, q/p of the sample measured every few
hundred steps on the live simulation."""
import argparse
import math
import os
import tempfile

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

import sphero  # noqa: E402

parser = argparse.ArgumentParser()
parser.add_argument("--grains", type=int, default=100)
parser.add_argument("--strain", type=float, default=0.04)
parser.add_argument("--frictions", default="0.1,0.2,0.3,0.5,0.8")
parser.add_argument("-o", "--output", default="friction-sweep.png")
args = parser.parse_args()

shapes = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "data", "shapes")
p0 = 1e-3                     # confining pressure, in units of kn (kn = 1)
rate = 1e-3 * math.sqrt(p0)   # axial strain rate: quasi-static for these grains
box = 2.05 * math.sqrt(args.grains)
work = tempfile.mkdtemp(prefix="friction-sweep-")
gas = sphero.pack("gas", os.path.join(work, "gas.vtu"), box=(0, 0, box, box), shape=[os.path.join(shapes, "disk.shape")],
                  count=args.grains, packing_fraction=0.3, spread=0.1, seed=1)
sample = sphero.pack("compress", os.path.join(work, "isotropic.vtu"), packing=gas, pressure=p0, kn=1, kt=0.1, mu=0.5)
left, right, bottom, top = (args.grains + k for k in range(4))  # compress adds the four plates after the grains


def biaxial_test(mu):
    probe = sphero.Simulation(sphero.scene(base=work, duration=1, law=["0 0 linear kn=1"], packing=[sample]))
    height = probe.positions[top][1] - probe.positions[bottom][1]
    speed, duration = 0.5 * rate * height, args.strain / rate
    scene = sphero.scene(
        base=work, duration=duration, dt="auto", verlet_distance="auto",
        law=[f"0 0 linear kn=1 kt=0.1 mu={mu} gamma_n=0.6", "0 1 linear kn=1 gamma_n=0.6", "1 1 linear kn=1"],
        packing=[sample],
        set_wall=[f"{left} pressure={p0} inward=1,0 span={bottom},{top} material=1",
                  f"{right} pressure={p0} inward=-1,0 span={bottom},{top} material=1",
                  f"{bottom} velocity=0,{speed} material=1", f"{top} velocity=0,{-speed} material=1"])
    sim = sphero.Simulation(scene)
    strain, ratio = [], []

    def measure(s):
        a = sphero.analyze(s, local_packing=False)
        strain.append(rate * s.time)
        ratio.append(a["q"] / a["p"] if a["p"] > 0 else math.nan)

    sim.run(time=duration, callback=measure, every=max(1, round(duration / sim.dt / 60)))
    return strain, ratio


frictions = [float(m) for m in args.frictions.split(",")]
peaks = []
fig, (curves, sweep) = plt.subplots(1, 2, figsize=(10, 4))
for mu in frictions:
    strain, ratio = biaxial_test(mu)
    peaks.append(max(ratio))
    curves.plot(strain, ratio, label=f"μ = {mu}")
    print(f"mu = {mu}: peak q/p = {peaks[-1]:.4f}", flush=True)
curves.set_xlabel("axial strain")
curves.set_ylabel("q / p")
curves.legend()
sweep.plot(frictions, peaks, "o-")
sweep.set_xlabel("friction coefficient μ")
sweep.set_ylabel("peak q / p")
fig.suptitle(f"Biaxial test of {args.grains} disks, p0 = 0.001 kn")
fig.tight_layout()
fig.savefig(args.output, dpi=120)
print(f"figure: {args.output}")
