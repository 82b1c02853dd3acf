#!/usr/bin/env bash
# One enormous token: a row written with millions of leading zeros, and a
# LeetCode move with millions of spaces inside. Time must grow linearly with
# the token and memory must not grow at all, from a file and from a pipe.
#
#   benches/long_tokens.sh BINARY [WORKDIR]
#
# Prints, for tokens of 100, 200 and 400 MB: the medians (hyperfine, 5 runs)
# of solve from a file and through `cat |`, beside `wc -l` on the same file,
# and solve's peak RSS (/usr/bin/time -v).
set -euo pipefail
bin=$(realpath "$1")
work=${2:-$(mktemp -d)}
mkdir -p "$work"
cd "$work"
for mb in 100 200 400; do
    { printf '1\n3\n2\n'; head -c $((mb * 1000000)) /dev/zero | tr '\0' '0'; printf '1 1 1\n2 2 2\n'; } > "zeros$mb.in"
    { printf '["TicTacToe","move","move"]\n[[3],[1,'; head -c $((mb * 1000000)) /dev/zero | tr '\0' ' '; printf '1,1],[2,2,2]]\n'; } > "spaces$mb.in"
done
for shape in zeros spaces; do
    for mb in 100 200 400; do
        file="$shape$mb.in"
        hyperfine -N -w 1 -r 5 --export-json "$file.json" \
            "wc -l $file" "$bin --threads 1 $file" "$bin $file" \
            "sh -c 'cat $file | $bin'" >/dev/null
        rss=$( { /usr/bin/time -v "$bin" "$file" >/dev/null; } 2>&1 | awk '/Maximum resident/ {print $6}')
        python3 - "$file.json" "$shape" "$mb" "$rss" <<'PY'
import json, statistics, sys
runs = json.load(open(sys.argv[1]))["results"]
ms = [statistics.median(r["times"]) * 1000 for r in runs]
print(f"{sys.argv[2]:6} {sys.argv[3]:>4} MB  wc -l {ms[0]:7.1f} ms  "
      f"solve --threads 1 {ms[1]:7.1f} ms ({ms[1] / ms[0]:.1f}x)  "
      f"solve {ms[2]:7.1f} ms  cat | solve {ms[3]:7.1f} ms  peak RSS {sys.argv[4]} KiB")
PY
    done
done
