// Claimed folders (io/folder_lock.h): one claim at a time, a dead
// process's lock taken over, another host's refused unless taken over on
// the user's word, this process's own shared when asked.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "io/folder_lock.h"

namespace sphero {
namespace {

namespace fs = std::filesystem;

fs::path fresh_folder() {
  const fs::path dir = fs::temp_directory_path() /
                       ("sphero_lock_" + std::string(::testing::UnitTest::GetInstance()->current_test_info()->name()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir;
}

void write_lock(const fs::path& dir, long process, const std::string& host) {
  std::ofstream(dir / kFolderLockName) << "sphero-lock 1\nprocess " << process << "\nhost " << host
                                       << "\ncommand sphero run\nsince 2026-12-01T10:00:00Z\n";
}

std::string refusal(const fs::path& dir, bool take_over = false) {
  try {
    FolderLock::claim(dir, "sphero run", take_over, {});
  } catch (const FolderBusy& e) {
    return e.what();
  }
  return "";
}

TEST(FolderLock, OneClaimAtATime) {
  const fs::path dir = fresh_folder();
  {
    FolderLock claim = FolderLock::claim(dir, "sphero run", false, {});
    const LockHolder holder = read_lock(dir / kFolderLockName);
    EXPECT_EQ(holder.process, ::getpid());
    EXPECT_EQ(holder.host, this_host());
    EXPECT_EQ(holder.command, "sphero run");
    const std::string said = refusal(dir);
    EXPECT_NE(said.find("is in use by sphero run, process " + std::to_string(::getpid()) + " on this host"),
              std::string::npos)
        << said;
    // Python analysing its own simulation's output shares the claim.
    { const FolderLock shared = FolderLock::claim(dir, "sphero analyze", false, {}, true); }
    EXPECT_TRUE(fs::exists(dir / kFolderLockName));
  }
  EXPECT_FALSE(fs::exists(dir / kFolderLockName));  // released with the claim
  fs::remove_all(dir);
}

TEST(FolderLock, ADeadProcesssLockIsTakenOverAndSaidSo) {
  const fs::path dir = fresh_folder();
  const pid_t child = ::fork();
  if (child == 0) ::_exit(0);
  ASSERT_GT(child, 0);
  int status = 0;
  ::waitpid(child, &status, 0);  // a process of this host that has ended
  write_lock(dir, child, this_host());
  std::ofstream(dir / "energy.csv") << "time_s\n";
  std::string heard;
  {
    const FolderLock claim =
        FolderLock::claim(dir, "sphero run", false, [&](const std::string& notice) { heard = notice; });
    EXPECT_EQ(read_lock(dir / kFolderLockName).process, ::getpid());
  }
  EXPECT_NE(heard.find("process " + std::to_string(child) + " on this host"), std::string::npos) << heard;
  EXPECT_NE(heard.find("which no longer runs"), std::string::npos) << heard;
  EXPECT_TRUE(fs::exists(dir / "energy.csv"));  // nothing else touched
  EXPECT_EQ(std::distance(fs::directory_iterator(dir), fs::directory_iterator{}), 1);
  fs::remove_all(dir);
}

TEST(FolderLock, AnotherHostsLockIsRefusedUnlessTakenOver) {
  const fs::path dir = fresh_folder();
  write_lock(dir, 4242, "elsewhere.example");
  const std::string said = refusal(dir);
  EXPECT_NE(said.find("claimed by sphero run, process 4242 on host 'elsewhere.example'"), std::string::npos) << said;
  EXPECT_NE(said.find("pass --take-over"), std::string::npos) << said;
  EXPECT_EQ(read_lock(dir / kFolderLockName).host, "elsewhere.example");  // left as it was
  std::string heard;
  {
    const FolderLock claim =
        FolderLock::claim(dir, "sphero run", true, [&](const std::string& notice) { heard = notice; });
    EXPECT_EQ(read_lock(dir / kFolderLockName).process, ::getpid());
  }
  EXPECT_NE(heard.find("on your word (--take-over)"), std::string::npos) << heard;
  fs::remove_all(dir);
}

TEST(FolderLock, AFileThatIsNoLockIsNamed) {
  const fs::path dir = fresh_folder();
  std::ofstream(dir / kFolderLockName) << "something else\n";
  const std::string said = refusal(dir);
  EXPECT_NE(said.find("not a Sphero folder lock: remove it if no Sphero command writes into"), std::string::npos)
      << said;
  fs::remove_all(dir);
}

}  // namespace
}  // namespace sphero
