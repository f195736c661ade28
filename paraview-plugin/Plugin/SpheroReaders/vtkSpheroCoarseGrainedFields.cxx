#include "vtkSpheroCoarseGrainedFields.h"

#include "vtkCompositeDataSet.h"
#include "vtkDataArray.h"
#include "vtkFieldData.h"
#include "vtkImageData.h"
#include "vtkInformation.h"
#include "vtkInformationVector.h"
#include "vtkMultiBlockDataSet.h"
#include "vtkObjectFactory.h"

#include "SpheroFrame.h"
#include "analysis/fields/coarse_grained_fields.h"
#include "io/image_vti.h"

#include <stdexcept>

vtkStandardNewMacro(vtkSpheroCoarseGrainedFields);

namespace {

// The run reader's periodic cell (periodic x, y, x0, y0, width, height),
// where the run is periodic.
void read_periodic_cell(vtkFieldData* fields, sphero::analysis::CoarseGrainingOptions& o) {
  vtkDataArray* cell = fields->GetArray("periodic_cell");
  if (!cell) {
    return;
  }
  if (cell->GetNumberOfTuples() * cell->GetNumberOfComponents() != 6) {
    throw std::runtime_error("the particles' periodic_cell does not hold 6 numbers; read the run again");
  }
  o.periodic = {cell->GetComponent(0, 0) != 0.0, cell->GetComponent(1, 0) != 0.0};
  o.cell_low = {cell->GetComponent(2, 0), cell->GetComponent(3, 0)};
  o.cell_size = {cell->GetComponent(4, 0), cell->GetComponent(5, 0)};
}

}  // namespace

int vtkSpheroCoarseGrainedFields::RequestData(vtkInformation*, vtkInformationVector** inputVector,
                                              vtkInformationVector* outputVector) {
  using namespace sphero;
  try {
    const plugin::FilterFrame f = plugin::filter_frame(inputVector);
    analysis::CoarseGrainingOptions o;
    o.kernel.kind = this->Kernel == 1 ? analysis::KernelKind::lucy : analysis::KernelKind::gaussian;
    o.kernel.width = this->Width;
    o.kernel.gaussian_cutoff = this->Cutoff;
    o.cell = this->Cell > 0.0 ? this->Cell : 0.5 * this->Width;
    if (this->WindowType == 1) {
      const double* w = this->WindowRectangle;
      if (!(w[2] > w[0] && w[3] > w[1])) {
        throw std::runtime_error("WindowRectangle: expected x0 < x1 and y0 < y1");
      }
      o.window = {w[0], w[1], w[2], w[3]};
    }
    read_periodic_cell(f.blocks.particles->GetFieldData(), o);
    const analysis::FieldGrid grid = analysis::field_grid(f.frame, o);
    const ImageData2D image = analysis::field_image(analysis::coarse_grain(f.frame, grid, o.kernel));
    vtkMultiBlockDataSet* output = vtkMultiBlockDataSet::GetData(outputVector);
    output->SetNumberOfBlocks(1);
    output->SetBlock(0, image_grid(image, "the frame's fields"));
    output->GetMetaData(0u)->Set(vtkCompositeDataSet::NAME(), "fields");
    output->GetFieldData()->ShallowCopy(f.output->GetFieldData());
  } catch (const std::exception& e) {
    vtkErrorMacro(<< e.what());
    return 0;
  }
  return 1;
}
