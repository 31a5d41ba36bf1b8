long stats_sum(const int *values, int count);
extern int stats_calls;
