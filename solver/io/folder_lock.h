// A claim on an output folder, so that two writers never share one: a
// lock file made whole and then linked into place (atomic like O_EXCL: of
// two processes creating it at once, one wins, and none reads it half
// written) holding the claiming process, its host, what it is and when it
// began; removed when the claim ends. A lock left by a process of
// this host that no longer runs (a run killed or crashed) is reported and
// taken over, nothing else touched; one from another host, whose process
// cannot be checked, is refused naming it, unless the caller takes it
// over on the user's word.
#pragma once

#include <filesystem>
#include <functional>
#include <stdexcept>
#include <string>

namespace sphero {

// The lock file's name in a claimed folder.
inline constexpr const char* kFolderLockName = ".sphero.lock";

// A folder claimed by another writer.
class FolderBusy : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Who holds a lock, as its file says.
struct LockHolder {
  long process = 0;
  std::string host, command, since;
};

class FolderLock {
 public:
  // Claims `folder` (which exists) for `command` ("sphero run", ...).
  // Throws FolderBusy naming the folder, the holder and what to do where a
  // running process of this host holds it, or a process of another host
  // (unless `take_over_foreign`); `notice` hears of a lock taken over.
  // With `join_own`, a folder this very process holds is shared (Python
  // analysing the output its own simulation writes), the claim then
  // holding nothing.
  static FolderLock claim(const std::filesystem::path& folder, const std::string& command, bool take_over_foreign,
                          const std::function<void(const std::string&)>& notice, bool join_own = false);
  FolderLock(FolderLock&& other) noexcept;
  FolderLock& operator=(FolderLock&& other) noexcept;
  FolderLock(const FolderLock&) = delete;
  FolderLock& operator=(const FolderLock&) = delete;
  ~FolderLock();
  // Ends the claim now (removes the lock file).
  void release();
  const std::filesystem::path& file() const { return file_; }

 private:
  explicit FolderLock(std::filesystem::path file) : file_(std::move(file)) {}
  std::filesystem::path file_;  // empty once released or moved from
};

// The holder a lock file names; throws std::runtime_error on a file that is
// no lock of ours.
LockHolder read_lock(const std::filesystem::path& file);
// This host's name.
std::string this_host();

}  // namespace sphero
