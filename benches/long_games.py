#!/usr/bin/env python3
"""Long games for the engine's figures in docs/PERFORMANCE.md (round 21).

Writes a Coding Ninjas file of T games of exactly Q moves each on an
N x N board: distinct cells at random, players in turn. Games this long on
boards this large rarely fill a line, so every move is played.

    benches/long_games.py N Q T SEED > FILE
"""

import random
import sys


def main() -> None:
    n, moves, games, seed = (int(arg) for arg in sys.argv[1:5])
    rng = random.Random(seed)
    out = [str(games)]
    for _ in range(games):
        out += [str(n), str(moves)]
        taken = set()
        player = 1
        while len(taken) < moves:
            cell = (rng.randrange(n), rng.randrange(n))
            if cell in taken:
                continue
            taken.add(cell)
            out.append(f"{cell[0]} {cell[1]} {player}")
            player = 3 - player
    sys.stdout.write("\n".join(out) + "\n")


if __name__ == "__main__":
    main()
