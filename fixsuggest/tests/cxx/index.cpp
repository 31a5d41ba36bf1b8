// fixsuggest.cxx: a C++ log indexer whose dedup is a linear search
// (std::string == inlined from libstdc++; an implicit move constructor with
// an unnamed parameter).  usage: index LINES DISTINCT_KEYS
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

struct Entry {
    std::string key;
    int count = 0;
};

template <typename T> class Index {
public:
    __attribute__((noinline)) T *find(const std::string &k) {
        for (size_t i = 0; i < items_.size(); i++) // FIND-LOOP
            if (items_[i].key == k)                 // FIND-COMPARE
                return &items_[i];
        return nullptr;
    }
    void add(const std::string &k) {
        T *e = find(k);
        if (!e) {
            items_.push_back(T{k, 0});
            e = &items_.back();
        }
        e->count++;
    }
    size_t size() const { return items_.size(); }

private:
    std::vector<T> items_;
};

int main(int argc, char **argv) {
    long lines = argc > 1 ? atol(argv[1]) : 20000;
    unsigned distinct = argc > 2 ? (unsigned)atoi(argv[2]) : 100;
    Index<Entry> idx;
    unsigned x = 42;
    for (long i = 0; i < lines; i++) {
        x = x * 1103515245u + 12345u;
        char buf[32];
        snprintf(buf, sizeof buf, "user-%08u", (x >> 8) % distinct);
        idx.add(buf);
    }
    printf("keys=%zu\n", idx.size());
    return 0;
}
