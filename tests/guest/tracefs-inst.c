/* SPDX-License-Identifier: GPL-2.0-or-later */
/* tracefs-inst.c - /sys/kernel/tracing/instances from inside (issue 28
 * item 3, docs/tracing.md "Instances"): mkdir makes an instance with the
 * files trace-cmd's -B uses (instance_mkdir(), trace_array_create()), an
 * event enabled in it only recorded in its buffer only, its trace_marker
 * writing there, its tracing_on its own; EEXIST, EPERM, ENOENT, ENOTDIR;
 * rmdir EBUSY while a file of it is open, then gone (instance_rmdir());
 * unlink EPERM; how many instances the buffers' budget allows. Mode
 * "filter": events/sched/sched_process_exit/filter applied when recording
 * (the exit of a child named kid kept, of one named other not), a bad
 * filter EINVAL with its error in the file, "0" clearing. What it
 * prints does not depend on the ISA or the scheduling: counts of lines
 * are printed as whether there are some. */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#define T "/sys/kernel/tracing/"
#define I T "instances/foo/"

static const char *err(int e)
{
    switch (e) {
    case 0:
        return "ok";
    case EEXIST:
        return "EEXIST";
    case ENOENT:
        return "ENOENT";
    case EPERM:
        return "EPERM";
    case EBUSY:
        return "EBUSY";
    case EBADF:
        return "EBADF";
    case ENOMEM:
        return "ENOMEM";
    case ENOTDIR:
        return "ENOTDIR";
    case EISDIR:
        return "EISDIR";
    case EINVAL:
        return "EINVAL";
    default:
        return strerror(e);
    }
}

static void do_mkdir(const char *path)
{
    int r = mkdir(path, 0755);
    printf("mkdir %s: %s\n", path, err(r < 0 ? errno : 0));
}

static void do_rmdir(const char *path)
{
    int r = rmdir(path);
    printf("rmdir %s: %s\n", path, err(r < 0 ? errno : 0));
}

static void put(const char *path, const char *text)
{
    int fd = open(path, O_WRONLY | O_TRUNC);
    ssize_t n = fd < 0 ? -1 : write(fd, text, strlen(text));
    printf("write %s \"%s\": %s\n", path, text, err(n < 0 ? errno : 0));
    if (fd >= 0)
        close(fd);
}

static size_t slurp(const char *path, char *buf, size_t size)
{
    int fd = open(path, O_RDONLY);
    size_t len = 0;
    ssize_t n;
    while (fd >= 0 && len < size - 1 && (n = read(fd, buf + len, size - 1 - len)) > 0)
        len += (size_t)n;
    if (fd >= 0)
        close(fd);
    buf[len] = '\0';
    return len;
}

static void show_file(const char *path)
{
    char buf[4096];
    slurp(path, buf, sizeof buf);
    printf("%s: \"%s\"\n", path, buf);
}

static void list(const char *path)
{
    DIR *d = opendir(path);
    printf("ls %s:", path);
    struct dirent *e;
    while (d && (e = readdir(d)))
        if (e->d_name[0] != '.')
            printf(" %s", e->d_name);
    printf("%s\n", d ? "" : " (cannot open)");
    if (d)
        closedir(d);
}

/* Whether the trace text has lines with what. */
static const char *has(const char *text, const char *what)
{
    return strstr(text, what) ? "yes" : "no";
}

/* A child that yields and sleeps: sched_switch events on its vCPU. */
static void run_something(void)
{
    pid_t child = fork();
    if (child == 0) {
        for (int i = 0; i < 3; i++) {
            sched_yield();
            usleep(1000);
        }
        _exit(0);
    }
    waitpid(child, NULL, 0);
}

/* Bytes the instance's trace_pipe_raw of every vCPU gives (non-blocking). */
static size_t raw_bytes(void)
{
    static char page[4096];
    size_t total = 0;
    for (int c = 0; c < 4; c++) {
        char path[128];
        snprintf(path, sizeof path, I "per_cpu/cpu%d/trace_pipe_raw", c);
        int fd = open(path, O_RDONLY | O_NONBLOCK);
        ssize_t n;
        while (fd >= 0 && (n = read(fd, page, sizeof page)) > 0)
            total += (size_t)n;
        if (fd >= 0)
            close(fd);
    }
    return total;
}

/* A child named name that exits at once. */
static void child_named(const char *name)
{
    pid_t child = fork();
    if (child == 0) {
        prctl(PR_SET_NAME, name);
        _exit(0);
    }
    waitpid(child, NULL, 0);
}

