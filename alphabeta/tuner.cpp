#include "alphabeta/tuner.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <sstream>

#include "alphabeta/eval.h"
#include "core/movegen.h"
#include "core/rules.h"
#include "util/random.h"

namespace jz::ab {

bool quiet_for_tuning(const Position& pos) {
  const RulesetInfo& info = ruleset_info(pos.ruleset());
  if (pos.in_check() || pos.in_bikjang() || opponent_passed(pos)) return false;
  if (info.move_rule - pos.rule50() < 40) return false;  // the counting rule takes over (not a term)
  MoveList ml;
  generate_legal(pos, ml);
  if (ml.size == 0) return false;
  Color us = pos.side_to_move();
  for (int i = 0; i < ml.size; ++i) {
    Move m = ml[i];
    if (m.is_pass()) continue;
    Piece victim = pos.piece_on(m.to());
    if (!victim) continue;
    // A capture of an undefended piece, or of one worth more than the capturer, wins material.
    if (!pos.attacked(m.to(), ~us) || PIECE_CP[type_of(victim)] > PIECE_CP[type_of(pos.piece_on(m.from()))])
      return false;
  }
  return true;
}

bool add_game_samples(const Position& start, const std::vector<Move>& moves, float result, uint32_t game,
                      int skip_plies, size_t max_size, std::vector<TuneSample>& out) {
  Position pos = start;
  for (size_t i = 0; i < moves.size() && out.size() < max_size; ++i) {
    if (int(i) >= skip_plies && quiet_for_tuning(pos)) {
      TuneSample s;
      s.result = result, s.game = game;
      trace_terms(pos, s.trace);
      out.push_back(std::move(s));
    }
    if (!is_legal(pos, moves[i])) return false;
    pos.do_move(moves[i]);
  }
  return true;
}

namespace {

struct Model {
  std::vector<double> mg, eg;
  explicit Model(const EvalWeights& w) : mg(TERM_NB), eg(TERM_NB) {
    for (int t = 0; t < TERM_NB; ++t) mg[t] = w.mg[t], eg[t] = w.eg[t];
  }
  EvalWeights rounded() const {
    EvalWeights w{};
    for (int t = 0; t < TERM_NB; ++t) {
      w.mg[t] = int16_t(std::clamp(std::lround(mg[t]), -30000L, 30000L));
      w.eg[t] = int16_t(std::clamp(std::lround(eg[t]), -30000L, 30000L));
    }
    return w;
  }
};

inline double sigmoid(double x) { return 1 / (1 + std::exp(-x)); }

double model_error(const std::vector<const TuneSample*>& s, const Model& m, double k) {
  double sum = 0;
  for (const TuneSample* x : s) {
    double p = sigmoid(k * trace_score(x->trace, m.mg.data(), m.eg.data()));
    sum += (x->result - p) * (x->result - p);
  }
  return s.empty() ? 0 : sum / double(s.size());
}

// The logistic scale that fits the starting weights best (golden-section search on the error). The
// evaluations do not depend on k: computed once.
double fit_k(const std::vector<const TuneSample*>& s, const Model& m) {
  std::vector<double> eval(s.size());
  for (size_t i = 0; i < s.size(); ++i) eval[i] = trace_score(s[i]->trace, m.mg.data(), m.eg.data());
  auto error = [&](double k) {
    double sum = 0;
    for (size_t i = 0; i < s.size(); ++i) {
      double d = s[i]->result - sigmoid(k * eval[i]);
      sum += d * d;
    }
    return sum;
  };
  double lo = 1e-4, hi = 0.05;
  const double g = (std::sqrt(5.0) - 1) / 2;
  for (int i = 0; i < 40; ++i) {
    double a = hi - g * (hi - lo), b = lo + g * (hi - lo);
    if (error(a) < error(b))
      hi = b;
    else
      lo = a;
  }
  return (lo + hi) / 2;
}

}  // namespace

TuneReport tune_weights(const std::vector<TuneSample>& samples, const EvalWeights& start, const EvalWeights& anchor,
                        const TuneOptions& opt, const std::function<void(int, double, double)>& progress) {
  std::vector<const TuneSample*> train, held;
  for (const TuneSample& s : samples)
    (double(mix64(opt.seed ^ (uint64_t(s.game) * GOLDEN_GAMMA)) % 1000000) < opt.holdout * 1e6 ? held : train)
        .push_back(&s);
  Model m(start), a(anchor);
  TuneReport rep;
  rep.train_n = train.size(), rep.holdout_n = held.size();
  rep.k = fit_k(train, m);
  rep.train_before = model_error(train, m, rep.k);
  rep.holdout_before = model_error(held, m, rep.k);

  // Full-batch Adam on the mean squared error, plus l2 * (w - anchor)^2.
  std::vector<double> g_mg(TERM_NB), g_eg(TERM_NB), m1(2 * TERM_NB, 0), m2(2 * TERM_NB, 0);
  const double b1 = 0.9, b2 = 0.999, eps = 1e-8, n = double(std::max<size_t>(train.size(), 1));
  for (int epoch = 1; epoch <= opt.epochs; ++epoch) {
    std::fill(g_mg.begin(), g_mg.end(), 0.0);
    std::fill(g_eg.begin(), g_eg.end(), 0.0);
    for (const TuneSample* x : train) {
      double p = sigmoid(rep.k * trace_score(x->trace, m.mg.data(), m.eg.data()));
      double d = -2 * (x->result - p) * p * (1 - p) * rep.k / COUNT_ONE;
      double ph = double(x->trace.phase) / PHASE_MAX;
      for (auto& [t, c] : x->trace.terms) {
        g_mg[t] += d * c * ph;
        g_eg[t] += d * c * (1 - ph);
      }
    }
    for (int t = 0; t < TERM_NB; ++t) {
      double* w[2] = {&m.mg[t], &m.eg[t]};
      double grad[2] = {g_mg[t] / n + 2 * opt.l2 * (m.mg[t] - a.mg[t]), g_eg[t] / n + 2 * opt.l2 * (m.eg[t] - a.eg[t])};
      for (int j = 0; j < 2; ++j) {
        double& mm = m1[2 * t + j];
        double& vv = m2[2 * t + j];
        mm = b1 * mm + (1 - b1) * grad[j];
        vv = b2 * vv + (1 - b2) * grad[j] * grad[j];
        double mh = mm / (1 - std::pow(b1, epoch)), vh = vv / (1 - std::pow(b2, epoch));
        *w[j] -= opt.learning_rate * mh / (std::sqrt(vh) + eps);
      }
    }
    if (progress && (epoch % 25 == 0 || epoch == opt.epochs))
      progress(epoch, model_error(train, m, rep.k), model_error(held, m, rep.k));
  }
  rep.weights = m.rounded();
  Model r(rep.weights);
  rep.train_after = model_error(train, r, rep.k);
  rep.holdout_after = model_error(held, r, rep.k);
  return rep;
}

std::string weights_source(const EvalWeights& w, const std::string& provenance, GameKind game) {
  std::ostringstream o;
  o << "// Evaluation weights written by `janggi-zero tune` (do not edit by hand; re-run the tuner).\n";
  std::istringstream lines(provenance);
  for (std::string line; std::getline(lines, line);) o << "// " << line << "\n";
  o << "#include \"alphabeta/eval_terms.h\"\n\nnamespace jz::ab {\n\nnamespace {\n\n";
  o << "// {middlegame, endgame} per term, in the order of eval_terms.h.\n";
  o << "constexpr int16_t WEIGHTS[TERM_NB][2] = {\n";
  for (int t = 0; t < TERM_NB; ++t)
    o << "    {" << w.mg[t] << ", " << w.eg[t] << "},  // " << t << " " << term_name(t) << "\n";
  o << "};\n\n}  // namespace\n\nconst EvalWeights& " << (game == GameKind::XIANGQI ? "xiangqi_weights" : "tuned_weights")
    << "() {\n"
       "  static const EvalWeights w = [] {\n    EvalWeights u{};\n"
       "    for (int t = 0; t < TERM_NB; ++t) u.mg[t] = WEIGHTS[t][0], u.eg[t] = WEIGHTS[t][1];\n"
       "    return u;\n  }();\n  return w;\n}\n\n}  // namespace jz::ab\n";
  return o.str();
}

}  // namespace jz::ab
