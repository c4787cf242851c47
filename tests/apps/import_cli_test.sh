#!/usr/bin/env bash
# import / record --format gib from the command line: exit codes, the summary, one line per skipped
# game, only complete chunks in the output, and export -> import round trip.
set -u
BIN=$1
DATA=$2
pass=0 fail=0
check() {  # check NAME CONDITION...
  local name=$1; shift
  if "$@"; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL: $name"; fi
}
T=$(mktemp -d /tmp/jz_import_cli.XXXXXX)
trap 'rm -rf "$T"' EXIT

out=$("$BIN" import "$DATA/gib" "$DATA/pgn" --out "$T/a" 2>"$T/err"); rc=$?
check "import exits 0" [ $rc -eq 0 ]
check "summary: 5 read, 4 imported, 1 skipped" bash -c "echo '$out' | grep -q '5 games read, 4 imported, 1 skipped, 170 positions'"
check "one skip line naming file, game and ply" [ "$(grep -c '^skip: .*pychess-janggi.pgn: game 3, ply 4: ' "$T/err")" -eq 1 ]
check "only complete chunks" [ -z "$(find "$T/a" -type f ! -name '*.jzc')" ]
"$BIN" record --dir "$T/a" >"$T/buf" 2>&1
check "buffer loads every chunk" grep -q '(0 skipped as corrupt), 4 games, 170 positions (170 full search)' "$T/buf"

# Export the imported real game as .gib and import it again: same moves, setup and result.
chunk=$(ls "$T/a"/*.jzc | head -1)
"$BIN" record --chunk "$chunk" --game 0 --format gib >"$T/x.gib"
check "gib export has the moves" grep -q '13. 74상42병' "$T/x.gib"
"$BIN" import "$T/x.gib" --out "$T/b" >/dev/null 2>&1
check "re-import exits 0" [ $? -eq 0 ]
a=$("$BIN" record --chunk "$chunk" --game 0 --format json | sed 's/"origin":"[^"]*",//')
b=$("$BIN" record --chunk "$(ls "$T/b"/*.jzc)" --format json | sed 's/"origin":"[^"]*",//')
check "round trip: same game" [ "$a" = "$b" ]

# Nothing importable: exit 2; a missing input or bad option: exit 1.
printf '[Variant "chess"]\n\n1. e4 *\n' >"$T/chess.pgn"
"$BIN" import "$T/chess.pgn" --out "$T/c" >/dev/null 2>"$T/err2"; rc=$?
check "nothing importable exits 2" [ $rc -eq 2 ]
check "no chunk when nothing imported" [ ! -e "$T/c" ] 
"$BIN" import "$T/missing.gib" --out "$T/d" 2>/dev/null; check "missing input exits 1" [ $? -eq 1 ]
"$BIN" import "$DATA/gib" --out "$T/d" --format xyz 2>/dev/null; check "bad format exits 1" [ $? -eq 1 ]

echo "import_cli: $pass passed, $fail failed"
[ $fail -eq 0 ]
