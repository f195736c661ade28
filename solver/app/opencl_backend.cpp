#include "app/opencl_backend.h"

#include <fmt/format.h>

#include "app/data_directory.h"
#include "engine/engine_device.h"
#include "io/scene.h"
#include "opencl/device_contact_pass.h"
#include "opencl/device_verlet_stepper.h"

namespace sphero::app {

OpenClBackend use_opencl_backend(Engine& engine, const std::string& source, const std::filesystem::path& kernels) {
  try {
    const std::filesystem::path folder = kernels.empty() ? data_directory() / "opencl" : kernels;
    OpenClDevice device = OpenClDevice::from_environment();
    const OpenClDeviceInfo info = device.info();
    const std::string where =
        fmt::format("OpenCL device '{}' (platform '{}', {})", info.name, info.platform, info.version);
    const std::string unsupported = DeviceVerletStepper::unsupported(engine.world(), engine.settings());
    if (unsupported.empty()) {
      auto stepper = std::make_unique<DeviceVerletStepper>(std::move(device), engine.world(), folder);
      const DeviceVerletStepper* raw = stepper.get();
      EngineDevice(engine).use_stepper(std::move(stepper));
      if (DeviceVerletStepper::lists_on_device(engine.neighbour_settings()))
        return {"bodies, neighbour lists, contacts and integration on " + where, [raw] { return raw->seconds(); }};
      return {"bodies, contacts and integration on " + where +
                  "; neighbour lists on the CPU (the device builds them with link cells and contact lists only)",
              [raw] { return raw->seconds(); }};
    }
    auto pass = std::make_unique<DeviceContactPass>(std::move(device), engine.world(), folder);
    const DeviceContactPass* raw = pass.get();
    EngineDevice(engine).set_contact_backend(std::move(pass));
    return {
        fmt::format("contacts on {}; the integration on the CPU (the device does not yet step {})", where, unsupported),
        [raw] { return raw->seconds(); }};
  } catch (const std::exception& e) {
    throw SceneError(fmt::format("{}: backend = opencl: {}", source, e.what()));
  }
}

}  // namespace sphero::app
