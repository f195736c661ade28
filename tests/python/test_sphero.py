"""The sphero Python module against the command line's numbers on the same
scenes (ctest runs it with the build's module first on PYTHONPATH)."""
import csv
import math
import os
import re
import struct
import subprocess

import numpy as np
import pytest

import sphero

SPHERO = os.environ["SPHERO_PROGRAM"]
DATA = os.path.join(os.environ["SPHERO_SOURCE"], "data")

SMALL = dict(duration=0.2, dt=2e-4, gravity=(0, -9.81), output_interval=0.1,
             law=["0 0 linear kn=1e5 kt=5e4 mu=0.5 gamma_n=20"],
             wall=[dict(radius=0.05, points=[(0, 10), (0, 0), (8, 0), (8, 10)])],
             grains=[dict(shape="peanut.shape", count=8, region=(0.5, 0.5, 7.5, 5), speed=1),
                     dict(shape="disk.shape", count=6, region=(0.5, 5.5, 7.5, 9))])


def same_data(a, b):
    """Whether two files of runs hold the same data, whatever runs they are
    of: checkpoints past the run's identity (bytes 12 to 51), run.sphero
    without its run and parent lines, any other file whole."""
    a, b = a.read_bytes(), b.read_bytes()
    if a[:8] in (b"SPHEROCK", b"SPHEROPT"):
        return a[:12] == b[:12] and a[52:] == b[52:]
    if a.startswith(b"# Sphero run"):
        drop = re.compile(rb"^(run|parent) = .*\n", re.M)
        return drop.sub(b"", a) == drop.sub(b"", b)
    return a == b


def small_scene():
    return sphero.scene(base=os.path.join(DATA, "shapes"), **SMALL)


def run_cli(tmp_path, scene_text, stages=""):
    (tmp_path / "shapes").symlink_to(os.path.join(DATA, "shapes"))
    (tmp_path / "s.ini").write_text(scene_text.replace("shape=", "shape=shapes/") + f"output = {tmp_path / 'run'}\n"
                                    + stages)
    subprocess.run([SPHERO, "run", str(tmp_path / "s.ini"), "--quiet"], check=True, capture_output=True)
    return tmp_path / "run"


def last_energy_row(run):
    with open(run / "energy.csv") as f:
        rows = list(csv.DictReader(line for line in f if not line.startswith("#")))
    return rows[-1]


def test_shapes_and_their_exact_mass_properties():
    disk = sphero.read_shape(os.path.join(DATA, "shapes", "disk.shape"))
    assert disk.kind == "point" and disk.radius == 0.5 and disk.vertices.shape == (1, 2)
    assert disk.mass_properties()["area"] == pytest.approx(math.pi * 0.25, rel=1e-14)
    square = sphero.Shape("square", "polygon", np.array([[0, 0], [2, 0], [2, 2], [0, 2]]), 0.5)
    m = square.mass_properties()
    assert m["area"] == pytest.approx(4 + 4 * 2 * 0.5 + math.pi * 0.25, rel=1e-14)
    assert np.allclose(m["centroid"], [1, 1], atol=1e-14)
    with pytest.raises(RuntimeError, match="the polygon intersects itself: edge 1-2 meets edge 3-4"):
        sphero.Shape("bowtie", "polygon", [[0, 0], [1, 1], [1, 0], [0, 1]], 0.1)


def test_a_scene_from_python_objects_is_the_scene_file():
    text = sphero.scene_text(**SMALL)
    a = sphero.Simulation(sphero.Scene.from_text(text, os.path.join(DATA, "shapes")))
    b = sphero.Simulation(small_scene())
    a.run(steps=300)
    b.run(steps=300)
    assert np.array_equal(a.positions, b.positions)


def test_the_opencl_backend_steps_the_same_bits():
    cpu = sphero.Simulation(small_scene())
    device = sphero.Simulation(sphero.scene(base=os.path.join(DATA, "shapes"), backend="opencl", **SMALL))
    views = device.positions
    for sim in (cpu, device):
        sim.run(steps=300)
    assert np.array_equal(cpu.positions, device.positions)
    assert np.array_equal(views, cpu.positions)  # a view taken before stepping follows the run
    assert cpu.energy() == device.energy()
    assert np.array_equal(cpu.contacts()["force"], device.contacts()["force"])


