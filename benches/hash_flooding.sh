#!/usr/bin/env bash
# Crafted cells against random cells on N = 10^9, for solve, validate and
# LeetCode input: the sparse board must have no adversarial worst case.
#
#   benches/hash_flooding.sh BINARY [MOVES] [WORKDIR]     (MOVES default 100000)
#
# The crafted cells are those a fixed FxHash (rustc-hash 2's rotl(key * K, 26),
# key = row * N + col) would put in one bucket with one tag, as the engine's
# test `the_sparse_board_spreads_cells_a_fixed_hasher_would_pile_into_one_bucket`
# makes them. Prints the medians (hyperfine, 5 runs) and crafted / random.
set -euo pipefail
bin=$(realpath "$1")
moves=${2:-100000}
work=${3:-$(mktemp -d)}
mkdir -p "$work"
cd "$work"
python3 - "$moves" <<'PY'
import random, sys
moves = int(sys.argv[1])
N = 10**9
K = 0xF1357AEA2E62A9C5
M = 1 << 64
inverse = pow(K, -1, M)
fixed = 0xABCDEF << 31
free_mask = ~(((1 << 24) - 1) << 31) & (M - 1)
rng = random.Random(1)
crafted = set()
while len(crafted) < moves:
    key = ((fixed | (rng.getrandbits(64) & free_mask)) * inverse) % M
    if key < N * N:
        crafted.add(key)
crafted = sorted(crafted)
rng.shuffle(crafted)
randoms = set()
while len(randoms) < moves:
    randoms.add(rng.randrange(N * N))
for name, keys in (("crafted", crafted), ("random", list(randoms))):
    with open(f"{name}.in", "w") as out:
        out.write(f"1\n{N}\n{len(keys)}\n")
        out.writelines(f"{k // N} {k % N} {1 + i % 2}\n" for i, k in enumerate(keys))
PY
"$bin" convert --to leetcode crafted.in > crafted.lc
"$bin" convert --to leetcode random.in > random.lc
limits=(--max-n 1000000000 --max-t 1 --min-q 0 --max-errors 1)
printf '%-10s %12s %12s %8s\n' command random crafted ratio
for shape in "solve|BIN INPUT.in" "validate|BIN validate ${limits[*]} INPUT.in" "leetcode|BIN INPUT.lc"; do
  name=${shape%%|*}
  command=${shape#*|}
  command=${command//BIN/$bin}
  hyperfine -N -i --warmup 1 --runs 5 --export-json run.json \
    "${command//INPUT/random}" "${command//INPUT/crafted}" >/dev/null 2>&1
  python3 - "$name" <<'PY'
import json, sys
random_run, crafted_run = (r["median"] * 1000 for r in json.load(open("run.json"))["results"])
print(f"{sys.argv[1]:<10} {random_run:9.1f} ms {crafted_run:9.1f} ms {crafted_run / random_run:8.2f}")
PY
done
