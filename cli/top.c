/* SPDX-License-Identifier: GPL-2.0-or-later */
/* top.c - `asymu top PATH [--interval MS]`: a terminal view of the machine
 * behind a control socket (docs/control.md), redrawn every interval from
 * its `cpus`, `ps` and `dmesg` responses: a row per vCPU (32-bit ones
 * marked, the task that last ran there), a row per task, the end of the
 * kernel log. Ends when the machine does, or on q. */
#include "ctl.h"

#include <errno.h>
#include <jansson.h>
#include <poll.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <termios.h>
#include <unistd.h>

#define EXIT_USAGE 2
#define DEFAULT_INTERVAL_MS 500
#define LOG_LINES 8

/* The three responses a frame is drawn from. */
struct snapshot {
    json_t *cpus, *ps, *dmesg;
};

static json_t *request(int fd, FILE *in, const char *line)
{
    if (ctl_send(fd, line, strlen(line)) < 0)
        return NULL;
    char *text = ctl_response(in);
    json_t *r = text ? json_loads(text, 0, NULL) : NULL;
    free(text);
    return r;
}

static bool take_snapshot(int fd, FILE *in, struct snapshot *s)
{
    s->cpus = request(fd, in, "cpus\n");
    s->ps = s->cpus ? request(fd, in, "ps\n") : NULL;
    s->dmesg = s->ps ? request(fd, in, "dmesg\n") : NULL;
    return s->dmesg != NULL;
}

static void drop_snapshot(struct snapshot *s)
{
    json_decref(s->cpus);
    json_decref(s->ps);
    json_decref(s->dmesg);
}

static const char *str(json_t *o, const char *key)
{
    const char *v = json_string_value(json_object_get(o, key));
    return v ? v : "-";
}

static long long num(json_t *o, const char *key)
{
    return json_integer_value(json_object_get(o, key));
}

static void draw_cpus(FILE *out, json_t *cpus)
{
    fprintf(out, "%-6s %-8s %-7s %-8s %-5s %s\n", "CPU", "STATE", "ISA", "CURRENT", "RUNQ",
            "CLOCK");
    size_t i;
    json_t *c;
    json_array_foreach(json_object_get(cpus, "cpus"), i, c) {
        json_t *cur = json_object_get(c, "current");
        char current[16] = "-";
        if (json_is_integer(cur))
            snprintf(current, sizeof current, "%lld", json_integer_value(cur));
        fprintf(out, "cpu%-3lld %-8s %-7s %-8s %-5lld %.6f s\n", num(c, "cpu"),
                json_is_true(json_object_get(c, "online")) ? "online" : "offline",
                json_is_true(json_object_get(c, "aarch32")) ? "32-bit" : "64-bit", current,
                num(c, "runqueue"), (double)num(c, "clock_ns") / 1e9);
    }
}

static void draw_tasks(FILE *out, json_t *ps, int max_rows)
{
    fprintf(out, "%-6s %-6s %-8s %-9s %-4s %-9s %-9s %s\n", "PID", "TID", "ISA", "STATE", "CPU",
            "AFFINITY", "SAVED", "NAME");
    size_t i;
    json_t *t;
    json_t *tasks = json_object_get(ps, "tasks");
    json_array_foreach(tasks, i, t) {
        if ((int)i == max_rows) {
            fprintf(out, "... %zu more\n", json_array_size(tasks) - i);
            break;
        }
        fprintf(out, "%-6lld %-6lld %-8s %-9s %-4lld %-9s %-9s %s%s\n", num(t, "pid"),
                num(t, "tid"), str(t, "isa"), str(t, "state"), num(t, "cpu"), str(t, "affinity"),
                str(t, "saved_mask"), str(t, "name"),
                json_is_true(json_object_get(t, "held")) ? " (held)" : "");
    }
}

/* The last LOG_LINES lines of the kernel log. */
static void draw_log(FILE *out, json_t *dmesg)
{
    const char *starts[LOG_LINES];
    unsigned n = 0;
    for (const char *p = str(dmesg, "dmesg"); *p; p += strcspn(p, "\n") + (p[strcspn(p, "\n")] != 0))
        starts[n++ % LOG_LINES] = p;
    if (n)
        fputs(starts[n > LOG_LINES ? n % LOG_LINES : 0], out);
}

static void draw(const char *path, const struct snapshot *s)
{
    struct winsize ws = {0};
    int rows = ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_row ? ws.ws_row : 40;
    int ncpus = (int)json_array_size(json_object_get(s->cpus, "cpus"));
    int task_rows = rows - ncpus - LOG_LINES - 7;
    /* One write per frame: the terminal never shows half of one. */
    char *frame = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&frame, &len);
    if (!out)
        return;
    fprintf(out, "\033[H\033[2J");
    fprintf(out, "asymu top  %s  machine %s  virtual time %.6f s\n\n", path, str(s->ps, "machine"),
            (double)num(s->ps, "time_ns") / 1e9);
    draw_cpus(out, s->cpus);
    fputc('\n', out);
    draw_tasks(out, s->ps, task_rows > 1 ? task_rows : 1);
    fputc('\n', out);
    draw_log(out, s->dmesg);
    fclose(out);
    ssize_t w = write(STDOUT_FILENO, frame, len);
    (void)w;
    free(frame);
}

/* Waits up to ms for a key: true when it is q (or stdin has ended). */
static bool quit_pressed(int ms)
{
    struct pollfd p = {.fd = STDIN_FILENO, .events = POLLIN};
    if (poll(&p, 1, ms) <= 0)
        return false;
    char c;
    ssize_t n = read(STDIN_FILENO, &c, 1);
    return n <= 0 || c == 'q';
}

int top_main(int argc, char **argv)
{
    long interval = DEFAULT_INTERVAL_MS;
    if (argc == 3 && strcmp(argv[1], "--interval") == 0) {
        char *end;
        interval = strtol(argv[2], &end, 10);
        if (*end || interval < 10 || interval > 60000)
            argc = 0;
    }
    if (argc != 1 && argc != 3) {
        fprintf(stderr, "usage: asymu top PATH [--interval MS (10 to 60000, default 500)]\n");
        return EXIT_USAGE;
    }
    int fd = ctl_connect(argv[0]);
    FILE *in = fd < 0 ? NULL : fdopen(fd, "r");
    if (!in) {
        fprintf(stderr, "asymu top: cannot connect to %s: %s\n", argv[0], strerror(errno));
        if (fd >= 0)
            close(fd);
        return EXIT_USAGE;
    }
    /* Keys one by one, unechoed, while the view runs. */
    struct termios saved, raw;
    bool tty = tcgetattr(STDIN_FILENO, &saved) == 0;
    if (tty) {
        raw = saved;
        raw.c_lflag &= ~(tcflag_t)(ICANON | ECHO);
        tcsetattr(STDIN_FILENO, TCSANOW, &raw);
    }
    struct snapshot s;
    bool ended;
    while (!(ended = !take_snapshot(fd, in, &s))) {
        draw(argv[0], &s);
        drop_snapshot(&s);
        if (quit_pressed((int)interval))
            break;
    }
    if (ended)
        drop_snapshot(&s);
    if (tty)
        tcsetattr(STDIN_FILENO, TCSANOW, &saved);
    fclose(in);
    if (ended)
        printf("asymu top: the machine behind %s has ended\n", argv[0]);
    return 0;
}
