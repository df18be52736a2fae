// The temporary folders of one run, named by its process id: held by a lock while the run lives,
// and removed by a later run once the process is gone (a run killed by SIGKILL cannot clean up).
#pragma once

#include <string>

namespace clh {

/// Locks `dir` (flock on a descriptor kept open, close-on-exec, until this process ends), so that
/// a later run's removeStaleRunFolders never takes it for a dead run's, even where process ids
/// are not comparable (another PID namespace). Call right after making the folder.
void holdRunFolder(const std::string& dir);

/// Removes the folders under `base` that runs of the tool name by their process —
/// `clharness-PID` (check's scratch), `clharness-grade-PID` (a grading replay's scratch) and
/// `clharness-icd-PID-XXXXXX` (the private ICD folder) — whose process is gone and whose lock
/// nobody holds. A live run's folder is never touched, nor any other name.
void removeStaleRunFolders(const std::string& base);

/// The process id a run folder's name gives (as above), or 0 when the name is not one of them.
long runFolderOwner(const std::string& name);

}  // namespace clh
