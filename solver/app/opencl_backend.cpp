#include "app/opencl_backend.h"

#include <fmt/format.h>

#include "app/data_directory.h"
#include "io/scene.h"
#include "opencl/device_contact_pass.h"
#include "opencl/device_verlet_stepper.h"

namespace sphero::app {

std::string use_opencl_backend(Engine& engine, const std::string& source) {
  try {
    const std::filesystem::path kernels = data_directory() / "opencl";
    OpenClDevice device = OpenClDevice::from_environment();
    const OpenClDeviceInfo info = device.info();
    const std::string where = fmt::format("OpenCL device '{}' (platform '{}', {})", info.name, info.platform, info.version);
    const std::string unsupported = DeviceVerletStepper::unsupported(engine.world(), engine.settings());
    if (unsupported.empty()) {
      engine.use_stepper(std::make_unique<DeviceVerletStepper>(std::move(device), engine.world(), kernels));
      return "bodies, contacts and integration on " + where;
    }
    engine.set_contact_backend(std::make_unique<DeviceContactPass>(std::move(device), engine.world(), kernels));
    return fmt::format("contacts on {}; the integration on the CPU (the device does not yet step {})", where,
                       unsupported);
  } catch (const std::exception& e) {
    throw SceneError(fmt::format("{}: backend = opencl: {}", source, e.what()));
  }
}

}  // namespace sphero::app
