// The evaluation as a weighted sum of terms, so that one code path serves the engine (a score) and the
// tuner (a trace of term counts). Every term has a middlegame and an endgame weight, blended by the
// phase (the pieces other than generals and soldiers still on the board).
#pragma once
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "core/position.h"

namespace jz::ab {

// Piece-square tables are left-right symmetric, from the owner's view: rank (0 = own back rank) x
// distance from the centre file (0..4).
constexpr int PST_SIZE = 50;
inline int pst_index(int rank, int file) { return rank * 5 + (file < 4 ? 4 - file : file - 4); }

// Term layout. Blocks of PIECE_TYPE_NB are indexed by PieceType (unused types keep weight 0).
enum Term : int {
  T_MATERIAL = 0,
  T_PST = T_MATERIAL + PIECE_TYPE_NB,                     // [type][pst_index]
  T_MOBILITY = T_PST + PIECE_TYPE_NB * PST_SIZE,          // per reachable square
  T_LOW_MOBILITY = T_MOBILITY + PIECE_TYPE_NB,            // max(0, 2 - reachable squares): hemmed in
  T_THREAT_IN = T_LOW_MOBILITY + PIECE_TYPE_NB,           // attacker inside the enemy palace (x gang-up)
  T_THREAT_NEAR = T_THREAT_IN + PIECE_TYPE_NB,            // attacker next to the enemy palace (x gang-up)
  T_FILE_PRESSURE = T_THREAT_NEAR + PIECE_TYPE_NB,        // chariot/cannon on the general's file from afar
  T_HANGING = T_FILE_PRESSURE + PIECE_TYPE_NB,            // attacked and not defended
  T_ATTACKED_BY_LESSER = T_HANGING + PIECE_TYPE_NB,       // attacked by a piece worth less
  T_CANNON_CROWD = T_ATTACKED_BY_LESSER + PIECE_TYPE_NB,  // per cannon: pieces on the board - 18 (screens)
  T_CANNON_PAIR,                                          // both cannons alive
  T_CANNON_LOADED,                                        // cannon, one screen, then the enemy general
  T_GUARDS_NEAR,                                          // guards next to the own general (at most 2)
  T_PALACE_DEFENDERS,                                     // own pieces inside the own palace, general excluded
  T_OPEN_FILE,                                            // no own piece in front of the general on its file
  T_PALACE_ATTACKS,                                       // enemy attacks on own palace squares
  T_PALACE_WEAK,                                          // own palace squares attacked and not defended
  T_SOLDIER_CONNECTED,                                    // soldier with a friendly soldier beside it
  T_HAN_BONUS,                                            // Han's counting bonus (Cho's view: -1)
  T_TEMPO,                                                // side to move
  TERM_NB
};

// Weights in centipoints.
struct EvalWeights {
  int16_t mg[TERM_NB];
  int16_t eg[TERM_NB];
};

// Phase from the pieces other than generals and soldiers: PHASE_MAX with the full set, 0 with none.
constexpr int PHASE_MAX = 256;
// Term counts arrive in sixteenths (the gang-up scale of palace threats is fractional).
constexpr int COUNT_ONE = 16;

// A position's terms from Cho's view: (term, count in sixteenths), and its phase.
struct EvalTrace {
  std::vector<std::pair<int, int>> terms;
  int phase = 0;
};

// The term weights the engine uses (alphabeta/eval_weights.cpp, written by `janggi-zero tune`).
const EvalWeights& tuned_weights();
// The hand-set weights the tuner started from (they reproduce the classic evaluation's ideas).
EvalWeights hand_weights();
// Xiangqi's weights on the same terms (alphabeta/eval_weights_xiangqi.cpp, written by `janggi-zero tune`),
// and the hand-set ones they started from (alphabeta/eval_xiangqi.cpp; the evaluation of version=1).
const EvalWeights& xiangqi_weights();
const EvalWeights& xiangqi_hand_weights();
inline const EvalWeights& game_weights(GameKind g) { return g == GameKind::XIANGQI ? xiangqi_weights() : tuned_weights(); }

// Cho's view of everything except the counting rule, in centipoints, with the given weights.
int eval_cho(const Position& pos, const EvalWeights& w);
// The same position as a trace (sum of weight x count, blended by phase, equals eval_cho up to rounding).
void trace_terms(const Position& pos, EvalTrace& out);
// Blends a trace with weights (the tuner's model of eval_cho).
double trace_score(const EvalTrace& t, const double* mg, const double* eg);

// Human-readable name of a term index, e.g. "pst[horse][r5 d1]" (tuner reports).
std::string term_name(int term);

}  // namespace jz::ab
