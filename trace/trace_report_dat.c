/* SPDX-License-Identifier: GPL-2.0-or-later */
/* trace_report_dat.c - `asymu report` of --trace-format dat: trace-cmd's
 * trace.dat (trace_dat.c), read with Debian's libtracecmd and
 * libtraceevent (the event formats come from the file), of which it reads
 * asymu's asymu_machine and asymu_report records (trace_report_asymu.c).
 * Fields are read with bounds checked against the record, so that a file
 * whose formats or records do not match is refused, naming the record. */
#include "trace_report-int.h"

#include <sched.h> /* cpu_set_t, which trace-cmd.h uses */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <trace-cmd/trace-cmd.h>
#include <unistd.h>

struct dat {
    struct trace_report *r;
    struct tep_handle *tep;
    const char *name;
    char *err;
    size_t errlen;
    unsigned long long machine_offset;
    size_t record; /* of the one being read, from 1 */
    int cpu;
    int failed;
};

static int fail(struct dat *d, const char *fmt, ...)
{
    int n = snprintf(d->err, d->errlen, "%s: record %zu (cpu %d): ", d->name, d->record, d->cpu);
    va_list ap;
    va_start(ap, fmt);
    if (n >= 0 && (size_t)n < d->errlen)
        vsnprintf(d->err + n, d->errlen - (size_t)n, fmt, ap);
    va_end(ap);
    d->failed = 1;
    return -1;
}

/* The field of the record, if it lies in the record and has size bytes
 * (0: a __data_loc of 4, whose string is checked by str()). */
static const unsigned char *field(struct dat *d, struct tep_event *ev, struct tep_record *rec,
                                  const char *name, int size)
{
    struct tep_format_field *f = tep_find_field(ev, name);
    if (!f) {
        fail(d, "%s has no field '%s'", ev->name, name);
        return NULL;
    }
    if (f->size != (size ? size : 4) || f->offset < 0 || rec->size < 0 ||
        f->offset + f->size > rec->size) {
        fail(d, "%s's field '%s' is not %d bytes inside the record", ev->name, name,
             size ? size : 4);
        return NULL;
    }
    return (const unsigned char *)rec->data + f->offset;
}

static int num(struct dat *d, struct tep_event *ev, struct tep_record *rec, const char *name,
               int size, unsigned long long *out)
{
    const unsigned char *p = field(d, ev, rec, name, size);
    if (!p)
        return -1;
    *out = tep_read_number(d->tep, p, size);
    return 0;
}

static int snum(struct dat *d, struct tep_event *ev, struct tep_record *rec, const char *name,
                long long *out)
{
    unsigned long long v;
    if (num(d, ev, rec, name, 4, &v) < 0)
        return -1;
    *out = (int32_t)(uint32_t)v;
    return 0;
}

/* A __data_loc string ((length << 16) | offset, NUL-terminated inside the
 * record) or a char array, into out. */
static int str(struct dat *d, struct tep_event *ev, struct tep_record *rec, const char *name,
               int array, char *out, size_t len)
{
    const unsigned char *p = field(d, ev, rec, name, array);
    if (!p)
        return -1;
    const char *s = (const char *)p;
    size_t n = (size_t)array;
    if (!array) {
        unsigned loc = (unsigned)tep_read_number(d->tep, p, 4);
        size_t off = loc & 0xffff;
        n = loc >> 16;
        if (n == 0 || off + n > (size_t)rec->size)
            return fail(d, "%s's string '%s' is not inside the record", ev->name, name);
        s = (const char *)rec->data + off;
    }
    size_t k = strnlen(s, n);
    if (!array && k != n - 1)
        return fail(d, "%s's string '%s' does not end where its length says", ev->name, name);
    if (k >= len)
        return fail(d, "%s's '%s' is longer than %zu bytes", ev->name, name, len - 1);
    memcpy(out, s, k);
    out[k] = '\0';
    return 0;
}

static int machine(struct dat *d, struct tep_event *ev, struct tep_record *rec)
{
    char aarch32[4096], policy[64], capacity[8192], why[256];
    unsigned long long cpus, seed;
    if (num(d, ev, rec, "cpus", 4, &cpus) < 0 || num(d, ev, rec, "seed", 8, &seed) < 0 ||
        str(d, ev, rec, "aarch32", 0, aarch32, sizeof aarch32) < 0 ||
        str(d, ev, rec, "policy", 0, policy, sizeof policy) < 0 ||
        str(d, ev, rec, "capacity", 0, capacity, sizeof capacity) < 0)
        return -1;
    if (report_asymu_machine(d->r, (long long)cpus, aarch32, policy, seed, capacity, why,
                             sizeof why) < 0)
        return fail(d, "%s", why);
    d->machine_offset = rec->offset;
    return 0;
}

