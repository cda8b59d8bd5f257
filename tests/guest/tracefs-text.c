/* SPDX-License-Identifier: GPL-2.0-or-later */
/* tracefs-text.c - /sys/kernel/tracing/trace and trace_pipe from inside
 * (issue 28 item 1 of what was left): the event lines of what was
 * recorded, in 5.15's text; trace_pipe taking what it gives, EAGAIN when
 * empty with O_NONBLOCK, waiting for a record or a signal (EINTR) without;
 * trace cleared by O_TRUNC; a blocking read of an empty trace_pipe_raw
 * waiting for a record; mode "rawmark": trace_marker_raw's raw_data
 * records (tracing_mark_raw_write()), their bytes in trace_pipe_raw and
 * their lines in trace (trace_raw_data()). Its name is "tt"
 * (PR_SET_NAME) so both ISAs print the same; timestamps are shown as T
 * (their order is checked) unless the mode is "raw", which prints trace
 * as it is for tracefs_text_check.py to compare with the host-side ftrace
 * text. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define T "/sys/kernel/tracing/"

static const char *err(void)
{
    switch (errno) {
    case EAGAIN: return "EAGAIN";
    case EINTR: return "EINTR";
    case EINVAL: return "EINVAL";
    case EBADF: return "EBADF";
    default: return strerror(errno);
    }
}

static void put(const char *path, const char *text)
{
    int fd = open(path, O_WRONLY | O_TRUNC);
    if (fd < 0 || write(fd, text, strlen(text)) != (ssize_t)strlen(text))
        printf("write %s \"%s\": %s\n", path, text, err());
    if (fd >= 0)
        close(fd);
}

static void marker(const char *text)
{
    int fd = open(T "trace_marker", O_WRONLY);
    if (fd < 0 || write(fd, text, strlen(text)) != (ssize_t)strlen(text))
        printf("marker \"%s\": %s\n", text, err());
    if (fd >= 0)
        close(fd);
}

/* Reads all of path (a plain file: until 0). */
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

static uint64_t last_us;
static int back;

/* Prints text with each line's timestamp as T.TTTTTT (checking that they
 * never go back), the header lines as they are. */
static void show(const char *text)
{
    for (const char *l = text; *l;) {
        const char *nl = strchr(l, '\n');
        size_t len = nl ? (size_t)(nl - l) + 1 : strlen(l);
        const char *colon = l[0] == '#' ? NULL : strstr(l, ": ");
        const char *ts = colon;
        while (ts && ts > l && ts[-1] != ' ')
            ts--;
        if (colon && ts > l) {
            unsigned long long s = 0, us = 0;
            sscanf(ts, "%llu.%llu", &s, &us);
            back += s * 1000000 + us < last_us;
            last_us = s * 1000000 + us;
            fwrite(l, 1, (size_t)(ts - l), stdout);
            for (const char *c = ts; c < colon; c++)
                putchar(*c >= '0' && *c <= '9' ? 'T' : *c);
            fwrite(colon, 1, len - (size_t)(colon - l), stdout);
        } else {
            fwrite(l, 1, len, stdout);
        }
        l += len;
    }
}

/* The entries line of trace's header. */
static void entries(void)
{
    static char buf[65536];
    slurp(T "trace", buf, sizeof buf);
    char *e = strstr(buf, "# entries-in-buffer");
    char *nl = e ? strchr(e, '\n') : NULL;
    if (nl)
        printf("%.*s\n", (int)(nl - e), e);
}

/* Records a fork, an exit and markers. */
static void record(void)
{
    put(T "set_event", "sched:sched_process_fork sched:sched_process_exit task:task_newtask");
    marker("one");
    pid_t child = fork();
    if (child == 0) {
        marker("child");
        _exit(0);
    }
    waitpid(child, NULL, 0);
    marker("two");
    put(T "set_event", ""); /* every event off; markers go on */
}

