struct item { int key; struct item *next; };
struct item *list_build(int n);
int list_find(const struct item *head, int key);
void list_free(struct item *head);
