// What the OpenCL backend's tests share: where the kernels are, a
// comparison to the bit, and a scene stepped by two engines, one on the
// device.
#pragma once

#include <cstring>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "engine/engine.h"
#include "engine/engine_device.h"
#include "io/scene.h"
#include "opencl/device_verlet_stepper.h"

namespace sphero::opencl_test {

inline const std::filesystem::path kKernels = SPHERO_DATA_DIR "/opencl";

template <class T>
bool same_bits(const std::vector<T>& a, const std::vector<T>& b) {
  return a.size() == b.size() && (a.empty() || std::memcmp(a.data(), b.data(), a.size() * sizeof(T)) == 0);
}
inline bool same_bits(double a, double b) { return std::memcmp(&a, &b, sizeof a) == 0; }

// The scene `text`'s engine twice: `cpu` as it is, `gpu` stepped on the
// first OpenCL device by `stepper`.
struct Twins {
  Engine cpu, gpu;
  const DeviceVerletStepper* stepper;
};
inline Twins twins(const std::string& text) {
  const SceneConfig scene = parse_scene(text, "t.ini", SPHERO_DATA_DIR "/shapes");
  World w = build_world(scene);
  const EngineSettings s = resolve_engine_settings(scene, w);
  Engine cpu(w, s), gpu(w, s);
  auto stepper = std::make_unique<DeviceVerletStepper>(OpenClDevice::choose("", ""), w, kKernels);
  const DeviceVerletStepper* raw = stepper.get();
  EngineDevice(gpu).use_stepper(std::move(stepper));
  return {std::move(cpu), std::move(gpu), raw};
}

}  // namespace sphero::opencl_test
