"""Sphero from Python: shapes, scenes, packings, simulations and their
analysis, with NumPy arrays in and out (docs/PYTHON.md).

    import sphero
    scene = sphero.Scene.from_file("data/scenes/hopper.ini")
    sim = sphero.Simulation(scene)
    sim.run(time=1.0, callback=lambda s: print(s.time, s.energy()["kinetic_translational"]), every=5000)
    print(sphero.analyze(sim)["packing_fraction"])
"""
import os as _os
import sys as _sys

try:
    import numpy as _numpy  # noqa: F401 (the module's arrays are NumPy's)
except ImportError as _missing:
    raise ImportError(
        f"sphero needs NumPy, which this Python ({_sys.executable}) cannot import: install it into this "
        "environment, or make the virtual environment with --system-site-packages so that it sees Debian's "
        "python3-numpy (docs/PYTHON.md)") from _missing

from ._sphero import (Frame, Scene, Shape, Simulation, analyze, coarse_grain, command, frame_count, read_frame,
                      read_shape)
from .scene_text import scene_text

__all__ = ["Frame", "Scene", "Shape", "Simulation", "analyze", "coarse_grain", "command", "frame_count", "read_frame",
           "read_shape", "scene", "scene_text", "pack", "analyze_run"]


def _change(simulation, **keys):
    """Changes the simulation between runs as a stage of a scene does
    (docs/SCENES.md, "Stages"), every contact and spring kept: set_wall=[...],
    law=[...], gravity=(gx, gy), attractor="x,y g", dt=... ("auto" too),
    grains=[...] (grains added after every body; shape paths from here),
    remove=[...] (grains removed: {"region": (x0, y0, x1, y1)} for those whose
    centre lies there, {"ids": [...]} by id, as sim.ids gives them; a wall
    with set_wall=["NAME remove"]).

        sim.change(set_wall=["top velocity=0,-0.01"], gravity=(0, 0))
        sim.change(remove=[{"region": (0, 0.5, 1, 1)}])

    A refused change raises RuntimeError naming the argument, and changes
    nothing."""
    lines, arguments = [], []
    for key, value in keys.items():
        entries = value if isinstance(value, list) else [value]
        for k, entry in enumerate(entries):
            lines.append(scene_text(**{key: [entry] if isinstance(value, list) else entry}))
            arguments.append(f"{key}[{k}]" if isinstance(value, list) else key)
    try:
        simulation._change("".join(lines))
    except RuntimeError as error:
        import re
        where = re.match(r"change\(\):(\d+): ", str(error))
        if not where:
            raise
        argument = arguments[int(where.group(1)) - 1]
        raise RuntimeError(f"change({argument}=...): {str(error)[where.end():]}") from None


Simulation.change = _change


def scene(base=".", **keys):
    """A Scene from Python objects (see scene_text); shape and packing paths
    are relative to `base`."""
    return Scene.from_text(scene_text(**keys), base, "python scene")


def _arguments(options):
    args = []
    for key, value in options.items():
        option = "--" + key.replace("_", "-")
        if value is True:
            args.append(option)
        elif value is False or value is None:
            continue
        elif isinstance(value, (list, tuple)) and key != "shape":
            args += [option, ",".join(str(v) for v in value)]
        elif isinstance(value, (list, tuple)):
            for v in value:
                args += [option, str(v)]
        else:
            args += [option, str(value)]
    return args


def pack(method, output, **options):
    """`sphero pack METHOD --option value ... -o OUTPUT` (voronoi, gas,
    lattice, compress, deposit, sort; docs/PACKING.md), in this process;
    returns OUTPUT, ready for scene(packing=[OUTPUT], ...)."""
    command("pack", [method] + _arguments(options) + ["-o", _os.fspath(output)])
    return _os.fspath(output)


def analyze_run(run_directory, **options):
    """`sphero analyze RUN_DIR --option value ...`: writes analysis.csv and
    the other tables into the run's folder."""
    command("analyze", [_os.fspath(run_directory)] + _arguments(options))
