/* SPDX-License-Identifier: GPL-2.0-or-later */
/* trace_report_ftrace.c - `asymu report` of --trace-format ftrace: the
 * text Linux 5.15's /sys/kernel/tracing/trace prints (trace_ftrace.c), of
 * which it reads asymu's asymu_machine and asymu_report lines
 * (trace_report_asymu.c). Every other line must have the kernel's shape,
 * "COMM-PID [CPU] FLAGS SECS.MICROS: EVENT: FIELDS" (trace_print_context(),
 * print_trace_fmt()), so that a file that is not such a text is refused
 * with the line that is wrong. */
#include "trace_report-int.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

/* The longest line read: asymu_report with two cpulists of 1024 vCPUs. */
#define LINE_MAX_BYTES 16384

struct text {
    const char *name;
    char *err;
    size_t errlen;
    size_t line;
};

static int fail(struct text *t, const char *fmt, ...)
{
    int n = snprintf(t->err, t->errlen, "%s:%zu: ", t->name, t->line);
    va_list ap;
    va_start(ap, fmt);
    if (n >= 0 && (size_t)n < t->errlen)
        vsnprintf(t->err + n, t->errlen - (size_t)n, fmt, ap);
    va_end(ap);
    return -1;
}

static bool digit(char c)
{
    return c >= '0' && c <= '9';
}

/* The event's name and fields of an event line, or NULL if it does not
 * have the kernel's shape. The comm may hold anything, so the context is
 * found from "-PID [CPU] " onwards. */
static const char *event_of(char *line, char **fields)
{
    for (char *b = strstr(line, " ["); b; b = strstr(b + 1, " [")) {
        char *p = b; /* back over "-%-7d"'s padding, then the pid */
        while (p > line && p[-1] == ' ')
            p--;
        if (p == line || !digit(p[-1]))
            continue;
        p--;
        while (p > line && digit(p[-1]))
            p--;
        if (p == line || p[-1] != '-')
            continue;
        p = b + 2;
        if (!digit(*p))
            continue;
        while (digit(*p))
            p++;
        if (strncmp(p, "] ", 2) != 0)
            continue;
        p += 2;
        /* the flags, then the time "SECS.MICROS: " */
        while (*p && *p != ' ')
            p++;
        while (*p == ' ')
            p++;
        if (!digit(*p))
            return NULL;
        while (digit(*p))
            p++;
        if (*p++ != '.')
            return NULL;
        for (int i = 0; i < 6; i++)
            if (!digit(*p++))
                return NULL;
        if (strncmp(p, ": ", 2) != 0)
            return NULL;
        char *event = p + 2, *e = event;
        while ((*e >= 'a' && *e <= 'z') || digit(*e) || *e == '_')
            e++;
        if (e == event || *e != ':' || (e[1] != ' ' && e[1] != '\0'))
            return NULL;
        *e = '\0';
        *fields = e[1] ? e + 2 : e + 1;
        return event;
    }
    return NULL;
}

/* The value of key at *p, "KEY=VALUE" up to " NEXT=" (or the end when next
 * is NULL); *p moves past it. NULL when it is not there, *missing the key
 * that is not. */
static char *value(char **p, const char *key, const char *next, const char **missing)
{
    size_t k = strlen(key);
    *missing = key;
    if (strncmp(*p, key, k) != 0 || (*p)[k] != '=')
        return NULL;
    char *v = *p + k + 1, *end;
    if (next) {
        char pat[32];
        snprintf(pat, sizeof pat, " %s=", next);
        *missing = next;
        if (!(end = strstr(v, pat)))
            return NULL;
        *end = '\0';
        *p = end + 1;
    } else {
        *p = v + strlen(v);
    }
    return v;
}

static bool number(const char *s, long long lo, long long hi, long long *out)
{
    bool neg = *s == '-';
    s += neg;
    if (!digit(*s) || strlen(s) > 18)
        return false;
    long long v = 0;
    for (; digit(*s); s++)
        v = v * 10 + (*s - '0');
    if (*s)
        return false;
    v = neg ? -v : v;
    *out = v;
    return v >= lo && v <= hi;
}

static bool unumber(const char *s, unsigned long long *out)
{
    long long v;
    if (!number(s, 0, INT64_MAX, &v))
        return false;
    *out = (unsigned long long)v;
    return true;
}

static int copy(struct text *t, char *out, size_t len, const char *key, const char *v)
{
    if (strlen(v) >= len)
        return fail(t, "'%s' is longer than %zu bytes", key, len - 1);
    strcpy(out, v);
    return 0;
}

static int machine(struct text *t, struct trace_report *r, char *f)
{
    static const char *const keys[] = {"cpus", "aarch32", "policy", "seed", "capacity"};
    char *v[5], why[256];
    const char *missing;
    for (int i = 0; i < 5; i++)
        if (!(v[i] = value(&f, keys[i], i < 4 ? keys[i + 1] : NULL, &missing)))
            return fail(t, "asymu_machine: no '%s'%s%s%s", missing, i ? " after '" : "",
                        i ? keys[i] : "", i ? "'" : "");
    long long cpus;
    unsigned long long seed;
    if (!number(v[0], 1, NR_CPUS_MAX, &cpus))
        return fail(t, "asymu_machine: 'cpus' \"%s\" is not a number 1-%d", v[0], NR_CPUS_MAX);
    if (!unumber(v[3], &seed))
        return fail(t, "asymu_machine: 'seed' \"%s\" is not a number", v[3]);
    if (report_asymu_machine(r, cpus, v[1], v[2], seed, v[4], why, sizeof why) < 0)
        return fail(t, "%s", why);
    return 0;
}

