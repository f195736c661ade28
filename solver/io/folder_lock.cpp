#include "io/folder_lock.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <cstring>
#include <ctime>
#include <fstream>
#include <sstream>

namespace sphero {
namespace {

namespace fs = std::filesystem;

std::string now_utc() {
  const std::time_t t = std::time(nullptr);
  std::tm utc{};
  gmtime_r(&t, &utc);
  char text[32];
  std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", &utc);
  return text;
}

std::string lock_text(const std::string& command) {
  std::ostringstream out;
  out << "sphero-lock 1\nprocess " << getpid() << "\nhost " << this_host() << "\ncommand " << command << "\nsince "
      << now_utc() << "\n";
  return out.str();
}

// Creates the lock file, whole, only where none is: true if this call
// made it. Written under a name of this process's first, then linked to
// the lock's name (link fails where that exists), so that no other
// process ever reads a lock half written.
bool create_exclusively(const fs::path& file, const std::string& text) {
  const fs::path mine = file.string() + "." + std::to_string(getpid()) + ".tmp";
  const int fd = ::open(mine.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0)
    throw std::runtime_error("cannot create " + mine.string() + ": " + std::strerror(errno) +
                             "; is the folder writable?");
  const ssize_t written = ::write(fd, text.data(), text.size());
  ::close(fd);
  if (written != static_cast<ssize_t>(text.size())) {
    ::unlink(mine.c_str());
    throw std::runtime_error("cannot write " + mine.string() + " (disk full?)");
  }
  const int linked = ::link(mine.c_str(), file.c_str());
  const int error = errno;
  ::unlink(mine.c_str());
  if (linked == 0) return true;
  if (error == EEXIST) return false;
  throw std::runtime_error("cannot create " + file.string() + ": " + std::strerror(error));
}

// Whether process `pid` of this host still runs (one we may not signal
// runs too).
bool runs(long pid) { return pid > 0 && (::kill(static_cast<pid_t>(pid), 0) == 0 || errno == EPERM); }

std::string describe(const LockHolder& h) {
  return h.command + ", process " + std::to_string(h.process) + " on " +
         (h.host == this_host() ? std::string("this host") : "host '" + h.host + "'") + ", since " + h.since;
}

// Moves a dead or foreign holder's lock aside, if it is still the one read
// (another process may have taken it over meanwhile); true if moved.
bool set_aside(const fs::path& file, const LockHolder& holder) {
  const fs::path aside = file.string() + ".taken-over-" + std::to_string(getpid());
  if (::rename(file.c_str(), aside.c_str()) != 0) return false;  // gone: someone else took it
  LockHolder moved;
  try {
    moved = read_lock(aside);
  } catch (const std::runtime_error&) {
  }
  if (moved.process != holder.process || moved.host != holder.host) {
    // A fresh claim made meanwhile: put it back where it was.
    (void)::link(aside.c_str(), file.c_str());
    ::unlink(aside.c_str());
    return false;
  }
  ::unlink(aside.c_str());
  return true;
}

}  // namespace

std::string this_host() {
  char name[256] = {};
  if (::gethostname(name, sizeof name - 1) != 0) return "unknown";
  return name;
}

LockHolder read_lock(const fs::path& file) {
  std::ifstream in(file);
  std::string line;
  if (!std::getline(in, line) || line != "sphero-lock 1")
    throw std::runtime_error(file.string() + ": not a Sphero folder lock");
  LockHolder h;
  while (std::getline(in, line)) {
    const auto space = line.find(' ');
    const std::string key = line.substr(0, space), value = space == std::string::npos ? "" : line.substr(space + 1);
    if (key == "process") h.process = std::strtol(value.c_str(), nullptr, 10);
    if (key == "host") h.host = value;
    if (key == "command") h.command = value;
    if (key == "since") h.since = value;
  }
  if (h.process <= 0 || h.host.empty())
    throw std::runtime_error(file.string() + ": a folder lock without its process and host");
  return h;
}

FolderLock FolderLock::claim(const fs::path& folder, const std::string& command, bool take_over_foreign,
                             const std::function<void(const std::string&)>& notice, bool join_own) {
  const fs::path file = folder / kFolderLockName;
  const std::string text = lock_text(command);
  // A few rounds: a holder may end, or another claimant win, between looks.
  for (int round = 0; round < 8; ++round) {
    if (create_exclusively(file, text)) return FolderLock(file);
    LockHolder holder;
    try {
      holder = read_lock(file);
    } catch (const std::runtime_error& e) {
      if (!fs::exists(file)) continue;  // released meanwhile
      throw FolderBusy(std::string(e.what()) + ": remove it if no Sphero command writes into '" + folder.string() +
                       "'");
    }
    const bool here = holder.host == this_host();
    if (join_own && here && holder.process == getpid()) return FolderLock({});
    if (here && runs(holder.process))
      throw FolderBusy("the folder '" + folder.string() + "' is in use by " + describe(holder) +
                       ": wait for it to end, or write into another folder");
    if (!here && !take_over_foreign)
      throw FolderBusy("the folder '" + folder.string() + "' is claimed by " + describe(holder) +
                       ", which this host cannot check: if that process has ended, pass --take-over to take the "
                       "folder over (nothing in it is deleted)");
    if (set_aside(file, holder) && notice)
      notice("taking over '" + folder.string() + "' from " + describe(holder) +
             (here ? ", which no longer runs" : ", on your word (--take-over)"));
  }
  throw FolderBusy("the folder '" + folder.string() + "' keeps being claimed by other processes; try again");
}

FolderLock::FolderLock(FolderLock&& other) noexcept : file_(std::move(other.file_)) { other.file_.clear(); }

FolderLock& FolderLock::operator=(FolderLock&& other) noexcept {
  if (this != &other) {
    release();
    file_ = std::move(other.file_);
    other.file_.clear();
  }
  return *this;
}

FolderLock::~FolderLock() { release(); }

void FolderLock::release() {
  if (file_.empty()) return;
  try {  // only our own: a user may have handed the folder to another host's run (--take-over)
    const LockHolder holder = read_lock(file_);
    if (holder.process == getpid() && holder.host == this_host()) ::unlink(file_.c_str());
  } catch (const std::runtime_error&) {
  }
  file_.clear();
}

}  // namespace sphero
