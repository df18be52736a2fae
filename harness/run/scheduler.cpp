// The thread pool of a check run (run/scheduler.hpp).
#include "run/scheduler.hpp"

#include <chrono>
#include <condition_variable>
#include <map>
#include <mutex>
#include <thread>
#include <vector>

namespace clh {

void runTasks(const TaskPool& pool, const std::function<void(size_t task)>& run) {
  std::vector<bool> started(pool.tasks, false);
  std::map<size_t, int> busy;
  std::mutex m;
  std::condition_variable cv;
  size_t remaining = pool.tasks;
  auto worker = [&] {
    for (;;) {
      size_t t = pool.tasks;
      {
        std::unique_lock<std::mutex> lock(m);
        const auto pick = [&] {
          if (remaining == 0 || (pool.stop && pool.stop())) return true;
          for (size_t k = 0; k < pool.tasks; ++k) {
            const size_t i = pool.order.empty() ? k : pool.order[k];
            const size_t r = pool.resource_of(i);
            const size_t cap = pool.capacity ? pool.capacity(r) : 0;
            if (!started[i] && (cap == 0 || static_cast<size_t>(busy[r]) < cap) &&
                (!pool.ready || pool.ready(i))) {
              t = i;
              return true;
            }
          }
          return false;
        };
        if (pool.ready)  // what a held task waits for may come without a task's end
          while (!pick()) cv.wait_for(lock, std::chrono::milliseconds(20));
        else
          cv.wait(lock, pick);
        if (t == pool.tasks) return;
        started[t] = true;
        --remaining;
        ++busy[pool.resource_of(t)];
      }
      run(t);
      {
        std::lock_guard<std::mutex> lock(m);
        --busy[pool.resource_of(t)];
      }
      cv.notify_all();
    }
  };
  std::vector<std::thread> threads;
  for (size_t i = 1; i < pool.jobs; ++i) threads.emplace_back(worker);
  worker();
  for (auto& th : threads) th.join();
}

}  // namespace clh