static void text(void)
{
    static char a[65536], b[65536];
    record();
    slurp(T "trace", a, sizeof a);
    printf("--- trace\n");
    show(a);
    slurp(T "trace", b, sizeof b);
    printf("--- trace again: %s\n", strcmp(a, b) == 0 ? "the same" : "different");
    /* per_cpu/cpu0/trace: that vCPU's lines */
    slurp(T "per_cpu/cpu0/trace", b, sizeof b);
    char *first = strchr(b, '[');
    printf("--- per_cpu/cpu0/trace: %s\n",
           first && strncmp(first, "[000]", 5) == 0 ? "cpu0's lines" : "no line of cpu0");
    /* trace_pipe in reads of 64 bytes: all of it, then EAGAIN */
    int fd = open(T "trace_pipe", O_RDONLY | O_NONBLOCK);
    size_t len = 0, reads = 0;
    ssize_t n;
    while ((n = read(fd, a + len, 64)) > 0) {
        len += (size_t)n;
        reads++;
    }
    a[len] = '\0';
    printf("--- trace_pipe (%s after %s)\n", n < 0 ? err() : "0", reads > 1 ? "reads" : "one read");
    last_us = 0;
    show(a);
    printf("--- then\n");
    entries();
    marker("three");
    n = read(fd, a, sizeof a - 1);
    a[n > 0 ? n : 0] = '\0';
    show(a);
    n = read(fd, a, sizeof a - 1);
    printf("read: %zd %s\n", n, n < 0 ? err() : "");
    close(fd);
    marker("four");
    entries();
    put(T "trace", ""); /* O_TRUNC: the buffers emptied */
    printf("--- after O_TRUNC\n");
    entries();
    printf("time going back: %d\n", back);
}

static void on_usr1(int sig)
{
    (void)sig;
}

static void pin(int cpu)
{
    cpu_set_t set;
    CPU_ZERO(&set);
    CPU_SET(cpu, &set);
    sched_setaffinity(0, sizeof set, &set);
}

/* A child reads path blocking; the parent writes a marker (or signals it)
 * after 2 ms. */
static void wait_for(const char *path, int signal_it)
{
    put(T "trace", ""); /* empty buffers */
    pid_t child = fork();
    if (child == 0) {
        pin(0);
        struct sigaction sa = {.sa_handler = on_usr1, .sa_flags = SA_RESTART};
        sigaction(SIGUSR1, &sa, NULL);
        static unsigned char buf[4096];
        int fd = open(path, O_RDONLY);
        struct timespec a, b;
        clock_gettime(CLOCK_MONOTONIC, &a);
        ssize_t n = read(fd, buf, sizeof buf);
        clock_gettime(CLOCK_MONOTONIC, &b);
        long long waited_us = (b.tv_sec - a.tv_sec) * 1000000LL + (b.tv_nsec - a.tv_nsec) / 1000;
        printf("child: waited %s\n", waited_us >= 1500 ? "at least 1.5 ms" : "less");
        if (n < 0) {
            printf("child: read %s: %s\n", path, err());
        } else if (strstr(path, "raw")) {
            /* the page's first record: print's buf after its 16 bytes */
            const char *msg = (const char *)buf + 16 + 4 + 16;
            printf("child: read %s: %zd bytes, type %u, \"%.*s\"\n", path, n,
                   buf[20] | buf[21] << 8, (int)strcspn(msg, "\n"), msg);
        } else {
            buf[n] = '\0';
            printf("child: read %s:\n", path);
            show((char *)buf);
        }
        fflush(stdout);
        _exit(0);
    }
    pin(1);
    usleep(2000);
    if (signal_it) {
        kill(child, SIGUSR1);
    } else if (strstr(path, "raw")) {
        /* trace_pipe_raw's readers wait for a full page: 100 markers of
         * 60 bytes fill one (4080 bytes of records) */
        char msg[64];
        for (int i = 0; i < 100; i++) {
            snprintf(msg, sizeof msg, "for raw %03d ...................................................", i);
            marker(msg);
        }
    } else {
        marker("wake up");
    }
    waitpid(child, NULL, 0);
}

