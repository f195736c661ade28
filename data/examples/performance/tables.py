#!/usr/bin/env python3
"""The measured tables of the performance manuals, from tables.sh's results.

Each table is drawn from the raw CSV of one or more cases, written with a
provenance line (machine, compiler, commit, date, the command) between a
page's `<!-- table NAME -->` and `<!-- /table -->` markers, and its CSV is
kept in docs/benchmarks/MACHINE/. A table whose results are missing is left
as it is in the page.

  tables.py --slug                      the machine's folder name
  tables.py --build --sphero BIN --repo REPO
                                        the compiler and commit of a build
  tables.py --results OUT --benchmarks DIR --repo REPO PAGE...
  tables.py --check PAGE...             each table against the raw results its
                                        provenance line names: exit 1 where
                                        they differ (a table edited by hand,
                                        or drawn otherwise)
"""
import argparse
import csv
import datetime
import math
import os
import platform
import re
import shutil
import subprocess
import sys

SUPERSCRIPT = str.maketrans("-0123456789", "⁻⁰¹²³⁴⁵⁶⁷⁸⁹")


def cpu_model():
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def machine_slug():
    words = re.sub(r"[^a-z0-9]+", "-", cpu_model().lower()).strip("-")
    return f"{words}-{os.cpu_count()}-cores"


def compiler(binary):
    """The compiler that built `binary`, from its .comment section."""
    try:
        with open(binary, "rb") as f:
            data = f.read()
    except OSError:
        return "unknown compiler"
    gcc = re.search(rb"GCC: \([^)]*\) ([0-9.]+)", data)
    clang = re.search(rb"clang version ([0-9.]+)", data)
    return f"GCC {gcc.group(1).decode()}" if gcc else f"Clang {clang.group(1).decode()}" if clang else "unknown compiler"


def commit(repo):
    try:
        head = subprocess.run(["git", "-C", repo, "rev-parse", "--short", "HEAD"], capture_output=True, text=True,
                              check=True).stdout.strip()
        dirty = subprocess.run(["git", "-C", repo, "status", "--porcelain", "--", "solver", "bench"],
                               capture_output=True, text=True, check=True).stdout.strip()
        return head + (" with local changes" if dirty else "")
    except (OSError, subprocess.CalledProcessError):
        return "unknown"


# Numbers as the manuals write them.
def sci(x):
    if x is None or not math.isfinite(x) or x <= 0:
        return "—"
    e = int(math.floor(math.log10(x)))
    return f"{x / 10**e:.2f}·10{str(e).translate(SUPERSCRIPT)}"


def power_of_ten(n):
    e = round(math.log10(n))
    return f"10{str(e).translate(SUPERSCRIPT)}" if 10**e == n else f"{n:,}".replace(",", " ")


def grouped(n):
    return f"{int(n):,}".replace(",", " ")


def fixed(x, digits=2):
    return "—" if x is None or not math.isfinite(x) else f"{x:.{digits}f}"


def three(x):
    """Three significant digits, without exponent for the manuals' ranges."""
    if x is None or not math.isfinite(x):
        return "—"
    return f"{x:.3g}" if x < 1000 else f"{x:.0f}"


def percent(x):
    return "—" if x is None or not math.isfinite(x) else f"{100 * x:.1f}%"


def number(text):
    try:
        return float(text)
    except (TypeError, ValueError):
        return None


class Results:
    """The cases' CSVs under OUT (OUT/CASE/NAME.csv, `flat`: OUT/NAME.csv, as
    docs/benchmarks keeps them), read once."""

    def __init__(self, root, flat=False):
        self.root = root
        self.flat = flat
        self.cache = {}

    def path(self, case, name):
        return os.path.join(self.root, name + ".csv") if self.flat else os.path.join(self.root, case, name + ".csv")

    def has(self, case, name):
        finished = self.flat or os.path.isfile(os.path.join(self.root, case, ".finished"))
        return os.path.isfile(self.path(case, name)) and finished

    def rows(self, case, name):
        key = (case, name)
        if key not in self.cache:
            with open(self.path(case, name)) as f:
                self.cache[key] = [r for r in csv.DictReader(line for line in f if not line.startswith("#"))]
        return self.cache[key]

    def one(self, case, name, **match):
        found = [r for r in self.rows(case, name) if all(r.get(k) == str(v) for k, v in match.items())]
        return found[0] if found else None


def value(row, column):
    return None if row is None else number(row.get(column))


def ms_per_step(row, column="wall_s"):
    if row is None:
        return None
    t, steps = number(row.get(column)), number(row.get("steps"))
    return None if t is None or not steps else 1e3 * t / steps


