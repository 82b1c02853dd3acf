# Wrong: takes a full board for a draw, so a win on the move that fills it is missed.
import sys


def main():
    data = sys.stdin.buffer.read().split()
    cases, at = int(data[0]), 1
    out = []
    for _ in range(cases):
        n, moves = int(data[at]), int(data[at + 1])
        at += 2
        rows, cols = [0] * n, [0] * n
        diagonal = anti = 0
        results = []
        for number in range(moves):
            r, c, p = int(data[at]), int(data[at + 1]), int(data[at + 2])
            at += 3
            d = 1 if p == 1 else -1
            full = n * d
            rows[r] += d
            cols[c] += d
            won = rows[r] == full or cols[c] == full
            if r == c:
                diagonal += d
                won = won or diagonal == full
            if r + c == n - 1:
                anti += d
                won = won or anti == full
            if number == n * n - 1:
                won = False
            results.append(str(p) if won else "0")
        out.append(" ".join(results))
    sys.stdout.write("\n".join(out) + "\n")


main()
