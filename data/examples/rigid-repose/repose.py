"""One heap of the rigid-repose example: grains poured slowly onto a fixed
base until at rest, and the angles of its flanks.

A source 1 m above the heap's top lets a grain fall every eighth of a
second (the shape file at 0.8, 1 or 1.2 times its size, at random: grains
of one size crystallise) onto a floor of half-width BASE with a low lip at
each end; grains that spill over the lip are taken out below it, so that
the heap's foot is the base's and its slope is the material's angle of
repose (a fixed-base cone). Once the grains are poured the heap is left
until its kinetic energy falls below 1e-8 of its peak (at rest). The angle
of each flank is the slope of the least-squares line through the highest
grain centre of each 1 m column between 20% and 90% of the heap's height.

Prints one CSV row: model, mu, seed, grains poured, grains on the heap,
simulated time, whether at rest, kinetic energy over its peak, the left
and right angles (degrees) and the wall time (s).
"""
import argparse
import math
import os
import sys
import tempfile
import time

import numpy as np
import sphero


def arguments():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--model", choices=("rigid", "soft"), required=True)
    p.add_argument("--mu", type=float, required=True)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--grains", type=int, default=250, help="grains poured")
    p.add_argument("--base", type=float, default=12.0, help="half-width of the floor (m)")
    p.add_argument("--every", type=float, default=0.125, help="seconds between grains")
    p.add_argument("--settle", type=float, default=40.0, help="most seconds to rest after the pour")
    p.add_argument("--shape", required=True, help="the grains' shape file")
    p.add_argument("--frames", help="a folder for the run's frames (optional)")
    return p.parse_args()


SIZES = (0.8, 1.0, 1.2)  # the grains' sizes, relative to the shape file's: one size crystallises


def sized_shapes(a, folder):
    """The shape file scaled to each of SIZES, written into `folder` (the
    grains added later read them from there)."""
    base = sphero.read_shape(a.shape)
    paths = []
    for size in SIZES:
        path = os.path.join(folder, f"{base.name}-{size:g}.shape")
        vertices = "\n".join(f"{x * size!r} {y * size!r}" for x, y in np.asarray(base.vertices))
        with open(path, "w") as f:
            f.write(f"sphero-shape 1\nname {base.name}-{size:g}\nkind {base.kind}\nradius {base.radius * size!r}\n"
                    f"vertices {len(base.vertices)}\n{vertices}\n")
        paths.append(path)
    return paths


def batch_line(shape, y):
    """A grain of `shape` at random in the source above height y."""
    return f"shape={shape} count=1 generator=random angle=random region=-2,{y},2,{y + 2}"


def scene_of(a, first):
    common = dict(gravity=(0, -9.81), seed=a.seed, duration=1e6, grains=[batch_line(first, 1.5)],
                  wall=[f"radius=0.1 points={-a.base},0.6;{-a.base},0;{a.base},0;{a.base},0.6"])
    if a.model == "rigid":
        # Restitution 0.2, Coulomb friction; Gauss–Seidel is the solver that takes mu.
        return sphero.scene(model="rigid", dt=2e-3, rigid_solver="gauss_seidel", rigid_tolerance=1e-6,
                            law=[f"0 0 rigid restitution=0.2 mu={a.mu}"], **common)
    # Stiff enough that a heap of 30 grains squeezes its contacts by 1e-4 of
    # a grain; gamma_n gives a restitution of 0.2 between two grains of
    # the shape's mass m (damping ratio 0.456 of the pair's 2 sqrt(kn m/2)).
    kn, mass = 1e6, sphero.read_shape(a.shape).mass_properties()["area"]
    gamma_n = 0.456 * 2 * math.sqrt(kn * mass / 2)
    law = f"0 0 linear kn={kn:g} kt={kn / 2:g} gamma_n={gamma_n:.4g} mu={a.mu}"
    return sphero.scene(dt="auto", law=[law], **common)


