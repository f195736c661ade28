"""Loaded by a pvpython with no display: the plugin reads, and warns that a
render would need a virtual display, saying how to start one."""
import argparse

from paraview import servermanager
from paraview.simple import LoadPlugin, OpenDataFile

parser = argparse.ArgumentParser()
parser.add_argument("--plugin", required=True)
parser.add_argument("--shape", required=True)
args = parser.parse_args()
LoadPlugin(args.plugin, remote=False, ns=globals())
reader = OpenDataFile(args.shape)
reader.UpdatePipeline()
assert servermanager.Fetch(reader).GetNumberOfCells() > 0
print("read without a display")
