// What the Sphero filters share: the blocks of a Sphero run's multiblock
// (as vtkSpheroRunReader makes it) turned into the analysis library's
// FrameData, an output that shares the input's arrays, and the analysis
// window from the filters' properties. Not wrapped: plain C++.
#pragma once

#include "vtkAlgorithm.h"
#include "vtkFieldData.h"
#include "vtkInformationVector.h"
#include "vtkMultiBlockDataSet.h"
#include "vtkSmartPointer.h"
#include "vtkUnstructuredGrid.h"

#include "analysis/frame_analysis.h"
#include "io/frame_reader.h"

#include <array>
#include <functional>
#include <string>
#include <vector>

namespace sphero::plugin {

struct Blocks {
  vtkUnstructuredGrid* particles = nullptr;
  vtkUnstructuredGrid* contacts = nullptr;
  vtkUnstructuredGrid* walls = nullptr;
};

// The blocks named particles, contacts and walls (top level). Throws
// std::runtime_error when there are no particles.
Blocks find_blocks(vtkMultiBlockDataSet* input);

// A new multiblock of the same blocks, each a shallow copy whose attribute
// arrays can be added to without touching the input's; `blocks` points at
// the copies.
vtkSmartPointer<vtkMultiBlockDataSet> copy_blocks(vtkMultiBlockDataSet* input, Blocks& blocks);

// What every filter starts from: the input's frame as FrameData, and an
// output multiblock that shares the input's arrays (`blocks` point into it).
// Throws std::runtime_error for an input that is not a Sphero run.
struct FilterFrame {
  FrameData frame;
  Blocks blocks;
  vtkSmartPointer<vtkMultiBlockDataSet> output;
  // Where a filter's frame-wide results go: the output's field data and its
  // particles block's (which ParaView shows when only that block is picked).
  std::array<vtkFieldData*, 2> summary_fields() const;
};
FilterFrame filter_frame(vtkInformationVector** inputVector);

// A Sphero filter's RequestData: `analyse` adds its results to the frame's
// output, which then becomes the filter's; an exception becomes a VTK error
// of `filter` and a failed request.
int run_filter(vtkAlgorithm* filter, vtkInformationVector** inputVector, vtkInformationVector* outputVector,
               const std::function<void(FilterFrame&)>& analyse);

// WindowType 0: the box around the particles; 1: Rectangle (x0, y0, x1, y1);
// 2: Circle (x, y, r).
analysis::Window window_from(int type, const double rectangle[4], const double circle[3]);

void add_value(vtkFieldData* fields, const std::string& name, double value);
void add_values(vtkFieldData* fields, const std::string& name, const std::vector<double>& values, int components = 1);
void add_cell_values(vtkUnstructuredGrid* grid, const std::string& name, const std::vector<double>& values,
                     int components = 1);

}  // namespace sphero::plugin
