// The task pool of a check run: every task runs once, and no resource ever holds more tasks at
// once than its capacity, while a resource of no limit takes as many as there are threads; tasks
// start in the order given.
#include "run/scheduler.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <map>
#include <mutex>
#include <vector>

namespace {

// Runs `tasks` tasks, task t on resource t % resources, each holding its thread until as many
// tasks as `want` run on its resource at once (or 300 ms pass); returns the most seen at once per
// resource and how often each task ran.
struct Seen {
  std::map<size_t, int> most;
  std::vector<int> runs;
};

Seen runPool(size_t tasks, size_t resources, size_t jobs, std::function<size_t(size_t)> capacity,
             int want) {
  Seen seen;
  seen.runs.assign(tasks, 0);
  std::map<size_t, int> now;
  std::mutex m;
  std::condition_variable cv;
  clh::TaskPool pool;
  pool.tasks = tasks;
  pool.jobs = jobs;
  pool.resource_of = [&](size_t t) { return t % resources; };
  pool.capacity = std::move(capacity);
  clh::runTasks(pool, [&](size_t t) {
    const size_t r = t % resources;
    std::unique_lock<std::mutex> lock(m);
    ++seen.runs[t];
    seen.most[r] = std::max(seen.most[r], ++now[r]);
    cv.notify_all();
    cv.wait_for(lock, std::chrono::milliseconds(300), [&] { return now[r] >= want; });
    --now[r];
  });
  return seen;
}

TEST(TaskPool, NoResourceHoldsMoreTasksThanItsCapacity) {
  // Resource 0 takes one at a time (a GPU), 1 takes two (a CPU driver), 2 any number.
  const Seen s = runPool(
      24, 3, 6, [](size_t r) -> size_t { return r == 0   ? 1
                                                : r == 1 ? 2
                                                         : 0; }, 3);
  for (size_t t = 0; t < s.runs.size(); ++t) EXPECT_EQ(s.runs[t], 1) << "task " << t;
  EXPECT_EQ(s.most.at(0), 1);
  EXPECT_EQ(s.most.at(1), 2);  // reached, never passed
  EXPECT_EQ(s.most.at(2), 3);  // as many as the tasks waited for
}

TEST(TaskPool, WithoutCapacitiesEveryResourceTakesAsManyAsThereAreThreads) {
  const Seen s = runPool(8, 1, 4, nullptr, 4);
  for (int n : s.runs) EXPECT_EQ(n, 1);
  EXPECT_EQ(s.most.at(0), 4);
}

TEST(TaskPool, OneThreadStartsTasksInTheGivenOrder) {
  clh::TaskPool pool;
  pool.tasks = 5;
  pool.resource_of = [](size_t) { return size_t{0}; };
  pool.order = {3, 0, 4, 1, 2};
  std::vector<size_t> started;
  clh::runTasks(pool, [&](size_t t) { started.push_back(t); });
  EXPECT_EQ(started, pool.order);
  pool.order.clear();
  started.clear();
  clh::runTasks(pool, [&](size_t t) { started.push_back(t); });
  EXPECT_EQ(started, (std::vector<size_t>{0, 1, 2, 3, 4}));
}

// Task 0 compiles ahead for resource 0; tasks 1 and 2 (resource 0) wait for it, task 3 (resource
// 1) does not: 3 runs while 0 does, and 1 and 2 start only after 0 has ended.
TEST(TaskPool, ATaskHeldBackStartsOnlyAfterTheTaskThatReleasesItWhileOthersRunBeside) {
  clh::TaskPool pool;
  pool.tasks = 4;
  pool.jobs = 3;
  pool.resource_of = [](size_t t) { return t == 3 ? size_t{1} : size_t{0}; };
  std::mutex m;
  std::condition_variable cv;
  std::atomic<bool> first_done{false};  // read by the pool's threads without `m`
  bool third_seen = false;
  std::vector<size_t> started_after_first;
  pool.ready = [&](size_t t) { return t == 0 || t == 3 || first_done; };
  clh::runTasks(pool, [&](size_t t) {
    std::unique_lock<std::mutex> lock(m);
    if (t == 0) {  // holds on until task 3 has run beside it
      cv.wait_for(lock, std::chrono::seconds(10), [&] { return third_seen; });
      first_done = true;
      return;
    }
    if (t == 3) {
      third_seen = true;
      cv.notify_all();
      return;
    }
    if (first_done) started_after_first.push_back(t);
  });
  EXPECT_TRUE(third_seen);
  std::sort(started_after_first.begin(), started_after_first.end());
  EXPECT_EQ(started_after_first, (std::vector<size_t>{1, 2}));
}

}  // namespace
