#include "vtkSpheroForceChains.h"

#include "vtkCellData.h"
#include "vtkCompositeDataSet.h"
#include "vtkFieldData.h"
#include "vtkIdList.h"
#include "vtkInformation.h"
#include "vtkInformationVector.h"
#include "vtkNew.h"
#include "vtkObjectFactory.h"

#include "SpheroFrame.h"

#include <algorithm>

#include <map>

vtkStandardNewMacro(vtkSpheroForceChains);

int vtkSpheroForceChains::RequestData(vtkInformation*, vtkInformationVector** inputVector,
                                      vtkInformationVector* outputVector) {
  using namespace sphero;
  return plugin::run_filter(this, inputVector, outputVector, [&](plugin::FilterFrame& f) {
    const FrameData& frame = f.frame;
    analysis::AnalysisOptions options;
    options.chain_tolerance_degrees = this->ToleranceAngle;
    options.chain_links =
        this->ChainLinks == 0 ? analysis::ChainLinks::ahead_and_behind : analysis::ChainLinks::two_best_aligned;
    const analysis::FrameSummary s = analysis::analyze_frame(frame, options);

    const plugin::Blocks& out = f.blocks;
    vtkMultiBlockDataSet* output = f.output;
    std::vector<double> particle_chain(s.chains.chain_of.begin(), s.chains.chain_of.end());
    plugin::add_cell_values(out.particles, "chain_id", particle_chain);
    // Links: consecutive particles of a chain, by body id.
    std::map<std::pair<int, int>, int> link_chain;
    std::vector<double> particles, length, stress, orientation;
    for (std::size_t k = 0; k < s.chains.chains.size(); ++k) {
      const auto& c = s.chains.chains[k];
      for (std::size_t i = 0; i + 1 < c.particles.size(); ++i) {
        link_chain[std::minmax(frame.particles[static_cast<std::size_t>(c.particles[i])].id,
                               frame.particles[static_cast<std::size_t>(c.particles[i + 1])].id)] = static_cast<int>(k);
      }
      particles.push_back(static_cast<double>(c.particles.size()));
      length.push_back(c.length);
      stress.push_back(c.mean_stress);
      orientation.push_back(analysis::axis_degrees(c.orientation));
    }
    if (out.contacts) {
      std::vector<double> contact_chain;
      vtkNew<vtkIdList> in_chains;
      for (std::size_t c = 0; c < frame.pairs.size(); ++c) {
        const auto it = link_chain.find(std::minmax(frame.pairs[c].body_a, frame.pairs[c].body_b));
        contact_chain.push_back(it == link_chain.end() ? -1.0 : it->second);
        if (it != link_chain.end()) {
          in_chains->InsertNextId(static_cast<vtkIdType>(c));
        }
      }
      plugin::add_cell_values(out.contacts, "chain_id", contact_chain);
      // Only the chain contacts, sharing the contacts' points.
      vtkNew<vtkUnstructuredGrid> chains;
      chains->SetPoints(out.contacts->GetPoints());
      chains->Allocate(in_chains->GetNumberOfIds());
      chains->GetCellData()->CopyAllocate(out.contacts->GetCellData(), in_chains->GetNumberOfIds());
      vtkNew<vtkIdList> ends;
      for (vtkIdType k = 0; k < in_chains->GetNumberOfIds(); ++k) {
        const vtkIdType c = in_chains->GetId(k);
        out.contacts->GetCellPoints(c, ends);
        const vtkIdType added = chains->InsertNextCell(out.contacts->GetCellType(c), ends);
        chains->GetCellData()->CopyData(out.contacts->GetCellData(), c, added);
      }
      chains->GetFieldData()->ShallowCopy(out.contacts->GetFieldData());
      const unsigned int block = output->GetNumberOfBlocks();
      output->SetBlock(block, chains);
      output->GetMetaData(block)->Set(vtkCompositeDataSet::NAME(), "chain_contacts");
    }
    for (vtkFieldData* fields : f.summary_fields()) {
      plugin::add_value(fields, "chains", static_cast<double>(s.chains.chains.size()));
      plugin::add_value(fields, "fraction_in_chains", s.chains.fraction_in_chains);
      plugin::add_value(fields, "chain_orientation_deg", s.chains.mean_orientation_degrees);
      plugin::add_values(fields, "chain_particles", particles);
      plugin::add_values(fields, "chain_length", length);
      plugin::add_values(fields, "chain_mean_stress", stress);
      plugin::add_values(fields, "chain_orientation", orientation);
    }
  });
}
