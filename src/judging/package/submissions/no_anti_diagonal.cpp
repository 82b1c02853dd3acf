// Wrong: forgets the anti-diagonal.
#include <cstdio>
#include <vector>
int main() {
    int t;
    if (scanf("%d", &t) != 1) return 1;
    while (t--) {
        int n, q;
        if (scanf("%d %d", &n, &q) != 2) return 1;
        std::vector<int> rows(n, 0), cols(n, 0);
        int diagonal = 0, anti_diagonal = 0;
        for (int i = 0; i < q; i++) {
            int r, c, p;
            if (scanf("%d %d %d", &r, &c, &p) != 3) return 1;
            int d = p == 1 ? 1 : -1;
            rows[r] += d;
            cols[c] += d;
            if (r == c) diagonal += d;
            if (r + c == n - 1) anti_diagonal += d;
            int full = n * d;
            bool won = rows[r] == full || cols[c] == full || (r == c && diagonal == full);
            printf(i ? " %d" : "%d", won ? p : 0);
        }
        printf("\n");
    }
    return 0;
}