def table(header, rows):
    lines = ["| " + " | ".join(header) + " |", "| " + " | ".join("---" for _ in header) + " |"]
    lines += ["| " + " | ".join(str(c) for c in row) + " |" for row in rows]
    return lines


SCENE_VERTICES = {"disks": 1, "hexagons": 6, "cows": 62}


def cundall_vs_n(r):
    rows = []
    for scene in ("disks", "hexagons", "cows"):
        at = {n: r.one("beds", "beds", scene=scene, n=n, threads=1, backend="cpu") for n in (1000, 10000, 100000)}
        rows.append([scene, at[10000]["vertices"] if at[10000] else SCENE_VERTICES[scene]] +
                    [sci(value(at[n], "cundall")) for n in (1000, 10000, 100000)] +
                    [fixed(value(at[10000], "pairs_per_particle_step")),
                     fixed(value(at[10000], "bytes_per_particle"), 0)])
    return table(["scene", "vertices", "N = 10³", "N = 10⁴", "N = 10⁵", "pairs per particle-step",
                  "bytes per particle"], rows), [("beds", "beds")]


def cundall_vs_vertices(r):
    rows = []
    for case, scene in [("vertices", s) for s in ("polygon6", "polygon16", "polygon32", "polygon64")] + [("beds", "cows")]:
        at = {n: r.one(case, case, scene=scene, n=n, threads=1, backend="cpu") for n in (1000, 10000)}
        rows.append([scene, at[1000]["vertices"] if at[1000] else "—", sci(value(at[1000], "cundall")),
                     sci(value(at[10000], "cundall")), fixed(value(at[10000], "pairs_per_particle_step"))])
    return table(["scene", "vertices", "N = 10³", "N = 10⁴", "pairs per particle-step"], rows), [
        ("vertices", "vertices"), ("beds", "beds")]


def threads(r):
    rows = []
    for scene in ("disks", "hexagons", "cows"):
        for n in (1000, 10000, 100000):
            two = r.one("beds", "beds", scene=scene, n=n, threads=2, backend="cpu")
            rows.append([scene, power_of_ten(n), fixed(value(two, "speedup")), percent(value(two, "serial_share")),
                         percent(value(two, "wait_share"))])
    return table(["scene", "N", "speed-up", "serial share", "wait share"], rows), [("beds", "beds")]


def hopper(r):
    rows = []
    for t in (1, 2):
        row = r.one("hopper", "hopper", threads=t, backend="cpu")
        rebuilds = "—" if row is None else f'{row["rebuilds"]} ({row["partial_rebuilds"]})'
        rows.append([t, f'{fixed(value(row, "wall_s"))} s', fixed(value(row, "speedup")), sci(value(row, "cundall")),
                     fixed(value(row, "pairs_per_particle_step"), 1), rebuilds])
    return table(["threads", "wall time", "speed-up", "particle-steps per CPU second", "pairs per particle-step",
                  "rebuilds (partial)"], rows), [("hopper", "hopper")]


def skin_vs_shear(r):
    data = r.rows("skin", "skin-vs-shear")
    distances = sorted({d["verlet_distance"] for d in data if d["verlet_distance"] != "NaN"}, key=float)
    rows = []
    for velocity in sorted({d["velocity_m_s"] for d in data}, key=float):
        cpu = {d["verlet_distance"]: float(d["cpu_s"]) for d in data if d["velocity_m_s"] == velocity}
        least = min(cpu[x] for x in distances)
        cells = []
        for k, x in enumerate(distances + ["NaN"]):
            text = f"{cpu[x]:.2f}" + (" s" if k == 0 and not rows else "")
            cells.append(f"**{text}**" if x != "NaN" and cpu[x] == least else text)
        rows.append([f"{float(velocity):g} m/s"] + cells)
    return table(["δ (m)"] + [f"{float(x):g}" for x in distances] + ["auto"], rows), [("skin", "skin-vs-shear")]


