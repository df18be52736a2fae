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

  /// Holds the gate for one child, beside others or alone, until it goes out of scope.
  class Turn {
   public:
    Turn(RunGate& g, bool alone) : g_(g), alone_(alone) {
      alone ? g_.enterAlone() : g_.enterShared();
    }
    ~Turn() { alone_ ? g_.leaveAlone() : g_.leaveShared(); }
    Turn(const Turn&) = delete;
    Turn& operator=(const Turn&) = delete;

   private:
    RunGate& g_;
    bool alone_;
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
