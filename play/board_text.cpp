#include "play/board_text.h"

#include "core/notation.h"
#include "core/notation_xiangqi.h"

namespace jz {

namespace {

constexpr const char* BLUE = "\x1b[1;34m";
constexpr const char* RED = "\x1b[1;31m";
constexpr const char* BOLD = "\x1b[1m";  // Xiangqi's black pieces: the terminal's own colour
constexpr const char* HIGHLIGHT = "\x1b[43m";
constexpr const char* DIM = "\x1b[2m";
constexpr const char* RESET = "\x1b[0m";

bool in_palace(int f, int r) { return f >= 3 && f <= 5 && (r <= 2 || r >= 7); }

// Diagonal drawn in the cell between files f, f+1 and ranks r, r+1 (board coordinates): '/' runs from
// (f, r) to (f+1, r+1), '\\' from (f+1, r) to (f, r+1), ' ' none.
char diagonal(int f, int r) {
  if (!in_palace(f, r) || !in_palace(f + 1, r + 1) || r == 2 || r == 6) return ' ';
  int lr = r >= 7 ? r - 7 : r;  // 0 or 1 inside the palace
  int lf = f - 3;               // 0 or 1
  return (lf == lr) ? '/' : '\\';
}

// Text of an empty intersection, by position on the board edge.
const char* cross(int f, int r, bool ascii) {
  if (ascii) return "+";
  bool top = r == RANK_NB - 1, bottom = r == 0, left = f == 0, right = f == FILE_NB - 1;
  if (top) return left ? "┌" : right ? "┐" : "┬";
  if (bottom) return left ? "└" : right ? "┘" : "┴";
  return left ? "├" : right ? "┤" : "┼";
}

// Xiangqi's river between ranks 5 and 6, as wide as a gap row: 楚河 漢界 inside the edge files' lines.
std::string river(const BoardStyle& st) {
  std::string inner = st.ascii ? "     chu he         han jie    " : "     楚  河         漢  界     ";
  std::string edge = st.ascii ? "|" : st.color ? std::string(DIM) + "│" + RESET : "│";
  return "    " + edge + inner + edge + "\n";
}

std::string piece_text(const Position& pos, Piece p, const BoardStyle& st) {
  if (st.ascii) return std::string(1, char(".KABNRCP"[type_of(p)] + (color_of(p) == HAN ? 32 : 0)));
  if (!st.hanja) return piece_name_hangul(p);
  return pos.xiangqi() ? piece_name_chinese(p) : piece_name_hanja(p);
}

// Xiangqi's file numbers as the side c counts them, under the columns (flipped: Black at the bottom).
std::string file_numbers(Color c, const BoardStyle& st) {
  std::string out = "    ";
  for (int j = 0; j < FILE_NB; ++j) {
    std::string n = file_figure(c, st.flip ? FILE_NB - 1 - j : j, st.ascii);
    out += n.size() == 1 ? " " + n + "  " : n + "  ";  // digits under the file letters; numerals are wide
  }
  while (out.back() == ' ') out.pop_back();
  return out + "\n";
}

// Janggi: blue Cho, red Han; Xiangqi: red Red, black (the terminal's colour) Black.
const char* piece_color(const Position& pos, Piece p) {
  if (pos.xiangqi()) return color_of(p) == CHO ? RED : BOLD;
  return color_of(p) == CHO ? BLUE : RED;
}

}  // namespace

std::string render_board(const Position& pos, const BoardStyle& st) {
  std::string out;
  auto dim = [&](const std::string& s) { return st.color ? DIM + s + RESET : s; };
  Move last = pos.history_size() > 0 ? pos.last_move() : Move::none();
  std::string files;
  for (int i = 0; i < FILE_NB; ++i) {
    int f = st.flip ? FILE_NB - 1 - i : i;
    files += std::string(1, char('a' + f)) + (i + 1 < FILE_NB ? "   " : "");
  }
  if (pos.xiangqi()) out += file_numbers(st.flip ? CHO : HAN, st);
  out += "     " + files + "\n";
  for (int i = 0; i < RANK_NB; ++i) {
    int r = st.flip ? i : RANK_NB - 1 - i;  // board rank shown on this text row
    std::string num = std::to_string(r + 1);
    std::string line = (num.size() < 2 ? " " : "") + num + "  ";
    for (int j = 0; j < FILE_NB; ++j) {
      int f = st.flip ? FILE_NB - 1 - j : j;
      Square s = make_square(f, r);
      Piece p = pos.piece_on(s);
      bool marked = !last.is_none() && (s == last.from() || s == last.to());
      std::string cell;
      if (p) {
        cell = piece_text(pos, p, st) + (st.ascii ? (marked ? "*" : " ") : "");
        if (st.color) cell = (marked ? std::string(HIGHLIGHT) : "") + piece_color(pos, p) + cell + RESET;
      } else {
        std::string c = cross(f, r, st.ascii);
        if (marked) c = st.ascii ? "o" : "◦";
        // The cross takes one column; the half connector after it keeps the 2-column grid of Hanja.
        std::string half = j + 1 == FILE_NB ? " " : st.ascii ? "-" : "─";
        if (st.color)
          cell = (marked ? std::string(HIGHLIGHT) + c + RESET : dim(c)) + (half == " " ? half : dim(half));
        else
          cell = c + half;
      }
      line += cell;
      if (j + 1 < FILE_NB) line += st.ascii ? "--" : dim("──");
    }
    out += line + "\n";
    if (i + 1 < RANK_NB) {
      int rlow = st.flip ? r : r - 1;  // lower board rank of the gap
      if (pos.xiangqi() && rlow == 4) {
        out += river(st);
        continue;
      }
      std::string gap = "    ";
      for (int j = 0; j < FILE_NB; ++j) {
        gap += st.ascii ? "|" : dim("│");
        if (j + 1 == FILE_NB) break;
        int fl = st.flip ? FILE_NB - 2 - j : j;  // left board file of the cell
        char d = diagonal(fl, rlow);
        std::string ds = d == '/' ? (st.ascii ? "/" : "╱") : d == '\\' ? (st.ascii ? "\\" : "╲") : " ";
        if (d != ' ' && st.color) ds = dim(ds);
        gap += " " + ds + " ";
      }
      out += gap + "\n";
    }
  }
  if (pos.xiangqi()) out += file_numbers(st.flip ? HAN : CHO, st);
  return out;
}

}  // namespace jz
