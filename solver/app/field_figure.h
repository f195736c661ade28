// `sphero figure RUN_DIR --plot field:NAME`: a coarse-grained field of a
// frame (or the mean over --frames) as a colour map with its colour bar,
// optionally with velocity arrows and the major principal stress
// directions (analysis/figures/field_map.h).
#pragma once

#include <boost/program_options.hpp>
#include <string>

namespace sphero::app {

void add_field_figure_options(boost::program_options::options_description& options);

// The names --plot field:NAME accepts, for messages.
std::string field_figure_names();

struct FieldFigure {
  std::string run, field, title, output;
  int frame = 0;  // used when the command line gives no --frames
  int width = 1600;
};

// Throws std::invalid_argument naming the option for a bad request.
void draw_field_figure(const FieldFigure& figure, const boost::program_options::variables_map& vm);

}  // namespace sphero::app
