#include "vtkSpheroVoidRatio.h"

#include "vtkFieldData.h"
#include "vtkInformation.h"
#include "vtkInformationVector.h"
#include "vtkObjectFactory.h"

#include "SpheroFrame.h"

vtkStandardNewMacro(vtkSpheroVoidRatio);

int vtkSpheroVoidRatio::RequestData(vtkInformation*, vtkInformationVector** inputVector,
                                    vtkInformationVector* outputVector) {
  using namespace sphero;
  return plugin::run_filter(this, inputVector, outputVector, [&](plugin::FilterFrame& f) {
    const FrameData& frame = f.frame;
    analysis::AnalysisOptions options;
    options.window = plugin::window_from(this->WindowType, this->WindowRectangle, this->WindowCircle);
    options.local_packing = true;
    const analysis::FrameSummary s = analysis::analyze_frame(frame, options);

    const plugin::Blocks& out = f.blocks;
    std::vector<double> local_void;
    for (double phi : s.local_packing_fraction) {
      local_void.push_back(phi > 0.0 ? 1.0 / phi - 1.0 : 0.0);
    }
    plugin::add_cell_values(out.particles, "local_packing_fraction", s.local_packing_fraction);
    plugin::add_cell_values(out.particles, "local_void_ratio", local_void);
    for (vtkFieldData* fields : f.summary_fields()) {
      plugin::add_value(fields, "packing_fraction", s.packing_fraction);
      plugin::add_value(fields, "void_ratio", s.void_ratio);
      plugin::add_value(fields, "mean_local_packing_fraction", s.mean_local_packing_fraction);
    }
  });
}
