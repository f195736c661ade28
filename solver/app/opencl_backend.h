// `backend = opencl`: a soft-model run moved to the OpenCL device that
// OPENCL_PLATFORM and OPENCL_DEVICE choose (docs/OPENCL.md) — stepped
// whole there where the device stepper can, else its contact pass alone.
#pragma once

#include <filesystem>
#include <functional>
#include <string>

#include "engine/engine.h"

namespace sphero::app {

struct OpenClBackend {
  std::string description;                       // where the run computes, for the run's header
  std::function<double()> contact_pass_seconds;  // the device's contact pass so far (wall time)
};

// Puts the device in `engine`. Throws SceneError, naming `source` and the
// key, where no device fits or the kernels (from `kernels`, by default the
// installed ones) do not compile.
OpenClBackend use_opencl_backend(Engine& engine, const std::string& source, const std::filesystem::path& kernels = {});

}  // namespace sphero::app
