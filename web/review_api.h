// The review of a finished game (web/static/review.html):
//   GET /api/review?id=GAMEID   its moves, every position (FEN) with the count that counting would
//                               give, who played it and how it ended, .gib and PGN texts, and its
//                               analysis so far (web/analysis.h; queued on the first request: poll)
// A game still on is refused (409): its review would be a hint.
#pragma once
#include "web/api.h"

namespace jz {

// True when `req` is the route above (then *out is the answer).
bool handle_review_request(GameStore& store, const WebRequest& req, WebResponse* out);

}  // namespace jz
