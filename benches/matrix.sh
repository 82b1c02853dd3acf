#!/usr/bin/env bash
# The performance matrix: tictactoe against `wc -l` and a C++ contest
# solution (benches/peer.cpp) on every shape of input at once, to find the
# cells where it falls off a cliff.
#
#   benches/matrix.sh                         (from anywhere; 23 min with SIZE=64 on 2 cores)
#   SIZE=2 RUNS=2 WARMUP=0 benches/matrix.sh  (a quick run, about 2 min)
#   NS="3 1000000000" SHAPES=dense VARIANTS="plain leetcode" benches/matrix.sh
#
# Cells: N x games x variant x mode.
#   N         NS, default 3 10 100 1000 10000 1000000 1000000000
#   games     dense: up to a full board for N <= 1000 (gen's default N x N
#               moves; --max-moves 1000000 for N = 1000), --max-moves 200000
#               for larger N (games of about 10^5 moves);
#             sparse: --max-moves 20 (1 to 20 moves a case; 5 for N = 3),
#               hundreds of thousands of cases
#   variant   plain:    gen's output, coordinates of N's length (1 to 9 digits)
#             awkward:  CRLF line ends and runs of 1 to 8 spaces between tokens
#             padded:   every integer zero-padded to 10 digits
#             leetcode: `tictactoe convert --to leetcode` of the same games
#   mode      file (tictactoe FILE), file with --threads 1, pipe
#             (cat FILE | tictactoe), pipe with --threads 1
# Every variant of an (N, games) pair holds a prefix of the same games (one
# seed; gen's cases do not depend on their count), as many cases as make
# about SIZE MB (LC_SIZE for leetcode).
#
# Each cell's hyperfine run (-N, RUNS runs after WARMUP) holds the
# references too: `wc -l F`, `cat F | wc -l`, the peer from a file
# (`peer F`: started as tictactoe is, without a shell, whose start-up of
# about 0.8 ms the peer once carried alone) and a pipe (`cat F | peer`),
# `tictactoe validate` (plain and leetcode only: the other variants are
# not canonical, so validate stops at their first byte) and `tictactoe check --input F F.ans F.ans`. Peak RSS is
# one /usr/bin/time -v run of each. Before timing, the peer's output is
# compared byte for byte with tictactoe's.
#
# Settings (environment):
#   SIZE=80      MB per input          LC_SIZE=$SIZE  MB per LeetCode input
#   RUNS=5       hyperfine runs        WARMUP=1       warm-up runs
#   NS, SHAPES (dense sparse), VARIANTS (plain awkward padded leetcode)
#   WORK=target/bench-matrix           data, JSON and the report
#   OUT=$WORK/matrix-SIZE.md           the Markdown report
#   BIN=...      the tictactoe to time (default: `cargo judge-build`, copied)
#   CXX=g++      PEER_FLAGS="-O2 -march=x86-64 -static"
#   KEEP=1       keep the inputs for the next run (0: delete each cell's)
#   APPEND=1     add to the last run's results instead of starting afresh
#   REPORT_ONLY=1  measure nothing: write the report from the last results
#
# Needs hyperfine, GNU time, perl, python3 and a C++ compiler.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
SIZE=${SIZE:-80}
LC_SIZE=${LC_SIZE:-$SIZE}
RUNS=${RUNS:-5}
WARMUP=${WARMUP:-1}
NS=${NS:-"3 10 100 1000 10000 1000000 1000000000"}
SHAPES=${SHAPES:-"dense sparse"}
VARIANTS=${VARIANTS:-"plain awkward padded leetcode"}
WORK=${WORK:-$root/target/bench-matrix}
OUT=${OUT:-$WORK/matrix-$SIZE.md}
CXX=${CXX:-g++}
PEER_FLAGS=${PEER_FLAGS:-"-O2 -march=x86-64 -static"}
KEEP=${KEEP:-1}
started=$(date +%s)

