#!/usr/bin/env bash
# Shapes the matrix (benches/matrix.sh) does not hold: Coding Ninjas files
# laid out otherwise than a line a number or a move, and cases at the edge
# of what `solve` accepts beyond the statement's bounds, where the cost of a
# case, not of a move, is all there is.
#
#   benches/layouts.sh                 (from anywhere; under a minute, and a build)
#   SIZE=4 RUNS=3 benches/layouts.sh   (a quick run)
#
# Inputs (about SIZE MB each, one seed):
#   one-line      short games on N = 100 (1 to 8 moves), every token on one
#                 line, one space apart
#   tabs          the same tokens, one tab apart
#   token-lines   the same tokens, one a line
#   n1            games on a board of one: one move each, which wins
#   q0            cases of no move (`7`, then Q = `0`), each answered by an
#                 empty line
# For each: `wc -l F`, the C++ peer (`peer F`, benches/peer.cpp), and
# tictactoe by file with `--threads 1` and with the default; hyperfine -N,
# RUNS runs after one warm-up, medians; peak RSS of the default run from
# /usr/bin/time -v. The peer's output is compared with tictactoe's first.
#
# Settings (environment): SIZE=16  RUNS=11  WORK=target/bench-layouts
#   BIN=... (default: `cargo build --release`'s)  CXX=g++
#   PEER_FLAGS="-O2 -march=x86-64 -static"
#
# Needs hyperfine, GNU time, python3 and a C++ compiler.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
SIZE=${SIZE:-16}
RUNS=${RUNS:-11}
WORK=${WORK:-$root/target/bench-layouts}
CXX=${CXX:-g++}
PEER_FLAGS=${PEER_FLAGS:-"-O2 -march=x86-64 -static"}
mkdir -p "$WORK"
if [ -z "${BIN:-}" ]; then
    (cd "$root" && cargo build --release --quiet)
    BIN=${CARGO_TARGET_DIR:-$root/target}/release/tictactoe
fi
BIN=$(realpath "$BIN")
"$CXX" $PEER_FLAGS -o "$WORK/peer" "$root/benches/peer.cpp"
cd "$WORK"

python3 - "$SIZE" <<'PY'
import random, sys
size = int(float(sys.argv[1]) * 1_000_000)
rng = random.Random(18)

def short_games():
    tokens, length = [], 0
    while length < size:
        n, q = 100, rng.randint(1, 8)
        game = [str(n), str(q)]
        for k, cell in enumerate(rng.sample(range(n * n), q)):
            game += [str(cell // n), str(cell % n), str(1 + k % 2)]
        tokens.append(game)
        length += sum(len(t) + 1 for t in game)
    return [str(len(tokens))] + [t for game in tokens for t in game]

tokens = short_games()
for name, separator in (("one-line", " "), ("tabs", "\t"), ("token-lines", "\n")):
    with open(f"{name}.in", "w") as out:
        out.write(separator.join(tokens) + "\n")
for name, case, length in (("n1", "1\n1\n0 0 {}\n", 10), ("q0", "7\n0\n", 4)):
    count = size // length
    with open(f"{name}.in", "w") as out:
        out.write(f"{count}\n")
        out.write("".join(case.format(1 + k % 2) for k in range(count)))
PY

printf '| input | MB | cases | wc -l ms | peer ms | --threads 1 ms | default ms | 1t / peer | default / peer | default / wc | 1t MB/s | RSS MiB | outputs agree |\n'
printf '| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |\n'
for name in one-line tabs token-lines n1 q0; do
    f=$name.in
    ok=yes
    "$BIN" "$f" > "$f.ans"
    ./peer "$f" | cmp -s - "$f.ans" || ok=NO
    "$BIN" --threads 1 "$f" | cmp -s - "$f.ans" || ok=NO
    # hyperfine stops at a command that fails; its stderr says which.
    bin=$(printf %q "$BIN")
    hyperfine -N -w 1 -r "$RUNS" --export-json "$f.json" \
        "wc -l $f" "./peer $f" "$bin --threads 1 $f" "$bin $f" >/dev/null
    rss=$( { /usr/bin/time -v "$BIN" "$f" >/dev/null; } 2>&1 | awk '/Maximum resident/ {print $6}')
    python3 - "$f" "$ok" "$rss" <<'PY'
import json, os, statistics, sys
f, ok, rss = sys.argv[1], sys.argv[2], int(sys.argv[3])
wc, peer, one, default = (statistics.median(r["times"]) * 1000 for r in json.load(open(f + ".json"))["results"])
mb = os.path.getsize(f) / 1e6
cases = open(f).read(32).split()[0]
print(f"| {f[:-3]} | {mb:.1f} | {int(cases):,} | {wc:.1f} | {peer:.1f} | {one:.1f} | {default:.1f} | "
      f"{one / peer:.2f} | {default / peer:.2f} | {default / wc:.1f} | {mb / one * 1000:.0f} | {rss / 1024:.1f} | {ok} |")
PY
done
