"""The Sphero filters on runs that wrote fewer files or arrays: a run
without contacts is analysed (it has no pairs to lack anything), and a run
whose contacts left out arrays the analysis reads is refused, although the
reader fills every block's arrays in for the others."""
import argparse
import os

from paraview import servermanager
from paraview.simple import LoadPlugin, OpenDataFile

parser = argparse.ArgumentParser()
parser.add_argument("--plugin", required=True)
parser.add_argument("--without-contacts", required=True, help="a run of fields = state,walls")
parser.add_argument("--chosen", required=True, help="a run whose contacts left out normal_force")
args = parser.parse_args()
LoadPlugin(args.plugin, remote=False, ns=globals())


def stress_of(run):
    reader = OpenDataFile(os.path.join(run, "run.sphero"))
    stress = GranularStress(Input=reader)
    stress.UpdatePipeline(reader.TimestepValues[-1])
    return servermanager.Fetch(stress)


out = stress_of(args.without_contacts)
assert out is not None and out.GetNumberOfBlocks() > 0, "a run without contacts was not analysed"
out = stress_of(args.chosen)
assert out is None or out.GetNumberOfBlocks() == 0, "a run without its contacts' normal forces was analysed"
print("chosen arrays test passed")
