/* fork without exec: parent and child both burn CPU in different functions. */
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

__attribute__((noinline)) static double parent_work(long n)
{
    double x = 0;
    for (long i = 0; i < n; i++)
        x += (double)(i % 7) * 0.5;
    return x;
}

__attribute__((noinline)) static double child_work(long n)
{
    double x = 1;
    for (long i = 0; i < n; i++)
        x += (double)(i % 5) * 0.25;
    return x;
}

int main(void)
{
    fflush(stdout);
    pid_t pid = fork();
    if (pid < 0)
        return 1;
    if (pid == 0) {
        printf("child %.0f\n", child_work(200000000));
        return 3;
    }
    double p = parent_work(200000000);
    int st;
    waitpid(pid, &st, 0);
    printf("parent %.0f child-exit %d\n", p, WEXITSTATUS(st));
    return 0;
}