def cells_vs_triangulation(r):
    rows = []
    scenes = []
    for d in r.rows("neighbours", "neighbours"):
        if d["scene"] not in scenes:
            scenes.append(d["scene"])

    def at(scene, n, strategy):
        return r.one("neighbours", "neighbours", scene=scene, n=n, neighbours=strategy)

    def rebuild_ms(row):
        rebuilds = value(row, "rebuilds")
        return None if not rebuilds else 1e3 * value(row, "rebuild_wall_s") / rebuilds

    def pair(a, b, digits):
        return f"{three(a) if digits is None else fixed(a, digits)}/{three(b) if digits is None else fixed(b, digits)}"

    for scene in scenes:
        ratios = []
        for n in (1000, 10000, 100000):
            c, t = value(at(scene, n, "cells"), "cundall"), value(at(scene, n, "triangulation"), "cundall")
            ratios.append(fixed(t / c) if c and t else "—")
        rebuilds = [pair(rebuild_ms(at(scene, n, "cells")), rebuild_ms(at(scene, n, "triangulation")), None)
                    for n in (10000, 100000)]
        memory = pair(value(at(scene, 10000, "cells"), "bytes_per_particle"),
                      value(at(scene, 10000, "triangulation"), "bytes_per_particle"), 0)
        rows.append([scene] + ratios + rebuilds + [memory])
    return table(["scene", "ratio 10³", "ratio 10⁴", "ratio 10⁵", "rebuild 10⁴, ms", "rebuild 10⁵, ms",
                  "bytes per grain"], rows), [("neighbours", "neighbours")]


def rigid_collapse(r):
    rows = []
    for d in r.rows("rigid-collapse", "rigid-collapse"):
        tolerance = float(d["rigid_tolerance"])
        rows.append([grouped(d["n"]), f"10{str(round(math.log10(tolerance))).translate(SUPERSCRIPT)}",
                     three(float(d["ms_per_step"])), fixed(float(d["iterations_per_program"])),
                     f'{100 * float(d["program_share"]):.0f}%',
                     f'{100 * float(d["correction_share"]):.0f}% ({d["corrections"]})',
                     f'{float(d["deepest_overlap"]):.2g}'])
    return table(["N", "`rigid_tolerance`", "ms per step", "iterations per program", "programs", "corrections",
                  "deepest overlap"], rows), [("rigid-collapse", "rigid-collapse")]


def rigid_compact(r):
    names = {"gauss_seidel": "Gauss–Seidel", "interior_point": "interior point"}
    rows = []
    for d in r.rows("rigid-compact", "rigid-compact"):
        mu = float(d.get("mu", "0"))
        law = f"μ = {mu:g}" if mu > 0 else "ξ_t = 0.5"
        rows.append([grouped(d["n"]), law, names.get(d["rigid_solver"], d["rigid_solver"]),
                     three(float(d["ms_per_step"])),
                     grouped(round(float(d["contacts_per_step"]))), fixed(float(d["iterations_per_program"])),
                     d["largest_kkt_residual"], f'{100 * float(d["program_share"]):.0f}%'])
    return table(["N", "tangential law", "solver", "ms per step", "contacts", "iterations per program",
                  "largest residual", "programs"], rows), [("rigid-compact", "rigid-compact")]


def rigid_heap(r):
    names = {"hexagon": "hexagons", "pebble": "pebbles", "cow": "cows"}
    rows = []
    for d in r.rows("rigid-heap", "rigid-heap"):
        share = "—" if d["model"] != "rigid" else f'{100 * float(d["programs_s"]) / float(d["wall_s"]):.0f}%'
        rows.append([d["model"], names.get(d["shape"], d["shape"]), d["n"], d["steps"],
                     f'{float(d["ms_per_step"]):.1f} ms', share])
    return table(["model", "grains", "N", "steps", "time per step", "in the programs"], rows), [
        ("rigid-heap", "rigid-heap")]


def events_gas(r):
    rows = [[grouped(d["disks"]), f'{d["box_side_m"]} m', grouped(d["events"]), f'{float(d["wall_s"]):.1f} s']
            for d in r.rows("events-gas", "events-gas")]
    return table(["disks", "box side", "collisions met as events", "wall time"], rows), [("events-gas", "events-gas")]


def opencl_device(r):
    if not any(d.get("backend") == "opencl" for d in r.rows("beds", "beds")):
        raise KeyError("no OpenCL results (no device where they were measured)")
    rows = []
    for scene in ("hexagons", "disks", "cows"):
        for n in (1000, 10000, 100000):
            cpu = r.one("beds", "beds", scene=scene, n=n, threads=1, backend="cpu")
            device = r.one("beds", "beds", scene=scene, n=n, threads=1, backend="opencl")
            rows.append([scene, grouped(n), fixed(value(cpu, "pairs_per_particle_step")), three(ms_per_step(cpu)),
                         three(ms_per_step(device)), three(ms_per_step(device, "contact_pass_wall_s"))])
    cpu = r.one("hopper", "hopper", threads=1, backend="cpu")
    device = r.one("hopper", "hopper", threads=1, backend="opencl")
    rows.append(["hopper (cows)", 200, fixed(value(cpu, "pairs_per_particle_step"), 1), three(ms_per_step(cpu)),
                 three(ms_per_step(device)), three(ms_per_step(device, "contact_pass_wall_s"))])
    return table(["scene", "n", "candidates per body", "CPU, ms per step", "OpenCL, ms per step",
                  "of which the contact pass"], rows), [("beds", "beds"), ("hopper", "hopper")]


