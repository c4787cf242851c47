#include "selfplay/selfplay_config.h"

#include <cmath>

#include "core/setups.h"

namespace jz {

void load_search_params(const Config& c, const std::string& p, SearchParams& s) {
  auto f = [&](const char* k, float& v) { v = float(c.get_double(p + k, v)); };
  auto i = [&](const char* k, int& v) { v = int(c.get_int(p + k, v)); };
  auto b = [&](const char* k, bool& v) { v = c.get_bool(p + k, v); };
  f("cpuct", s.cpuct);
  f("cpuct_growth", s.cpuct_growth);
  f("cpuct_base", s.cpuct_base);
  f("fpu_reduction", s.fpu_reduction);
  f("fpu_reduction_root", s.fpu_reduction_root);
  f("policy_temperature", s.policy_temperature);
  i("virtual_loss", s.virtual_loss);
  b("virtual_visit", s.virtual_visit);
  i("max_collisions", s.max_collisions);
  b("root_noise", s.root_noise);
  f("dirichlet_alpha", s.dirichlet_alpha);
  f("dirichlet_total", s.dirichlet_total);
  f("dirichlet_weight", s.dirichlet_weight);
  b("gumbel", s.gumbel);
  i("gumbel_m", s.gumbel_m);
  f("gumbel_c_visit", s.gumbel_c_visit);
  f("gumbel_c_scale", s.gumbel_c_scale);
  b("gumbel_interior", s.gumbel_interior);
  b("gumbel_rescale_q", s.gumbel_rescale_q);
  f("score_utility_weight", s.score_utility_weight);
  f("score_utility_scale", s.score_utility_scale);
  b("forced_playouts", s.forced_playouts);
  f("forced_k", s.forced_k);
  b("mate_in_one", s.mate_in_one);
}

bool load_selfplay_options(const Config& c, SelfPlayOptions& o, std::string* error) {
  auto fail = [&](const std::string& why) {
    if (error) *error = c.source() + ": " + why;
    return false;
  };
  try {
    std::string rules = c.get_string("selfplay.rules", ruleset_name(o.ruleset));
    if (!parse_ruleset(rules, o.ruleset)) return fail("unknown selfplay.rules '" + rules + "'");
    const size_t setups = size_t(setup_count(o.ruleset));
    o.setup_weights = c.get_doubles("selfplay.setup_weights", std::vector<double>(setups, 1.0));
    if (o.setup_weights.size() != setups)
      return fail(setups == 1 ? "selfplay.setup_weights: " + rules + " has one start position (give 1 number or none)"
                              : "selfplay.setup_weights needs 16 numbers (cho * 4 + han)");
    double sum = 0;
    for (double w : o.setup_weights) {
      if (!(w >= 0)) return fail("selfplay.setup_weights must not be negative");
      sum += w;
    }
    if (!(sum > 0)) return fail("selfplay.setup_weights must not all be 0");
    o.random_opening_plies = int(c.get_int("selfplay.random_opening_plies", o.random_opening_plies));
    o.max_plies = int(c.get_int("selfplay.max_plies", o.max_plies));
    o.games_per_thread = int(c.get_int("selfplay.games_per_thread", o.games_per_thread));
    o.leaves_per_game = int(c.get_int("selfplay.leaves_per_game", o.leaves_per_game));
    o.games_per_chunk = int(c.get_int("selfplay.games_per_chunk", o.games_per_chunk));
    o.full_simulations = int(c.get_int("selfplay.full_simulations", o.full_simulations));
    o.cheap_simulations = int(c.get_int("selfplay.cheap_simulations", o.cheap_simulations));
    o.full_fraction = c.get_double("selfplay.full_fraction", o.full_fraction);
    o.temperature_start = c.get_double("selfplay.temperature_start", o.temperature_start);
    o.temperature_end = c.get_double("selfplay.temperature_end", o.temperature_end);
    o.temperature_halflife = c.get_double("selfplay.temperature_halflife", o.temperature_halflife);
    o.gumbel_sample_plies = int(c.get_int("selfplay.gumbel_sample_plies", o.gumbel_sample_plies));
    o.no_pass_before_ply = int(c.get_int("selfplay.no_pass_before_ply", o.no_pass_before_ply));
    o.resign = c.get_bool("selfplay.resign", o.resign);
    o.resign_threshold = c.get_double("selfplay.resign_threshold", o.resign_threshold);
    o.resign_consecutive = int(c.get_int("selfplay.resign_consecutive", o.resign_consecutive));
    o.resign_min_ply = int(c.get_int("selfplay.resign_min_ply", o.resign_min_ply));
    o.resign_playout_fraction = c.get_double("selfplay.resign_playout_fraction", o.resign_playout_fraction);
    o.seed = uint64_t(c.get_int("selfplay.seed", 0));
    o.model_poll_seconds = c.get_double("selfplay.model_poll_seconds", o.model_poll_seconds);
    o.metrics_seconds = c.get_double("selfplay.metrics_seconds", o.metrics_seconds);

    o.search.root_noise = true;  // self-play default; search.root_noise overrides
    load_search_params(c, "search.", o.search);

    o.device = c.get_string("network.device", o.device);
    o.precision = c.get_string("network.precision", o.precision);
    o.eval_batch = int(c.get_int("network.batch", o.eval_batch));
    o.eval_wait_us = int(c.get_int("network.max_wait_us", o.eval_wait_us));
    o.eval_servers = int(c.get_int("network.server_threads", o.eval_servers));
    o.eval_cache = int(c.get_int("network.cache_entries", o.eval_cache));
    o.random_network = c.get_string("network.random_network", o.random_network);
  } catch (const ConfigError& e) {
    if (error) *error = e.what();
    return false;
  }
  if (o.random_opening_plies < 0) return fail("selfplay.random_opening_plies must be >= 0");
  if (o.no_pass_before_ply < 0) return fail("selfplay.no_pass_before_ply must be >= 0");
  if (!(o.search.score_utility_scale > 0)) return fail("search.score_utility_scale must be > 0");
  if (!(o.search.policy_temperature >= 0.1f && o.search.policy_temperature <= 10.0f))
    return fail("search.policy_temperature must be in [0.1, 10]");
  if (o.max_plies < 1) return fail("selfplay.max_plies must be >= 1");
  if (o.games_per_thread < 1 || o.games_per_thread > 100000) return fail("selfplay.games_per_thread must be 1..100000");
  if (o.leaves_per_game < 1 || o.leaves_per_game > 256) return fail("selfplay.leaves_per_game must be 1..256");
  if (o.games_per_chunk < 1) return fail("selfplay.games_per_chunk must be >= 1");
  if (o.full_simulations < 1 || o.cheap_simulations < 1) return fail("selfplay simulations must be >= 1");
  if (!(o.full_fraction >= 0 && o.full_fraction <= 1)) return fail("selfplay.full_fraction must be in [0, 1]");
  if (!(o.temperature_start >= 0 && o.temperature_end >= 0)) return fail("selfplay temperatures must be >= 0");
  if (!(o.temperature_halflife > 0)) return fail("selfplay.temperature_halflife must be > 0");
  if (!(o.resign_threshold > 0 && o.resign_threshold <= 1)) return fail("selfplay.resign_threshold must be in (0, 1]");
  if (o.resign_consecutive < 1) return fail("selfplay.resign_consecutive must be >= 1");
  if (!(o.resign_playout_fraction >= 0 && o.resign_playout_fraction <= 1))
    return fail("selfplay.resign_playout_fraction must be in [0, 1]");
  if (o.eval_batch < 1 || o.eval_wait_us < 0 || o.eval_servers < 1 || o.eval_cache < 0)
    return fail("network.batch / max_wait_us / server_threads / cache_entries out of range");
  if (!(o.model_poll_seconds > 0) || !(o.metrics_seconds > 0)) return fail("poll and metrics intervals must be > 0");
  return true;
}

double temperature_at(const SelfPlayOptions& o, int ply) {
  return o.temperature_end + (o.temperature_start - o.temperature_end) * std::pow(0.5, ply / o.temperature_halflife);
}

}  // namespace jz
