#include "app/opencl_backend.h"

#include <fmt/format.h>

#include "app/data_directory.h"
#include "io/scene.h"
#include "opencl/device_contact_pass.h"

namespace sphero::app {

std::string use_opencl_backend(Engine& engine, const std::string& source) {
  try {
    auto pass = std::make_unique<DeviceContactPass>(OpenClDevice::from_environment(), engine.world(),
                                                    data_directory() / "opencl");
    const OpenClDeviceInfo info = pass->device();
    engine.set_contact_backend(std::move(pass));
    return fmt::format("contacts on OpenCL device '{}' (platform '{}', {})", info.name, info.platform, info.version);
  } catch (const std::exception& e) {
    throw SceneError(fmt::format("{}: backend = opencl: {}", source, e.what()));
  }
}

}  // namespace sphero::app
