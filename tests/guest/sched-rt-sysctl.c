/* SPDX-License-Identifier: GPL-2.0-or-later */
/* sched-rt-sysctl.c - /proc/sys/kernel/sched_rt_runtime_us and
 * sched_rt_period_us: read, written, refused (EINVAL, EBUSY while admitted
 * deadline bandwidth would not fit), and -1 turning deadline admission
 * control off (a pinned deadline task is then allowed). */
#define _GNU_SOURCE
#include "guest.h"
#include "sched-attr.h"

#include <fcntl.h>
#include <sched.h>

static void show(const char *name)
{
    char path[64], buf[32] = "";
    snprintf(path, sizeof path, "/proc/sys/kernel/%s", name);
    int fd = open(path, O_RDONLY);
    ssize_t n = read(fd, buf, sizeof buf - 1);
    close(fd);
    printf("%s: %s", name, n > 0 ? buf : "?\n");
}

static void put(const char *name, const char *value)
{
    char path[64];
    snprintf(path, sizeof path, "/proc/sys/kernel/%s", name);
    int fd = open(path, O_WRONLY);
    ssize_t n = write(fd, value, strlen(value));
    printf("write %.*s to %s: %s\n", (int)strcspn(value, "\n"), value, name,
           n < 0 ? err_name(errno) : "ok");
    close(fd);
}

static long deadline(uint64_t runtime_ms, uint64_t period_ms)
{
    struct attr a = {.size = sizeof a, .policy = SCHED_DEADLINE, .runtime = runtime_ms * MS,
                     .deadline = period_ms * MS, .period = period_ms * MS};
    return setattr(0, &a, 0) < 0 ? -errno : 0;
}

int main(void)
{
    show("sched_rt_runtime_us");
    show("sched_rt_period_us");
    put("sched_rt_runtime_us", "2000000");
    put("sched_rt_runtime_us", "-2");
    put("sched_rt_runtime_us", "abc");
    put("sched_rt_period_us", "0");
    put("sched_rt_runtime_us", "500000\n");
    show("sched_rt_runtime_us");
    /* 2 vCPUs at 50%: one task of 80% fits, the cap may not go below it. */
    long r = deadline(80, 100);
    printf("deadline 80/100: %s\n", r ? err_name((int)-r) : "ok");
    put("sched_rt_runtime_us", "300000");
    put("sched_rt_runtime_us", "-1");
    show("sched_rt_runtime_us");
    /* Admission control off: a deadline task may be pinned. */
    cpu_set_t one;
    CPU_ZERO(&one);
    CPU_SET(0, &one);
    printf("pinning the deadline task: %s\n",
           sched_setaffinity(0, sizeof one, &one) ? err_name(errno) : "ok");
    return 0;
}
