"""Loads the Sphero plugin in pvpython and opens a packing file (sphero pack)
and a run's state file with the Sphero Packing Reader: one rounded outline
per body, walls apart, and the exact areas that `sphero analyze
PACKING.vtu` lists."""
import argparse
import csv
import os
import subprocess

from paraview import servermanager
from paraview.simple import LoadPlugin

parser = argparse.ArgumentParser()
parser.add_argument("--plugin", required=True)
parser.add_argument("--sphero", required=True)
parser.add_argument("--state", required=True, help="a state_NNNNN.vtu of a run with walls")
parser.add_argument("--work", required=True)
args = parser.parse_args()

LoadPlugin(args.plugin, remote=False, ns=globals())
os.makedirs(args.work, exist_ok=True)
packing = os.path.join(args.work, "vm.vtu")
subprocess.run([args.sphero, "pack", "voronoi", "--box", "0,0,10,10", "--count", "30", "--roundness", "0.25",
                "-o", packing], check=True, capture_output=True)
subprocess.run([args.sphero, "analyze", packing], check=True, capture_output=True)
with open(os.path.join(args.work, "vm-grains.csv")) as f:
    expected = {int(row["id"]): float(row["area_m2"]) for row in csv.DictReader(f)}


def polygon_area(cell, points):
    ids = [cell.GetPointId(k) for k in range(cell.GetNumberOfPoints())]
    corners = [points.GetPoint(i) for i in ids]
    return 0.5 * sum(a[0] * b[1] - b[0] * a[1] for a, b in zip(corners, corners[1:] + corners[:1]))


def read(path, resolution):
    reader = globals()["SpheroPackingReader"](FileName=path)  # defined by LoadPlugin
    reader.ArcResolution = resolution
    reader.UpdatePipeline()
    return servermanager.Fetch(reader)


grid = read(packing, 512)
assert grid.GetNumberOfCells() == len(expected), (grid.GetNumberOfCells(), len(expected))
cells = grid.GetCellData()
for c in range(grid.GetNumberOfCells()):
    body = cells.GetArray("id").GetValue(c)
    assert cells.GetArray("part").GetValue(c) == 0
    exact = cells.GetArray("area").GetValue(c)
    assert abs(exact - expected[body]) <= 1e-12 * expected[body], (body, exact, expected[body])
    drawn = polygon_area(grid.GetCell(c), grid.GetPoints())
    assert abs(drawn - exact) <= 1e-3 * exact, (body, drawn, exact)

state = read(args.state, 24)
parts = [state.GetCellData().GetArray("part").GetValue(c) for c in range(state.GetNumberOfCells())]
assert parts.count(1) >= 1 and parts.count(0) >= 1, parts
print(f"packing reader: {len(expected)} grains with their exact areas; state file: {parts.count(0)} grains, "
      f"{parts.count(1)} walls")
print("plugin test passed")
