#include <stdio.h>
int main(void) {
  puts(MSG);
  return 0;
}
