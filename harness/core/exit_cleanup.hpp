// What a process of the tool undoes when SIGINT, SIGTERM or SIGHUP ends it: its private folders
// are removed and its child process groups killed (a child runs in a group of its own, so the
// terminal's Ctrl-C and a `timeout` reach only the parent).
#pragma once

#include <sys/types.h>

#include <string>
#include <vector>

namespace clh {

/// Removes `files` and then the folder `dir` if this process is ended by SIGINT, SIGTERM or
/// SIGHUP (the signal's default action follows, so the exit status still says which). Installs
/// the handlers on first use. At most 8 folders and 64 files in all; further ones are ignored.
void removeOnSignal(const std::vector<std::string>& files, const std::string& dir);

/// Removes what removeOnSignal() registered, now, with unlink and rmdir alone: no allocation, so
/// it is safe at exit even after a driver has left the heap in a state a malloc would abort on.
void removeRegisteredPaths();

/// The process group `pgid` of a running child is killed (SIGKILL) if this process is ended by
/// one of those signals; forgetChildGroup when the child is reaped. Safe from several threads.
void killOnSignal(pid_t pgid);
void forgetChildGroup(pid_t pgid);

}  // namespace clh
