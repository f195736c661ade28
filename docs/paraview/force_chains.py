"""The force-chain figure of a Sphero run in ParaView: particles in light
grey, every contact a tube whose radius grows with its force (dark red), and
the contacts along force chains (Peters et al. 2005) on top in blue, with
the time above the drawing and a legend below it. Runs under pvpython or pvbatch with the Sphero plugin:

    pvpython --no-mpi docs/paraview/force_chains.py --plugin build/lib/paraview-5.11/plugins/SpheroPlugin/SpheroPlugin.so \\
        --run sphero-output -o force-chains.png

Inside the ParaView GUI, load the plugin (Tools > Manage Plugins), open
run.sphero, and apply Filters > Sphero > Force Chains; this script builds the
same pipeline and saves a screenshot.
"""
import argparse
import os

from paraview.simple import (LoadPlugin, OpenDataFile, ExtractBlock, MergeBlocks, ExtractSurface, CellDatatoPointData, Calculator, Tube, Show,
                             CreateView, SetActiveView, Render, SaveScreenshot, Text, Clip)

parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
parser.add_argument("--plugin", required=True, help="the built SpheroPlugin.so")
parser.add_argument("--run", required=True, help="a sphero run's output directory")
parser.add_argument("--time", type=float, help="simulation time to show (default: the last frame)")
parser.add_argument("-o", "--output", default="force-chains.png")
parser.add_argument("--width", type=int, default=1600)
parser.add_argument("--height", type=int, help="default: the aspect of the scene")
parser.add_argument("--view", choices=["auto", "grains", "all"], default="auto",
                    help="frame the grains, everything, or (auto) the grains where the walls reach more than twice as "
                         "far along either axis, as sphero figure does")
args = parser.parse_args()

LoadPlugin(args.plugin, remote=False, ns=globals())
reader = OpenDataFile(os.path.join(args.run, "run.sphero"))
times = list(reader.TimestepValues)
time = args.time if args.time is not None else times[-1]
chains = ForceChains(Input=reader)


def part(name):
    return ExtractBlock(Input=chains, Selectors=[f"/Root/{name}"])


# The image takes the aspect of what it frames: the grains and walls, or
# the grains alone with a grain's margin (a biaxial sample's long plates
# framed out, as `sphero figure --view auto` does).
everything = MergeBlocks(Input=chains)
everything.UpdatePipeline(time)
x0, x1, y0, y1, _, _ = everything.GetDataInformation().GetBounds()
grains_only = MergeBlocks(Input=part("particles"))
grains_only.UpdatePipeline(time)
gx0, gx1, gy0, gy1, _, _ = grains_only.GetDataInformation().GetBounds()
if gx1 > gx0 and (args.view == "grains" or (args.view == "auto" and
                                            (x1 - x0 > 2 * (gx1 - gx0) or y1 - y0 > 2 * (gy1 - gy0)))):
    grain_areas = grains_only.CellData["area"].GetRange()
    reach = (0.5 * (grain_areas[0] + grain_areas[1])) ** 0.5
    x0, x1, y0, y1 = gx0 - reach, gx1 + reach, gy0 - reach, gy1 + reach
    framed_out = True
else:
    framed_out = False
margin = 0.02 * max(x1 - x0, y1 - y0)
# A band above the drawing for the time and one below for the legend, so
# that no text lies over the grains.
band = 0.09 * (x1 - x0 + 2 * margin)
if args.height is None:
    args.height = max(100, int(args.width * (y1 - y0 + 2 * margin + 2 * band) / (x1 - x0 + 2 * margin)))

view = CreateView("RenderView")
SetActiveView(view)
view.ViewSize = [args.width, args.height]
view.ViewTime = time
view.OrientationAxesVisibility = 0
view.CameraParallelProjection = 1
view.UseColorPaletteForBackground = 0
view.Background = [1, 1, 1]

particles = Show(part("particles"), view)
particles.Representation = "Surface"
particles.Triangulate = 1  # non-convex grains drawn whole, not as a fan from their first point
particles.ColorArrayName = [None, '']
particles.AmbientColor = particles.DiffuseColor = [0.86, 0.86, 0.86]
outlines = Show(part("particles"), view)
outlines.Representation = "Wireframe"
outlines.ColorArrayName = [None, '']
outlines.AmbientColor = outlines.DiffuseColor = [0.55, 0.55, 0.55]

