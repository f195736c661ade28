#include "run/stop_request.h"

#include <csignal>

namespace sphero {
namespace {

// sig_atomic_t is the one type a handler may write; it is an int here.
volatile std::sig_atomic_t g_stop = 0;

extern "C" void remember_signal(int signal) { g_stop = signal; }

}  // namespace

void request_stop(int signal) { g_stop = signal; }
int stop_requested() { return g_stop; }
void clear_stop_request() { g_stop = 0; }
const volatile int* stop_flag() { return &g_stop; }

StopOnInterrupt::StopOnInterrupt() {
  clear_stop_request();
  struct sigaction ours {};
  ours.sa_handler = remember_signal;
  sigemptyset(&ours.sa_mask);
  sigaction(SIGINT, &ours, &previous_);
}

StopOnInterrupt::~StopOnInterrupt() { sigaction(SIGINT, &previous_, nullptr); }

void stop_on_signals() {
  std::signal(SIGINT, remember_signal);
  std::signal(SIGTERM, remember_signal);
}

}  // namespace sphero