mkdir -p "$WORK/data/$SIZE" "$WORK/json"
WORK=$(cd "$WORK" && pwd)
data=$WORK/data/$SIZE
if [ -z "${BIN:-}" ]; then
    (cd "$root" && cargo judge-build --quiet)
    BIN=$root/target/x86_64-unknown-linux-gnu/release/tictactoe
fi
# Timed as a copy, as compare.sh does (a binary where the linker left it
# starts with more page faults).
cp "$BIN" "$WORK/tictactoe"
bin=$WORK/tictactoe
# shellcheck disable=SC2086
"$CXX" $PEER_FLAGS -o "$WORK/peer" "$root/benches/peer.cpp"
peer=$WORK/peer
results=$WORK/results-$SIZE.jsonl
# APPEND=1 keeps the cells measured before (a cell measured again replaces
# its old row in the report): re-run a few cells without the whole matrix.
[ "${APPEND:-0}" = 1 ] || [ "${REPORT_ONLY:-0}" = 1 ] || : > "$results"

# --- Inputs -----------------------------------------------------------------
seed_of() { echo $(( 7000 + $1 % 1000003 )); }

gen_args() { # N GAMES
    local n=$1 games=$2
    printf '%s ' --limits relaxed --min-n "$n" --max-n "$n" --seed "$(seed_of "$n")"
    if [ "$games" = dense ]; then
        case $n in
            3|10|100) ;;                       # up to N x N moves
            1000) printf '%s ' --max-moves 1000000 ;;
            *) printf '%s ' --max-moves 200000 ;;
        esac
    else
        if [ "$n" = 3 ]; then printf '%s ' --max-moves 5; else printf '%s ' --max-moves 20; fi
    fi
}

transform() { # VARIANT: stdin to stdout
    case $1 in
        plain) cat ;;
        awkward) perl -pe 's/ /" " x (1 + $i++ % 8)/ge; s/\n/\r\n/' ;;
        padded) perl -pe 's/(\d+)/sprintf("%010d", $1)/ge' ;;
        leetcode) "$bin" convert --to leetcode ;;
    esac
}

make_input() { # N GAMES VARIANT FILE
    local n=$1 games=$2 variant=$3 file=$4 target pilot bytes cases size
    [ -s "$file" ] && [ -s "$file.ans" ] && return 0
    target=$SIZE
    [ "$variant" = leetcode ] && target=$LC_SIZE
    target=$(( target * 1000000 ))
    pilot=20000
    [ "$games" = dense ] && [ "$n" = 100 ] && pilot=100
    [ "$games" = dense ] && [ "$n" -ge 1000 ] && pilot=3
    # shellcheck disable=SC2046
    bytes=$("$bin" gen $(gen_args "$n" "$games") --cases "$pilot" | transform "$variant" | wc -c)
    cases=$(( (target * pilot + bytes / 2) / bytes ))
    [ "$cases" -lt 1 ] && cases=1
    for _ in 1 2; do
        # shellcheck disable=SC2046
        "$bin" gen $(gen_args "$n" "$games") --cases "$cases" | transform "$variant" > "$file.tmp"
        size=$(stat -c %s "$file.tmp")
        # Few long games make the size uneven: correct the count once.
        if [ $(( size * 10 )) -lt $(( target * 6 )) ] || [ $(( size * 10 )) -gt $(( target * 16 )) ]; then
            cases=$(( (cases * target + size / 2) / size ))
            [ "$cases" -lt 1 ] && cases=1
            continue
        fi
        break
    done
    mv "$file.tmp" "$file"
    "$bin" "$file" > "$file.ans"
}

# --- One cell -----------------------------------------------------------------
rss_of() { # COMMAND...: peak RSS in KiB, reading the file given as argument
    { /usr/bin/time -v "$@" > /dev/null; } 2>&1 | awk '/Maximum resident/ {print $NF}'
}
rss_pipe() { # FILE COMMAND...: peak RSS in KiB of COMMAND reading FILE from a pipe
    local file=$1
    shift
    cat "$file" | { /usr/bin/time -v "$@" > /dev/null; } 2>&1 | awk '/Maximum resident/ {print $NF}'
}

