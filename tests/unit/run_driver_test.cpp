// The run driver (run/run_driver.h): its observers at their points, a stop
// request honoured after the step it comes in, and a long step interrupted
// inside and rolled back to its start, bit for bit.
#include <gtest/gtest.h>

#include <csignal>
#include <sstream>
#include <string>
#include <vector>

#include "io/checkpoint.h"
#include "io/scene.h"
#include "rigid/interruption.h"
#include "run/run_driver.h"
#include "run/serial_run.h"
#include "run/stop_request.h"

namespace sphero {
namespace {

std::unique_ptr<Engine> engine_of(const std::string& text) {
  const SceneConfig scene = parse_scene(text, "t.ini", SPHERO_DATA_DIR "/shapes");
  World w = build_world(scene);
  const EngineSettings s = resolve_engine_settings(scene, w);
  return std::make_unique<Engine>(std::move(w), s);
}

std::unique_ptr<Engine> soft_engine() {
  return engine_of(
      "duration = 1\ngravity = 0,-9.81\nlaw = 0 0 linear kn=1e4 kt=5e3 mu=0.5 gamma_n=2\n"
      "wall = radius=0.05 points=0,10;0,0;8,0;8,10\n"
      "grains = shape=peanut.shape count=8 region=0.5,0.5,7.5,5 speed=1\n");
}

// Hexagons settling on a floor: from the first steps on, every step solves
// a collision program.
std::unique_ptr<Engine> rigid_engine() {
  return engine_of(
      "model = rigid\nduration = 1\ndt = 2e-3\ngravity = 0,-9.81\nlaw = 0 0 rigid restitution=0.3 xi_t=0.5\n"
      "wall = radius=0.1 points=0,12;0,0;10,0;10,12\n"
      "grains = shape=hexagon.shape count=24 generator=lattice region=1,0.3,9,6\n");
}

std::string bytes_of(const Engine& engine) {
  std::ostringstream out;
  write_checkpoint(out, engine.snapshot());
  return out.str();
}

EngineMaker plain_engines() {
  return [](EngineSnapshot s) { return std::make_unique<Engine>(std::move(s)); };
}

StagePlan plan_to(long end_step) {
  StagePlan plan;
  plan.end_step = end_step;
  plan.frame_every = 10;
  return plan;
}

// Records the points it is called at, and asks for a stop at one step.
class Recorder final : public RunObserver {
 public:
  explicit Recorder(RunDriver& driver, long stop_at = -1) : driver_(driver), stop_at_(stop_at) {}
  void started(const RunPoint& at) override { seen.push_back("started " + std::to_string(at.step)); }
  void stepped(const RunPoint& at) override {
    ++steps;
    if (at.step == stop_at_) driver_.request_stop(SIGTERM);
  }
  void stopping(const RunPoint& at) override { seen.push_back("stopping " + std::to_string(at.step)); }
  void finished(const RunPoint& at) override {
    seen.push_back("finished " + std::to_string(at.step) + (at.last_stage ? " last" : ""));
  }
  std::vector<std::string> seen;
  long steps = 0;

 private:
  RunDriver& driver_;
  long stop_at_;
};

TEST(RunDriver, CallsItsObserversAtTheirPoints) {
  SerialRun run(soft_engine(), plain_engines());
  RunDriver driver(run, {plan_to(30)});
  Recorder recorder(driver);
  driver.observe(recorder);
  driver.start();
  EXPECT_EQ(driver.run_until(12).ending, RunOutcome::Ending::finished);
  EXPECT_EQ(run.step_count(), 12);
  EXPECT_EQ(driver.run().ending, RunOutcome::Ending::finished);
  EXPECT_EQ(run.step_count(), 30);
  EXPECT_EQ(recorder.steps, 30);
  EXPECT_EQ(recorder.seen, (std::vector<std::string>{"started 0", "finished 12 last", "finished 30 last"}));
}

TEST(RunDriver, StopsAfterTheStepARequestComesIn) {
  SerialRun run(soft_engine(), plain_engines());
  RunDriver driver(run, {plan_to(30)});
  Recorder recorder(driver, 7);
  driver.observe(recorder);
  const RunOutcome outcome = driver.run();
  EXPECT_EQ(outcome.ending, RunOutcome::Ending::stopped);
  EXPECT_EQ(outcome.signal, SIGTERM);
  EXPECT_EQ(run.step_count(), 7);
  EXPECT_EQ(recorder.seen, (std::vector<std::string>{"stopping 7"}));
  // A new call goes on: the request was for that run.
  EXPECT_EQ(driver.run().ending, RunOutcome::Ending::finished);
  EXPECT_EQ(run.step_count(), 30);
}

TEST(SerialRun, AnInterruptedStepRollsBackToItsStartBitForBit) {
  std::unique_ptr<Engine> engine = rigid_engine();
  for (int k = 0; k < 400; ++k) engine->step();
  ASSERT_GT(engine->collision_stats().group_programs, 0);
  const std::string start = bytes_of(*engine);
  const Engine reference_start(engine->snapshot());
  // Every step counts as slow: each keeps its start and may be interrupted.
  SerialRun run(std::move(engine), plain_engines(), 0.0);
  run.step();  // times a step: the next one is slow
  const std::string one_step = bytes_of(run.engine());
  const Vec2* positions = run.engine().world().position.data();
  request_stop(SIGINT);
  EXPECT_THROW(run.step(), Interrupted);
  clear_stop_request();
  EXPECT_TRUE(bytes_of(run.engine()) == one_step) << "the interrupted step left the state part-stepped";
  EXPECT_EQ(run.engine().world().position.data(), positions) << "the rollback moved the world's arrays";
  for (int k = 0; k < 20; ++k) run.step();
  Engine reference(reference_start.snapshot());
  for (int k = 0; k < 21; ++k) reference.step();
  EXPECT_TRUE(bytes_of(run.engine()) == bytes_of(reference)) << "the run after a rollback differs from a straight one";
  EXPECT_FALSE(bytes_of(run.engine()) == start);
}

TEST(RunDriver, AnInterruptedStepStopsTheRunAtItsStart) {
  std::unique_ptr<Engine> engine = rigid_engine();
  for (int k = 0; k < 400; ++k) engine->step();
  ASSERT_GT(engine->collision_stats().group_programs, 0);
  SerialRun run(std::move(engine), plain_engines(), 0.0);
  run.step();
  RunDriver driver(run, {plan_to(1000)});
  Recorder recorder(driver);
  driver.observe(recorder);
  request_stop(SIGINT);
  const RunOutcome outcome = driver.run();
  clear_stop_request();
  EXPECT_EQ(outcome.ending, RunOutcome::Ending::stopped);
  EXPECT_EQ(outcome.signal, SIGINT);
  EXPECT_EQ(run.step_count(), 401);
  EXPECT_EQ(recorder.steps, 0);
  EXPECT_EQ(recorder.seen, (std::vector<std::string>{"stopping 401"}));
}

}  // namespace
}  // namespace sphero
