// A request to stop a run early: SIGINT or SIGTERM to the program, or
// Ctrl-C in Python. The run driver looks at it after every step, so that a
// run stops with a state it can continue from.
#pragma once

#include <csignal>

namespace sphero {

// Records `signal` (nonzero); safe inside a signal handler.
void request_stop(int signal);
// The signal that asked the run to stop, 0 for none.
int stop_requested();
void clear_stop_request();
// SIGINT and SIGTERM request a stop from now on.
void stop_on_signals();
// The flag itself, for the engine's checks inside a step.
const volatile int* stop_flag();

// While it lives, SIGINT requests a stop (the request cleared first); the
// handler before, with all its flags, is restored after (Python's, around
// a run).
class StopOnInterrupt {
 public:
  StopOnInterrupt();
  ~StopOnInterrupt();
  StopOnInterrupt(const StopOnInterrupt&) = delete;
  StopOnInterrupt& operator=(const StopOnInterrupt&) = delete;

 private:
  struct sigaction previous_;
};

}  // namespace sphero
