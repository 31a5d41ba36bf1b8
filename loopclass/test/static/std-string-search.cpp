// libstdc++'s std::string search members (find, rfind, find_first_of, ...,
// compare) are compiled into libstdc++.so and declared without memory
// attributes, but they only read the string: a call of one is not a side
// effect (docs/loopclass.md, "Library functions").  A loop counting the
// occurrences of a word has only its counter as a result (a live-out
// induction variable: 0*1?), not the call; a loop that stores what it
// finds still has that store.  A non-const member (append) stays a write.
// RUN: %vprof-cc -O2 -c %s -o %t.o -mllvm -vprof-print-loops 2>&1 | FileCheck %s
#include <string>
#include <vector>

size_t count_word(const std::string &text, const std::string &w) {
  size_t n = 0;
  for (size_t pos = 0; (pos = text.find(w, pos)) != std::string::npos; pos += w.size())
    n++;
  return n;
}
// CHECK: vprof-loop: {{.*}}count_word{{.*}} std-string-search.cpp:[[#@LINE-4]]:3 kind=loop depth=1 class=0*1?
// CHECK-NOT: external

int first_equal(const std::vector<std::string> &v, const std::string &k) {
  for (size_t i = 0; i < v.size(); i++)
    if (v[i].compare(k) == 0 && v[i].find_first_of(',') == std::string::npos)
      return (int)i;
  return -1;
}
// CHECK: vprof-loop: {{.*}}first_equal{{.*}} std-string-search.cpp:[[#@LINE-5]]:3 kind=loop depth=1 class=0*1?
// CHECK-NOT: external

void join(std::string &out, const std::vector<std::string> &v) {
  for (size_t i = 0; i < v.size(); i++)
    out.append(v[i]);
}
// CHECK: vprof-loop: {{.*}}join{{.*}} std-string-search.cpp:[[#@LINE-3]]:3 kind=loop depth=1 class=1*
// CHECK-NEXT: vprof-loop-site: {{.*}} external body {{.*}}_M_append
