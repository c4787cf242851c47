// Subcommands of the one `janggi-zero` binary. Each add_* registers a subcommand (and its options)
// on the parent; its callback runs the command and stores the process exit code in `rc`.
#pragma once
#include <CLI/CLI.hpp>

namespace jz::app {

void add_perft(CLI::App& app, int& rc);
void add_uci(CLI::App& app, int& rc);
void add_play(CLI::App& app, int& rc);   // terminal game against the engine
void add_serve(CLI::App& app, int& rc);  // web page to play in the browser
void add_bench(CLI::App& app, int& rc);  // bench perft, bench nn, bench mcts, ...
void add_bench_perft(CLI::App& bench, int& rc);
void add_bench_nn(CLI::App& bench, int& rc);    // network throughput (nn/)
void add_bench_mcts(CLI::App& bench, int& rc);  // search speed and tree memory (mcts/)
void add_bench_guard(CLI::App& bench, int& rc);  // the root mate guard's cost (mcts/mate_search.h)
void add_bench_ab(CLI::App& bench, int& rc);    // alpha-beta engine speed and level match
void add_evaluate(CLI::App& app, int& rc);      // matches between players (arena/)
void add_ratings(CLI::App& app, int& rc);
void add_gauntlet(CLI::App& app, int& rc);        // networks of a run vs fixed opponents (learning curve)
void add_cluster(CLI::App& app, int& rc);         // Slurm launch, status, stop (cluster/)
void add_selfplay(CLI::App& app, int& rc);        // self-play worker (selfplay/)
void add_soak(CLI::App& app, int& rc);            // self-play under load: memory, stalls (selfplay/)
void add_record(CLI::App& app, int& rc);          // print games from replay chunks
void add_import(CLI::App& app, int& rc);          // game records (.gib, PGN, JSONL) into replay chunks (records/)
void add_bench_import(CLI::App& bench, int& rc);  // import speed (records/)
void add_teach(CLI::App& app, int& rc);           // teacher games into replay chunks (teacher/)
void add_tune(CLI::App& app, int& rc);            // Texel tuning of the alpha-beta evaluation (alphabeta/)
void add_train(CLI::App& app, int& rc);           // local training run (training/)
void add_report(CLI::App& app, int& rc);          // HTML report of a run directory
void add_bench_train(CLI::App& bench, int& rc);   // trainer throughput (training/)

}  // namespace jz::app
