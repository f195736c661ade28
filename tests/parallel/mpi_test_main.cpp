// GoogleTest under mpirun: every rank runs every test (the engine's calls
// are collective); only rank 0 prints, and the exit status says whether any
// rank failed.
#include <gtest/gtest.h>

#include "parallel/ranks.h"

int main(int argc, char** argv) {
  sphero::MpiRuntime mpi(argc, argv);
  ::testing::InitGoogleTest(&argc, argv);
  const sphero::Ranks ranks;
  if (!ranks.root()) {
    ::testing::TestEventListeners& listeners = ::testing::UnitTest::GetInstance()->listeners();
    delete listeners.Release(listeners.default_result_printer());
  }
  const int failed = RUN_ALL_TESTS();
  return ranks.max(static_cast<double>(failed)) > 0.0 ? 1 : 0;
}
