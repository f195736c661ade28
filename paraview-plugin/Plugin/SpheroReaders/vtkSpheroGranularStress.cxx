#include "vtkSpheroGranularStress.h"

#include "vtkFieldData.h"
#include "vtkInformation.h"
#include "vtkInformationVector.h"
#include "vtkObjectFactory.h"

#include "SpheroFrame.h"

vtkStandardNewMacro(vtkSpheroGranularStress);

int vtkSpheroGranularStress::RequestData(vtkInformation*, vtkInformationVector** inputVector,
                                         vtkInformationVector* outputVector) {
  using namespace sphero;
  return plugin::run_filter(this, inputVector, outputVector, [&](plugin::FilterFrame& f) {
    const FrameData& frame = f.frame;
    analysis::AnalysisOptions options;
    options.window = plugin::window_from(this->WindowType, this->WindowRectangle, this->WindowCircle);
    options.exclude_walls = this->ExcludeWalls != 0;
    const analysis::FrameSummary s = analysis::analyze_frame(frame, options);

    const plugin::Blocks& out = f.blocks;
    std::vector<double> stress, pressure, deviator, principal, major;
    for (const ParticleRecord& p : frame.particles) {
      const Stress sigma = analysis::particle_stress(p, options.exclude_walls);
      stress.insert(stress.end(), {sigma.xx, sigma.xy, sigma.yx, sigma.yy});
      pressure.push_back(sigma.pressure());
      deviator.push_back(sigma.deviator());
      const auto values = sigma.principal();
      principal.insert(principal.end(), {values[0], values[1]});
      const Vec2 d = sigma.major_direction();
      major.insert(major.end(), {d.x, d.y, 0.0});
    }
    plugin::add_cell_values(out.particles, "stress", stress, 4);
    plugin::add_cell_values(out.particles, "pressure", pressure);
    plugin::add_cell_values(out.particles, "deviator_stress", deviator);
    plugin::add_cell_values(out.particles, "principal_stresses", principal, 2);
    plugin::add_cell_values(out.particles, "major_stress_direction", major, 3);
    std::vector<double> face, normal, shear, length;
    for (const auto& w : s.walls) {
      face.insert(face.end(), {static_cast<double>(w.wall), static_cast<double>(w.face)});
      normal.push_back(w.normal_stress);
      shear.push_back(w.shear_stress);
      length.push_back(w.length);
    }
    for (vtkFieldData* fields : f.summary_fields()) {
      plugin::add_value(fields, "sigma_xx", s.stress.xx);
      plugin::add_value(fields, "sigma_yy", s.stress.yy);
      plugin::add_value(fields, "sigma_xy", 0.5 * (s.stress.xy + s.stress.yx));
      plugin::add_value(fields, "p", s.pressure);
      plugin::add_value(fields, "q", s.deviator);
      plugin::add_values(fields, "wall_face", face, 2);
      plugin::add_values(fields, "wall_face_sigma_n", normal);
      plugin::add_values(fields, "wall_face_tau", shear);
      plugin::add_values(fields, "wall_face_length", length);
    }
  });
}
