// Gear's fourth-order predictor–corrector for second-order equations
// (Gear 1971; Allen & Tildesley, Computer Simulation of Liquids, app. E):
// position, velocity and three scaled higher derivatives per DOF; predict
// by Taylor series, evaluate the forces at the predicted state, correct.
#pragma once

#include "engine/stepper.h"

namespace sphero {

class GearStepper final : public Stepper {
 public:
  explicit GearStepper(StepperHistory history) : h_(std::move(history)) {}
  void start(EngineCore& core) override;
  void step(EngineCore& core) override;
  StepperHistory history() const override { return h_; }
  BodyHistory history_of(std::size_t body) const override;
  void set_history_of(std::size_t body, const BodyHistory& history) override;
  std::size_t memory_bytes() const override;

 private:
  void predict(EngineCore& core);
  void correct(EngineCore& core);
  StepperHistory h_;
};

}  // namespace sphero