def opencl_rebuilds(r):
    labels = {"hexagons-gas1": "hexagons, sizes 1:1", "hexagons-gas10": "hexagons, sizes 1:10",
              "disks-gas10": "disks, sizes 1:10"}
    rows = []
    for scene, label in labels.items():
        cpu = r.one("opencl-rebuilds", "opencl-rebuilds", scene=scene, backend="cpu")
        device = r.one("opencl-rebuilds", "opencl-rebuilds", scene=scene, backend="opencl")
        rebuilds = "—" if cpu is None else f'{cpu["rebuilds"]} ({cpu["partial_rebuilds"]})'
        rows.append([label, grouped(cpu["n"]) if cpu else "—", rebuilds, three(ms_per_step(cpu)),
                     three(ms_per_step(cpu, "rebuild_wall_s")), three(ms_per_step(device)),
                     three(ms_per_step(device, "rebuild_wall_s"))])
    return table(["scene", "n", "list rebuilds (partial)", "CPU, ms per step", "of which rebuilding",
                  "OpenCL, ms per step", "of which rebuilding"], rows), [("opencl-rebuilds", "opencl-rebuilds")]


def ranks_scaling(r):
    data = r.rows("ranks-scaling", "ranks-scaling")
    strong = next(d for d in data if d["kind"] == "strong_ranks")
    rows = []
    for d in data:
        p, t = int(d["ranks"]), int(d["threads"])
        if d["kind"] == "strong_ranks":
            label = "1 rank, 1 thread" if p == 1 else f"{p} ranks (strong)"
        elif d["kind"] == "strong_threads":
            if t == 1:
                continue
            label = f"{t} threads (strong)"
        else:
            if p == 1:
                continue
            label = f'{p} ranks of {grouped(int(d["grains"]) // p)} each (weak, per grain)'
        rows.append([label, f'{float(d["seconds_per_step"]):.3g}', fixed(float(d["speedup"])),
                     fixed(float(d["efficiency"]))])
    head = f'{grouped(strong["grains"])} hexagons falling, {grouped(strong["steps"])} steps a run'
    return table([head, "seconds per step", "speed-up", "efficiency"], rows), [("ranks-scaling", "ranks-scaling")]


def rank_memory(r):
    data = r.rows("rank-memory", "rank-memory")

    def mb(rows):
        values = sorted(round(int(d["maxrss_kb"]) / 1024) for d in rows)
        return "—" if not values else (f"{values[0]} MB" if values[0] == values[-1] else
                                       f"{values[0]}–{values[-1]} MB")

    rows = []
    for run, label in (("start", "start only (`--check`)"), ("run", "1 s")):
        for p in (2, 3):
            of = [d for d in data if d["run"] == run and d["processes"] == str(p)]
            rows.append([f"{p} ranks, {label}", mb([d for d in of if d["rank"] == "0"]),
                         mb([d for d in of if d["rank"] != "0"])])
    rows.append(["one process, 1 s", mb([d for d in data if d["processes"] == "1"]), "—"])
    return table(["run", "rank 0", "other ranks"], rows), [("rank-memory", "rank-memory")]


TABLES = {
    "cundall-vs-n": cundall_vs_n,
    "cundall-vs-vertices": cundall_vs_vertices,
    "threads": threads,
    "hopper": hopper,
    "skin-vs-shear": skin_vs_shear,
    "cells-vs-triangulation": cells_vs_triangulation,
    "rigid-collapse": rigid_collapse,
    "rigid-compact": rigid_compact,
    "rigid-heap": rigid_heap,
    "events-gas": events_gas,
    "opencl-device": opencl_device,
    "opencl-rebuilds": opencl_rebuilds,
    "ranks-scaling": ranks_scaling,
    "rank-memory": rank_memory,
}


