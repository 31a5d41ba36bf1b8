/* vfork + exec and posix_spawn / posix_spawnp while sampling. */
#include <spawn.h>
#include <string.h>
#include <sys/wait.h>
#include "common.h"

extern char **environ;

int main(int argc, char **argv)
{
    if (argc > 1 && strcmp(argv[1], "child") == 0) {
        printf("child %s %ld\n", argv[2], hot(50000));
        return 5;
    }
    long h = hot(100000);
    fflush(stdout);
    int st;
    pid_t pid = vfork();
    if (pid == 0) {
        execl("/proc/self/exe", argv[0], "child", "vfork", (char *)NULL);
        _exit(127);
    }
    waitpid(pid, &st, 0);
    int a = WEXITSTATUS(st);
    char *args[] = {argv[0], "child", "spawn", NULL};
    if (posix_spawn(&pid, "/proc/self/exe", NULL, NULL, args, environ) != 0)
        return 20;
    waitpid(pid, &st, 0);
    int b = WEXITSTATUS(st);
    char *targs[] = {"true", NULL};
    if (posix_spawnp(&pid, "true", NULL, NULL, targs, environ) != 0)
        return 21;
    waitpid(pid, &st, 0);
    printf("parent %ld vfork-exit %d spawn-exit %d spawnp-exit %d\n", h, a, b, WEXITSTATUS(st));
    return 0;
}
