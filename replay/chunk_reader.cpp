#include "replay/chunk_reader.h"

#include <algorithm>
#include <filesystem>

#include "util/fileio.h"

namespace jz {

bool read_chunk_file(const std::string& path, ChunkHeader& header, std::vector<GameRecord>& games, std::string* error) {
  std::string bytes, why;
  if (!read_file(path, bytes, &why)) {
    if (error) *error = why;
    return false;
  }
  if (!decode_chunk(bytes, header, games, &why)) {
    if (error) *error = "'" + path + "': " + why;
    return false;
  }
  return true;
}

bool is_chunk_name(const std::string& name) {
  const std::string ext = CHUNK_EXTENSION;
  return name.size() > ext.size() && name.compare(name.size() - ext.size(), ext.size(), ext) == 0 && name[0] != '.';
}

std::vector<std::string> list_chunk_files(const std::string& dir) {
  namespace fs = std::filesystem;
  std::vector<std::string> out;
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) return out;
  fs::recursive_directory_iterator it(dir, fs::directory_options::skip_permission_denied, ec), end;
  for (; !ec && it != end; it.increment(ec)) {
    std::error_code ec2;
    if (!it->is_regular_file(ec2)) continue;
    if (is_chunk_name(it->path().filename().string())) out.push_back(it->path().string());
  }
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace jz
