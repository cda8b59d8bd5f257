/* SPDX-License-Identifier: GPL-2.0-or-later */
/* dl-bandwidth.c - when a deadline task's bandwidth leaves the admitted
 * total, seen through CPU hotplug on 2 vCPUs: offlining a CPU fails with
 * EBUSY while the total does not fit on the CPU left (dl_cpu_busy()). A
 * task that leaves SCHED_DEADLINE, or exits, with budget left keeps its
 * share until its 0-lag time (task_non_contending()): deadline minus the
 * time the budget left lasts at its bandwidth. Each task takes 60 ms every
 * 100 ms; the limit is 95% of each CPU. */
#define _GNU_SOURCE
#include "guest.h"
#include "sched-attr.h"

#include <fcntl.h>
#include <sched.h>
#include <sys/wait.h>
#include <time.h>

static void deadline(const char *who, uint32_t policy)
{
    struct attr a = {.size = sizeof a, .policy = policy};
    if (policy == SCHED_DEADLINE) {
        a.runtime = 60 * MS;
        a.deadline = a.period = 100 * MS;
    }
    printf("%s: sched_setattr(%s): %s\n", who, policy == SCHED_DEADLINE ? "DEADLINE" : "OTHER",
           setattr(0, &a, 0) < 0 ? err_name(errno) : "0");
}

static void online(int value)
{
    int fd = open("/sys/devices/system/cpu/cpu1/online", O_WRONLY);
    ssize_t n = write(fd, value ? "1" : "0", 1);
    printf("echo %d > cpu1/online: %s\n", value, n < 0 ? err_name(errno) : "0");
    close(fd);
}

/* Uses ms of CPU time (of the task's budget). */
static void spin_ms(long ms)
{
    struct timespec ts;
    long long end;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    end = ts.tv_sec * 1000 * MS + ts.tv_nsec + ms * MS;
    do
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    while (ts.tv_sec * 1000 * MS + ts.tv_nsec < end);
}

static void sleep_ms(long ms)
{
    struct timespec ts = {0, ms * MS};
    nanosleep(&ts, NULL);
}

int main(void)
{
    setvbuf(stdout, NULL, _IONBF, 0);
    int ready[2], go[2];
    if (pipe(ready) < 0 || pipe(go) < 0)
        return 1;
    pid_t child = fork();
    if (child == 0) {
        char c;
        deadline("child", SCHED_DEADLINE);
        write(ready[1], "r", 1);
        read(go[0], &c, 1);
        spin_ms(30);
        _exit(0);
    }
    char c;
    read(ready[0], &c, 1);
    deadline("parent", SCHED_DEADLINE);
    online(0); /* 1.2 of 0.95 */
    spin_ms(30);
    deadline("parent", SCHED_OTHER);
    online(0); /* its 0-lag time is 20 ms away */
    sleep_ms(40);
    online(0); /* 0.6 */
    online(1);

    deadline("parent", SCHED_DEADLINE);
    write(go[1], "g", 1);
    int status;
    waitpid(child, &status, 0);
    printf("child exited %d\n", WEXITSTATUS(status));
    online(0); /* its 0-lag time is 20 ms after its exit */
    sleep_ms(40);
    online(0);
    return 0;
}
