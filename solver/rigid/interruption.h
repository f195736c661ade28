// A long computation given up on request (a run asked to stop): the
// program it belonged to is abandoned, and the caller rolls the step back
// to its start (run/serial_run.h), so the state stays exact.
#pragma once

#include <stdexcept>

namespace sphero {

class Interrupted : public std::runtime_error {
 public:
  Interrupted() : std::runtime_error("interrupted by a request to stop") {}
};

// `flag`, where given, is read between iterations: nonzero gives up.
inline void give_up_if_asked(const volatile int* flag) {
  if (flag && *flag) throw Interrupted();
}

}  // namespace sphero
