// Text of game-record files as UTF-8 with LF line ends: Korean records come as UTF-8 or EUC-KR
// (really CP949, its superset), with LF or CRLF. Decoding uses glibc's iconv.
#pragma once
#include <string>

namespace jz {

bool is_valid_utf8(const std::string& s);
// UTF-8 text of `bytes`: a UTF-8 BOM is dropped, UTF-8 is kept as it is, anything else is converted
// from CP949/EUC-KR; CRLF and lone CR become LF. False with a reason when it is neither encoding
// (*encoding gets "utf-8" or "euc-kr" on success).
bool decode_record_text(const std::string& bytes, std::string& text, std::string* encoding, std::string* error);
// UTF-8 to EUC-KR (for exporting .gib in the legacy encoding). False if a character has no EUC-KR form.
bool utf8_to_euckr(const std::string& utf8, std::string& out, std::string* error);

}  // namespace jz
