"""Loads the Sphero plugin in pvpython, opens a small run (written by the
test beforehand) through ParaView's reader factory, steps through its time
steps, applies every Sphero filter and checks the values against `sphero
analyze` on the same run (analysis.csv, and the per-particle fields it wrote
back with --add-fields)."""
import argparse
import csv
import math
import os

from paraview import servermanager
from paraview.simple import LoadPlugin, OpenDataFile

parser = argparse.ArgumentParser()
parser.add_argument("--plugin", required=True)
parser.add_argument("--run", required=True, help="a run directory, analysed by sphero analyze --add-fields")
parser.add_argument("--sphero", required=True)
parser.add_argument("--periodic-run", help="a periodic run, coarse-grained by sphero coarse-grain --width 1.1")
parser.add_argument("--before-light-frames", action="store_true",
                    help="the run is a fixture written before light frames (grains falling: no chains yet)")
args = parser.parse_args()

LoadPlugin(args.plugin, remote=False, ns=globals())

with open(os.path.join(args.run, "analysis.csv")) as f:
    rows = [r for r in csv.DictReader(line for line in f if not line.startswith("#"))]
assert rows, "analysis.csv has no rows"

reader = OpenDataFile(os.path.join(args.run, "run.sphero"))
assert reader is not None and reader.GetXMLName() == "SpheroRunReader", "ParaView found no Sphero reader for run.sphero"
times = list(reader.TimestepValues)
assert len(times) == len(rows), (len(times), len(rows))

stress = GranularStress(Input=reader)
# A fixed window: without one, the command line lays the grid of the whole
# series on its first frame, the filter on each frame.
fields = CoarseGrainedFields(Input=reader, Width=0.6, Kernel=1, WindowType=1, WindowRectangle=[1, 1, 11, 11])
voids = VoidRatio(Input=reader)
chains = ForceChains(Input=reader)


def block(dataset, name):
    for k in range(dataset.GetNumberOfBlocks()):
        if dataset.GetMetaData(k).Get(dataset.NAME()) == name:
            return dataset.GetBlock(k)
    raise AssertionError(f"no block {name}")


def field(dataset, name, index=0):
    array = dataset.GetFieldData().GetArray(name)
    assert array is not None, f"no field {name}"
    return array.GetValue(index)


def vtk_image(path):
    from vtkmodules.vtkIOXML import vtkXMLImageDataReader
    image = vtkXMLImageDataReader()
    image.SetFileName(path)
    image.Update()
    return image.GetOutput()


def same(a, b, what, tolerance=1e-13):
    # The same code on the same data: equal to round-off.
    scale = max(abs(a), abs(b), 1e-300)
    assert abs(a - b) <= tolerance * scale or abs(a - b) < 1e-12, f"{what}: plugin {a!r}, sphero analyze {b!r}"