def grains(sim):
    return ~np.asarray(sim.is_wall)


def kinetic(sim):
    e = sim.energy()
    return e["kinetic_translational"] + e["kinetic_rotational"]


def top_profile(x, top, base, bin_width=1.0):
    """The highest grain centre in each column across the base."""
    edges = np.arange(-base, base + bin_width, bin_width)
    column = np.digitize(x, edges) - 1
    heights = np.zeros(len(edges) - 1)
    for c, t in zip(column, top):
        if 0 <= c < len(heights):
            heights[c] = max(heights[c], t)
    return 0.5 * (edges[:-1] + edges[1:]), heights


def flank_angle(centres, heights, side, low=0.2, high=0.9):
    """Degrees of the line through one flank's columns between low and high
    of the heap's height (nan where fewer than three columns)."""
    peak = heights.max()
    apex = centres[np.argmax(heights)]
    pick = (heights >= low * peak) & (heights <= high * peak) & ((centres - apex) * side > 0)
    if pick.sum() < 3:
        return math.nan
    slope = np.polyfit(centres[pick], heights[pick], 1)[0]
    return math.degrees(math.atan(abs(slope)))


def main():
    a = arguments()
    with tempfile.TemporaryDirectory(prefix="repose-shapes-") as folder:
        return pour(a, sized_shapes(a, folder))


def pour(a, shapes):
    reach = max(SIZES) * sphero.read_shape(a.shape).mass_properties()["bounding_radius"]
    sizes = np.random.default_rng(a.seed).integers(len(SIZES), size=a.grains)
    sim = sphero.Simulation(scene_of(a, shapes[sizes[0]]))
    if a.frames:
        sim.start_output(a.frames, frame_interval=1.0, overwrite=True)
    start, peak, poured = time.time(), 0.0, 1

    def take_out_fallen():
        if (np.asarray(sim.positions)[grains(sim), 1] < -1.0).any():
            sim.change(remove=[dict(region=(-1e4, -1e4, 1e4, -1.0))])

    def heap_top():
        """The top of the grains that have landed near the source."""
        p, v = np.asarray(sim.positions), np.asarray(sim.velocities)
        near = grains(sim) & (np.abs(p[:, 0]) < 2.0) & (np.hypot(v[:, 0], v[:, 1]) < 0.5)
        return float(p[near, 1].max()) + reach if near.any() else 0.0

    while True:
        sim.run(time=a.every)
        peak = max(peak, kinetic(sim))
        take_out_fallen()
        if poured >= a.grains:
            break
        try:
            sim.change(grains=[batch_line(shapes[sizes[poured]], heap_top() + 1.0)])
            poured += 1
        except RuntimeError as error:  # the last grain still falls through the source: the next time
            if "random placement found room" not in str(error):
                raise
    settled_for, at_rest = 0.0, False
    while settled_for < a.settle:
        sim.run(time=0.25)
        settled_for += 0.25
        take_out_fallen()
        k = kinetic(sim)
        peak = max(peak, k)
        if k < 1e-8 * peak:
            at_rest = True
            break
    g = grains(sim)
    x, y = np.asarray(sim.positions)[g, 0], np.asarray(sim.positions)[g, 1]
    centres, heights = top_profile(x, y, a.base)
    left, right = flank_angle(centres, heights, -1), flank_angle(centres, heights, 1)
    if a.frames:
        sim.stop_output()
    print(f"{a.model},{a.mu:g},{a.seed},{poured},{int(g.sum())},{sim.time:.2f},{int(at_rest)},"
          f"{kinetic(sim) / peak:.3g},{left:.2f},{right:.2f},{time.time() - start:.1f}")
    if os.environ.get("REPOSE_PROFILE"):
        print(" ".join(f"{c:.1f}:{h:.2f}" for c, h in zip(centres, heights)), file=sys.stderr)


if __name__ == "__main__":
    sys.exit(main())
