#include "records/text_decode.h"

#include <iconv.h>

#include <cerrno>

namespace jz {

namespace {

// Converts with iconv; false at the first byte sequence that is invalid or incomplete.
bool convert(const char* to, const char* from, const std::string& in, std::string& out, size_t* bad_at) {
  iconv_t cd = iconv_open(to, from);
  if (bad_at) *bad_at = std::string::npos;  // this iconv lacks the encoding
  if (cd == iconv_t(-1)) return false;
  out.assign(in.size() * 2 + 16, '\0');
  char* src = const_cast<char*>(in.data());
  size_t src_left = in.size();
  char* dst = out.data();
  size_t dst_left = out.size();
  bool ok = true;
  while (src_left > 0) {
    if (iconv(cd, &src, &src_left, &dst, &dst_left) != size_t(-1)) continue;
    if (errno == E2BIG) {  // grow and go on
      size_t used = size_t(dst - out.data());
      out.resize(out.size() * 2);
      dst = out.data() + used;
      dst_left = out.size() - used;
      continue;
    }
    ok = false;  // EILSEQ, EINVAL (truncated sequence at the end)
    break;
  }
  if (bad_at) *bad_at = in.size() - src_left;
  out.resize(size_t(dst - out.data()));
  iconv_close(cd);
  return ok;
}

std::string normalize_lines(const std::string& s) {
  std::string r;
  r.reserve(s.size());
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i] != '\r')
      r.push_back(s[i]);
    else if (i + 1 >= s.size() || s[i + 1] != '\n')
      r.push_back('\n');
  }
  return r;
}

}  // namespace

bool is_valid_utf8(const std::string& s) {
  const auto* p = reinterpret_cast<const unsigned char*>(s.data());
  size_t n = s.size(), i = 0;
  while (i < n) {
    unsigned c = p[i];
    if (c < 0x80) {
      ++i;
      continue;
    }
    int len = (c & 0xE0) == 0xC0 ? 2 : (c & 0xF0) == 0xE0 ? 3 : (c & 0xF8) == 0xF0 ? 4 : 0;
    if (len == 0 || c == 0xC0 || c == 0xC1 || c > 0xF4 || i + len > n) return false;
    for (int k = 1; k < len; ++k)
      if ((p[i + k] & 0xC0) != 0x80) return false;
    i += len;
  }
  return true;
}

bool decode_record_text(const std::string& bytes, std::string& text, std::string* encoding, std::string* error) {
  std::string in = bytes.compare(0, 3, "\xEF\xBB\xBF") == 0 ? bytes.substr(3) : bytes;
  if (is_valid_utf8(in)) {
    text = normalize_lines(in);
    if (encoding) *encoding = "utf-8";
    return true;
  }
  std::string out;
  size_t bad_at = 0;
  // CP949 covers EUC-KR and the extra Hangul syllables Windows programs write; plain EUC-KR if
  // this iconv lacks it.
  bool ok = convert("UTF-8", "CP949", in, out, &bad_at);
  if (!ok && bad_at == std::string::npos) ok = convert("UTF-8", "EUC-KR", in, out, &bad_at);
  if (!ok) {
    if (error) *error = "neither UTF-8 nor EUC-KR text (bad byte at offset " + std::to_string(bad_at) + ")";
    return false;
  }
  text = normalize_lines(out);
  if (encoding) *encoding = "euc-kr";
  return true;
}

bool utf8_to_euckr(const std::string& utf8, std::string& out, std::string* error) {
  size_t bad_at = 0;
  if (convert("EUC-KR", "UTF-8", utf8, out, &bad_at)) return true;
  if (error) *error = "character at offset " + std::to_string(bad_at) + " has no EUC-KR form";
  return false;
}

}  // namespace jz
