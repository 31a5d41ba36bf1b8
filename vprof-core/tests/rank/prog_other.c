/* An unrelated program for test_cmd.c: no function name shared with
 * prog_rank.c except main, which its profiles never sample. */
int other_a(int x)
{
    return x + 7;
}

int other_b(int x)
{
    return other_a(x) * 2;
}

int main(void)
{
    return other_b(1);
}
