/* SPDX-License-Identifier: GPL-2.0-or-later */
/* tracefs.c - the machine's /sys/kernel/tracing from inside, as trace-cmd
 * uses it (issue 28 item 3): a few files' exact contents, enable and
 * set_event as the kernel parses them, a trace_marker write, then the
 * per-CPU trace_pipe_raw pages parsed with the ring buffer's page and
 * event headers and each record's common_type checked against the ids of
 * the events/.../id files. Also /sys/kernel/debug/sched/features and the
 * mounts. Prints what it finds, deterministic for one machine. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#define T "/sys/kernel/tracing/"

static const char *err(void)
{
    switch (errno) {
    case EINVAL: return "EINVAL";
    case EBADF: return "EBADF";
    case ENOENT: return "ENOENT";
    case EACCES: return "EACCES";
    case EAGAIN: return "EAGAIN";
    case EINTR: return "EINTR";
    default: return strerror(errno);
    }
}

static void cat(const char *path)
{
    char buf[8192];
    int fd = open(path, O_RDONLY);
    if (fd < 0) {
        printf("%s: %s\n", path, err());
        return;
    }
    ssize_t n = read(fd, buf, sizeof buf - 1);
    close(fd);
    buf[n > 0 ? n : 0] = '\0';
    printf("%s:\n%s", path, buf);
}

/* Writes text (O_TRUNC unless append) and prints the result. */
static void put(const char *path, const char *text, int append)
{
    int fd = open(path, O_WRONLY | (append ? O_APPEND : O_TRUNC));
    if (fd < 0) {
        printf("write %s: open %s\n", path, err());
        return;
    }
    ssize_t n = write(fd, text, strlen(text));
    if (n < 0)
        printf("write %s \"%s\": %s\n", path, text, err());
    else
        printf("write %s: %zd\n", path, n);
    close(fd);
}

static unsigned id_of(const char *sys, const char *ev)
{
    char path[256], buf[32] = "";
    snprintf(path, sizeof path, T "events/%s/%s/id", sys, ev);
    int fd = open(path, O_RDONLY);
    if (fd >= 0) {
        ssize_t n = read(fd, buf, sizeof buf - 1);
        buf[n > 0 ? n : 0] = '\0';
        close(fd);
    }
    return (unsigned)atoi(buf);
}

static uint32_t u32(const unsigned char *p)
{
    uint32_t v;
    memcpy(&v, p, 4);
    return v;
}

static uint64_t u64(const unsigned char *p)
{
    uint64_t v;
    memcpy(&v, p, 8);
    return v;
}

struct seen {
    unsigned sw, wake, print, other, pages, bad;
    int marker_pid;
    char marker[64];
    int time_back;
};

/* One page: the header, then events (ring_buffer.c's rb_event_length). */
static void parse_page(const unsigned char *pg, struct seen *s, unsigned id_sw, unsigned id_wake)
{
    uint64_t ts = u64(pg), commit = u64(pg + 8) & 0xfffff;
    uint64_t last = ts;
    size_t off = 16, end = 16 + commit;
    s->pages++;
    if (end > 4096) {
        s->bad++;
        return;
    }
    while (off + 4 <= end) {
        uint32_t h = u32(pg + off), type_len = h & 31, delta = h >> 5;
        size_t len;
        const unsigned char *rec;
        if (type_len == 29) { /* padding */
            break;
        } else if (type_len == 30) { /* time extend */
            ts += delta | (uint64_t)u32(pg + off + 4) << 27;
            off += 8;
            continue;
        } else if (type_len == 31) { /* absolute stamp */
            off += 8;
            continue;
        } else if (type_len == 0) {
            len = u32(pg + off + 4) - 4;
            rec = pg + off + 8;
            off += 8 + len;
        } else {
            len = type_len * 4;
            rec = pg + off + 4;
            off += 4 + len;
        }
        ts += delta;
        if (ts < last)
            s->time_back++;
        last = ts;
        unsigned type = rec[0] | rec[1] << 8;
        int pid;
        memcpy(&pid, rec + 4, 4);
        if (type == id_sw) {
            int prev, next;
            memcpy(&prev, rec + 24, 4);
            memcpy(&next, rec + 56, 4);
            s->sw++;
            s->bad += prev != pid;
        } else if (type == id_wake) {
            s->wake++;
        } else if (type == 5) { /* ftrace print: ip, then the text */
            s->print++;
            s->marker_pid = pid;
            snprintf(s->marker, sizeof s->marker, "%s", (const char *)rec + 16);
        } else {
            s->other++;
        }
    }
}

