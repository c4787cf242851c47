// `janggi-zero serve`: HTTP front of GameStore (cpp-httplib) plus the page, embedded in the binary.
#pragma once
#include <atomic>
#include <memory>
#include <string>

#include "web/games.h"

namespace jz {

class WebServer {
 public:
  WebServer(const ServerOptions& opts, std::shared_ptr<Evaluator> net);
  ~WebServer();
  // Binds host:port (port 0 = a free one). Returns the port, or -1 with a one-line *error.
  int bind(std::string* error);
  void run();   // serves until stop(); call bind() first
  // Serves until stop() or until *stop_flag becomes non-zero (a stop signal: app_support's flag).
  void run_until(const std::atomic<int>& stop_flag);
  void stop();  // from any thread (or a signal handler)
  GameStore& store();

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

// Embedded page assets (generated from web/static at build time).
struct WebAsset {
  const char* path;  // "/", "/app.js", ...
  const char* mime;
  const unsigned char* data;
  size_t size;
};
const WebAsset* find_web_asset(const std::string& path);

}  // namespace jz
