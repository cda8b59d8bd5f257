/* SPDX-License-Identifier: GPL-2.0-or-later */
/* pol-affinity-calls.c - the edges of sched_getaffinity and
 * sched_setaffinity (spec 2.4), through the raw syscalls so that glibc
 * checks nothing. One mode per run:
 *
 *   lengths      which lengths getaffinity accepts, from which ABI, and
 *                that the length is checked before the pid
 *   word-round   setaffinity with len = 9: a compat caller reads whole
 *                4-byte words (12 bytes), a 64-bit one reads 9; shown with
 *                a mask that ends where an unmapped page begins, and with
 *                the CPU in bits 88-95 (needs --cpus 100)
 *   zombie       get/setaffinity on an unreaped child, then on a process
 *                whose leader thread has ended while another thread runs
 *
 * Every line starts with the ISA, so one expected file serves one ISA. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "pol-common.h"

static void report(const char *what, long ret)
{
    if (ret < 0)
        printf("%s %s: -1 %s\n", ISA, what, err_name(errno));
    else
        printf("%s %s: %ld\n", ISA, what, ret);
}

static long get_aff(long pid, long len, void *buf)
{
    return syscall(SYS_sched_getaffinity, pid, len, buf);
}

static long set_aff(long pid, long len, const void *buf)
{
    return syscall(SYS_sched_setaffinity, pid, len, buf);
}

/* The affinity of pid as a cpulist, or the errno. */
static void show_aff(const char *what, pid_t pid)
{
    cpu_set_t set;
    char buf[512];
    CPU_ZERO(&set);
    if (get_aff(pid, sizeof set, &set) < 0)
        printf("%s %s: -1 %s\n", ISA, what, err_name(errno));
    else
        printf("%s %s: %s\n", ISA, what, format_cpulist(&set, buf, sizeof buf));
}

static void lengths(void)
{
    unsigned char buf[128];
    report("getaffinity(0, 4)", get_aff(0, 4, buf));
    report("getaffinity(-1, 4)", get_aff(-1, 4, buf));
    report("getaffinity(-1, 3)", get_aff(-1, 3, buf));
    report("getaffinity(-1, 8)", get_aff(-1, 8, buf));
    report("getaffinity(0, 12)", get_aff(0, 12, buf));
    report("getaffinity(0, 24)", get_aff(0, 24, buf));
    report("getaffinity(0, 40)", get_aff(0, 40, buf));
    report("getaffinity(0, 128)", get_aff(0, 128, buf));
}

static void word_round(void)
{
    long page = sysconf(_SC_PAGESIZE);
    unsigned char *two =
        mmap(NULL, 2 * page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (two == MAP_FAILED || munmap(two + page, page) != 0) {
        perror("mmap");
        exit(1);
    }
    /* 9 readable bytes, then the hole: only a 12-byte read faults. */
    unsigned char *mask = two + page - 9;
    memset(mask, 0, 9);
    mask[0] = 0x02;
    report("setaffinity(0, 9) ending at a hole", set_aff(0, 9, mask));
    /* CPU 88 is bit 0 of byte 11: inside a compat caller's third word. */
    unsigned char wide[16] = {0};
    wide[11] = 0x01;
    report("setaffinity(0, 9) with cpu88 in byte 11", set_aff(0, 9, wide));
    show_aff("affinity", 0);
}

static int ready[2], done[2];

static void *outliving_thread(void *arg)
{
    char c;
    (void)arg;
    if (write(ready[1], "r", 1) != 1 || read(done[0], &c, 1) != 1)
        _exit(3);
    return NULL;
}

/* A child whose leader ends with the exit system call while its second
 * thread waits for the parent: the leader stays, a zombie, until the
 * thread ends too. */
static void leader_exits_first(void)
{
    pthread_t th;
    if (pthread_create(&th, NULL, outliving_thread, NULL) != 0)
        _exit(4);
    char c;
    if (read(ready[0], &c, 1) != 1)
        _exit(5);
    syscall(SYS_exit, 0);
}

/* Waits until /proc/PID/stat says the leader is a zombie. */
static void wait_for_zombie(pid_t pid)
{
    char path[64], stat[256];
    snprintf(path, sizeof path, "/proc/%d/stat", (int)pid);
    for (;;) {
        int fd = open(path, O_RDONLY);
        ssize_t n = fd < 0 ? -1 : read(fd, stat, sizeof stat - 1);
        if (fd >= 0)
            close(fd);
        if (n > 0) {
            stat[n] = '\0';
            const char *paren = strrchr(stat, ')');
            if (paren && paren[1] == ' ' && paren[2] == 'Z')
                return;
        }
        sched_yield();
    }
}

static void zombie(void)
{
    cpu_set_t one;
    CPU_ZERO(&one);
    CPU_SET(1, &one);
    pid_t pid = fork();
    if (pid == 0)
        _exit(0);
    wait_for_zombie(pid);
    show_aff("unreaped child: getaffinity", pid);
    report("unreaped child: setaffinity {1}", set_aff(pid, sizeof one, &one));
    show_aff("unreaped child: getaffinity", pid);
    int status;
    waitpid(pid, &status, 0);
    show_aff("reaped child: getaffinity", pid);
    report("reaped child: setaffinity {1}", set_aff(pid, sizeof one, &one));

    if (pipe(ready) != 0 || pipe(done) != 0)
        exit(1);
    pid = fork();
    if (pid == 0)
        leader_exits_first();
    wait_for_zombie(pid);
    report("zombie leader: setaffinity {1}", set_aff(pid, sizeof one, &one));
    show_aff("zombie leader: getaffinity", pid);
    if (write(done[1], "d", 1) != 1)
        exit(1);
    waitpid(pid, &status, 0);
    printf("%s child exited with %d\n", ISA, WIFEXITED(status) ? WEXITSTATUS(status) : -1);
}

int main(int argc, char **argv)
{
    setvbuf(stdout, NULL, _IONBF, 0);
    const char *mode = argc > 1 ? argv[1] : "";
    if (strcmp(mode, "lengths") == 0)
        lengths();
    else if (strcmp(mode, "word-round") == 0)
        word_round();
    else if (strcmp(mode, "zombie") == 0)
        zombie();
    else {
        fprintf(stderr, "usage: pol-affinity-calls lengths|word-round|zombie\n");
        return 2;
    }
    return 0;
}
