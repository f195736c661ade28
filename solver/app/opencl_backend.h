// `backend = opencl`: the soft model's contact pass moved to the OpenCL
// device that OPENCL_PLATFORM and OPENCL_DEVICE choose (docs/OPENCL.md).
#pragma once

#include <string>

#include "engine/engine.h"

namespace sphero::app {

// Installs the device's contact pass in `engine`; returns a line naming the
// device. Throws SceneError, naming `source` and the key, where no device
// fits or the kernels do not compile.
std::string use_opencl_backend(Engine& engine, const std::string& source);

}  // namespace sphero::app
