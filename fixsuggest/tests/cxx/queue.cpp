// fixsuggest.cxx: a work queue kept in a std::vector and popped from the
// front with erase(), which moves the whole rest of the queue each time.
// The memmove is nine inlined levels below drain's loop (erase, _M_erase,
// std::move, __copy_move_a*, __copy_m), which is inlined into main.
#include <cstdio>
#include <cstdlib>
#include <vector>

static unsigned long sum;

static void process(int job) { sum += (unsigned long)job * 2654435761u % 1000; }

static void drain(std::vector<int> &q)
{
    while (!q.empty()) { // DRAIN-LOOP
        int job = q.front();
        q.erase(q.begin());
        process(job);
    }
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 1000;
    int rounds = argc > 2 ? atoi(argv[2]) : 100;
    for (int r = 0; r < rounds; r++) {
        std::vector<int> q;
        for (int i = 0; i < n; i++)
            q.push_back(i * 31 + r);
        drain(q);
    }
    printf("%lu\n", sum);
    return 0;
}
