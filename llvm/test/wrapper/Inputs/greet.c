#include <stdio.h>
#include "hello.h"
int greet(const char *who, int times) {
  for (int i = 0; i < times; i++)
    printf("hello, %s\n", who);
  return 0;
}
