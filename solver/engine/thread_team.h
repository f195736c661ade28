#pragma once
// The threads the engine's parallel passes run on.
//
// A step makes several passes over bodies and candidates, each one shared
// out and joined again, so a hand-off must cost well under a microsecond:
// OpenMP's runtime wakes its threads with a system call every time. Here
// the members wait for the next job by watching a shared counter, and go
// to sleep only when no job has come for a while.
//
// Results never depend on how many members a job gets: the callers split
// their work into units fixed by the requested thread count or by size,
// never by the team, so a job that finds the team busy (another engine on
// another thread, or a job started from inside a job) simply runs alone.

#include <algorithm>
#include <cstddef>
#include <thread>
#include <utility>

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#endif

namespace sphero {

class ThreadTeam {
 public:
  // The most members one job gets; results do not depend on it.
  static constexpr int kMaxMembers = 64;

  // Calls job(member, members) once for each member = 0 … members − 1,
  // member 0 on the calling thread, and returns when all calls have;
  // members ≤ threads (fewer when the team is busy). An exception thrown
  // by a call is rethrown here, after the others have finished.
  template <class Job>
  static void run(int threads, Job&& job) {
    if (threads <= 1) {
      job(0, 1);
      return;
    }
    run_erased(
        threads, [](void* context, int member, int members) { (*static_cast<Job*>(context))(member, members); }, &job);
  }

  // Calls body(i) for every i in [0, count), one contiguous part per
  // member.
  template <class Body>
  static void for_each(int threads, std::size_t count, Body&& body) {
    run(members_for(threads, count), [&](int member, int members) {
      const auto [begin, end] = part(count, member, members);
      for (std::size_t i = begin; i < end; ++i) body(i);
    });
  }

  // The best of value(i) over [0, count) by better(a, b) ("a beats b":
  // std::greater<> for the largest), starting from `start`.
  template <class T, class Value, class Better>
  static T reduce(int threads, std::size_t count, T start, Value&& value, Better&& better) {
    const int parts = members_for(threads, count);
    const auto bound = [&](int p) { return count * static_cast<std::size_t>(p) / static_cast<std::size_t>(parts); };
    return reduce_parts(parts, bound, start, value, better);
  }

  // The same over the parts [bound(p), bound(p + 1)), p = 0 … parts − 1. A
  // member takes parts member, member + members, …: with the whole team
  // there, part p is member p's at every call, and so are its data in
  // that member's cache.
  template <class T, class Bound, class Value, class Better>
  static T reduce_parts(int parts, Bound&& bound, T start, Value&& value, Better&& better) {
    struct alignas(64) Slot {
      T value;
    };
    Slot slots[kMaxMembers];
    int used = 1;
    slots[0].value = start;
    run(parts, [&](int member, int members) {
      if (member == 0) used = members;
      T mine = start;
      for (int p = member; p < parts; p += members)
        for (std::size_t i = bound(p), end = bound(p + 1); i < end; ++i) {
          const T v = value(i);
          if (better(v, mine)) mine = v;
        }
      slots[member].value = mine;
    });
    T result = start;
    for (int m = 0; m < used; ++m)
      if (better(slots[m].value, result)) result = slots[m].value;
    return result;
  }

  // The hint a thread gives while it spins on a counter another core
  // will change (PAUSE on x86; elsewhere a yield).
  static void pause() {
#if defined(__x86_64__) || defined(__i386__)
    _mm_pause();
#else
    std::this_thread::yield();
#endif
  }

  // The cores this process may run on (its CPU affinity where the system
  // tells it, else the machine's count), at least 1.
  static int usable_cores();

  // Wall time the calling thread has spent in jobs shared among two or
  // more members, since it started: the rest of its time ran on it alone
  // (what limits the speed-up on many cores, docs/PERFORMANCE.md).
  static double seconds_in_shared_jobs();
  // Of that time, how long the members waited on average, idle within a
  // job: for the job to reach them (the hand-off) and for the slowest of
  // them (an uneven split).
  static double seconds_waiting_in_shared_jobs();

  // [begin, end) of member's share of count items.
  static std::pair<std::size_t, std::size_t> part(std::size_t count, int member, int members) {
    return {count * static_cast<std::size_t>(member) / static_cast<std::size_t>(members),
            count * static_cast<std::size_t>(member + 1) / static_cast<std::size_t>(members)};
  }

 private:
  // No more members than items.
  static int members_for(int threads, std::size_t count) {
    return count < static_cast<std::size_t>(std::max(threads, 1)) ? static_cast<int>(std::max<std::size_t>(count, 1))
                                                                  : std::max(threads, 1);
  }
  static void run_erased(int threads, void (*call)(void*, int, int), void* context);
};

}  // namespace sphero
