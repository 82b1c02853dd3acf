#!/usr/bin/env bash
# LeetCode transcripts against the same games as Coding Ninjas files: time
# per byte, file and pipe, one thread, and peak RSS.
#
#   benches/leetcode.sh BINARY [WORKDIR]
#
# Shapes: the statement's (N 3 to 100), N = 1000 and N = 4096 (bitmaps);
# medians of 7 runs (hyperfine). Prints each shape's sizes, times, the
# per-byte ratio LeetCode / Coding Ninjas, and peak RSS.
set -euo pipefail
bin=$(realpath "$1")
work=${2:-$(mktemp -d)}
mkdir -p "$work"
cd "$work"
"$bin" gen --seed 1 --cases 1000 --min-n 3 --max-n 100 --limits relaxed > small.cn
"$bin" gen --seed 2 --cases 40 --min-n 1000 --max-n 1000 --max-moves 30000 --limits relaxed > n1000.cn
"$bin" gen --seed 3 --cases 10 --min-n 4096 --max-n 4096 --max-moves 100000 --limits relaxed > n4096.cn
for shape in small n1000 n4096; do
    "$bin" convert --to leetcode "$shape.cn" > "$shape.lc"
    hyperfine -N -w 2 -r 7 --export-json "$shape.json" \
        "$bin --threads 1 $shape.cn" "$bin --threads 1 $shape.lc" \
        "sh -c 'cat $shape.cn | $bin --threads 1'" "sh -c 'cat $shape.lc | $bin --threads 1'" >/dev/null 2>&1
    rss=$( { /usr/bin/time -v "$bin" --threads 1 "$shape.lc" >/dev/null; } 2>&1 | awk '/Maximum resident/ {print $6}')
    python3 - "$shape" "$rss" "$(stat -c %s "$shape.cn")" "$(stat -c %s "$shape.lc")" <<'PY'
import json, statistics, sys
shape, rss, cn_bytes, lc_bytes = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
ms = [statistics.median(r["times"]) * 1000 for r in json.load(open(f"{shape}.json"))["results"]]
per_byte = lambda lc, cn: (lc / lc_bytes) / (cn / cn_bytes)
print(f"{shape:6} CN {cn_bytes / 1e6:6.1f} MB {ms[0]:7.1f} ms | LC {lc_bytes / 1e6:6.1f} MB {ms[1]:7.1f} ms "
      f"| per byte LC/CN file {per_byte(ms[1], ms[0]):.2f}, pipe {per_byte(ms[3], ms[2]):.2f} | LC peak RSS {rss} KiB")
PY
done
