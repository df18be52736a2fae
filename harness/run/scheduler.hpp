// Runs a check's tasks on a pool of threads, each waiting on its own child processes; a device
// that must not be shared (a GPU: its timings and memory stay one unit's) takes one task at a time.
#pragma once

#include <cstddef>
#include <functional>

namespace clh {

struct TaskPool {
  size_t tasks = 0;
  size_t jobs = 1;  ///< threads, the caller's included
  /// The resource (device) a task uses, and whether that resource takes one task at a time.
  std::function<size_t(size_t task)> resource_of;
  std::function<bool(size_t resource)> exclusive;
  /// Checked before each task is handed out: true stops handing out more (an interrupt).
  std::function<bool()> stop;
};

/// Runs `run(task)` for every task, in task order as far as the resources allow; returns when
/// every task handed out has ended.
void runTasks(const TaskPool& pool, const std::function<void(size_t task)>& run);

}  // namespace clh
