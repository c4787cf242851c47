#!/bin/sh
# A UCI engine that never answers 'go' (the client must forfeit it on time and kill it).
while read -r cmd rest; do
  case "$cmd" in
    uci) echo "id name silent"; echo "uciok" ;;
    isready) echo "readyok" ;;
    quit) exit 0 ;;
  esac
done
