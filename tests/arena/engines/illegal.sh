#!/bin/sh
# A UCI engine that answers every search with an illegal move (a1a9: the chariot's path is blocked).
while read -r cmd rest; do
  case "$cmd" in
    uci) echo "id name illegal"; echo "option name Hash type spin default 16 min 1 max 1024"; echo "uciok" ;;
    isready) echo "readyok" ;;
    go) echo "info depth 1 score cp 0"; echo "bestmove a1a9" ;;
    quit) exit 0 ;;
  esac
done
