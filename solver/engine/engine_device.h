// What moves an engine's work to a device (the OpenCL backend,
// docs/OPENCL.md), beyond what a stepper and a run driver need (engine.h).
#pragma once

#include <memory>

#include "engine/contact_evaluator.h"
#include "engine/engine.h"

namespace sphero {

class EngineDevice {
 public:
  explicit EngineDevice(Engine& engine) : e_(engine) {}
  // Every later force evaluation of a soft-model run by `backend` instead
  // of the CPU's contact pass (the same bits; contact_evaluator.h).
  void set_contact_backend(std::unique_ptr<ContactEvaluator> backend) { e_.core_.contact_backend = std::move(backend); }
  // Every later step by `stepper` (one that keeps the bodies on a device:
  // the same bits), started from the state now.
  void use_stepper(std::unique_ptr<Stepper> stepper) { e_.use_stepper(std::move(stepper)); }

 private:
  Engine& e_;
};

}  // namespace sphero