run_cell() { # N GAMES VARIANT
    local n=$1 games=$2 variant=$3 name f json ok validate
    name=n$n-$games-$variant
    f=$data/$name.in
    printf '%s: ' "$name" >&2
    make_input "$n" "$games" "$variant" "$f"
    ok=yes
    "$peer" "$f" | cmp -s - "$f.ans" || ok=NO
    cat "$f" | "$peer" | cmp -s - "$f.ans" || ok=NO
    "$bin" --threads 1 "$f" | cmp -s - "$f.ans" || ok=NO
    cat "$f" | "$bin" | cmp -s - "$f.ans" || ok=NO
    validate=0
    local limits=(--max-t 1000000000 --max-n 1000000000 --min-q 0 --max-errors 1)
    if [ "$variant" = plain ] || [ "$variant" = leetcode ]; then
        validate=1
        "$bin" validate "${limits[@]}" "$f" > /dev/null || ok=NO
    fi
    "$bin" check --input "$f" "$f.ans" "$f.ans" > /dev/null || ok=NO
    local cmds=(
        "wc -l $f"
        "sh -c 'cat $f | wc -l'"
        "$peer $f"
        "sh -c 'cat $f | $peer'"
        "$bin $f"
        "$bin --threads 1 $f"
        "sh -c 'cat $f | $bin'"
        "sh -c 'cat $f | $bin --threads 1'"
        "$bin check --input $f $f.ans $f.ans"
    )
    [ "$validate" = 1 ] && cmds+=("$bin validate ${limits[*]} $f")
    json=$WORK/json/$SIZE-$name.json
    hyperfine -N -i --warmup "$WARMUP" --runs "$RUNS" --export-json "$json" "${cmds[@]}" > /dev/null 2>&1
    local rss_file rss_file1 rss_pipe0 rss_pipe1 rss_peer rss_peer_pipe rss_check rss_validate=0
    rss_file=$(rss_of "$bin" "$f")
    rss_file1=$(rss_of "$bin" --threads 1 "$f")
    rss_pipe0=$(rss_pipe "$f" "$bin")
    rss_pipe1=$(rss_pipe "$f" "$bin" --threads 1)
    rss_peer=$(rss_of "$peer" "$f")
    rss_peer_pipe=$(rss_pipe "$f" "$peer")
    rss_check=$(rss_of "$bin" check --input "$f" "$f.ans" "$f.ans")
    [ "$validate" = 1 ] && rss_validate=$(rss_of "$bin" validate "${limits[@]}" "$f")
    local bytes moves cases
    bytes=$(stat -c %s "$f")
    moves=$(tr -cd 0-9 < "$f.ans" | wc -c)
    cases=$(wc -l < "$f.ans")
    printf '{"n": %s, "games": "%s", "variant": "%s", "bytes": %s, "moves": %s, "cases": %s, "json": "%s", "ok": "%s", "validate": %s, "rss": {"file": %s, "file1": %s, "pipe": %s, "pipe1": %s, "peer": %s, "peer_pipe": %s, "check": %s, "validate": %s}}\n' \
        "$n" "$games" "$variant" "$bytes" "$moves" "$cases" "$json" "$ok" "$validate" \
        "$rss_file" "$rss_file1" "$rss_pipe0" "$rss_pipe1" "$rss_peer" "$rss_peer_pipe" "$rss_check" "$rss_validate" >> "$results"
    python3 - "$json" "$bytes" "$ok" >&2 <<'PY'
import json, sys
r = [x["median"] for x in json.load(open(sys.argv[1]))["results"]]
mb = int(sys.argv[2]) / 1e6
print(f"{mb:6.1f} MB  wc {r[0]*1e3:7.1f} ms  peer {r[2]*1e3:7.1f} ms  tictactoe {r[4]*1e3:7.1f} ms "
      f"(x{r[4]/r[2]:.2f} peer, x{r[4]/r[0]:.1f} wc)  outputs agree: {sys.argv[3]}")
PY
    if [ "$KEEP" = 0 ]; then rm -f "$f" "$f.ans"; fi
}

