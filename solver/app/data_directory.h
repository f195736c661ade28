// Where `sphero` finds its shape library and scenes (the built-in default
// scene names its shapes relative to them): $SPHERO_DATA_DIR when set, else
// share/sphero beside an installed program (PREFIX/bin/sphero uses
// PREFIX/share/sphero), else the source tree it was built from.
#pragma once

#include <filesystem>

namespace sphero::app {

// Throws std::runtime_error naming the places looked at when none holds
// shapes/.
std::filesystem::path data_directory();

}  // namespace sphero::app
