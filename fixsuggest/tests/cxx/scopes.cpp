// fixsuggest.cxx: a setting resolved by walking a chain of scopes through
// a virtual getter that writes nothing; every request repeats the walk
// (cross-loop redundant, fix memoization).  usage: scopes DEPTH REQUESTS
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <vector>

struct Scope {
    virtual ~Scope() = default;
    virtual int get(int key) const = 0;
    const Scope *parent = nullptr;
};

struct TableScope : Scope {
    int keys[4] = {-1, -1, -1, -1}, vals[4] = {0, 0, 0, 0};
    int get(int key) const override {
        for (int i = 0; i < 4; i++)
            if (keys[i] == key)
                return vals[i];
        return -1;
    }
};

__attribute__((noinline)) static int resolve(const Scope *s, int key) {
    for (const Scope *p = s; p; p = p->parent) { // RESOLVE-LOOP
        int v = p->get(key);
        if (v >= 0)
            return v;
    }
    return -1;
}

int main(int argc, char **argv) {
    int depth = argc > 1 ? atoi(argv[1]) : 100, requests = argc > 2 ? atoi(argv[2]) : 100000;
    std::vector<std::unique_ptr<TableScope>> chain;
    for (int d = 0; d < depth; d++) {
        auto s = std::make_unique<TableScope>();
        s->parent = d ? chain.back().get() : nullptr;
        if (d == 0)
            for (int k = 0; k < 4; k++)
                s->keys[k] = k, s->vals[k] = 10 * k;
        chain.push_back(std::move(s));
    }
    long total = 0;
    for (int r = 0; r < requests; r++)
        total += resolve(chain.back().get(), r % 4);
    printf("total=%ld\n", total);
    return 0;
}
