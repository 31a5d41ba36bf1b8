/* fork + exec of another program (this one in "child" mode, and /bin/true),
 * and exec of the image itself in the end (the process continues as "last").
 * "cleanenv" / "ownpreload": exec of itself as "last" with an environment of
 * its own making (only PATH; PATH and an LD_PRELOAD of its own), as
 * sanitising wrappers do.  "into PROG": exec of PROG (a static program). */
#include <string.h>
#include <sys/wait.h>
#include "common.h"

int main(int argc, char **argv)
{
    if (argc > 1 && strcmp(argv[1], "child") == 0) {
        printf("child %ld\n", hot(100000));
        return 4;
    }
    if (argc > 1 && strcmp(argv[1], "last") == 0) {
        printf("last %ld\n", hot(100000));
        return 6;
    }
    long h = hot(100000);
    fflush(stdout);
    if (argc > 1 && (!strcmp(argv[1], "cleanenv") || !strcmp(argv[1], "ownpreload"))) {
        printf("before exec %ld\n", h);
        fflush(stdout);
        char *nargv[] = {argv[0], "last", NULL};
        char *clean[] = {"PATH=/usr/bin:/bin", NULL};
        char *own[] = {"PATH=/usr/bin:/bin", "LD_PRELOAD=libm.so.6", NULL};
        execve("/proc/self/exe", nargv, !strcmp(argv[1], "cleanenv") ? clean : own);
        return 98;
    }
    if (argc > 2 && !strcmp(argv[1], "into")) {
        printf("before exec %ld\n", h);
        fflush(stdout);
        execl(argv[2], argv[2], (char *)NULL);
        return 97;
    }
    pid_t pid = fork();
    if (pid == 0) {
        execl("/proc/self/exe", argv[0], "child", (char *)NULL);
        _exit(127);
    }
    int st, st2;
    waitpid(pid, &st, 0);
    pid = fork();
    if (pid == 0) {
        execlp("true", "true", (char *)NULL);
        _exit(127);
    }
    waitpid(pid, &st2, 0);
    printf("parent %ld child-exit %d true-exit %d\n", h, WEXITSTATUS(st), WEXITSTATUS(st2));
    fflush(stdout);
    execl("/proc/self/exe", argv[0], "last", (char *)NULL);
    return 99;
}
