// cxx/badhash.cpp - fixsuggest.cxx: a word registry whose hash is the key's
// length, so keys of one length share one bucket of the std::unordered_map.
// libstdc++'s _M_find_before_node walks that bucket's chain on every
// lookup: a 1* loop (it keeps the node before the key), whose evidence
// must say that the keys collide (docs/vprof-loop.md, "Hash bucket chains").
//
// usage: badhash WORDS
#include <cstdio>
#include <cstdlib>
#include <string>
#include <unordered_map>

struct LengthHash {
    size_t operator()(const std::string &s) const { return s.size(); }
};

class Registry {
  public:
    void add(const std::string &word) { ++counts_[word]; }
    size_t size() const { return counts_.size(); }

  private:
    std::unordered_map<std::string, int, LengthHash> counts_;
};

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 1000;
    Registry r;
    for (int i = 0; i < n; i++)
        r.add("w" + std::to_string(100000 + i * 7919 % 100000)); // all 7 bytes long
    printf("%zu\n", r.size());
    return 0;
}
