#!/usr/bin/env python3
"""Where a player loses material: each of its moves in an `evaluate` games file, scored by alpha-beta.
Usage: scripts/blunders.py GAMES.jsonl PLAYER_NAME [--depth D] [--drop CP] [--bin PATH] [--mates]
Scores the position before and after each of PLAYER_NAME's moves (plies >= 4) with `janggi-zero uci`
(UseNetwork=false, go depth D) and lists the moves that drop the mover's score by at least CP centipawns,
then the first such ply per game and its median: how early the player starts to give material away.
--mates: in each game the player lost by checkmate, the move after which the opponent had a forced mate
(within depth D) while the position before was not lost, and how many moves the mate took: walking into
a mate in 1 is a search failure, a long one may be beyond any search.
--suite OUT: also write each drop from a level position (|score| < --level) as a JSON line (fen, moves before it,
the move, alpha-beta's move and scores): a blunder suite for scripts/blunder-retest.py."""
import argparse, collections, json, statistics, subprocess

ap = argparse.ArgumentParser()
ap.add_argument('games'); ap.add_argument('player')
ap.add_argument('--depth', type=int, default=6); ap.add_argument('--drop', type=int, default=250)
ap.add_argument('--bin', default='./build/janggi-zero')
ap.add_argument('--mates', action='store_true')
ap.add_argument('--suite'); ap.add_argument('--level', type=int, default=600)
a = ap.parse_args()
eng = subprocess.Popen([a.bin, 'uci'], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)

def send(s): eng.stdin.write(s + '\n')

variant = None

def use_rules(g):  # the engine plays each game's rules (an `evaluate` games file names them: janggi, xiangqi, ...)
    global variant
    if g.get('rules', 'janggi') == variant: return
    variant = g.get('rules', 'janggi')
    send('setoption name UCI_Variant value %s' % variant); send('isready')
    while not eng.stdout.readline().startswith('readyok'): pass

def score(fen, moves):  # side to move's view; mate in n as +-(30000 - n); other decisive endings are cp +-(20000 - plies)
    send('position fen %s%s' % (fen, ' moves ' + ' '.join(moves) if moves else ''))
    send('go depth %d' % a.depth)
    last = ''
    while True:
        line = eng.stdout.readline()
        if not line: raise SystemExit('error: the engine exited')
        if line.startswith('info') and ' score ' in line: last = line.split()
        if line.startswith('bestmove'): break
    if 'mate' in last:
        n = int(last[last.index('mate') + 1])
        return 30000 - n if n > 0 else -30000 - n
    return int(last[last.index('cp') + 1]) if 'cp' in last else 0

send('uci'); send('setoption name UseNetwork value false'); send('isready')
while not eng.stdout.readline().startswith('readyok'): pass
DECISIVE = 15000

def mate_blunder(g, moves, side):  # (ply, move, what it let the opponent force) of the losing move, or None
    for i in range(len(moves) - 1, 3, -1):
        if i % 2 != side: continue
        after = score(g['start_fen'], moves[:i + 1])  # the opponent's view
        if after < DECISIVE: return None
        if score(g['start_fen'], moves[:i]) > -DECISIVE:
            return i, moves[i], 'mate in %d' % (30000 - after) if after > 25000 else 'a counting win'
    return None

if a.mates:
    dist = collections.Counter()
    for line in open(a.games):
        g = json.loads(line)
        if a.player not in (g['cho'], g['han']) or g['ending'] != 'checkmate': continue
        moves, side = g['moves'].split(), 0 if g['cho'] == a.player else 1
        if (g['result'] == '1-0') == (side == 0): continue  # the player won
        use_rules(g)
        b = mate_blunder(g, moves, side)
        dist[b[2] if b else 'none'] += 1
        print('game %d (%d plies): %s' % (g['game'], len(moves), 'ply %d %s let %s' % b if b else 'no single move'),
              flush=True)
    send('quit')
    print('checkmate losses by what the losing move let the opponent force: ' +
          ', '.join('%s: %d' % (k, v) for k, v in sorted(dist.items())))
    raise SystemExit(0)
first = []
suite = open(a.suite, 'w') if a.suite else None
for line in open(a.games):
    g = json.loads(line)
    if a.player not in (g['cho'], g['han']): continue
    moves, side = g['moves'].split(), 0 if g['cho'] == a.player else 1
    drops = []
    use_rules(g)
    for i in range(4 + side, len(moves), 2):  # plies 0-3 may be the random opening
        before = score(g['start_fen'], moves[:i])
        after = -score(g['start_fen'], moves[:i + 1])
        if before - after >= a.drop and before < DECISIVE: drops.append('%d:%s %+d->%+d' % (i, moves[i], before, after))
        if suite and before - after >= a.drop and abs(before) < a.level:
            suite.write(json.dumps({'fen': g['start_fen'], 'rules': g.get('rules', 'janggi'), 'moves': moves[:i],
                                    'blunder': moves[i], 'before': before, 'after': after, 'game': g['game']}) + '\n')
    first.append(int(drops[0].split(':')[0]) if drops else len(moves))
    print('game %d (%s, %s, %s, %d plies): %s' % (g['game'], 'cho' if side == 0 else 'han', g['result'], g['ending'],
                                                len(moves), ', '.join(drops[:6]) or 'no drop'), flush=True)
send('quit')
if first: print('first drop of >= %d cp: median ply %g over %d games' % (a.drop, statistics.median(first), len(first)))
