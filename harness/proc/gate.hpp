// One gate per process that lets child processes run side by side, and one run alone when it must:
// a timeout is confirmed with nothing else of the same run beside it (docs/grading.md).
#pragma once

#include <condition_variable>
#include <mutex>

namespace clh {

class RunGate {
 public:
  /// Held while a child runs beside others; waits while a run alone is waiting or running.
  void enterShared();
  void leaveShared();
  /// Held while a child runs alone: waits until no shared holder is left, and lets no new one in.
  void enterAlone();
  void leaveAlone();

  /// RAII holders.
  class Shared {
   public:
    explicit Shared(RunGate& g) : g_(g) { g_.enterShared(); }
    ~Shared() { g_.leaveShared(); }
    Shared(const Shared&) = delete;
    Shared& operator=(const Shared&) = delete;

   private:
    RunGate& g_;
  };
  class Alone {
   public:
    explicit Alone(RunGate& g) : g_(g) { g_.enterAlone(); }
    ~Alone() { g_.leaveAlone(); }
    Alone(const Alone&) = delete;
    Alone& operator=(const Alone&) = delete;

   private:
    RunGate& g_;
  };

 private:
  std::mutex mutex_;
  std::condition_variable cv_;
  int shared_ = 0;
  int alone_waiting_ = 0;
  bool alone_ = false;
};

/// The gate every family of this process uses (units, launch families, grading children).
RunGate& processRunGate();

}  // namespace clh