def test_stepping_matches_sphero_run_to_the_bit(tmp_path):
    run = run_cli(tmp_path, sphero.scene_text(**SMALL))
    sim = sphero.Simulation(small_scene())
    calls = []
    sim.run(time=0.2, callback=lambda s: calls.append(s.step_count), every=250)
    assert sim.step_count == 1000 and calls == [250, 500, 750, 1000]
    row = last_energy_row(run)
    assert int(row["step"]) == sim.step_count
    energy = sim.energy()
    for column, key in (("kinetic_translational_J", "kinetic_translational"), ("elastic_normal_J", "elastic_normal"),
                        ("first_law_residual_J", "first_law_residual")):
        assert float(row[column]) == pytest.approx(energy[key], rel=1e-15, abs=1e-300), column
    frame = sphero.read_frame(str(run), sphero.frame_count(str(run)) - 1)
    grains = ~sim.is_wall
    assert np.array_equal(frame.centres, sim.positions[grains])
    wall = sim.walls()["wall0"]
    assert wall["number"] == 0 and wall["load"] == (0.0, 0.0)
    assert wall["force"] == (float(row["wall0_fx_N"]), float(row["wall0_fy_N"]))
    assert wall["position"] == (float(row["wall0_x_m"]), float(row["wall0_y_m"]))


def test_the_analysis_is_sphero_analyzes(tmp_path):
    run = run_cli(tmp_path, sphero.scene_text(**SMALL))
    sphero.analyze_run(run, window=(0, 0, 8, 10))
    with open(run / "analysis.csv") as f:
        rows = list(csv.DictReader(line for line in f if not line.startswith("#")))
    last = sphero.frame_count(str(run)) - 1
    a = sphero.analyze(sphero.read_frame(str(run), last), window=(0, 0, 8, 10))
    for key in ("sigma_xx", "sigma_yy", "p", "q", "packing_fraction", "void_ratio", "mean_local_packing_fraction",
                "coordination", "fraction_in_chains"):
        assert a[key] == float(rows[last][key]), key
    # Each shape's grains in the window, as shapes.csv has them.
    with open(run / "shapes.csv") as f:
        groups = [r for r in csv.DictReader(line for line in f if not line.startswith("#")) if int(r["frame"]) == last]
    assert sorted(a["shapes"]) == ["disk", "peanut"] == [r["shape"] for r in groups]
    for r in groups:
        group = a["shapes"][r["shape"]]
        assert group["grains"] == int(r["grains"]) and group["area"] == float(r["area_m2"])
        assert group["mean_centre"] == (float(r["mean_x_m"]), float(r["mean_y_m"]))
    assert a["shapes"]["disk"]["grains"] == 6
    # The live simulation, at the same state, gives the same numbers.
    sim = sphero.Simulation(small_scene())
    sim.run(time=0.2)
    live = sphero.analyze(sim, window=(0, 0, 8, 10))
    assert live["packing_fraction"] == a["packing_fraction"] and live["p"] == a["p"]
    assert live["local_packing_fraction"].shape == (14,)


def test_contacts_and_views():
    sim = sphero.Simulation(small_scene())
    before = sim.positions
    assert not before.flags.writeable and before.base is not None  # a view of the engine's own array
    sim.run(steps=10000)  # 2 s: every grain has fallen onto the floor or another grain
    assert np.array_equal(before, sim.positions)  # the view follows the engine
    c = sim.contacts()
    assert len(c["point"]) > 0 and c["point"].shape == (len(c["normal_force"]), 2)
    # The dashpot is not clipped (docs/MODEL.md §2): a contact that opens fast may pull a little, but a
    # settling pile pushes.
    assert np.all(np.isfinite(c["normal_force"])) and c["normal_force"].sum() > 0
    assert np.allclose(np.linalg.norm(c["normal"], axis=1), 1)


