// RunGate: shared holders wait for runs alone, which wait for shared holders to leave.
#include "proc/gate.hpp"

namespace clh {

void RunGate::enterShared() {
  std::unique_lock<std::mutex> lock(mutex_);
  cv_.wait(lock, [this] { return !alone_ && alone_waiting_ == 0; });
  ++shared_;
}

void RunGate::leaveShared() {
  std::lock_guard<std::mutex> lock(mutex_);
  --shared_;
  cv_.notify_all();
}

void RunGate::enterAlone() {
  std::unique_lock<std::mutex> lock(mutex_);
  ++alone_waiting_;
  cv_.wait(lock, [this] { return !alone_ && shared_ == 0; });
  --alone_waiting_;
  alone_ = true;
}

void RunGate::leaveAlone() {
  std::lock_guard<std::mutex> lock(mutex_);
  alone_ = false;
  cv_.notify_all();
}

RunGate& processRunGate() {
  static RunGate gate;
  return gate;
}

}  // namespace clh
