#!/usr/bin/env bash
# Times two builds of tictactoe side by side in one run, on the shapes
# compare.sh measures, so that a refactoring can be held to "within noise":
#
#   benches/before_after.sh BEFORE_BINARY AFTER_BINARY [WORKDIR]
#
# Build BEFORE from the commit to compare with (git worktree, then
# `cargo build --release`). Needs hyperfine; each figure is the median of
# 9 runs after a warm-up, the two builds' runs interleaved by hyperfine's
# order, on a warm page cache. Prints one line per shape: the medians and
# after / before.
set -euo pipefail
before=$(realpath "$1")
after=$(realpath "$2")
root=$(cd "$(dirname "$0")/.." && pwd)
work=${3:-$(mktemp -d)}
mkdir -p "$work"
cd "$work"
if [ ! -f big.in ]; then
  "$after" gen --limits relaxed --cases 25000 --min-n 3 --max-n 100 --seed 6 > big.in
fi
"$after" big.in > big.ans
cp "$root/fixtures/solve/leetcode-example.in" example.in
limits=(--max-t 100000 --min-q 0)
shapes=(
  "file|BIN big.in"
  "file, one thread|BIN --threads 1 big.in"
  "pipe|cat big.in | BIN"
  "validate|BIN validate ${limits[*]} big.in"
  "validate, one thread|BIN validate --threads 1 ${limits[*]} big.in"
  "check --input|BIN check --input big.in big.ans big.ans"
  "example (start-up)|BIN example.in"
)
printf '%-24s %12s %12s %8s\n' shape before after ratio
for shape in "${shapes[@]}"; do
  name=${shape%%|*}
  command=${shape#*|}
  runs=(--warmup 2 --runs 9)
  [ "$name" = "example (start-up)" ] && runs=(--warmup 20 --runs 200)
  hyperfine -i "${runs[@]}" --export-json run.json \
    "${command//BIN/$before}" "${command//BIN/$after}" >/dev/null 2>&1
  python3 - "$name" <<'PY'
import json, sys
results = json.load(open("run.json"))["results"]
b, a = (r["median"] * 1000 for r in results)
print(f"{sys.argv[1]:<24} {b:9.1f} ms {a:9.1f} ms {a / b:8.2f}")
PY
done