def test_packings_are_sphero_packs(tmp_path):
    out = sphero.pack("voronoi", tmp_path / "py.vtu", box=(0, 0, 10, 10), count=30, roundness=0.2, seed=4)
    subprocess.run([SPHERO, "pack", "voronoi", "--box", "0,0,10,10", "--count", "30", "--roundness", "0.2",
                    "--seed", "4", "-o", str(tmp_path / "cli.vtu")], check=True, capture_output=True)
    assert open(out, "rb").read() == open(tmp_path / "cli.vtu", "rb").read()
    sim = sphero.Simulation(sphero.scene(base=str(tmp_path), duration=0.01, dt=1e-5, gravity=(0, 0),
                                         law=["0 0 linear kn=1e5 kt=5e4 mu=0.5"], packing=["py.vtu"]))
    assert sim.bodies == 30


def test_errors_carry_the_command_lines_messages(tmp_path):
    bad = dict(SMALL, grains=[dict(shape="no-such.shape", count=3, region=(0, 0, 5, 5))])
    (tmp_path / "bad.ini").write_text(sphero.scene_text(**bad))
    with pytest.raises(RuntimeError) as python_error:
        sphero.Simulation(sphero.Scene.from_file(str(tmp_path / "bad.ini")))
    cli = subprocess.run([SPHERO, "run", str(tmp_path / "bad.ini"), "--check"], capture_output=True, text=True)
    assert cli.returncode != 0
    assert "bad.ini:7: grains:" in str(python_error.value) and "no-such.shape" in str(python_error.value)
    assert cli.stderr == f"sphero: {python_error.value}\n"
    with pytest.raises(RuntimeError, match="python scene:7: grains: .*no-such.shape"):
        sphero.Simulation(sphero.scene(base=str(tmp_path), **bad))
    with pytest.raises(ValueError, match="give time or steps"):
        sphero.Simulation(small_scene()).run()


def test_a_second_run_from_another_thread_is_refused_not_raced():
    import threading
    sim = sphero.Simulation(small_scene())
    errors = []
    runner = threading.Thread(target=lambda: sim.run(steps=20000))
    runner.start()
    try:
        # Wait until the runner holds the simulation: reading it is then refused.
        for _ in range(1000):
            try:
                sim.positions
            except RuntimeError as e:
                errors.append(str(e))
                break
        with pytest.raises(RuntimeError, match="already running"):
            sim.run(steps=1)
    finally:
        runner.join()
    assert errors and "running in another thread" in errors[0]
    assert sim.step_count == 20000  # the first run went on undisturbed
    sim.run(steps=1)  # and the simulation is free again
    assert sim.step_count == 20001


def test_ctrl_c_stops_a_run_within_half_a_second(tmp_path):
    import signal
    import sys
    import time
    script = tmp_path / "long_run.py"
    script.write_text(
        "import os, sys, sphero\n"
        f"scene = sphero.scene(base={os.path.join(DATA, 'shapes')!r}, **{SMALL!r})\n"
        "sim = sphero.Simulation(scene)\n"
        "print('running', flush=True)\n"
        "try:\n"
        "    sim.run(steps=10**9, callback=lambda s: None, every=10**8)\n"
        "except KeyboardInterrupt:\n"
        "    print('stopped at step', sim.step_count, flush=True)\n")
    child = subprocess.Popen([sys.executable, str(script)], stdout=subprocess.PIPE, text=True)
    import threading
    watchdog = threading.Timer(20, child.kill)  # a run that ignores Ctrl-C fails here, not at ctest's timeout
    watchdog.start()
    try:
        assert child.stdout.readline().strip() == "running"
        time.sleep(0.5)  # well into the run's first stretch of steps
        sent = time.monotonic()
        child.send_signal(signal.SIGINT)
        line = child.stdout.readline()
        latency = time.monotonic() - sent
    finally:
        watchdog.cancel()
        child.kill()
        child.wait()
    assert line.startswith("stopped at step"), line
    assert latency < 0.5, f"Ctrl-C took {latency:.3f} s to stop the run"


