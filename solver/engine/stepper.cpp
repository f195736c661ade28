#include "engine/stepper.h"

#include "engine/event_stepper.h"
#include "engine/gear_stepper.h"
#include "engine/rigid_stepper.h"
#include "engine/verlet_stepper.h"

namespace sphero {

std::unique_ptr<Stepper> make_stepper(const EngineSettings& settings, StepperHistory history) {
  if (settings.model == Model::rigid && settings.rigid.events) return std::make_unique<EventStepper>();
  if (settings.model == Model::rigid) return std::make_unique<RigidStepper>();
  if (settings.integrator == Integrator::gear) return std::make_unique<GearStepper>(std::move(history));
  return std::make_unique<VerletStepper>();
}

}  // namespace sphero
