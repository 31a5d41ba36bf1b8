int greet(const char *who, int times);
