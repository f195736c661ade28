#include "run/frame_writer.h"

namespace sphero {

FrameWriter::FrameWriter(RunOutput& output, bool background) : output_(output) {
  if (background) thread_ = std::thread([this] { work(); });
}

FrameWriter::~FrameWriter() {
  {
    const std::lock_guard<std::mutex> lock(mutex_);
    quit_ = true;
  }
  changed_.notify_all();
  if (thread_.joinable()) thread_.join();
}

void FrameWriter::write(const Engine& engine, const EngineSnapshot& snapshot) {
  if (!thread_.joinable()) {
    output_.write_frame(engine, snapshot.ledger);  // its exact sums, taken once
    return;
  }
  std::unique_lock<std::mutex> lock(mutex_);
  changed_.wait(lock, [&] { return !waiting_ || failure_; });
  if (failure_) std::rethrow_exception(failure_);
  waiting_ = snapshot;
  changed_.notify_all();
}

void FrameWriter::flush() {
  if (!thread_.joinable()) return;
  std::unique_lock<std::mutex> lock(mutex_);
  changed_.wait(lock, [&] { return (!waiting_ && !busy_) || failure_; });
  if (failure_) std::rethrow_exception(failure_);
}

void FrameWriter::work() {
  std::unique_lock<std::mutex> lock(mutex_);
  for (;;) {
    changed_.wait(lock, [&] { return waiting_ || quit_; });
    if (!waiting_) return;
    EngineSnapshot state = std::move(*waiting_);
    waiting_.reset();
    busy_ = true;
    lock.unlock();
    std::exception_ptr failure;
    try {
      const EnergyLedger ledger = state.ledger;
      const Engine copy(std::move(state));
      output_.write_frame(copy, ledger);
    } catch (...) {
      failure = std::current_exception();
    }
    lock.lock();
    busy_ = false;
    if (failure) {
      failure_ = failure;
      waiting_.reset();  // nothing after a frame that could not be written
    }
    changed_.notify_all();
  }
}

}  // namespace sphero