def test_a_change_between_runs_is_the_same_change_as_a_stage(tmp_path):
    stage = "\n[stage shaken]\nduration = 0.1\nset_wall = 0 velocity=0.5,0\ngravity = 0,-5\n"
    run = run_cli(tmp_path, sphero.scene_text(**SMALL), stage)
    sim = sphero.Simulation(small_scene())
    sim.run(time=0.2)
    positions = sim.positions  # a view: it must survive the change
    sim.change(set_wall=["0 velocity=0.5,0"], gravity=(0, -5))
    sim.run(steps=500)
    assert np.array_equal(positions, sim.positions)
    sim.save_checkpoint(str(tmp_path / "python.ckpt"))
    assert same_data(tmp_path / "python.ckpt", run / "final.ckpt")
    assert "grains" in repr(sim) and "step 1500" in repr(sim)
    with pytest.raises(RuntimeError, match=r"change\(set_wall\[0\]=...\): set_wall: no wall is named 'lid'"):
        sim.change(gravity=(0, 1), set_wall=["lid fixed"])
    assert sim.step_count == 1500 and np.array_equal(positions, sim.positions)  # a refused change changes nothing


def test_a_simulation_continues_a_checkpoint_as_from_does(tmp_path):
    run = run_cli(tmp_path, sphero.scene_text(**SMALL))
    second = dict(duration=0.1, law=SMALL["law"], gravity=(0, -5), set_wall=["0 velocity=0.5,0"])
    (tmp_path / "second.ini").write_text(sphero.scene_text(**second) + f"output = {tmp_path / 'second'}\n")
    subprocess.run([SPHERO, "run", str(tmp_path / "second.ini"), "--from", str(run / "final.ckpt"), "--quiet"],
                   check=True, capture_output=True)
    sim = sphero.Simulation.from_checkpoint(str(run / "final.ckpt"), sphero.scene(**second))
    assert sim.step_count == 1000
    sim.run(time=0.1)
    sim.save_checkpoint(str(tmp_path / "python.ckpt"))
    assert same_data(tmp_path / "python.ckpt", tmp_path / "second" / "final.ckpt")


def test_walls_are_found_by_name(tmp_path):
    sim = sphero.Simulation(sphero.scene(base=os.path.join(DATA, "shapes"), duration=0.1,
                                         law=["0 0 linear kn=1e5"],
                                         wall=[dict(name="floor", radius=0.05, points=[(0, 0), (8, 0)]),
                                               dict(radius=0.05, points=[(0, 0), (0, 8)])],
                                         grains=[dict(shape="disk.shape", count=4, region=(1, 1, 7, 5))]))
    assert sim.wall("floor") == 0 and sim.names[:2] == ["floor", "wall"]
    assert sim.radii[0] == 0.05 and sim.radii[2] == 0.5
    with pytest.raises(KeyError, match="no wall is named 'lid'"):
        sim.wall("lid")


