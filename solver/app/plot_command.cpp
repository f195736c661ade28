// `sphero plot TABLE.csv`: an x–y chart of columns of any CSV table Sphero
// writes (analysis.csv, energy.csv, the examples' result tables), one curve
// per y column, or per value of a grouping column — e.g. the Cundall number
// against N, one curve per scene. Same charts as `sphero figure`.
#include <fmt/format.h>

#include <algorithm>
#include <boost/program_options.hpp>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <stdexcept>

#include "analysis/figures/charts.h"
#include "analysis/figures/column_labels.h"
#include "app/command_line.h"
#include "app/commands.h"
#include "text/csv_row.h"
#include "text/message_text.h"

namespace sphero::app {
namespace {

struct Table {
  std::vector<std::string> columns;
  std::vector<std::vector<std::string>> rows;
  int column(const std::string& name, const std::string& file) const {
    for (std::size_t k = 0; k < columns.size(); ++k)
      if (columns[k] == name) return static_cast<int>(k);
    std::string all;
    for (const auto& c : columns) all += (all.empty() ? "" : ", ") + c;
    throw std::invalid_argument(fmt::format("{}: no column '{}'; the columns are {}", file, name, all));
  }
};

std::vector<std::string> split_commas(const std::string& line) {
  std::vector<std::string> out;
  std::stringstream in(line);
  for (std::string cell; std::getline(in, cell, ',');) out.push_back(cell);
  if (!line.empty() && line.back() == ',') out.emplace_back();
  return out;
}

// A table line's fields as RFC 4180 quotes them.
std::vector<std::string> fields_of(const std::string& line, const std::string& file, int number) {
  auto fields = split_csv_row(line);
  if (!fields)
    throw std::runtime_error(
        fmt::format("{}:{}: a quoted field left open, or text after its closing quote", file, number));
  return std::move(*fields);
}

// Lines starting with '#' are comments; the first other line names the columns.
Table read_table(const std::string& file) {
  if (std::filesystem::is_directory(file)) throw std::runtime_error(fmt::format("{}: a folder, not a table", file));
  std::ifstream in(file);
  if (!in) throw std::runtime_error(fmt::format("{}: cannot open the table", file));
  Table t;
  int number = 0;
  for (std::string line; std::getline(in, line);) {
    ++number;
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (line.empty() || line[0] == '#') continue;
    if (t.columns.empty()) {
      t.columns = fields_of(line, file, number);
      continue;
    }
    t.rows.push_back(fields_of(line, file, number));
    if (t.rows.back().size() != t.columns.size())
      throw std::runtime_error(fmt::format(
          "{}:{}: {} values where the header names {} columns", file, number, t.rows.back().size(), t.columns.size()));
  }
  if (t.columns.empty()) throw std::runtime_error(fmt::format("{}: no header line", file));
  return t;
}

double value_of(const std::string& text) { return parse_number(text).value_or(NAN); }

}  // namespace

int run_plot_command(const std::vector<std::string>& args) {
  namespace po = boost::program_options;
  std::string file, x_column, y_text, by, output, title, x_label, y_label, style = "line";
  int width = 1200;
  po::options_description options("options");
  options.add_options()("help,h", "show this help")("x", po::value(&x_column), "the x column (required)")(
      "y", po::value(&y_text), "y columns, comma-separated (required)")(
      "by", po::value(&by), "one curve per value of this column (e.g. scene), in order of appearance")(
      "style", po::value(&style), "line (default), dashed, markers or bars")("log-x", "logarithmic x axis")(
      "log-y", "logarithmic y axis")("title", po::value(&title), "the chart's title")(
      "x-label", po::value(&x_label), "x axis label (default: the column's quantity and unit, where Sphero knows it)")(
      "y-label", po::value(&y_label), "y axis label (default: the columns' quantities and unit)")(
      "output,o", po::value(&output), "figure file: .png, .svg or .pdf (default: beside the table, TABLE.png)")(
      "width", po::value(&width), "width in pixels (PNG) or points (default 1200)");
  po::variables_map vm;
  if (const auto stop =
          parse_command_line(args, options, file, true, "plot",
                             "usage: sphero plot TABLE.csv --x COLUMN --y COLUMN[,COLUMN...] [options]\n", vm))
    return *stop;
  if (x_column.empty() || y_text.empty()) throw std::invalid_argument("--x and --y name the columns to plot");
  const std::map<std::string, analysis::Curve::Style> styles{{"line", analysis::Curve::Style::line},
                                                             {"dashed", analysis::Curve::Style::dashed},
                                                             {"markers", analysis::Curve::Style::markers},
                                                             {"bars", analysis::Curve::Style::bars}};
  if (!styles.count(style))
    throw std::invalid_argument(fmt::format("--style: unknown style '{}'; use line, dashed, markers or bars", style));
  if (width < 100 || width > 20000) throw std::invalid_argument("--width: expected 100 to 20000");
  const Table table = read_table(file);
  const int x = table.column(x_column, file);
  std::vector<int> ys;
  for (const std::string& name : split_commas(y_text)) ys.push_back(table.column(name, file));
  const int group = by.empty() ? -1 : table.column(by, file);

  analysis::Chart chart;
  chart.title = title;
  chart.x_label = x_label.empty() ? analysis::axis_label({x_column}) : x_label;
  chart.y_label = y_label.empty() ? analysis::axis_label(split_commas(y_text)) : y_label;
  chart.x_log = vm.count("log-x") > 0;
  chart.y_log = vm.count("log-y") > 0;
  std::vector<std::string> groups;  // in order of appearance
  for (const auto& row : table.rows)
    if (group >= 0 && std::find(groups.begin(), groups.end(), row[static_cast<std::size_t>(group)]) == groups.end())
      groups.push_back(row[static_cast<std::size_t>(group)]);
  if (group < 0) groups.emplace_back();
  for (const std::string& g : groups)
    for (int y : ys) {
      analysis::Curve curve;
      curve.style = styles.at(style);
      const std::string quantity = analysis::column_meaning(table.columns[static_cast<std::size_t>(y)]).quantity;
      curve.label = g.empty() ? quantity : (ys.size() > 1 ? g + ", " + quantity : g);
      for (const auto& row : table.rows) {
        if (group >= 0 && row[static_cast<std::size_t>(group)] != g) continue;
        curve.x.push_back(value_of(row[static_cast<std::size_t>(x)]));
        curve.y.push_back(value_of(row[static_cast<std::size_t>(y)]));
      }
      chart.curves.push_back(std::move(curve));
    }
  if (output.empty()) output = std::filesystem::path(file).replace_extension(".png").string();
  analysis::draw_chart(chart, output, width, width * 2 / 3);
  fmt::print("sphero plot: {} curve(s) of {} rows -> {}\n", chart.curves.size(), table.rows.size(), output);
  return 0;
}

}  // namespace sphero::app
