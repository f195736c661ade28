"""Loads the Sphero plugin in pvpython, opens every library shape through
ParaView's reader factory (File > Open) and checks the numbers against
`sphero shape info` on the same files."""
import argparse
import glob
import os
import subprocess
import sys

from paraview import servermanager
from paraview.simple import LoadPlugin, OpenDataFile

parser = argparse.ArgumentParser()
parser.add_argument("--plugin", required=True)
parser.add_argument("--sphero", required=True)
parser.add_argument("--shapes", required=True)
args = parser.parse_args()

LoadPlugin(args.plugin, remote=False, ns=globals())
files = sorted(glob.glob(os.path.join(args.shapes, "*.shape")))
assert files, "no shape files found"

# The command line's table: name -> (area, mass, inertia, R) at density 1.
table = subprocess.run([args.sphero, "shape", "info"] + files, check=True, capture_output=True,
                       text=True).stdout.splitlines()
cli = {}
for line in table[1:]:
    words = line.split()
    if len(words) >= 10 and words[1] in ("point", "segment", "polyline", "polygon"):
        cli[words[0]] = [float(w) for w in (words[4], words[8], words[9])]

for path in files:
    reader = OpenDataFile(path)
    assert reader is not None, f"ParaView found no reader for {path}"
    assert reader.GetXMLName() == "SpheroShapeReader", reader.GetXMLName()
    reader.ArcResolution = 1024
    reader.UpdatePipeline()
    grid = servermanager.Fetch(reader)
    cells = grid.GetCellData()
    part = cells.GetArray("part")
    area = cells.GetArray("area")
    inertia = cells.GetArray("inertia_per_density")
    radius = cells.GetArray("bounding_radius")
    names = grid.GetFieldData().GetAbstractArray("shape_names")
    name = names.GetValue(0)
    expected_area, expected_inertia, expected_r = cli[name]
    outlines = [c for c in range(grid.GetNumberOfCells()) if part.GetValue(c) == 0]
    skeletons = [c for c in range(grid.GetNumberOfCells()) if part.GetValue(c) == 2]
    assert len(outlines) == 1 and len(skeletons) == 1, (name, len(outlines), len(skeletons))
    c = outlines[0]
    # The table prints 6 significant digits.
    for got, want, what in ((area.GetValue(c), expected_area, "area"),
                            (inertia.GetValue(c), expected_inertia, "inertia"),
                            (radius.GetValue(c), expected_r, "R")):
        assert abs(got - want) <= 1e-5 * abs(want), f"{name}: {what} {got} != {want}"
    points = grid.GetCell(c).GetPoints()
    n = points.GetNumberOfPoints()
    drawn = 0.5 * sum(points.GetPoint(k)[0] * points.GetPoint((k + 1) % n)[1]
                      - points.GetPoint((k + 1) % n)[0] * points.GetPoint(k)[1] for k in range(n))
    assert drawn < area.GetValue(c) and abs(drawn - area.GetValue(c)) < 1e-5 * area.GetValue(c), (name, drawn)
    print(f"{name}: area {area.GetValue(c):.6g} (drawn {drawn:.6g}), inertia {inertia.GetValue(c):.6g}")

print(f"plugin test passed: {len(files)} shapes")