def test_coarse_grained_fields_are_the_frames_sums(tmp_path):
    run = run_cli(tmp_path, sphero.scene_text(**SMALL))
    last = sphero.frame_count(str(run)) - 1
    frame = sphero.read_frame(str(run), last)
    fields = sphero.coarse_grain(run, width=0.6)  # the last frame
    x, y = fields["x"], fields["y"]
    area = (x[1] - x[0]) * (y[1] - y[0])
    assert fields["density"].shape == (len(y), len(x))
    assert fields["velocity"].shape == (len(y), len(x), 2)
    assert fields["stress"].shape == (len(y), len(x), 2, 2)
    assert fields["time"] == frame.time
    # ∫ρ dA is the mass (density 1: the areas), ∫σ dA the Love–Weber sum of
    # every particle, walls included.
    assert math.isclose(fields["density"].sum() * area, frame.areas.sum(), rel_tol=1e-12)
    love_weber = (frame.stresses * frame.areas[:, None]).sum(axis=0)
    integral = fields["contact_stress"].sum(axis=(0, 1)).ravel() * area
    np.testing.assert_allclose(integral, love_weber, rtol=1e-10, atol=1e-10 * abs(love_weber).max())
    # A live simulation at the same state gives the same fields.
    sim = sphero.Simulation(small_scene())
    sim.run(time=0.2)
    live = sphero.coarse_grain(sim, width=0.6)
    np.testing.assert_array_equal(live["stress"], fields["stress"])
    np.testing.assert_array_equal(live["velocity"], fields["velocity"])
    # A mean over two frames, on the first one's grid.
    mean = sphero.coarse_grain(run, width=0.6, frames=(last - 1, last), kernel="lucy")
    both = [sphero.read_frame(str(run), k) for k in (last - 1, last)]
    assert math.isclose(mean["time"], 0.5 * (both[0].time + both[1].time))
    np.testing.assert_allclose(mean["density"], sphero.coarse_grain(both, width=0.6, kernel="lucy")["density"],
                               rtol=0, atol=0)
    with pytest.raises(ValueError, match="the kernel's width must be a positive length"):
        sphero.coarse_grain(frame, width=-1.0)
    with pytest.raises(ValueError, match="frames: the run has frames 0 to"):
        sphero.coarse_grain(run, width=0.6, frames=(0, 99))
    with pytest.raises(ValueError, match="periodic: expected"):
        sphero.coarse_grain(frame, width=0.6, periodic=("z", (0, 0, 1, 1)))
    # Periodic along x over the box's width: the mass is all there still.
    wrapped = sphero.coarse_grain(frame, width=0.6, periodic=("x", (0, -5, 8, 15)))
    wx, wy = wrapped["x"], wrapped["y"]
    assert wx[0] == 0 and math.isclose(wx[-1] + (wx[1] - wx[0]), 8)
    assert math.isclose(wrapped["density"].sum() * (wx[1] - wx[0]) * (wy[1] - wy[0]), frame.areas.sum(), rel_tol=1e-12)


def test_output_from_python_is_sphero_runs_to_the_byte(tmp_path):
    stage = "\n[stage shaken]\nduration = 0.1\nset_wall = 0 velocity=0.5,0\ngravity = 0,-5\n"
    run = run_cli(tmp_path, sphero.scene_text(**SMALL), stage)
    sim = sphero.Simulation(small_scene())
    with pytest.raises(ValueError, match="interval must be positive"):
        sim.start_output(str(tmp_path / "python"), frame_interval=0)
    sim.start_output(str(tmp_path / "python"), frame_interval=0.1)
    assert sim.output_folder == tmp_path / "python"
    sim.run(time=0.2)
    sim.change(set_wall=["0 velocity=0.5,0"], gravity=(0, -5))  # a stage: its first frame replaces the step's
    sim.run(steps=200)
    sim.run(steps=300)
    sim.stop_output()
    assert sim.output_folder is None
    written = sorted(os.listdir(tmp_path / "python"))
    assert written == sorted(os.listdir(run)) and "state_00003.vtu" in written and "shapes.vtu" in written
    for name in written:
        assert same_data(tmp_path / "python" / name, run / name), name
    with pytest.raises(RuntimeError, match="already holds files"):
        sim.start_output(str(tmp_path / "python"))


def test_output_from_python_writes_the_scenes_chosen_arrays(tmp_path):
    chosen = dict(SMALL, fields="state:velocity,contacts:all,walls")
    run = run_cli(tmp_path, sphero.scene_text(**chosen))
    sim = sphero.Simulation(sphero.scene(base=os.path.join(DATA, "shapes"), **chosen))
    sim.start_output(str(tmp_path / "python"), frame_interval=0.1)
    sim.run(time=0.2)
    sim.stop_output()
    state = (tmp_path / "python" / "state_00001.vtu").read_bytes()
    assert b'Name="velocity"' in state and b'Name="stress_compression_positive"' not in state
    assert b'Name="branch_vector"' in (tmp_path / "python" / "contacts_00001.vtu").read_bytes()
    for name in ("state_00001.vtu", "contacts_00001.vtu", "walls_00001.vtu"):
        assert same_data(tmp_path / "python" / name, run / name), name
    with pytest.raises(RuntimeError, match="left out state:angular_velocity"):
        sphero.read_frame(str(run), 1)


