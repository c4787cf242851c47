#!/usr/bin/env python3
"""A player's moves on a blunder suite (scripts/blunders.py --suite): how many still lose material.
Usage: scripts/blunder-retest.py SUITE.jsonl --model M.jzn [--nodes N] [--depth D] [--drop CP] [--bin PATH]
       [--option NAME=VALUE ...] (UCI options of the network's engine, e.g. TacticsCheck=4)
The network (`janggi-zero uci`, ModelPath M, `go nodes N`: the engine's search with its mate guard) plays each
position; alpha-beta (go depth D) scores the move, and a move that drops the mover's score by at least CP against
the suite's `before` counts as a blunder again. Development figure: the suite comes from lost games, so compare
networks on the same suite and budget, and keep a change only with a match."""
import argparse, json, subprocess

ap = argparse.ArgumentParser()
ap.add_argument('suite'); ap.add_argument('--model', required=True)
ap.add_argument('--nodes', type=int, default=1600); ap.add_argument('--depth', type=int, default=6)
ap.add_argument('--drop', type=int, default=300); ap.add_argument('--bin', default='./build/janggi-zero')
ap.add_argument('--option', action='append', default=[], metavar='NAME=VALUE')
a = ap.parse_args()

def engine(model, options=()):
    e = subprocess.Popen([a.bin, 'uci'], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
    e.stdin.write('uci\n' + ('setoption name ModelPath value %s\nsetoption name UseNetwork value true\n' % model
                             if model else 'setoption name UseNetwork value false\n') +
                  ''.join('setoption name %s value %s\n' % tuple(o.split('=', 1)) for o in options) + 'isready\n')
    while True:
        line = e.stdout.readline()
        if not line: raise SystemExit('error: the engine exited (model %s)' % model)
        if line.startswith('readyok'): return e

def go(e, s, moves, cmd):  # (last info line's words, best move)
    e.stdin.write('setoption name UCI_Variant value %s\nposition fen %s%s\n%s\n' %
                  (s.get('rules', 'janggi'), s['fen'], ' moves ' + ' '.join(moves) if moves else '', cmd))
    last = []
    while True:
        line = e.stdout.readline()
        if not line: raise SystemExit('error: the engine exited')
        if line.startswith('info') and ' score ' in line: last = line.split()
        if line.startswith('bestmove'): return last, line.split()[1]

def score(words):  # side to move's view, mates as +-(30000 - n)
    if 'mate' in words:
        n = int(words[words.index('mate') + 1])
        return 30000 - n if n > 0 else -30000 - n
    return int(words[words.index('cp') + 1]) if 'cp' in words else 0

net, ab = engine(a.model, a.option), engine(None)
again = same = n = 0
for line in open(a.suite):
    s = json.loads(line)
    _, move = go(net, s, s['moves'], 'go nodes %d' % a.nodes)
    after = -score(go(ab, s, s['moves'] + [move], 'go depth %d' % a.depth)[0])
    n += 1
    again += s['before'] - after >= a.drop
    same += move == s['blunder']
for e in (net, ab): e.stdin.write('quit\n')
print('%s%s at %d nodes: %d/%d suite positions lose >= %d cp again (depth %d), %d with the same move' %
      (a.model, ''.join(' ' + o for o in a.option), a.nodes, again, n, a.drop, a.depth, same))
