#include "thread_team.h"

#include <atomic>
#include <chrono>
#include <cstdint>
#include <exception>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

#if defined(__linux__)
#include <sched.h>
#endif

namespace sphero {

namespace {

// How long a member watches the counter for the next job before it
// sleeps: far longer than the serial stretches inside a step (a few µs),
// far shorter than anything a person would see as a busy core.
constexpr auto kSpin = std::chrono::microseconds(200);

// The calling thread's time in shared jobs, and the members' mean wait
// within them (ThreadTeam::seconds_in_shared_jobs, seconds_waiting_in_shared_jobs).
thread_local double shared_job_seconds = 0.0;
thread_local double shared_job_wait_seconds = 0.0;

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

class Team {
 public:
  static Team& instance() {
    static Team team;
    return team;
  }

  void run(int threads, void (*call)(void*, int, int), void* context) {
    std::unique_lock<std::mutex> mine(busy_, std::try_to_lock);
    if (!mine.owns_lock()) {  // another job is running: this one runs alone
      call(context, 0, 1);
      return;
    }
    const auto started = std::chrono::steady_clock::now();
    const int members = std::min(threads, ThreadTeam::kMaxMembers);
    while (static_cast<int>(workers_.size()) < members - 1) workers_.push_back(std::make_unique<Worker>(*this));
    // More members than cores: a member must not spin while another waits
    // for its core.
    const bool spin = members <= cores_;
    call_ = call;
    context_ = context;
    members_ = members;
    failure_ = nullptr;
    pending_.store(members - 1, std::memory_order_relaxed);
    for (int m = 1; m < members; ++m) workers_[static_cast<std::size_t>(m - 1)]->start(spin);
    std::exception_ptr own;
    const auto own_start = std::chrono::steady_clock::now();
    try {
      call(context, 0, members);
    } catch (...) {
      own = std::current_exception();
    }
    double busy = seconds_since(own_start);
    for (long k = 0; pending_.load(std::memory_order_acquire) != 0; ++k)
      if (spin && k < (1L << 22)) ThreadTeam::pause();
      else std::this_thread::yield();
    const double job = seconds_since(started);
    for (int m = 1; m < members; ++m) busy += workers_[static_cast<std::size_t>(m - 1)]->busy_seconds;
    shared_job_seconds += job;
    shared_job_wait_seconds += job - busy / members;
    if (own) std::rethrow_exception(own);
    if (failure_) std::rethrow_exception(failure_);
  }

  ~Team() {
    quit_.store(true, std::memory_order_seq_cst);
    for (auto& w : workers_) w->start(false);
    for (auto& w : workers_) w->thread.join();
  }

 private:
  // One member besides the caller, with its own counter of jobs handed to
  // it: only the members a job needs are woken, and the job's fields are
  // read only by members the caller then waits for.
  struct alignas(64) Worker {
    std::atomic<std::uint32_t> jobs{0};
    std::atomic<bool> asleep{false};
    std::atomic<bool> spin{true};
    double busy_seconds = 0.0;  // in its last call; read by the caller once the job is done
    std::thread thread;

    explicit Worker(Team& team)
        : thread([this, &team, member = team.workers_.size() + 1] { team.work(*this, static_cast<int>(member)); }) {}

    void start(bool spin_after) {
      spin.store(spin_after, std::memory_order_relaxed);
      jobs.fetch_add(1, std::memory_order_seq_cst);
      // Looked at after the bump; the member says it sleeps before its last
      // look at the counter: one of the two sees the other.
      if (asleep.load(std::memory_order_seq_cst)) jobs.notify_one();
    }

    void wait(std::uint32_t seen) {
      if (spin.load(std::memory_order_relaxed)) {
        const auto until = std::chrono::steady_clock::now() + kSpin;
        for (int k = 0;; ++k) {
          if (jobs.load(std::memory_order_acquire) != seen) return;
          ThreadTeam::pause();
          if ((k & 255) == 255 && std::chrono::steady_clock::now() > until) break;
        }
      }
      asleep.store(true, std::memory_order_seq_cst);
      while (jobs.load(std::memory_order_seq_cst) == seen) jobs.wait(seen, std::memory_order_seq_cst);
      asleep.store(false, std::memory_order_relaxed);
    }
  };

  void work(Worker& self, int member) {
    std::uint32_t seen = 0;
    for (;;) {
      self.wait(seen);
      seen = self.jobs.load(std::memory_order_acquire);
      if (quit_.load(std::memory_order_acquire)) return;
      const auto start = std::chrono::steady_clock::now();
      try {
        call_(context_, member, members_);
      } catch (...) {
        std::lock_guard<std::mutex> lock(failure_lock_);
        if (!failure_) failure_ = std::current_exception();
      }
      self.busy_seconds = seconds_since(start);
      pending_.fetch_sub(1, std::memory_order_acq_rel);
    }
  }

  std::mutex busy_;
  // Asked once (a system call or three).
  const int cores_ = ThreadTeam::usable_cores();
  std::vector<std::unique_ptr<Worker>> workers_;
  alignas(64) std::atomic<int> pending_{0};
  std::atomic<bool> quit_{false};
  // The job: written by run() before it hands the job out (a seq_cst bump
  // of each member's counter) and read by the member after it sees the bump.
  void (*call_)(void*, int, int) = nullptr;
  void* context_ = nullptr;
  int members_ = 0;
  std::mutex failure_lock_;
  std::exception_ptr failure_;
};

}  // namespace

// The cores this process may run on: under taskset, a batch system's
// allocation or a container's CPU set, fewer than the machine has (which
// is what hardware_concurrency counts). Members that spin on a core they
// share wait a scheduler's time slice for each hand-off.
int ThreadTeam::usable_cores() {
#if defined(__linux__)
  cpu_set_t set;
  if (sched_getaffinity(0, sizeof set, &set) == 0) return std::max(1, CPU_COUNT(&set));
#endif
  return static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
}

double ThreadTeam::seconds_in_shared_jobs() { return shared_job_seconds; }
double ThreadTeam::seconds_waiting_in_shared_jobs() { return shared_job_wait_seconds; }

void ThreadTeam::run_erased(int threads, void (*call)(void*, int, int), void* context) {
  Team::instance().run(threads, call, context);
}

}  // namespace sphero