checked = 0
for frame, (t, row) in enumerate(zip(times, rows)):
    assert abs(t - float(row["time_s"])) <= 1e-12 * max(1.0, t), (t, row["time_s"])
    reader.UpdatePipeline(t)
    data = servermanager.Fetch(reader)
    particles = block(data, "particles")
    assert field(particles, "frame") == frame
    assert abs(field(particles, "TimeValue") - t) <= 1e-12 * max(1.0, t)
    # The energy ledger's row rides along as field data.
    assert particles.GetFieldData().GetArray("first_law_residual_J") is not None
    # Every vertex contact is a point of its own; the pair lines count them.
    # Every block holds every cell array (NaN, -1 or "" where it has none of
    # its own), so that ParaView colours the run as opened, none "(partial)".
    names = [{grid.GetCellData().GetArrayName(k) for k in range(grid.GetCellData().GetNumberOfArrays())}
             for grid in (block(data, b) for b in ("particles", "contacts", "walls", "contact_points"))]
    assert all(n == names[0] for n in names) and "force_on_a" in names[0], names
    if particles.GetNumberOfCells() > 0:
        assert math.isnan(particles.GetCellData().GetArray("force_on_a").GetComponent(0, 0))
    if block(data, "contacts").GetNumberOfCells() > 0:
        assert block(data, "contacts").GetCellData().GetArray("material").GetValue(0) == -1
    pairs = block(data, "contacts").GetCellData().GetArray("vertex_contacts")
    vertex_contacts = sum(int(pairs.GetValue(k)) for k in range(pairs.GetNumberOfTuples()))
    assert block(data, "contact_points").GetNumberOfCells() == vertex_contacts, (frame, vertex_contacts)

    stress.UpdatePipeline(t)
    s = servermanager.Fetch(stress)
    for name, column in (("sigma_xx", "sigma_xx"), ("sigma_yy", "sigma_yy"), ("sigma_xy", "sigma_xy"), ("p", "p"),
                         ("q", "q")):
        same(field(s, name), float(row[column]), f"frame {frame} {name}")
    faces = s.GetFieldData().GetArray("wall_face")
    for k in range(faces.GetNumberOfTuples()):
        wall, face = int(faces.GetComponent(k, 0)), int(faces.GetComponent(k, 1))
        same(field(s, "wall_face_sigma_n", k), float(row[f"wall{wall}_face{face}_sigma_n"]), f"frame {frame} wall face")
    # The coarse-grained fields, array by array, as sphero coarse-grain
    # wrote them.
    fields.UpdatePipeline(t)
    image = block(servermanager.Fetch(fields), "fields")
    written = vtk_image(os.path.join(args.run, f"fields_{frame:05d}.vti"))
    assert image.GetDimensions() == written.GetDimensions(), (image.GetDimensions(), written.GetDimensions())
    for name in ("density", "velocity", "stress", "pressure", "fabric", "coordination", "granular_temperature"):
        mine, theirs = image.GetPointData().GetArray(name), written.GetPointData().GetArray(name)
        assert mine.GetNumberOfTuples() == theirs.GetNumberOfTuples() == image.GetNumberOfPoints(), name
        for k in range(0, mine.GetNumberOfTuples(), 7):
            for c in range(mine.GetNumberOfComponents()):
                same(mine.GetComponent(k, c), theirs.GetComponent(k, c), f"frame {frame} {name}")
    p_cells = block(s, "particles").GetCellData()
    assert p_cells.GetArray("pressure").GetNumberOfTuples() == particles.GetNumberOfCells()
    for c in range(particles.GetNumberOfCells()):
        same(p_cells.GetArray("pressure").GetValue(c),
             particles.GetCellData().GetArray("pressure").GetValue(c), f"frame {frame} particle {c} pressure")

    voids.UpdatePipeline(t)
    v = servermanager.Fetch(voids)
    for name in ("packing_fraction", "void_ratio", "mean_local_packing_fraction"):
        same(field(v, name), float(row[name]), f"frame {frame} {name}")
    local = block(v, "particles").GetCellData().GetArray("local_packing_fraction")
    written = particles.GetCellData().GetArray("local_packing_fraction")  # by sphero analyze --add-fields
    for c in range(particles.GetNumberOfCells()):
        same(local.GetValue(c), written.GetValue(c), f"frame {frame} particle {c} local packing fraction")

    chains.UpdatePipeline(t)
    f = servermanager.Fetch(chains)
    assert field(f, "chains") == int(row["chains"]), (field(f, "chains"), row["chains"])
    same(field(f, "fraction_in_chains"), float(row["fraction_in_chains"]), f"frame {frame} fraction in chains")
    ids = block(f, "particles").GetCellData().GetArray("chain_id")
    written = particles.GetCellData().GetArray("chain_id")
    for c in range(particles.GetNumberOfCells()):
        assert ids.GetValue(c) == written.GetValue(c), (frame, c)
    in_chain = sum(1 for c in range(ids.GetNumberOfTuples()) if ids.GetValue(c) >= 0)
    chain_contacts = block(f, "chain_contacts").GetNumberOfCells()
    # A chain of n particles has n - 1 links.
    expected_links = in_chain - int(row["chains"])
    assert chain_contacts >= expected_links, (chain_contacts, expected_links)
    checked += 1

if not args.before_light_frames:
    assert any(int(r["chains"]) > 0 for r in rows), "the run has no force chains: a weak test"
    assert any(float(r["sigma_yy"]) > 0 for r in rows), "the run has no stress: a weak test"

# A rectangular and a circular window, against sphero analyze with --window
# and --circle on the last frame (into a copy, so the run stays as it was).
import shutil
import subprocess
import tempfile

last = len(times) - 1
with tempfile.TemporaryDirectory() as scratch:
    for kind, option, value in ((1, "--window", "2,2,8,9"), (2, "--circle", "5,5,3.5")):
        copy = os.path.join(scratch, f"run{kind}")
        shutil.copytree(args.run, copy)
        subprocess.run([args.sphero, "analyze", copy, option, value, "--frames", f"{last}:{last}"], check=True,
                       capture_output=True)
        with open(os.path.join(copy, "analysis.csv")) as f:
            expected = [r for r in csv.DictReader(line for line in f if not line.startswith("#"))][0]
        if kind == 1:
            in_rectangle = expected
        numbers = [float(x) for x in value.split(",")]
        for filter_ in (stress, voids):
            filter_.WindowType = kind
            if kind == 1:
                filter_.WindowRectangle = numbers
            else:
                filter_.WindowCircle = numbers
            filter_.UpdatePipeline(times[last])
        s = servermanager.Fetch(stress)
        v = servermanager.Fetch(voids)
        for name in ("sigma_xx", "sigma_yy", "p", "q"):
            same(field(s, name), float(expected[name]), f"{option} {name}")
        for name in ("packing_fraction", "void_ratio", "mean_local_packing_fraction"):
            same(field(v, name), float(expected[name]), f"{option} {name}")
stress.WindowType = 0
voids.WindowType = 0