static int report(struct dat *d, struct tep_event *ev, struct tep_record *rec)
{
    struct report_asymu *a = calloc(1, sizeof *a);
    char why[256];
    if (!a)
        return fail(d, "out of memory");
    int rc = -1;
    if (str(d, ev, rec, "what", 0, a->what, sizeof a->what) < 0 ||
        num(d, ev, rec, "seq", 8, &a->seq) < 0 || num(d, ev, rec, "cpu", 4, &a->cpu) < 0 ||
        str(d, ev, rec, "comm", 16, a->comm, sizeof a->comm) < 0 ||
        snum(d, ev, rec, "pid", &a->pid) < 0 || snum(d, ev, rec, "tgid", &a->tgid) < 0 ||
        str(d, ev, rec, "isa", 0, a->isa, sizeof a->isa) < 0 ||
        num(d, ev, rec, "ts_ns", 8, &a->ts_ns) < 0 ||
        num(d, ev, rec, "end_ns", 8, &a->end_ns) < 0 || snum(d, ev, rec, "from", &a->from) < 0 ||
        snum(d, ev, rec, "to", &a->to) < 0 ||
        str(d, ev, rec, "old_cpus", 0, a->old_cpus, sizeof a->old_cpus) < 0 ||
        str(d, ev, rec, "cpus", 0, a->cpus, sizeof a->cpus) < 0 ||
        str(d, ev, rec, "rule", 0, a->rule, sizeof a->rule) < 0 ||
        str(d, ev, rec, "why", 0, a->why, sizeof a->why) < 0)
        goto out;
    if (report_asymu_add(d->r, a, why, sizeof why) < 0) {
        fail(d, "asymu_report: %s", why);
        goto out;
    }
    rc = 0;
out:
    free(a);
    return rc;
}

/* Whether rec is asymu's event named name. */
static struct tep_event *asymu_event(struct dat *d, struct tep_record *rec, const char *name)
{
    struct tep_event *ev = tep_find_event_by_record(d->tep, rec);
    if (!ev || !ev->system || !ev->name || strcmp(ev->system, "asymu") != 0 ||
        strcmp(ev->name, name) != 0)
        return NULL;
    return ev;
}

static int one(struct tracecmd_input *in, struct tep_record *rec, int cpu, void *ctx)
{
    (void)in;
    struct dat *d = ctx;
    d->record++;
    d->cpu = cpu;
    struct tep_event *ev;
    if (asymu_event(d, rec, "asymu_machine")) {
        if (rec->offset != d->machine_offset)
            return fail(d, "a second asymu_machine");
    } else if ((ev = asymu_event(d, rec, "asymu_report"))) {
        return report(d, ev, rec);
    }
    return 0;
}

int report_read_dat(struct trace_report *r, const char *buf, size_t len, char *err, size_t errlen)
{
    struct dat d = {.r = r, .name = r->name, .err = err, .errlen = errlen};
    /* libtracecmd reads a file: the bytes go to one in memory */
    int fd = memfd_create("asymu-report", MFD_CLOEXEC);
    if (fd < 0)
        return snprintf(err, errlen, "%s: cannot make a file to read it", r->name), -1;
    for (size_t at = 0; at < len;) {
        ssize_t n = write(fd, buf + at, len - at);
        if (n <= 0) {
            close(fd);
            return snprintf(err, errlen, "%s: cannot copy it to read it", r->name), -1;
        }
        at += (size_t)n;
    }
    char path[64];
    snprintf(path, sizeof path, "/proc/self/fd/%d", fd);
    tracecmd_set_loglevel(TEP_LOG_NONE);
    struct tracecmd_input *in = tracecmd_open(path, TRACECMD_FL_LOAD_NO_PLUGINS);
    close(fd);
    if (!in)
        return snprintf(err, errlen, "%s: not a trace.dat libtracecmd can read", r->name), -1;
    d.tep = tracecmd_get_tep(in);
    /* the machine: cpu 0's first record (time 0, before anything) */
    struct tep_record *first = tracecmd_read_cpu_first(in, 0);
    struct tep_event *ev = first ? asymu_event(&d, first, "asymu_machine") : NULL;
    d.record = 1;
    if (!ev)
        fail(&d, "not asymu_machine: not a trace of asymu");
    else
        machine(&d, ev, first);
    if (first)
        tracecmd_free_record(first);
    d.record = 0;
    if (!d.failed)
        tracecmd_iterate_events(in, NULL, 0, one, &d);
    tracecmd_close(in);
    if (d.failed)
        return -1;
    report_asymu_order(r);
    return 0;
}
