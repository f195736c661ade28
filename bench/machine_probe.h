#pragma once
// What the machine itself allows two threads, measured beside the
// benchmark's timings: on this project's reference VM the cost of handing a
// cache line from one core to the other swings from ~60 ns to ~500 ns
// between minutes, and with it the two-thread speed-up of small scenes.

namespace sphero::bench {

// The median, over a few batches, of the time for a cache line to go from
// one thread to another and back (two threads passing a counter to and
// fro, each spinning on it), in nanoseconds; NaN on a single core.
double core_round_trip_ns();

}  // namespace sphero::bench
