#include "apps/app_support.h"

#include <time.h>

#include <csignal>
#include <cstdio>
#include <exception>

namespace jz::app {

namespace {

std::atomic<int> g_stop_signal{0};

extern "C" void on_stop_signal(int sig) {
  g_stop_signal = sig;
  std::signal(sig, SIG_DFL);  // a second signal ends the process at once
}

}  // namespace

int report_error(const std::string& message, int code) {
  std::fprintf(stderr, "error: %s\n", message.c_str());
  return code;
}

void set_command(CLI::App* cmd, int& rc, std::function<int()> body) {
  cmd->callback([&rc, body = std::move(body)] {
    try {
      rc = body();
    } catch (const std::exception& e) {
      rc = report_error(e.what());
    }
  });
}

void add_rule_option_flag(CLI::App* cmd, std::vector<std::string>& names) {
  cmd->add_option(
      "--rule-option", names,
      "Rule option, repeatable: elephant-chariot, soldier-promotion, same-piece-check (all off by default)");
}

bool rule_options_from(const std::vector<std::string>& names, RuleOptions& out, std::string* error) {
  RuleOptions o;
  for (const std::string& n : names)
    if (!parse_rule_option(n, o)) {
      *error = "unknown rule option '" + n + "' (known: elephant-chariot, soldier-promotion, same-piece-check)";
      return false;
    }
  out = o;
  return true;
}

bool load_command_config(const std::string& command, const std::string& path, const std::vector<std::string>& overrides,
                         const std::function<bool(const Config&, std::string*)>& read, Config& cfg,
                         std::string* error) {
  return load_config(path, overrides, cfg, error) && read(cfg, error) &&
         cfg.check_sections(config_sections_of(command), error);
}

const std::atomic<int>& install_stop_signals() {
  g_stop_signal = 0;
  std::signal(SIGINT, on_stop_signal);
  std::signal(SIGTERM, on_stop_signal);
  return g_stop_signal;
}

const std::atomic<int>& stop_signal() { return g_stop_signal; }

}  // namespace jz::app
