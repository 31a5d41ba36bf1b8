#include <stdlib.h>
#include "list.h"
struct item *list_build(int n) {
  struct item *head = NULL;
  for (int i = n - 1; i >= 0; i--) {
    struct item *it = malloc(sizeof *it);
    it->key = i * 2;
    it->next = head;
    head = it;
  }
  return head;
}
int list_find(const struct item *head, int key) {
  int pos = 0;
  for (const struct item *it = head; it; it = it->next, pos++)
    if (it->key == key)
      return pos;
  return -1;
}
void list_free(struct item *head) {
  while (head) {
    struct item *next = head->next;
    free(head);
    head = next;
  }
}
