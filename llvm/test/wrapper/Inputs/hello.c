#include <stdio.h>
#include "hello.h"
#ifndef GREETING
#define GREETING 1
#endif
int greeting = GREETING;
int main(int argc, char **argv) {
  return greet(argc > 1 ? argv[1] : "world", greeting) == 0 ? 0 : 1;
}
