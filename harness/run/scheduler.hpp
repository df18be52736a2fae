// Runs a check's tasks on a pool of threads, each waiting on its own child processes; a device
// takes at most its own number of tasks at a time (a GPU one: its timings and memory stay one
// unit's).
#pragma once

#include <cstddef>
#include <functional>
#include <vector>

namespace clh {

struct TaskPool {
  size_t tasks = 0;
  size_t jobs = 1;  ///< threads, the caller's included
  /// The resource (device) a task uses, and how many tasks that resource takes at a time (0: any
  /// number; no function: any number for every resource).
  std::function<size_t(size_t task)> resource_of;
  std::function<size_t(size_t resource)> capacity;
  /// The order tasks are handed out in, a permutation of 0..tasks-1; empty: task order.
  std::vector<size_t> order;
  /// Checked before each task is handed out: true stops handing out more (an interrupt).
  std::function<bool()> stop;
  /// Whether a task may start yet (a unit that waits for its device's programs to be compiled
  /// ahead); asked again each time a task ends and every 20 ms, so what it waits for may come from
  /// a running task. No function: every task may start.
  std::function<bool(size_t task)> ready;
};

/// Runs `run(task)` for every task, in `order` as far as the resources allow; returns when
/// every task handed out has ended.
void runTasks(const TaskPool& pool, const std::function<void(size_t task)>& run);

}  // namespace clh
