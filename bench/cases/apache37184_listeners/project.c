/*
 * apache37184_listeners -- a slice of a build tool modelled on Apache Ant's
 * Project: build listeners, task execution, and message logging.
 *
 * Modelled on Apache37184 (LDoctor Table 3: cross-iteration redundancy, fixed
 * by memoization), in the form of LDoctor Figure 7 (Ant's
 * fireMessageLoggedEvent): nested <antcall>/<subant> invocations register the
 * parent's listeners again, so the listener vector holds the same few
 * listeners hundreds of times, and every logged message is formatted and
 * written once per registration -- identical work on identical values.
 *
 * usage: apache37184_listeners NESTED_CALLS NMESSAGES NTASK_UNITS SEED
 */
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define NOINLINE __attribute__((noinline))

enum { MSG_ERR = 0, MSG_WARN = 1, MSG_INFO = 2, MSG_VERBOSE = 3, MSG_DEBUG = 4 };

typedef struct BuildListener {
    const char *name;
    int msgOutputLevel;
    int emacsMode;
    int fd;
} BuildListener;

typedef struct { const char *task; const char *message; int priority; } BuildEvent;
typedef struct { BuildListener **listeners; int n, cap; } Vector;
typedef struct { Vector listeners; const char *name; } Project;

static uint32_t rs;
static uint32_t rnd(void) { rs ^= rs << 13; rs ^= rs >> 17; rs ^= rs << 5; return rs; }

static void vector_add(Vector *v, BuildListener *l)
{
    if (v->n == v->cap) { v->cap = v->cap ? v->cap * 2 : 8; v->listeners = realloc(v->listeners, sizeof(*v->listeners) * (size_t)v->cap); }
    v->listeners[v->n++] = l;
}

/* DefaultLogger.messageLogged: format "[task] message" with emacs-mode padding */
NOINLINE void messageLogged(const BuildListener *l, const BuildEvent *ev)
{
    if (ev->priority > l->msgOutputLevel)
        return;
    char line[512];
    size_t n = 0;
    if (!l->emacsMode) {
        size_t tl = strlen(ev->task);
        for (size_t pad = tl + 2; pad < 12; pad++) line[n++] = ' ';
        line[n++] = '[';
        memcpy(line + n, ev->task, tl); n += tl;
        line[n++] = ']'; line[n++] = ' ';
    }
    for (const char *m = ev->message; *m && n < sizeof line - 2; m++)
        line[n++] = (*m == '\t') ? ' ' : *m;          /* StringUtils.replace tabs */
    line[n++] = '\n';
    if (write(l->fd, line, n) < 0)
        abort();
}

/* Project.fireMessageLoggedEvent */
NOINLINE void fireMessageLoggedEvent(Project *p, const BuildEvent *ev)
{
    Vector *v = &p->listeners;
    for (int i = 0; i < v->n; i++) { /* ROOT-CAUSE LOOP */
        BuildListener *listener = v->listeners[i];
        messageLogged(listener, ev);
    }
}

/* the work of the tasks themselves (javac-like dependency hashing) */
NOINLINE uint64_t executeTask(int unit)
{
    uint64_t h = (uint64_t)unit * 0x9e3779b97f4a7c15ull;
    for (int i = 0; i < 2000; i++) /* HOT LOOP */
        h = (h ^ (h >> 29)) * 0xbf58476d1ce4e5b9ull + (uint64_t)i;
    return h;
}

int main(int argc, char **argv)
{
    if (argc < 5) {
        fprintf(stderr, "usage: %s NESTED_CALLS NMESSAGES NTASK_UNITS SEED\n", argv[0]);
        return 2;
    }
    int nested = atoi(argv[1]), nmsg = atoi(argv[2]), units = atoi(argv[3]);
    rs = 2463534242u ^ (uint32_t)atoi(argv[4]);
    int devnull = open("/dev/null", O_WRONLY);
    BuildListener logger = { "DefaultLogger", MSG_INFO, 0, devnull };
    BuildListener recorder = { "Recorder", MSG_VERBOSE, 0, devnull };
    BuildListener mail = { "MailLogger", MSG_WARN, 1, devnull };
    Project proj = { { NULL, 0, 0 }, "build" };
    /* each nested <antcall> re-adds the parent's listeners (the bug) */
    for (int c = 0; c <= nested; c++) {
        vector_add(&proj.listeners, &logger);
        vector_add(&proj.listeners, &recorder);
        vector_add(&proj.listeners, &mail);
    }
    static const char *tasks[] = { "javac", "copy", "jar", "junit", "echo" };
    static const char *msgs[] = {
        "Compiling 42 source files to /home/build/classes",
        "Copying 7 files to /home/build/dist\twith filtering",
        "Building jar: /home/build/dist/app.jar",
        "Tests run: 120, Failures: 0, Errors: 0, Time elapsed: 3.2 sec",
        "warning: [deprecation] getYear() in java.util.Date has been deprecated",
    };
    uint64_t h = 0;
    int per = units / (nmsg ? nmsg : 1);
    for (int m = 0; m < nmsg; m++) {
        for (int u = 0; u < per; u++) h ^= executeTask(m * per + u);
        uint32_t r = rnd();
        BuildEvent ev = { tasks[r % 5], msgs[(r >> 8) % 5], (int)((r >> 16) % 4) };
        fireMessageLoggedEvent(&proj, &ev);
    }
    printf("listeners=%d messages=%d hash=%016llx\n", proj.listeners.n, nmsg, (unsigned long long)h);
    return 0;
}