def test_each_output_folder_of_a_simulation_holds_a_run_of_its_own(tmp_path):
    def lineage(folder):
        return dict(re.findall(r"^(run|parent) = (\S+)$", (folder / "run.sphero").read_text(), re.M))

    sim = sphero.Simulation(small_scene())
    sim.start_output(str(tmp_path / "first"), frame_interval=0.1)
    sim.run(time=0.1)
    sim.stop_output()
    sim.start_output(str(tmp_path / "second"), frame_interval=0.1)
    sim.run(time=0.1)
    sim.stop_output()
    first, second = lineage(tmp_path / "first"), lineage(tmp_path / "second")
    assert re.fullmatch("[0-9a-f]{32}", first["run"]) and re.fullmatch("[0-9a-f]{32}", second["run"])
    assert second["run"] != first["run"] and second["parent"] == first["run"]
    # Each folder's checkpoint says it is of that folder's run (bytes 12 to
    # 27: the run's two 64-bit words), so neither continues the other.
    for folder, run in ((tmp_path / "first", first["run"]), (tmp_path / "second", second["run"])):
        words = struct.unpack("<2Q", (folder / "final.ckpt").read_bytes()[12:28])
        assert "".join(f"{w:016x}" for w in words) == run


def test_a_world_from_arrays_is_the_scene_files_to_the_bit(tmp_path):
    from_scene = sphero.Simulation(small_scene())
    grains = ~from_scene.is_wall
    shapes = [sphero.read_shape(os.path.join(DATA, "shapes", name)) for name in ("peanut.shape", "disk.shape")]
    index = [0 if name == shapes[0].name else 1 for name in np.array(from_scene.names)[grains]]
    walls_only = {key: value for key, value in SMALL.items() if key != "grains"}
    scene = sphero.scene(base=os.path.join(DATA, "shapes"), **walls_only)
    from_arrays = sphero.Simulation(scene, shapes=shapes, shape_index=index, positions=from_scene.positions[grains],
                                    angles=from_scene.angles[grains], velocities=from_scene.velocities[grains],
                                    angular_velocities=from_scene.angular_velocities[grains])
    assert np.array_equal(from_arrays.positions, from_scene.positions)
    for sim, name in ((from_scene, "scene.ckpt"), (from_arrays, "arrays.ckpt")):
        sim.run(steps=1000)
        sim.save_checkpoint(str(tmp_path / name))
    assert same_data(tmp_path / "scene.ckpt", tmp_path / "arrays.ckpt")
    # Refused by the argument that is wrong.
    positions = from_scene.positions[grains]
    with pytest.raises(ValueError, match=r"Simulation\(angles=...\): 3 values for 14 grains"):
        sphero.Simulation(scene, shapes=shapes, shape_index=index, positions=positions, angles=[0, 0, 0])
    with pytest.raises(ValueError, match=r"Simulation\(shape_index=...\): row 0: 2 names no shape"):
        sphero.Simulation(scene, shapes=shapes, shape_index=[2] * 14, positions=positions)
    with pytest.raises(RuntimeError, match=r"grain 1 .* and grain 2 .*Simulation\(positions=...\)"):
        sphero.Simulation(scene, shapes=shapes, shape_index=index, positions=np.repeat(positions[:7], 2, axis=0))


def test_a_simulations_shapes_rebuild_it_and_every_object_says_what_it_is(tmp_path):
    sim = sphero.Simulation(small_scene())
    sim.run(steps=200)
    shapes, index = sim.shapes()
    assert sorted(shape.name for shape in shapes) == ["disk", "peanut", "wall"]
    assert len(index) == sim.bodies and [shapes[k].name for k in index] == sim.names
    grains = ~sim.is_wall
    walls_only = {key: value for key, value in SMALL.items() if key != "grains"}
    again = sphero.Simulation(sphero.scene(base=os.path.join(DATA, "shapes"), **walls_only), shapes=shapes,
                              shape_index=index[grains], positions=sim.positions[grains], angles=sim.angles[grains],
                              velocities=sim.velocities[grains], angular_velocities=sim.angular_velocities[grains])
    assert np.array_equal(again.radii, sim.radii) and again.names == sim.names
    assert repr(small_scene()).startswith("<sphero.Scene '") and "2 grains lines (14 grains)" in repr(small_scene())
    assert re.match(r"<sphero.Frame t = 0.04 s: 14 particles, \d+ touching pairs, 1 walls, \d+ vertex contacts, "
                    r"the state of 15 bodies>", repr(sim.frame())), repr(sim.frame())
    assert repr(shapes[0]).startswith("<sphero.Shape '")


