"""Profiles across a periodic shear cell from its coarse-grained fields:
the fields averaged over the frames FIRST..LAST and along x (the periodic
axis), for each kernel width; and per width the bulk values (away from the
plates by two widths and more) and the shear band's width. Used by run.sh.

usage: profiles.py RUN FIRST LAST GRAIN_SIZE PROFILES.csv SUMMARY.csv WIDTH...
"""
import csv
import sys

import numpy as np

import sphero

run, first, last, grain = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), float(sys.argv[4])
profiles_file, summary_file = sys.argv[5], sys.argv[6]
widths = [float(w) for w in sys.argv[7:]]

PLATE_SPEED = 2.0  # m/s, run.sh's


def crossing(y, v, level):
    """The first height, from below, where v reaches `level` (interpolated)."""
    above = np.nonzero(v >= level)[0]
    if len(above) == 0 or above[0] == 0:
        return float("nan")
    k = above[0]
    return y[k - 1] + (level - v[k - 1]) * (y[k] - y[k - 1]) / (v[k] - v[k - 1])


# The plates' traction over the same frames, from energy.csv: the grains'
# force on the top plate (the shear-band scene's wall `top`) over the
# period, 20 m.
frames = [sphero.read_frame(run, k) for k in range(first, last + 1)]
times = {f.time for f in frames}
with open(f"{run}/energy.csv") as f:
    rows = [r for r in csv.DictReader(line for line in f if not line.startswith("#")) if float(r["time_s"]) in times]
period = 20.0
plate_fx = np.mean([float(r["top_fx_N"]) for r in rows]) / period
plate_fy = np.mean([float(r["top_fy_N"]) for r in rows]) / period

with open(profiles_file, "w") as p, open(summary_file, "w") as s:
    p.write("w_over_d,y_m,velocity_x_m_per_s,stress_yx_N_per_m,stress_yy_N_per_m,density_kg_per_m2\n")
    s.write("w_over_d,bulk_stress_yx_N_per_m,stress_yx_spread,bulk_stress_yy_N_per_m,plate_traction_x_N_per_m,"
            "plate_traction_y_N_per_m,band_width_m\n")
    for w in widths:
        fields = sphero.coarse_grain(frames, width=w, cell=min(w / 2, grain / 4), periodic=("x", (0, -10, 20, 40)))
        y = fields["y"]
        vx = fields["velocity"][:, :, 0].mean(axis=1)
        syx = fields["stress"][:, :, 1, 0].mean(axis=1)
        syy = fields["stress"][:, :, 1, 1].mean(axis=1)
        rho = fields["density"].mean(axis=1)
        # Rows where there is material: beyond, the velocity is a ratio of
        # vanishing sums.
        for row in zip(y, vx, syx, syy, rho):
            if row[-1] >= 0.02 * rho.max():
                p.write(f"{w / grain:.3g}," + ",".join(f"{v:.9g}" for v in row) + "\n")
        # The bulk: where the sample is dense, two widths and more from its edges.
        dense = np.nonzero(rho > 0.5 * rho.max())[0]
        low, high = y[dense[0]] + 2 * w, y[dense[-1]] - 2 * w
        bulk = (y >= low) & (y <= high)
        if bulk.sum() < 3:
            s.write(f"{w / grain:.3g},nan,nan,nan,{plate_fx:.6g},{plate_fy:.6g},nan\n")
            continue
        # The band: from where the sample moves at a tenth of the plate's
        # speed to where it moves at nine tenths.
        band_width = crossing(y, vx, 0.9 * PLATE_SPEED) - crossing(y, vx, 0.1 * PLATE_SPEED)
        s.write(f"{w / grain:.3g},{syx[bulk].mean():.6g},{syx[bulk].std() / abs(syx[bulk].mean()):.4g},"
                f"{syy[bulk].mean():.6g},{plate_fx:.6g},{plate_fy:.6g},{band_width:.4g}\n")
