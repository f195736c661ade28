// The options `sphero analyze` and `sphero figure` share: which frames,
// which window, and how the granular quantities are counted.
#pragma once

#include <boost/program_options.hpp>
#include <string>

#include "analysis/frame_analysis.h"

namespace sphero::app {

void add_analysis_options(boost::program_options::options_description& options);

// Throws std::invalid_argument naming the option for a malformed value.
analysis::AnalysisOptions analysis_options(const boost::program_options::variables_map& vm);

struct FrameRange {
  int first = 0, last = 0;
};
// --frames A:B (or A), checked against the run's `count` frames; all by default.
FrameRange frame_range(const boost::program_options::variables_map& vm, int count);

}  // namespace sphero::app