static void record(void)
{
    unsigned id_sw = id_of("sched", "sched_switch"), id_wake = id_of("sched", "sched_wakeup");
    put(T "set_event", "sched:sched_switch sched_wakeup\n", 0);
    cat(T "set_event");
    cat(T "events/sched/enable");
    cat(T "events/enable");
    put(T "trace_marker", "hello from the guest", 1);
    pid_t child = fork();
    if (child == 0) {
        for (int i = 0; i < 5; i++)
            sched_yield();
        usleep(1000);
        _exit(0);
    }
    waitpid(child, NULL, 0);
    put(T "tracing_on", "0\n", 0);
    put(T "trace_marker", "lost", 1);
    struct seen s = {0};
    long ncpu = sysconf(_SC_NPROCESSORS_CONF);
    for (long c = 0; c < ncpu; c++) {
        char path[128];
        unsigned char page[4096];
        snprintf(path, sizeof path, T "per_cpu/cpu%ld/trace_pipe_raw", c);
        /* O_NONBLOCK: an empty buffer gives EAGAIN, a blocking read waits */
        int fd = open(path, O_RDONLY | O_NONBLOCK);
        if (fd < 0) {
            printf("%s: %s\n", path, err());
            continue;
        }
        ssize_t n;
        while ((n = read(fd, page, sizeof page)) == 4096)
            parse_page(page, &s, id_sw, id_wake);
        if (n != -1 || errno != EAGAIN)
            printf("%s: short read %zd\n", path, n);
        close(fd);
    }
    printf("pages: %s, malformed: %u, time going back: %d\n", s.pages ? "some" : "none", s.bad,
           s.time_back);
    printf("sched_switch: %s, sched_wakeup: %s, other events: %u\n", s.sw ? "some" : "none",
           s.wake ? "some" : "none", s.other);
    printf("print events: %u, by me: %s, text: \"", s.print,
           s.marker_pid == getpid() ? "yes" : "no");
    for (const char *c = s.marker; *c; c++)
        printf(*c == '\n' ? "\\n" : "%c", *c);
    printf("\"\n");
    /* cpu0's stats; "now ts" depends on how long the program ran */
    FILE *st = fopen(T "per_cpu/cpu0/stats", "r");
    char line[128];
    while (st && fgets(line, sizeof line, st))
        fputs(strncmp(line, "now ts:", 7) == 0 ? "now ts: (virtual time now)\n" : line, stdout);
    if (st)
        fclose(st);
}

/* buffer_size_kb bounds each buffer: in overwrite mode the oldest pages
 * go (counted as overrun) and the newest events stay. */
static void overwrite(void)
{
    put(T "buffer_size_kb", "4", 0);
    cpu_set_t one;
    CPU_ZERO(&one);
    CPU_SET(0, &one);
    sched_setaffinity(0, sizeof one, &one);
    char msg[128];
    int fd = open(T "trace_marker", O_WRONLY);
    for (int i = 0; i < 400; i++) {
        int n = snprintf(msg, sizeof msg, "marker %03d %s", i,
                         "................................................................");
        if (write(fd, msg, (size_t)n) != n)
            printf("marker %d: %s\n", i, err());
    }
    close(fd);
    FILE *st = fopen(T "per_cpu/cpu0/stats", "r");
    char line[128];
    while (st && fgets(line, sizeof line, st))
        if (strncmp(line, "entries:", 8) == 0 || strncmp(line, "overrun:", 8) == 0)
            fputs(line, stdout);
    if (st)
        fclose(st);
    unsigned char page[4096];
    int pages = 0;
    struct seen s = {0};
    fd = open(T "per_cpu/cpu0/trace_pipe_raw", O_RDONLY | O_NONBLOCK);
    while (read(fd, page, sizeof page) == 4096) {
        pages++;
        parse_page(page, &s, 0, 0);
    }
    close(fd);
    printf("pages read: %d, prints: %u, malformed: %u, last: %.10s\n", pages, s.print, s.bad,
           s.marker);
}

int main(int argc, char **argv)
{
    const char *mode = argc > 1 ? argv[1] : "files";
    if (strcmp(mode, "files") == 0) {
        cat(T "available_tracers");
        cat(T "current_tracer");
        cat(T "tracing_on");
        cat(T "buffer_size_kb");
        cat(T "trace_clock");
        cat(T "saved_cmdlines_size");
        cat(T "events/sched/sched_wakeup/format");
        cat(T "events/sched/sched_switch/enable");
        cat("/sys/kernel/debug/tracing/events/ftrace/print/format");
        cat(T "events/ftrace/print/enable");
        cat(T "trace");
        put(T "current_tracer", "function\n", 0);
        put(T "set_event", "sched:no_such_event", 0);
        put(T "events/sched/sched_switch/enable", "2", 0);
        put(T "events/sched/sched_switch/enable", "1", 0);
        cat(T "events/sched/enable");
        put(T "set_event", "!sched_switch", 1);
        put(T "set_event", "sched:*", 1);
        cat(T "events/sched/enable");
        put(T "set_event", "", 0); /* O_TRUNC: every event off */
        cat(T "set_event");
        put(T "trace_clock", "global", 0);
        cat(T "trace_clock");
        put(T "buffer_size_kb", "0", 0);
        put(T "buffer_size_kb", "64", 0);
        cat(T "buffer_size_kb");
        cat(T "buffer_total_size_kb");
        put(T "tracing_on", "0", 0);
        put(T "trace_marker", "off", 1);
        put(T "tracing_on", "1", 0);
        cat("/sys/kernel/debug/sched/features");
        put("/sys/kernel/debug/sched/features", "HRTICK", 0);
        put("/sys/kernel/debug/sched/features", "NO_SUCH", 0);
        cat("/sys/kernel/debug/sched/features");
        FILE *m = fopen("/proc/self/mounts", "r");
        char line[256];
        while (m && fgets(line, sizeof line, m))
            if (strstr(line, "debugfs") || strstr(line, "tracefs"))
                fputs(line, stdout);
        if (m)
            fclose(m);
    } else if (strcmp(mode, "overwrite") == 0) {
        overwrite();
    } else {
        record();
    }
    return 0;
}
