#include "vtkSpheroVoidRatio.h"

#include "vtkFieldData.h"
#include "vtkInformation.h"
#include "vtkInformationVector.h"
#include "vtkObjectFactory.h"

#include "SpheroFrame.h"

#include <exception>

vtkStandardNewMacro(vtkSpheroVoidRatio);

int vtkSpheroVoidRatio::RequestData(
  vtkInformation*, vtkInformationVector** inputVector, vtkInformationVector* outputVector)
{
  using namespace sphero;
  try
  {
    const plugin::FilterFrame f = plugin::filter_frame(inputVector);
    const FrameData& frame = f.frame;
    analysis::AnalysisOptions options;
    options.window = plugin::window_from(this->WindowType, this->WindowRectangle, this->WindowCircle);
    options.local_packing = true;
    const analysis::FrameSummary s = analysis::analyze_frame(frame, options);

    const plugin::Blocks& out = f.blocks;
    vtkMultiBlockDataSet* output = f.output;
    std::vector<double> local_void;
    for (double phi : s.local_packing_fraction)
    {
      local_void.push_back(phi > 0.0 ? 1.0 / phi - 1.0 : 0.0);
    }
    plugin::add_cell_values(out.particles, "local_packing_fraction", s.local_packing_fraction);
    plugin::add_cell_values(out.particles, "local_void_ratio", local_void);
    for (vtkFieldData* fields : { output->GetFieldData(), out.particles->GetFieldData() })
    {
      plugin::add_value(fields, "packing_fraction", s.packing_fraction);
      plugin::add_value(fields, "void_ratio", s.void_ratio);
      plugin::add_value(fields, "mean_local_packing_fraction", s.mean_local_packing_fraction);
    }
    vtkMultiBlockDataSet::GetData(outputVector)->ShallowCopy(output);
  }
  catch (const std::exception& e)
  {
    vtkErrorMacro(<< e.what());
    return 0;
  }
  return 1;
}