static void filters(void)
{
    static char a[1 << 16];
    const char *f = T "events/sched/sched_process_exit/filter";
    show_file(f);
    put(T "events/sched/sched_process_exit/enable", "1");
    put(f, "comm == \"kid\" && common_pid > 0");
    show_file(f);
    child_named("kid");
    child_named("other");
    slurp(T "trace", a, sizeof a);
    printf("trace: exit of kid %s, of other %s\n", has(a, "sched_process_exit: comm=kid "),
           has(a, "sched_process_exit: comm=other "));
    put(f, "comm == kid");
    show_file(f);
    put(f, "pid < 0 || (comm ~ \"ki*\"");
    show_file(f);
    put(f, "0");
    show_file(f);
    put(T "trace", "");
    child_named("other");
    slurp(T "trace", a, sizeof a);
    printf("trace after 0: exit of other %s\n", has(a, "sched_process_exit: comm=other "));
}

int main(int argc, char **argv)
{
    static char a[1 << 16], b[1 << 16];
    if (argc > 1 && strcmp(argv[1], "filter") == 0) {
        filters();
        return 0;
    }
    list(T "instances");
    do_mkdir(T "instances/foo");
    do_mkdir(T "instances/foo");
    do_mkdir(T "instances/foo/bar");
    do_mkdir(T "instances/nope/bar");
    do_mkdir(T "events/mine");
    do_mkdir(T "trace/x");
    list(T "instances");
    list(I);
    struct stat st;
    printf("stat debug/tracing/instances/foo: %s\n",
           stat("/sys/kernel/debug/tracing/instances/foo", &st) == 0 && S_ISDIR(st.st_mode)
               ? "a directory"
               : err(errno));
    show_file(I "buffer_size_kb");
    put(I "events/sched/sched_switch/enable", "1");
    show_file(I "set_event");
    show_file(T "set_event");
    show_file(I "events/sched/enable");
    show_file(I "buffer_size_kb");
    put(I "trace_marker", "hello foo");
    put(T "trace_marker", "hello top");
    run_something();
    slurp(I "trace", a, sizeof a);
    slurp(T "trace", b, sizeof b);
    printf("instance trace: sched_switch %s, marker foo %s, marker top %s\n",
           has(a, " sched_switch: "), has(a, "tracing_mark_write: hello foo"),
           has(a, "tracing_mark_write: hello top"));
    printf("top trace: sched_switch %s, marker foo %s, marker top %s\n", has(b, " sched_switch: "),
           has(b, "tracing_mark_write: hello foo"), has(b, "tracing_mark_write: hello top"));
    /* trace_pipe takes the instance's records, not the top level's */
    int fd = open(I "trace_pipe", O_RDONLY | O_NONBLOCK);
    ssize_t n = read(fd, a, sizeof a - 1);
    a[n > 0 ? n : 0] = '\0';
    close(fd);
    printf("instance trace_pipe: sched_switch %s\n", has(a, " sched_switch: "));
    slurp(T "trace", b, sizeof b);
    printf("top trace after it: marker top %s\n", has(b, "tracing_mark_write: hello top"));
    run_something();
    printf("instance trace_pipe_raw: %s\n", raw_bytes() ? "pages" : "nothing");
    /* the instance's tracing_on */
    put(I "tracing_on", "0");
    put(I "trace_marker", "off");
    show_file(T "tracing_on");
    put(I "tracing_on", "1");
    put(I "trace", ""); /* O_TRUNC empties the instance's buffers */
    slurp(I "trace", a, sizeof a);
    printf("instance trace after O_TRUNC: sched_switch %s\n", has(a, " sched_switch: "));
    /* rmdir while a file of it is open */
    fd = open(I "trace", O_RDONLY);
    int fd2 = dup(fd);
    close(fd);
    do_rmdir(T "instances/foo");
    close(fd2);
    do_rmdir(T "instances/foo/events");
    do_rmdir(T "instances/foo/trace");
    do_rmdir(T "events");
    do_rmdir(T "instances/foo");
    do_rmdir(T "instances/foo");
    list(T "instances");
    printf("open instances/foo/trace: %s\n", open(I "trace", O_RDONLY) < 0 ? err(errno) : "ok");
    printf("unlink trace: %s\n", unlink(T "trace") < 0 ? err(errno) : "ok");
    printf("unlink instances: %s\n", unlink(T "instances") < 0 ? err(errno) : "ok");
    /* the budget: every trace array's buffers together */
    int made = 0, e = 0;
    char path[128];
    for (; made < 64; made++) {
        snprintf(path, sizeof path, T "instances/b%d", made);
        if (mkdir(path, 0755) < 0) {
            e = errno;
            break;
        }
    }
    printf("instances made: %d, then %s\n", made, err(e));
    for (int i = 0; i < made; i++) {
        snprintf(path, sizeof path, T "instances/b%d", i);
        if (rmdir(path) < 0)
            printf("rmdir %s: %s\n", path, err(errno));
    }
    list(T "instances");
    return 0;
}
