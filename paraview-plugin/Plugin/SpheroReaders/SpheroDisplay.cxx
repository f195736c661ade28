#include "SpheroDisplay.h"

#include "vtkOutputWindow.h"

#include <cstdlib>

namespace sphero::plugin {
namespace {

bool names_something(const char* variable) {
  const char* value = std::getenv(variable);
  return value && *value;
}

}  // namespace

void warn_without_display() {
  static bool said = false;
  if (said || names_something("DISPLAY") || names_something("WAYLAND_DISPLAY")) {
    return;
  }
  said = true;
  vtkOutputWindowDisplayWarningText(
      "Sphero: this ParaView has no display (DISPLAY is not set): reading runs and the Sphero filters work, but "
      "the first Render() or SaveScreenshot() will crash, with or without --force-offscreen-rendering (Debian's "
      "ParaView draws through X). To render, start it under a virtual display: 'xvfb-run -a pvpython "
      "SCRIPT.py' (docs/PARAVIEW.md, \"Without a display\").\n");
}

}  // namespace sphero::plugin