static void waits(void)
{
    int fd = open(T "per_cpu/cpu1/trace_pipe_raw", O_RDONLY | O_NONBLOCK);
    static unsigned char page[4096];
    ssize_t n = read(fd, page, sizeof page);
    printf("empty trace_pipe_raw, O_NONBLOCK: %zd %s\n", n, n < 0 ? err() : "");
    close(fd);
    fflush(stdout);
    wait_for(T "trace_pipe", 0);
    wait_for(T "trace_pipe", 1);
    wait_for(T "per_cpu/cpu1/trace_pipe_raw", 0);
    wait_for(T "per_cpu/cpu1/trace_pipe_raw", 1);
}

static void raw_write(const void *data, size_t len)
{
    int fd = open(T "trace_marker_raw", O_WRONLY);
    ssize_t n = write(fd, data, len);
    printf("trace_marker_raw, %zu bytes: %zd %s\n", len, n, n < 0 ? err() : "");
    close(fd);
}

static uint32_t u32(const unsigned char *p)
{
    uint32_t v;
    memcpy(&v, p, 4);
    return v;
}

/* The records of one trace_pipe_raw page (ring_buffer.c's
 * rb_event_length(), as libtraceevent's kbuffer reads them). */
static void raw_records(const unsigned char *pg)
{
    size_t off = 16, end = 16 + (u32(pg + 8) & 0xfffff);
    while (off + 4 <= end && end <= 4096) {
        uint32_t type_len = u32(pg + off) & 31;
        size_t len;
        const unsigned char *rec;
        if (type_len >= 29) { /* padding, time extend, time stamp */
            if (type_len == 29)
                break;
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
        int pid;
        memcpy(&pid, rec + 4, 4);
        printf("record: type %u, pid %s, %zu bytes, id %08x, buf %02x %02x %02x %02x %02x %02x\n",
               rec[0] | rec[1] << 8, pid == getpid() ? "mine" : "other", len, u32(rec + 8), rec[12],
               rec[13], rec[14], rec[15], rec[16], rec[17]);
    }
}

static void rawmark(void)
{
    pin(1);
    put(T "trace", "");
    static unsigned char buf[4000];
    raw_write("\x2a\0\0\0hello", 9);
    raw_write("abc", 3);
    raw_write("\x01\x02\x03\x04", 4);
    memset(buf, 0x5a, sizeof buf);
    memcpy(buf, "\x07\0\0\0", 4);
    raw_write(buf, 3072);
    raw_write(buf, 3073);
    put(T "tracing_on", "0");
    raw_write(buf, 8);
    put(T "tracing_on", "1");
    /* trace's lines, a long one cut */
    static char text[65536];
    slurp(T "trace", text, sizeof text);
    printf("--- trace\n");
    for (char *l = strstr(text, "\n  "); l && l[1];) {
        char *nl = strchr(l + 1, '\n');
        size_t len = nl ? (size_t)(nl - l) : strlen(l);
        char line[160];
        snprintf(line, sizeof line, "%.*s%s\n", (int)(len < 130 ? len - 1 : 120), l + 1,
                 len < 130 ? "" : " ...");
        show(line);
        if (len >= 130)
            printf("    (%zu bytes)\n", len - 1);
        l = nl;
    }
    printf("--- trace_pipe_raw\n");
    int fd = open(T "per_cpu/cpu1/trace_pipe_raw", O_RDONLY | O_NONBLOCK);
    static unsigned char page[4096];
    if (read(fd, page, sizeof page) == 4096)
        raw_records(page);
    close(fd);
    slurp(T "events/ftrace/raw_data/format", text, sizeof text);
    printf("--- format\n%s", text);
}

int main(int argc, char **argv)
{
    const char *mode = argc > 1 ? argv[1] : "text";
    prctl(PR_SET_NAME, "tt");
    if (strcmp(mode, "raw") == 0) {
        static char buf[65536];
        record();
        slurp(T "trace", buf, sizeof buf);
        fputs(buf, stdout);
    } else if (strcmp(mode, "rawmark") == 0) {
        rawmark();
    } else if (strcmp(mode, "wait") == 0) {
        waits();
    } else {
        text();
    }
    return 0;
}