# ArcResolution regenerates the outlines from the skeletons; the stress in
# a fixed window does not depend on them.
reader.ArcResolution = 256
stress.WindowType = 1
stress.WindowRectangle = [2, 2, 8, 9]
stress.UpdatePipeline(times[-1])
same(field(servermanager.Fetch(stress), "sigma_yy"), float(in_rectangle["sigma_yy"]), "sigma_yy at resolution 256")
reader.UpdatePipeline(times[-1])
fine = block(servermanager.Fetch(reader), "particles")
assert fine.GetNumberOfPoints() > 2 * particles.GetNumberOfPoints(), "ArcResolution did not regenerate the outlines"
area = fine.GetCellData().GetArray("area")
centre = fine.GetCellData().GetArray("centre_of_mass")
for c in range(fine.GetNumberOfCells()):
    # Each regenerated outline encloses the exact area about the centre of
    # mass the run wrote (256 chords per circle: ~1e-4 short on the arcs).
    ids = fine.GetCell(c).GetPointIds()
    pts = [fine.GetPoint(ids.GetId(k))[:2] for k in range(ids.GetNumberOfIds())]
    twice = sum(pts[k][0] * pts[(k + 1) % len(pts)][1] - pts[(k + 1) % len(pts)][0] * pts[k][1] for k in range(len(pts)))
    cx = sum((pts[k][0] + pts[(k + 1) % len(pts)][0]) * (pts[k][0] * pts[(k + 1) % len(pts)][1] - pts[(k + 1) % len(pts)][0] * pts[k][1]) for k in range(len(pts))) / (3 * twice)
    cy = sum((pts[k][1] + pts[(k + 1) % len(pts)][1]) * (pts[k][0] * pts[(k + 1) % len(pts)][1] - pts[(k + 1) % len(pts)][0] * pts[k][1]) for k in range(len(pts))) / (3 * twice)
    assert abs(0.5 * twice - area.GetValue(c)) < 1e-3 * area.GetValue(c), (c, 0.5 * twice, area.GetValue(c))
    size = math.sqrt(area.GetValue(c))
    assert math.hypot(cx - centre.GetComponent(c, 0), cy - centre.GetComponent(c, 1)) < 1e-3 * size, c

# A periodic run: the reader passes its cell, and the filter's fields wrap
# across the seam as the command line's do (its default grid spans the
# period; the frames' own boxes differ in y only).
if args.periodic_run:
    shear = OpenDataFile(os.path.join(args.periodic_run, "run.sphero"))
    sheared = CoarseGrainedFields(Input=shear, Width=1.1)
    first = list(shear.TimestepValues)[0]
    sheared.UpdatePipeline(first)
    image = block(servermanager.Fetch(sheared), "fields")
    written = vtk_image(os.path.join(args.periodic_run, "fields_00000.vti"))
    assert image.GetDimensions() == written.GetDimensions(), (image.GetDimensions(), written.GetDimensions())
    assert abs(image.GetSpacing()[0] * image.GetDimensions()[0] - 20.0) < 1e-9, "the grid does not span the period"
    for name in ("density", "stress"):
        mine, theirs = image.GetPointData().GetArray(name), written.GetPointData().GetArray(name)
        for k in range(0, mine.GetNumberOfTuples(), 5):
            for c in range(mine.GetNumberOfComponents()):
                same(mine.GetComponent(k, c), theirs.GetComponent(k, c), f"periodic {name}")

# The second output: energy.csv as a table over time, for line charts.
ledger = servermanager.Fetch(reader, idx=1)
with open(os.path.join(args.run, "energy.csv")) as f:
    energy = [r for r in csv.DictReader(line for line in f if not line.startswith("#"))]
assert ledger.GetNumberOfRows() == len(energy), (ledger.GetNumberOfRows(), len(energy))
assert ledger.GetNumberOfColumns() == len(energy[0]), (ledger.GetNumberOfColumns(), len(energy[0]))
for name in ("time_s", "first_law_residual_J", "kinetic_translational_J"):
    column = ledger.GetColumnByName(name)
    for k in (0, len(energy) - 1):
        same(column.GetValue(k), float(energy[k][name]), f"energy ledger {name} row {k}")

# Without the plugin, ParaView opens the collections itself, a run on
# ranks' pieces (.pvtu) included: the drawn outlines, where the run wrote
# them, are the Sphero reader's particles; the state is a point per body.
drawn_file = "particles.pvd" if args.before_light_frames else "outlines.pvd"
drawn = os.path.exists(os.path.join(args.run, drawn_file))
plain = OpenDataFile(os.path.join(args.run, drawn_file if drawn else "state.pvd"))
plain.UpdatePipeline(times[-1])
grid = servermanager.Fetch(plain)
wall = grid.GetCellData().GetArray("wall")
grains = sum(1 for c in range(grid.GetNumberOfCells()) if not wall or wall.GetValue(c) == 0)
assert grains == particles.GetNumberOfCells(), (grains, particles.GetNumberOfCells())
assert grid.GetCellData().GetArray("stress_compression_positive") is not None
if drawn:
    assert grid.GetNumberOfPoints() == particles.GetNumberOfPoints(), "the drawn outlines are not the reader's"


print(f"plugin test passed: {checked} frames, every filter equal to sphero analyze and sphero coarse-grain")
