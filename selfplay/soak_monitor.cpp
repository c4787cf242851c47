#include "selfplay/soak_monitor.h"

#include <algorithm>
#include <chrono>
#include "util/log.h"

namespace jz {

std::vector<StallEvent> StallDetector::observe(double now, const std::vector<uint64_t>& progress) {
  std::vector<StallEvent> events;
  // Workers seen for the first time start their clock now: no progress is owed before the first reading.
  for (size_t i = workers_.size(); i < progress.size(); ++i) workers_.push_back(Worker{progress[i], now, -1});
  for (size_t i = 0; i < progress.size(); ++i) {
    Worker& w = workers_[i];
    if (progress[i] != w.value) {
      w.value = progress[i];
      if (w.open >= 0) {
        StallEvent& s = stalls_[size_t(w.open)];
        s.duration = now - s.start;
        s.ended = true;
        events.push_back(s);
        w.open = -1;
      }
      w.last_change = now;
    } else if (w.open < 0 && now - w.last_change > threshold_) {
      w.open = int(stalls_.size());
      stalls_.push_back(StallEvent{int(i), w.last_change, now - w.last_change, false});
      events.push_back(stalls_.back());
    }
  }
  return events;
}

double StallDetector::max_idle(double now) const {
  double m = 0;
  for (const Worker& w : workers_) m = std::max(m, now - w.last_change);
  return m;
}

std::vector<StallEvent> StallDetector::stalls(double now) const {
  std::vector<StallEvent> out = stalls_;
  for (StallEvent& s : out)
    if (!s.ended) s.duration = now - s.start;
  return out;
}

double StallDetector::longest_stall(double now) const {
  double m = 0;
  for (const StallEvent& s : stalls(now)) m = std::max(m, s.duration);
  return m;
}

Watchdog::Watchdog(ProgressFn progress, double threshold_seconds, double poll_seconds, EventFn on_event)
    : progress_(std::move(progress)),
      on_event_(std::move(on_event)),
      poll_seconds_(poll_seconds),
      detector_(threshold_seconds) {}

Watchdog::~Watchdog() { stop(); }

void Watchdog::start() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    detector_.observe(now_seconds(), progress_());  // baseline: the workers' clocks start here
  }
  thread_ = std::thread([this] { run(); });
}

void Watchdog::stop() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (!stop_) stop_time_ = now_seconds();
    stop_ = true;
  }
  cv_.notify_all();
  if (thread_.joinable()) thread_.join();
}

void Watchdog::run() {
  std::unique_lock<std::mutex> lock(mu_);
  while (!cv_.wait_for(lock, std::chrono::duration<double>(poll_seconds_), [this] { return stop_; })) {
    // progress_() only loads atomics, so holding the lock over it keeps readers waiting very briefly.
    std::vector<StallEvent> events = detector_.observe(now_seconds(), progress_());
    lock.unlock();
    for (const StallEvent& e : events) on_event_(e);
    lock.lock();
  }
}

double Watchdog::clock() const { return stop_ ? stop_time_ : now_seconds(); }

double Watchdog::max_idle() const {
  std::lock_guard<std::mutex> lock(mu_);
  return detector_.max_idle(clock());
}

int Watchdog::stall_count() const {
  std::lock_guard<std::mutex> lock(mu_);
  return detector_.stall_count();
}

double Watchdog::longest_stall() const {
  std::lock_guard<std::mutex> lock(mu_);
  return detector_.longest_stall(clock());
}

std::vector<StallEvent> Watchdog::stalls() const {
  std::lock_guard<std::mutex> lock(mu_);
  return detector_.stalls(clock());
}

}  // namespace jz