# Walls as their outlines: a wall's rounded band is a non-convex polygon
# that VTK's polygon fill does not triangulate reliably.
walls_block = part("walls")
if framed_out:
    # Walls cut at the frame, so that no plate runs on under the text.
    walls_block = Clip(Input=walls_block, ClipType="Box", Invert=1, Crinkleclip=0)
    walls_block.ClipType.UseReferenceBounds = 0  # Position and Length in the run's units
    walls_block.ClipType.Position = [x0 - margin, y0 - margin, -1.0]
    walls_block.ClipType.Length = [x1 - x0 + 2 * margin, y1 - y0 + 2 * margin, 2.0]
walls = Show(walls_block, view)
walls.Representation = "Wireframe"
walls.LineWidth = 2.0
walls.ColorArrayName = [None, '']
walls.AmbientColor = walls.DiffuseColor = [0.3, 0.3, 0.3]

# Tube radius ∝ force.
contacts_block = part("contacts")
contacts_block.UpdatePipeline(time)
force_range = contacts_block.CellData["force_magnitude"].GetRange() if contacts_block.CellData.keys() else (0, 1)
particles_block = part("particles")
particles_block.UpdatePipeline(time)
areas = particles_block.CellData["area"].GetRange()
grain = (0.5 * (areas[0] + areas[1])) ** 0.5
strongest = max(force_range[1], 1e-300)


def tubes(block):
    # VTK's "By Absolute Scalar" makes the radius the scalar itself: a
    # radius array proportional to the force, the strongest a sixth of a
    # typical grain (cell data moved to the points the tubes are built on).
    lines = ExtractSurface(Input=MergeBlocks(Input=block))  # tubes need polygonal data
    points = CellDatatoPointData(Input=lines)
    radius = Calculator(Input=points, ResultArrayName="tube_radius",
                        Function=f"max(force_magnitude, {1e-3 * strongest!r}) * {grain / 6.0 / strongest!r}")
    t = Tube(Input=radius)
    t.Scalars = ["POINTS", "tube_radius"]
    t.VaryRadius = "By Absolute Scalar"
    t.NumberofSides = 12
    return t


network = tubes(contacts_block)
network_display = Show(network, view)
network_display.ColorArrayName = [None, '']
network_display.AmbientColor = network_display.DiffuseColor = [0.55, 0.0, 0.0]

chain_tubes = tubes(part("chain_contacts"))
chain_display = Show(chain_tubes, view)
chain_display.ColorArrayName = [None, '']
chain_display.AmbientColor = chain_display.DiffuseColor = [0.10, 0.30, 0.75]  # as sphero figure draws chains

view.CameraFocalPoint = [0.5 * (x0 + x1), 0.5 * (y0 + y1), 0.0]
view.CameraPosition = [0.5 * (x0 + x1), 0.5 * (y0 + y1), 10 * (x1 - x0 + y1 - y0)]
view.CameraViewUp = [0, 1, 0]
view.CameraParallelScale = 0.5 * (y1 - y0) + margin + band


def label(text, corner):
    """Text in a corner of the image, black, sized with the image."""
    display = Show(Text(Text=text), view)
    for location in (corner, corner.replace(" ", "")):  # ParaView 5.10 on, and before
        try:
            display.WindowLocation = location
            break
        except ValueError:
            continue
    display.Color = [0.0, 0.0, 0.0]
    display.Justification = "Left"
    display.FontSize = max(10, args.width // 70)
    return display


label(f"t = {time:.6g} s", "Upper Left Corner")
label(f"dark red: every contact, tube radius proportional to its force (the thickest {strongest:.3g} N per unit "
      f"thickness)\nblue: the contacts along force chains", "Lower Left Corner")
Render(view)
SaveScreenshot(args.output, view, ImageResolution=[args.width, args.height])
print(f"force chains at t = {time:g} s -> {args.output}")