def provenance(r, sources, benchmarks_link, context):
    commands, dates, files, builds = [], [], [], []
    for case, name in sources:
        build_file = os.path.join(r.root, case, "build.txt")
        if os.path.isfile(build_file):
            with open(build_file) as f:
                build = f.read().strip()
        else:
            build = f"{context['compiler']}, commit {context['commit']}"
        if build not in builds:
            builds.append(build)
        command_file = os.path.join(r.root, case, name + ".command")
        if os.path.isfile(command_file):
            with open(command_file) as f:
                commands.append(f.read().strip())
        mtime = os.path.getmtime(r.path(case, name))
        dates.append(datetime.datetime.fromtimestamp(mtime, datetime.timezone.utc).date().isoformat())
        files.append(f"[{name}.csv]({benchmarks_link}/{name}.csv)")
    measured = "; ".join(f"`{c}`" if c.startswith("sphero bench") or ".sh" in c else c for c in commands)
    return (f"*{context['cpu']}, {os.cpu_count()} cores, {'; '.join(builds)}, "
            f"{max(dates)}{': ' + measured if measured else ''}; raw results {', '.join(files)}.*")


def blocks_of(page):
    """NAME -> the lines between a page's markers."""
    with open(page) as f:
        lines = f.read().split("\n")
    blocks, name = {}, None
    for line in lines:
        opening = re.fullmatch(r"<!-- table ([A-Za-z0-9_.-]+) -->", line)
        if opening:
            name = opening.group(1)
            blocks[name] = []
        elif line == "<!-- /table -->":
            name = None
        elif name:
            blocks[name].append(line)
    return blocks


def check(pages):
    """Each table against the raw results its provenance line links to."""
    differ, agree = [], 0
    for page in pages:
        for name, lines in blocks_of(page).items():
            link = next((m.group(1) for line in lines for m in [re.search(r"\]\((benchmarks/[^)/]+)/", line)] if m),
                        None)
            if name not in TABLES or link is None:
                differ.append(f"{page}: table {name} names no raw results")
                continue
            try:
                rows, _ = TABLES[name](Results(os.path.join(os.path.dirname(page), link), flat=True))
            except (OSError, KeyError, StopIteration, TypeError, ValueError) as e:
                differ.append(f"{page}: table {name}: its raw results in {link} cannot be read: {e}")
                continue
            if [line for line in lines if line.startswith("|")] != rows:
                differ.append(f"{page}: table {name} is not what {link} gives:\n  " + "\n  ".join(rows))
            else:
                agree += 1
    for text in differ:
        print(text, file=sys.stderr)
    print(f"tables agreeing with their raw results: {agree}")
    return 1 if differ else 0


def fill(page, blocks):
    with open(page) as f:
        lines = f.read().split("\n")
    out, skipping, filled = [], False, []
    for line in lines:
        opening = re.fullmatch(r"<!-- table ([A-Za-z0-9_.-]+) -->", line)
        if opening and opening.group(1) in blocks:
            out.append(line)
            out += blocks[opening.group(1)]
            filled.append(opening.group(1))
            skipping = True
            continue
        if line == "<!-- /table -->":
            skipping = False
        if not skipping:
            out.append(line)
    with open(page + ".tmp", "w") as f:
        f.write("\n".join(out))
    os.replace(page + ".tmp", page)
    return filled


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--slug", action="store_true")
    parser.add_argument("--check", action="store_true")
    parser.add_argument("--build", action="store_true")
    parser.add_argument("--results")
    parser.add_argument("--benchmarks")
    parser.add_argument("--sphero")
    parser.add_argument("--repo")
    parser.add_argument("pages", nargs="*")
    a = parser.parse_args()
    if a.slug:
        print(machine_slug())
        return 0
    if a.check:
        return check(a.pages)
    if a.build:
        print(f"{compiler(a.sphero)}, commit {commit(a.repo)}")
        return 0
    r = Results(a.results)
    context = {"cpu": cpu_model(), "compiler": compiler(a.sphero), "commit": commit(a.repo)}
    os.makedirs(a.benchmarks, exist_ok=True)
    link = os.path.relpath(a.benchmarks, os.path.join(a.repo, "docs"))
    blocks, missing = {}, []
    for name, draw in TABLES.items():
        try:
            rows, sources = draw(r)
        except (OSError, KeyError, StopIteration, TypeError, ValueError) as e:
            missing.append(f"{name} ({type(e).__name__}: {e})")
            continue
        if not all(r.has(case, source) for case, source in sources):
            missing.append(f"{name} (no results)")
            continue
        for case, source in sources:
            shutil.copyfile(r.path(case, source), os.path.join(a.benchmarks, source + ".csv"))
        blocks[name] = rows + ["", provenance(r, sources, link, context)]
    for page in a.pages:
        filled = fill(page, blocks)
        print(f"{os.path.relpath(page, a.repo)}: {', '.join(filled) if filled else 'no table filled'}")
    if missing:
        print("left as they were: " + "; ".join(missing), file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
