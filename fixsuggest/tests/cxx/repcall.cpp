// A paragraph layout that measures each word with text::Shaper::width,
// whose loop shapes the word's letters, although the paragraph repeats a
// small vocabulary: Layout::render's calls of width repeat earlier calls
// with the same inputs (a repeated-call unit, docs/redundancy.md).  The
// pen position and the placement make every iteration of render's loop
// distinct, so only the calls repeat.
//   usage: repcall WORDS
#include <cstdio>
#include <cstdlib>
#include <vector>

namespace text {
struct Shaper {
  int adv[128];
  int rounds;
  __attribute__((noinline)) int width(const char *w) const;
};

int Shaper::width(const char *w) const {
  int pen = 0;
  for (const char *p = w; *p; p++) {
    int s = adv[*p & 127];
    for (int r = 0; r < rounds; r++)
      s = (s * 15 + ((s + 32) & ~63)) / 16 + (r & 1);
    pen += s;
  }
  return pen;
}
} // namespace text

struct Layout {
  const text::Shaper *sh;
  std::vector<int> xs;
  __attribute__((noinline)) int render(const char *const *words, int n);
};

int Layout::render(const char *const *words, int n) {
  int x = 0, lines = 1;
  for (int i = 0; i < n; i++) { // RENDER-LOOP
    int w = sh->width(words[i]);
    if (x + w > 40000) {
      x = 0;
      lines++;
    }
    xs.push_back(x);
    x += w;
  }
  return lines;
}

int main(int argc, char **argv) {
  static const char *const vocab[] = {"the",  "quick",  "brown", "fox",   "jumps",
                                      "over", "lazy",   "dog",   "while", "seven",
                                      "wise", "owls",   "keep",  "quiet", "under",
                                      "moon", "silver", "trees", "hum",   "softly"};
  int n = argc > 1 ? atoi(argv[1]) : 1000;
  if (n <= 0)
    return 2;
  std::vector<const char *> words(n);
  unsigned r = 12345;
  for (int i = 0; i < n; i++) {
    r = r * 1103515245u + 12345u;
    words[i] = vocab[(r >> 16) % 20];
  }
  text::Shaper sh;
  for (int g = 0; g < 128; g++)
    sh.adv[g] = 500 + g * 7;
  sh.rounds = 12;
  Layout lay{&sh, {}};
  int lines = lay.render(words.data(), n);
  printf("lines=%d placed=%zu\n", lines, lay.xs.size());
  return 0;
}
