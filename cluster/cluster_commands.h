// The work behind `janggi-zero cluster launch|status|stop` (apps/cmd_cluster.cpp parses options).
// Each prints to stdout, reports errors as one line on stderr, and returns the exit code.
#pragma once
#include <functional>
#include <string>
#include <vector>

#include "cluster/slurm_scripts.h"

namespace jz {

struct LaunchRequest {
  LaunchOptions opts;       // run_dir/config/binary may be relative or empty here; launch resolves them
  std::string config_file;  // --config; empty: the run's own RUN/config.yaml
  bool dry_run = false;
  // Checks the config file (with opts.overrides applied) strictly before anything is written: the
  // command sets it to read every section as the jobs will (this library has no trainer to do it).
  std::function<bool(const std::string& path, const std::vector<std::string>& overrides, std::string* error)>
      check_config;
};

// Each command prints its report on stdout; false with a one-line reason on failure.
bool cluster_launch(LaunchRequest req, std::string* error);
// validate: decode every chunk fully and replay its games (bad ones are counted per worker).
bool cluster_status(const std::string& run_dir, bool json, bool validate, std::string* error);
// wait_s > 0: also wait (up to wait_s) until squeue no longer lists the jobs.
bool cluster_stop(const std::string& run_dir, double wait_s, std::string* error);

}  // namespace jz