static int report_line(struct text *t, struct trace_report *r, char *f)
{
    static const char *const keys[] = {"what", "seq",      "cpu",   "comm",   "pid",
                                       "tgid", "isa",      "ts_ns", "end_ns", "from",
                                       "to",   "old_cpus", "cpus",  "rule",   "why"};
    enum { N = sizeof keys / sizeof *keys };
    char *v[N], why[256];
    const char *missing;
    for (int i = 0; i < N; i++)
        if (!(v[i] = value(&f, keys[i], i + 1 < N ? keys[i + 1] : NULL, &missing)))
            return fail(t, "asymu_report: no '%s'%s%s%s", missing, i ? " after '" : "",
                        i ? keys[i] : "", i ? "'" : "");
    struct report_asymu *a = calloc(1, sizeof *a);
    if (!a)
        return fail(t, "out of memory");
    int rc = -1;
    long long cpu;
    if (copy(t, a->what, sizeof a->what, "what", v[0]) < 0 ||
        copy(t, a->comm, sizeof a->comm, "comm", v[3]) < 0 ||
        copy(t, a->isa, sizeof a->isa, "isa", v[6]) < 0 ||
        copy(t, a->old_cpus, sizeof a->old_cpus, "old_cpus", v[11]) < 0 ||
        copy(t, a->cpus, sizeof a->cpus, "cpus", v[12]) < 0 ||
        copy(t, a->rule, sizeof a->rule, "rule", v[13]) < 0 ||
        copy(t, a->why, sizeof a->why, "why", v[14]) < 0)
        goto out;
    if (!unumber(v[1], &a->seq) || !number(v[2], 0, NR_CPUS_MAX, &cpu) ||
        !number(v[4], INT32_MIN, INT32_MAX, &a->pid) ||
        !number(v[5], INT32_MIN, INT32_MAX, &a->tgid) || !unumber(v[7], &a->ts_ns) ||
        !unumber(v[8], &a->end_ns) || !number(v[9], INT32_MIN, INT32_MAX, &a->from) ||
        !number(v[10], INT32_MIN, INT32_MAX, &a->to)) {
        fail(t, "asymu_report: a number field is not a number in range");
        goto out;
    }
    a->cpu = (unsigned long long)cpu;
    if (report_asymu_add(r, a, why, sizeof why) < 0) {
        fail(t, "asymu_report: %s", why);
        goto out;
    }
    rc = 0;
out:
    free(a);
    return rc;
}

int report_read_ftrace(struct trace_report *r, const char *buf, size_t len, char *err,
                       size_t errlen)
{
    struct text t = {.name = r->name, .err = err, .errlen = errlen};
    char *line = malloc(LINE_MAX_BYTES + 1);
    if (!line)
        return snprintf(err, errlen, "%s: out of memory", r->name), -1;
    bool events = false;
    int rc = 0;
    for (size_t at = 0; at < len && rc == 0;) {
        const char *nl = memchr(buf + at, '\n', len - at);
        size_t n = (nl ? (size_t)(nl - buf) : len) - at;
        t.line++;
        if (n > LINE_MAX_BYTES) {
            rc = fail(&t, "longer than %u bytes", LINE_MAX_BYTES);
            break;
        }
        memcpy(line, buf + at, n);
        line[n] = '\0';
        at += n + 1;
        if (strlen(line) != n) {
            rc = fail(&t, "a NUL byte in the text");
            break;
        }
        if (t.line == 1 && strncmp(line, "# tracer:", 9) != 0) {
            rc = fail(&t, "not a trace: no JSON object, trace.dat magic or ftrace "
                          "\"# tracer:\" header");
            break;
        }
        if (line[0] == '#' || (n == 0 && !nl))
            continue;
        char *fields;
        const char *event = event_of(line, &fields);
        if (!event) {
            rc = fail(&t, "not an event line (COMM-PID [CPU] FLAGS SECS.MICROS: EVENT: "
                          "FIELDS)");
            break;
        }
        /* the machine is the first event (time 0, before anything) */
        if (!events && strcmp(event, "asymu_machine") != 0) {
            rc = fail(&t, "the first event is %s, not asymu_machine: not a trace of asymu", event);
            break;
        }
        events = true;
        if (strcmp(event, "asymu_machine") == 0)
            rc = machine(&t, r, fields);
        else if (strcmp(event, "asymu_report") == 0)
            rc = report_line(&t, r, fields);
    }
    free(line);
    if (rc == 0 && !events)
        rc = fail(&t, "no events: not a trace of asymu (no asymu_machine)");
    if (rc == 0)
        report_asymu_order(r);
    return rc;
}
