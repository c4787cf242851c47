// Where the shipped network lives: models/latest.jzn (see models/README.md).
#pragma once
#include <string>
#include <vector>

namespace jz {

// Candidate paths for the default model, in the order they are tried:
// $JZ_MODEL alone when set ("none" = no model), else <binary dir>/models/latest.jzn, <binary dir>/../models/latest.jzn
// (binary in build/),
// ./models/latest.jzn.
std::vector<std::string> default_model_candidates();
// The first candidate that exists as a regular file, or "" (then play falls back to alpha-beta).
std::string find_default_model();

}  // namespace jz
