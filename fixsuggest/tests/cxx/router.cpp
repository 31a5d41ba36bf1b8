// A router that keeps testing rules after the first match (no `break`):
// the rules' matchers are virtual and write nothing, so the loop's result is
// the `chosen = ...` update, and the skip condition should name it, not the
// call through the vtable.
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

struct Request {
  std::string path;
  int port;
};

struct Matcher {
  virtual ~Matcher() = default;
  virtual bool matches(const Request& r) const = 0;
};

struct PrefixMatcher : Matcher {
  std::string prefix;
  explicit PrefixMatcher(std::string p) : prefix(std::move(p)) {}
  bool matches(const Request& r) const override { return r.path.compare(0, prefix.size(), prefix) == 0; }
};

struct PortMatcher : Matcher {
  int port;
  explicit PortMatcher(int p) : port(p) {}
  bool matches(const Request& r) const override { return r.port == port; }
};

struct Rule {
  std::unique_ptr<Matcher> matcher;
  int backend;
};

class Router {
 public:
  void add(std::unique_ptr<Matcher> m, int backend) { rules_.push_back({std::move(m), backend}); }

  int route(const Request& req) {
    int chosen = -1;
    for (size_t i = 0; i < rules_.size(); ++i) {  // ROUTE-LOOP
      bool hit = rules_[i].matcher->matches(req);
      if (hit && chosen < 0) {
        chosen = rules_[i].backend;  // CHOSEN-LINE
      }
    }
    return chosen;
  }

 private:
  std::vector<Rule> rules_;
};

int main(int argc, char** argv) {
  int nrules = argc > 1 ? atoi(argv[1]) : 50;
  int nreq = argc > 2 ? atoi(argv[2]) : 20000;
  Router router;
  router.add(std::make_unique<PortMatcher>(80), 0);
  for (int i = 1; i < nrules; ++i) {
    if (i % 2)
      router.add(std::make_unique<PrefixMatcher>("/api/v" + std::to_string(i) + "/"), i);
    else
      router.add(std::make_unique<PortMatcher>(1000 + i), i);
  }
  Request rq{"/static/x", 80};
  unsigned long sum = 0;
  for (int i = 0; i < nreq; ++i) {
    rq.port = 80 + (i % 3 == 0);
    sum = sum * 31 + unsigned(router.route(rq) + 1);
  }
  printf("%lu\n", sum);
  return 0;
}
