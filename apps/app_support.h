// What every subcommand shares (KataGo's command/commandline.h idea): one way to report an error, to
// run a command's body, to read its config, and to stop on a signal. Command files only parse
// options and call the library; the library returns errors and never prints `error:` or exits.
#pragma once
#include <CLI/CLI.hpp>
#include <atomic>
#include <functional>
#include <string>
#include <vector>

#include "core/types.h"
#include "util/config.h"
#include "util/process.h"  // thread_cpu_seconds for the commands

namespace jz::app {

// Prints "error: <message>" on stderr and returns `code`, the process exit code to use.
int report_error(const std::string& message, int code = 1);
// 0 when ok, else report_error(error): the exit code of a library call that returns bool + message.
inline int exit_code(bool ok, const std::string& error) { return ok ? 0 : report_error(error); }

// Sets cmd's callback: rc = body(); an exception that escapes the body is reported (exit code 1).
void set_command(CLI::App* cmd, int& rc, std::function<int()> body);

// Loads `path` with the --set overrides, lets `read` take the options it needs, then checks the
// sections `command` reads strictly (util/config.h). False with a one-line reason.
bool load_command_config(const std::string& command, const std::string& path, const std::vector<std::string>& overrides,
                         const std::function<bool(const Config&, std::string*)>& read, Config& cfg, std::string* error);

// `--rule-option NAME` (repeatable; docs/rules.md "Rule options") for commands that take a game.
void add_rule_option_flag(CLI::App* cmd, std::vector<std::string>& names);
// The options named; false + "unknown rule option ..." when a name is none of them.
bool rule_options_from(const std::vector<std::string>& names, RuleOptions& out, std::string* error);

// SIGINT and SIGTERM set the returned flag to the signal's number; a second signal ends the process
// at once (default action). Commands that stop cleanly poll it or hand it to the library.
const std::atomic<int>& install_stop_signals();
// The same flag, for code that runs after install_stop_signals().
const std::atomic<int>& stop_signal();


}  // namespace jz::app