[ "${REPORT_ONLY:-0}" = 1 ] && NS=none  # REPORT_ONLY=1: only write the report again
for n in $NS; do
    [ "$n" = none ] && break
    for games in $SHAPES; do
        for variant in $VARIANTS; do
            run_cell "$n" "$games" "$variant"
        done
    done
done

# --- Report -------------------------------------------------------------------
elapsed=$(( $(date +%s) - started ))
[ "${REPORT_ONLY:-0}" = 1 ] && elapsed=-1
python3 - "$results" "$OUT" "$SIZE" "$LC_SIZE" "$RUNS" "$WARMUP" "$elapsed" "$PEER_FLAGS" <<'PY'
import json, platform, subprocess, sys
results, out, size, lc_size, runs, warmup, elapsed, peer_flags = sys.argv[1:]
cells = {}
for line in open(results):
    c = json.loads(line)
    cells[(c["n"], c["games"], c["variant"])] = c  # the last run of a cell wins
order = {"dense": 0, "sparse": 1, "plain": 0, "awkward": 1, "padded": 2, "leetcode": 3}
cells = sorted(cells.values(), key=lambda c: (c["n"], order[c["games"]], order[c["variant"]]))

def median(cell, i):
    return json.load(open(cell["json"]))["results"][i]["median"]

def cpu(cell, i):  # user + system, the mean of the runs (hyperfine keeps no median)
    r = json.load(open(cell["json"]))["results"][i]
    return r["user"] + r["system"]

MIB = 1024.0
MODES = [  # name, command index, wc index, peer index, rss key
    ("file", 4, 0, 2, "file"),
    ("file, --threads 1", 5, 0, 2, "file1"),
    ("pipe", 6, 1, 3, "pipe"),
    ("pipe, --threads 1", 7, 1, 3, "pipe1"),
]
rows = []
for c in cells:
    for mode, i, wc, pe, rss in MODES:
        t = median(c, i)
        rows.append(dict(cell=c, mode=mode, t=t, wc=median(c, wc), peer=median(c, pe),
                         cpu=cpu(c, i), peer_cpu=cpu(c, pe),
                         rss=c["rss"][rss] / MIB,
                         peer_rss=c["rss"]["peer" if pe == 2 else "peer_pipe"] / MIB,
                         per_byte=t / c["bytes"]))
best = min(r["per_byte"] for r in rows)
best_row = min(rows, key=lambda r: r["per_byte"])

def label(c):
    digits = {"padded": "10"}.get(c["variant"], str(len(str(c["n"] - 1))))
    return f"{c['n']:,} | {c['games']} | {c['variant']} ({digits} d)"

lscpu = subprocess.run(["lscpu"], capture_output=True, text=True).stdout
model = next((l.split(":", 1)[1].strip() for l in lscpu.splitlines() if l.startswith("Model name")), "?")
cpus = next((l.split(":", 1)[1].strip() for l in lscpu.splitlines() if l.startswith("CPU(s)")), "?")
o = []
o.append(f"# tictactoe performance matrix\n")
o.append(f"Machine: {model}, {cpus} CPUs ({platform.machine()}, Linux {platform.release()}). "
         f"Inputs about {size} MB ({lc_size} MB LeetCode); medians of {runs} runs after {warmup} warm-up "
         f"(hyperfine -N, page cache warm); peer built with `{peer_flags}`. "
         + (f"Run time of this invocation {int(elapsed)//60} min {int(elapsed)%60} s.\n" if int(elapsed) >= 0
            else "Report written again from stored results.\n"))
o.append("Columns: **MB/s** tictactoe's throughput; **/ wc** tictactoe's time over `wc -l F` "
         "(file modes) or `cat F | wc -l` (pipe modes); **/ peer** over the C++ peer in the same mode "
         "(< 1: tictactoe is faster); **/ best** time per byte over the best row's "
         f"({label(best_row['cell'])}, {best_row['mode']}); **CPU ms** user + system time, the mean of the runs, "
         "and **CPU / peer** its ratio to the peer's: steadier than wall time on a shared machine, "
         "but more than wall time when tictactoe uses threads; RSS is peak resident set (MiB).\n")
