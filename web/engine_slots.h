// Admission for engine searches: at most n at once (one per core by default), so that a level's time
// limit holds from the player's request. A request that waited for a slot searches for the time that is
// left; one that cannot start in time is answered "busy" instead of waiting past the limit.
#pragma once
#include <chrono>
#include <condition_variable>
#include <mutex>

namespace jz {

class EngineSlots {
 public:
  using Clock = std::chrono::steady_clock;
  explicit EngineSlots(int n) : free_(n > 0 ? n : 1) {}
  // True once a slot is held (give it back with release()); false if none came free by the deadline.
  bool acquire_until(Clock::time_point deadline) {
    std::unique_lock<std::mutex> lock(mutex_);
    if (!freed_.wait_until(lock, deadline, [&] { return free_ > 0; })) return false;
    --free_;
    return true;
  }
  void release() {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      ++free_;
    }
    freed_.notify_one();
  }

 private:
  std::mutex mutex_;
  std::condition_variable freed_;
  int free_;
};

}  // namespace jz