def test_grains_added_between_runs_are_a_stages(tmp_path):
    disk = os.path.join(DATA, "shapes", "disk.shape")
    stage = f"\n[stage poured]\nduration = 0.1\ngrains = shape={disk} count=3 region=1,10.2,7,11.5\n"
    run = run_cli(tmp_path, sphero.scene_text(**SMALL), stage)
    sim = sphero.Simulation(small_scene())
    sim.run(time=0.2)
    positions = sim.positions  # a view of the arrays before: kept readable, as they were
    sim.change(grains=[dict(shape=disk, count=3, region=(1, 10.2, 7, 11.5))])
    assert sim.bodies == 18 and positions.shape == (15, 2)
    assert np.array_equal(positions, sim.positions[:15])  # the bodies before keep their numbers
    sim.run(steps=500)
    sim.save_checkpoint(str(tmp_path / "python.ckpt"))
    assert same_data(tmp_path / "python.ckpt", run / "final.ckpt")
    assert abs(sim.energy()["first_law_residual"]) < 1e-5 * sim.energy()["external_work"]
    with pytest.raises(RuntimeError, match=r"change\(grains\[0\]=...\): grains: a grain at .* overlaps"):
        sim.change(grains=[dict(shape=disk, count=3, region=(1, 0.2, 7, 1.5))])
    assert sim.bodies == 18


def test_grains_removed_between_runs_are_a_stages(tmp_path):
    stage = "\n[stage cut]\nduration = 0.1\nremove = region=0,4,8,10\nremove = ids=1,2\n"
    run = run_cli(tmp_path, sphero.scene_text(**SMALL), stage)
    sim = sphero.Simulation(small_scene())
    sim.run(time=0.2)
    ids, positions = sim.ids, sim.positions.copy()
    kept = (positions[:, 1] < 4) | (ids == 0)  # the wall is body 0, and stays
    kept[[1, 2]] = False
    view = sim.positions
    sim.change(remove=[dict(region=(0, 4, 8, 10)), dict(ids=[1, 2])])
    assert sim.bodies == kept.sum() < 14
    assert np.array_equal(sim.ids, ids[kept])  # the grains kept keep their ids
    assert np.array_equal(sim.positions, positions[kept])
    assert np.array_equal(view, positions)  # a view taken before reads the arrays as they were
    sim.run(steps=500)
    sim.save_checkpoint(str(tmp_path / "python.ckpt"))
    assert same_data(tmp_path / "python.ckpt", run / "final.ckpt")
    assert abs(sim.energy()["first_law_residual"]) < 1e-2 * sim.energy()["damping_dissipation"]
    frame = sim.frame()
    assert sorted(frame.ids) == sorted(ids[kept][1:])  # frames name grains by id
    with pytest.raises(RuntimeError, match=r"change\(remove\[0\]=...\): remove: no body has id 2 "):
        sim.change(remove=[dict(ids=[2])])
    with pytest.raises(RuntimeError, match=r"change\(remove\[0\]=...\): remove: body 0 is wall 'wall'"):
        sim.change(remove=[dict(ids=[0, 3])])
    assert sim.bodies == kept.sum()


def test_a_callback_cannot_change_the_run_under_way(tmp_path):
    sim = sphero.Simulation(small_scene())
    sim.start_output(str(tmp_path / "out"), frame_interval=0.01)
    for action, name in ((lambda s: s.stop_output(), "stop_output"), (lambda s: s.change(gravity=(0, 1)), "change"),
                         (lambda s: s.start_output(str(tmp_path / "other")), "start_output")):
        with pytest.raises(RuntimeError, match=rf"{name}\(\): not while run\(\) steps this Simulation"):
            sim.run(steps=20, callback=action, every=10)
        assert sim.step_count % 10 == 0 and sim.output_folder == tmp_path / "out"
    sim.stop_output()
    assert (tmp_path / "out" / "final.ckpt").exists()