o.append("| N | games | variant (token digits) | MB | moves | mode | tictactoe ms | MB/s | / wc | / peer | / best | CPU ms | CPU / peer | RSS | peer RSS | outputs agree |")
o.append("| ---: | --- | --- | ---: | ---: | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |")
for r in rows:
    c = r["cell"]
    o.append(f"| {label(c)} | {c['bytes']/1e6:.1f} | {c['moves']:,} | {r['mode']} | {r['t']*1e3:.1f} | "
             f"{c['bytes']/r['t']/1e6:.0f} | {r['t']/r['wc']:.1f} | {r['t']/r['peer']:.2f} | {r['per_byte']/best:.2f} | "
             f"{r['cpu']*1e3:.0f} | {r['cpu']/r['peer_cpu']:.2f} | "
             f"{r['rss']:.1f} | {r['peer_rss']:.1f} | {c['ok']} |")
o.append("\n## validate and check against solve (file, default threads)\n")
o.append("| N | games | variant (token digits) | solve ms | validate / solve | check --input / solve | validate RSS | check RSS | wc -l ms | peer ms |")
o.append("| ---: | --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
for c in cells:
    solve = median(c, 4)
    v = f"{median(c, 9)/solve:.2f}" if c["validate"] else "n/a"
    vr = f"{c['rss']['validate']/MIB:.1f}" if c["validate"] else "n/a"
    o.append(f"| {label(c)} | {solve*1e3:.1f} | {v} | {median(c, 8)/solve:.2f} | {vr} | "
             f"{c['rss']['check']/MIB:.1f} | {median(c, 0)*1e3:.1f} | {median(c, 2)*1e3:.1f} |")
o.append("\n## Cliffs\n")
def listing(title, pred, show):
    hits = [r for r in rows if pred(r)]
    o.append(f"**{title}** ({len(hits)} of {len(rows)})\n")
    for r in hits:
        o.append(f"- {label(r['cell']).replace(' | ', ', ')}, {r['mode']}: {show(r)}")
    o.append("")
listing("Slower than the peer", lambda r: r["t"] > r["peer"],
        lambda r: f"{r['t']/r['peer']:.2f} x peer (CPU time {r['cpu']/r['peer_cpu']:.2f} x)")
listing("Slower than 6x wc -l", lambda r: r["t"] > 6 * r["wc"], lambda r: f"{r['t']/r['wc']:.1f} x wc -l")
listing("Slower than 4x wc -l (but not 6x)", lambda r: 4 * r["wc"] < r["t"] <= 6 * r["wc"], lambda r: f"{r['t']/r['wc']:.1f} x wc -l")
listing("Peak RSS over 16 MiB", lambda r: r["rss"] > 16, lambda r: f"{r['rss']:.1f} MiB")
listing("More than 2x per byte worse than the best row", lambda r: r["per_byte"] > 2 * best, lambda r: f"{r['per_byte']/best:.2f} x best")
tools = [(c, "validate", median(c, 9) / median(c, 4)) for c in cells if c["validate"]]
tools += [(c, "check --input", median(c, 8) / median(c, 4)) for c in cells]
big = [(c, t, x) for c, t, x in tools if x > 2]
o.append(f"**validate or check over 2x solve** ({len(big)} of {len(tools)})\n")
for c, t, x in big:
    o.append(f"- {label(c).replace(' | ', ', ')}: {t} {x:.2f} x solve")
bad = [c for c in cells if c["ok"] != "yes"]
o.append(f"\n**Outputs that disagree** (peer vs tictactoe, file vs pipe, or a failed validate/check): {len(bad)}")
for c in bad:
    o.append(f"- {label(c).replace(' | ', ', ')}")
open(out, "w").write("\n".join(o) + "\n")
print("\n".join(o))
PY
echo "report: $OUT" >&2
