/* SPDX-License-Identifier: GPL-2.0-or-later */
/* threadexec.c - execve from a thread that is not the main one: every
 * other thread ends, the exec'ing thread takes the main thread's tid (the
 * pid), so the new image has getpid() == gettid(), one thread, and the
 * same pid; the parent reaps one child, once, with the new image's status.
 * Run twice: with the main thread still running, and after it has left
 * with pthread_exit. */
#define _GNU_SOURCE
#include "guest.h"

#include <dirent.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <sys/wait.h>

static const char *self;
static char pid_text[16];

static int gettid_(void)
{
    return (int)syscall(SYS_gettid);
}

static void *sleeper(void *arg)
{
    (void)arg;
    for (;;)
        pause();
    return NULL;
}

static void *execer(void *arg)
{
    (void)arg;
    usleep(10000); /* the main thread has paused or left by now */
    printf("thread before exec: tid == pid: %s\n", gettid_() == getpid() ? "yes" : "no");
    fflush(stdout);
    execl(self, self, "after-exec", pid_text, (char *)NULL);
    printf("execl: %s\n", err_name(errno));
    exit(99);
}

static int tasks_listed(void)
{
    DIR *d = opendir("/proc/self/task");
    int n = 0;
    for (struct dirent *e; d && (e = readdir(d));)
        n += e->d_name[0] != '.';
    if (d)
        closedir(d);
    return n;
}

static int after_exec(int old_pid)
{
    printf("new image: getpid == gettid: %s\n", getpid() == gettid_() ? "yes" : "no");
    printf("new image: pid unchanged: %s\n", getpid() == old_pid ? "yes" : "no");
    printf("new image: tasks in /proc/self/task: %d\n", tasks_listed());
    return 7;
}

static void run_child(bool main_leaves)
{
    snprintf(pid_text, sizeof pid_text, "%d", getpid());
    pthread_t a, b;
    pthread_create(&a, NULL, sleeper, NULL);
    pthread_create(&b, NULL, execer, NULL);
    if (main_leaves)
        pthread_exit(NULL);
    for (;;)
        pause();
}

static void run_case(const char *what, bool main_leaves)
{
    printf("%s:\n", what);
    fflush(stdout);
    pid_t pid = fork();
    if (pid == 0)
        run_child(main_leaves);
    int status, reaped = 0;
    pid_t r;
    while ((r = waitpid(-1, &status, 0)) > 0) {
        reaped++;
        printf("reaped the child: %s, exited %d, status %d\n", r == pid ? "yes" : "no",
               WIFEXITED(status), WEXITSTATUS(status));
    }
    printf("children reaped: %d, then %s\n", reaped, err_name(errno));
}

int main(int argc, char **argv)
{
    self = argv[0];
    if (argc == 3 && strcmp(argv[1], "after-exec") == 0)
        return after_exec(atoi(argv[2]));
    run_case("main thread running", false);
    run_case("main thread gone", true);
    return 0;
}
