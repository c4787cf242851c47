#!/usr/bin/env python3
"""Where a player loses material: each of its moves in an `evaluate` games file, scored by alpha-beta.
Usage: scripts/blunders.py GAMES.jsonl PLAYER_NAME [--depth D] [--drop CP] [--bin PATH]
Scores the position before and after each of PLAYER_NAME's moves (plies >= 4) with `janggi-zero uci`
(UseNetwork=false, go depth D) and lists the moves that drop the mover's score by at least CP centipawns,
then the first such ply per game and its median: how early the player starts to give material away."""
import argparse, json, statistics, subprocess

ap = argparse.ArgumentParser()
ap.add_argument('games'); ap.add_argument('player')
ap.add_argument('--depth', type=int, default=6); ap.add_argument('--drop', type=int, default=250)
ap.add_argument('--bin', default='./build/janggi-zero')
a = ap.parse_args()
eng = subprocess.Popen([a.bin, 'uci'], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)

def send(s): eng.stdin.write(s + '\n')

def score(fen, moves):  # side to move's view; mates as +-10000
    send('position fen %s%s' % (fen, ' moves ' + ' '.join(moves) if moves else ''))
    send('go depth %d' % a.depth)
    last = ''
    while True:
        line = eng.stdout.readline()
        if not line: raise SystemExit('error: the engine exited')
        if line.startswith('info') and ' score ' in line: last = line.split()
        if line.startswith('bestmove'): break
    if 'mate' in last: return 10000 if int(last[last.index('mate') + 1]) > 0 else -10000
    return int(last[last.index('cp') + 1]) if 'cp' in last else 0

send('uci'); send('setoption name UseNetwork value false'); send('isready')
while not eng.stdout.readline().startswith('readyok'): pass
first = []
for line in open(a.games):
    g = json.loads(line)
    if a.player not in (g['cho'], g['han']): continue
    moves, side = g['moves'].split(), 0 if g['cho'] == a.player else 1
    drops = []
    for i in range(4 + side, len(moves), 2):  # plies 0-3 may be the random opening
        before = score(g['start_fen'], moves[:i])
        after = -score(g['start_fen'], moves[:i + 1])
        if before - after >= a.drop and before < 5000: drops.append('%d:%s %+d->%+d' % (i, moves[i], before, after))
    first.append(int(drops[0].split(':')[0]) if drops else len(moves))
    print('game %d (%s, %s, %s, %d plies): %s' % (g['game'], 'cho' if side == 0 else 'han', g['result'], g['ending'],
                                                len(moves), ', '.join(drops[:6]) or 'no drop'), flush=True)
send('quit')
if first: print('first drop of >= %d cp: median ply %g over %d games' % (a.drop, statistics.median(first), len(first)))
