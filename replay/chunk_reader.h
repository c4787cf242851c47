// Reading replay chunks from disk. Only complete files named *.jzc are chunks: a writer's
// temporary file (<name>.jzc.tmp.<pid>.<n>) is never picked up.
#pragma once
#include <string>
#include <vector>

#include "replay/replay_format.h"

namespace jz {

// Reads and fully decodes one chunk file. False with a one-line reason on any defect.
bool read_chunk_file(const std::string& path, ChunkHeader& header, std::vector<GameRecord>& games, std::string* error);
// Chunk files under dir, recursively, sorted by name. Missing dir gives an empty list.
std::vector<std::string> list_chunk_files(const std::string& dir);
bool is_chunk_name(const std::string& filename);

}  // namespace jz
