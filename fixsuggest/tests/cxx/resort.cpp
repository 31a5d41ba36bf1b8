// fixsuggest.cxx: a leaderboard kept sorted by std::sort of the whole
// vector after each score is added (the C++ form of e2e resort.c's qsort).
// std::sort is inlined into the loop down to its call of
// std::__introsort_loop, the call the sort unit hooks; the next board is
// the previous one with one score more, so each sort's input is mostly
// the previous sort's.  ranks() sorts a fresh random vector each time:
// inputs that share nothing, no repeat.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <vector>

struct Entry { long score, id; };

__attribute__((noinline)) static long leaderboard(long n, unsigned seed)
{
    std::vector<Entry> board;
    for (long i = 0; i < n; i++) { // BOARD-LOOP
        seed = seed * 1103515245u + 12345u;
        board.push_back({(long)(seed >> 8) % 100000, i});
        std::sort(board.begin(), board.end(),
                  [](const Entry &a, const Entry &b) { return a.score > b.score; });
    }
    return board.empty() ? 0 : board[0].score;
}

__attribute__((noinline)) static long ranks(long n, long len, unsigned seed)
{
    std::vector<long> v((size_t)len);
    long s = 0;
    for (long i = 0; i < n; i++) { // FRESH-LOOP
        for (auto &x : v) {
            seed = seed * 1103515245u + 12345u;
            x = (long)(seed >> 4);
        }
        std::sort(v.begin(), v.end());
        s += v[(size_t)len / 2] & 1023;
    }
    return s;
}

int main(int argc, char **argv)
{
    long n = argc > 1 ? atol(argv[1]) : 1000;
    printf("%ld %ld\n", leaderboard(n, 7), ranks(n / 4, 2000, 9));
    return 0;
}
