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
#include <errno.h>
#include <signal.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <trace-cmd/trace-cmd.h>
#include <unistd.h>

/* How long the child reading a trace.dat may take: far more than any file
 * of REPORT_MAX_BYTES needs. */
#define DAT_CHILD_SECONDS 600

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

/* After an error it reads on without looking: Debian's libtracecmd 3.1.6
 * tracecmd_iterate_events() leaks the records it peeked when the callback
 * stops it early. */
static int one(struct tracecmd_input *in, struct tep_record *rec, int cpu, void *ctx)
{
    (void)in;
    struct dat *d = ctx;
    if (d->failed)
        return 0;
    d->record++;
    d->cpu = cpu;
    struct tep_event *ev;
    if (asymu_event(d, rec, "asymu_machine")) {
        if (rec->offset != d->machine_offset)
            fail(d, "a second asymu_machine");
    } else if ((ev = asymu_event(d, rec, "asymu_report"))) {
        report(d, ev, rec);
    }
    return 0;
}

/* A walk over the file's sections (trace-cmd.dat.v6(5)), each length
 * checked against what is left, before libtracecmd sees it: libtracecmd
 * allocates what the file says without bounds (fuzz-report found a format
 * size past the end of the file). */
struct walk {
    const unsigned char *p;
    size_t left;
};

static bool skip(struct walk *w, uint64_t n)
{
    if (n > w->left)
        return false;
    w->p += n;
    w->left -= (size_t)n;
    return true;
}

/* A little-endian number of size bytes (the byte order is checked first). */
static bool u(struct walk *w, unsigned size, uint64_t *v)
{
    if (w->left < size)
        return false;
    *v = 0;
    memcpy(v, w->p, size);
    return skip(w, size);
}

static bool string(struct walk *w, const char *want)
{
    const unsigned char *nul = memchr(w->p, '\0', w->left);
    if (!nul || (want && strcmp((const char *)w->p, want) != 0))
        return false;
    return skip(w, (size_t)(nul - w->p) + 1);
}

/* A length of size bytes, then that many bytes. */
static bool block(struct walk *w, unsigned size)
{
    uint64_t n;
    return u(w, size, &n) && skip(w, n);
}

/* What is wrong with the layout of a trace.dat, or NULL. */
static const char *dat_layout(const char *buf, size_t len)
{
    struct walk w = {(const unsigned char *)buf, len};
    uint64_t n, page, cpus, id, systems;
    if (!skip(&w, 10) || !string(&w, "6"))
        return "not a trace.dat of version 6 (what asymu writes)";
    if (w.left < 2 || w.p[0] != 0 || w.p[1] != 8)
        return "not little endian with 8-byte longs (what asymu writes)";
    skip(&w, 2);
    if (!u(&w, 4, &page) || page != 4096)
        return "its page size is not 4096";
    if (!string(&w, "header_page") || !block(&w, 8) || !string(&w, "header_event") || !block(&w, 8))
        return "its header_page or header_event is cut short";
    if (!u(&w, 4, &n))
        return "its ftrace formats are cut short";
    for (uint64_t i = 0; i < n; i++)
        if (!block(&w, 8))
            return "its ftrace formats are cut short";
    if (!u(&w, 4, &systems))
        return "its event formats are cut short";
    for (uint64_t k = 0; k < systems; k++) {
        if (!string(&w, NULL) || !u(&w, 4, &n))
            return "its event formats are cut short";
        for (uint64_t i = 0; i < n; i++)
            if (!block(&w, 8))
                return "its event formats are cut short";
    }
    if (!block(&w, 4) || !block(&w, 4) || !block(&w, 8))
        return "its kallsyms, printk formats or saved cmdlines are cut short";
    if (!u(&w, 4, &cpus) || cpus < 1 || cpus > NR_CPUS_MAX)
        return "its number of cpus is not 1-1024";
    if (!string(&w, "options  "))
        return "it has no options";
    do {
        if (!u(&w, 2, &id) || (id && !block(&w, 4)))
            return "its options are cut short";
    } while (id);
    if (!string(&w, "flyrecord"))
        return "it has no flyrecord data";
    for (uint64_t cpu = 0; cpu < cpus; cpu++) {
        uint64_t off, size;
        if (!u(&w, 8, &off) || !u(&w, 8, &size))
            return "its cpu data offsets are cut short";
        if (off > len || size > len - off || off % page || size % page)
            return "a cpu's data is not whole pages inside the file";
    }
    return NULL;
}

/* Reads the trace.dat with libtracecmd into r: 0, or -1 with err. */
static int read_dat(struct trace_report *r, const char *buf, size_t len, char *err, size_t errlen)
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
    return d.failed ? -1 : 0;
}

/* --- libtracecmd in a child process --- */

/* What the child sends back: this, then err (rc < 0) or the capacities,
 * runs and instants it read. The child is this program: the structs go as
 * they are. */
struct dat_reply {
    int rc;
    unsigned nr_cpus;
    uint64_t seed;
    struct cpumask aarch32;
    char policy[32];
    size_t nr_runs, nr_instants;
    char err[512];
};

static bool send_all(int fd, const void *p, size_t n)
{
    for (size_t at = 0; at < n;) {
        ssize_t k = write(fd, (const char *)p + at, n - at);
        if (k <= 0)
            return false;
        at += (size_t)k;
    }
    return true;
}

static void child(int fd, const char *name, const char *buf, size_t len)
{
    /* a crash of the libraries is a plain death the parent reports, not a
     * sanitizer's or fuzzer's report of this process; one that loops is
     * killed */
    static const int deadly[] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT, SIGALRM};
    for (size_t i = 0; i < sizeof deadly / sizeof *deadly; i++)
        signal(deadly[i], SIG_DFL);
    alarm(DAT_CHILD_SECONDS);
    struct trace_report *r = report_new(name);
    struct dat_reply rep = {.rc = -1};
    if (!r)
        snprintf(rep.err, sizeof rep.err, "%s: out of memory", name);
    else
        rep.rc = read_dat(r, buf, len, rep.err, sizeof rep.err);
    if (rep.rc == 0) {
        rep.nr_cpus = r->nr_cpus;
        rep.seed = r->seed;
        rep.aarch32 = r->aarch32;
        memcpy(rep.policy, r->policy, sizeof rep.policy);
        rep.nr_runs = r->nr_runs;
        rep.nr_instants = r->nr_instants;
    }
    if (send_all(fd, &rep, sizeof rep) && rep.rc == 0 &&
        send_all(fd, r->capacity, r->nr_cpus * sizeof *r->capacity) &&
        send_all(fd, r->runs, r->nr_runs * sizeof *r->runs))
        send_all(fd, r->instants, r->nr_instants * sizeof *r->instants);
    _exit(0);
}

/* n bytes from fd into a new buffer (NULL: fewer came, or no memory). */
static void *receive(int fd, size_t n)
{
    char *p = malloc(n ? n : 1);
    for (size_t at = 0; p && at < n;) {
        ssize_t k = read(fd, p + at, n - at);
        if (k <= 0) {
            free(p);
            return NULL;
        }
        at += (size_t)k;
    }
    return p;
}

/* libtracecmd and libtraceevent do not expect a hostile file: fuzz-report
 * made them allocate what a size field said and crash in tracecmd_close()
 * on a broken header. They read it in a child process, so that a crash or
 * a hang there is a refusal of the file, not of asymu. */
int report_read_dat(struct trace_report *r, const char *buf, size_t len, char *err, size_t errlen)
{
    const char *bad = dat_layout(buf, len);
    if (bad)
        return snprintf(err, errlen, "%s: trace.dat: %s", r->name, bad), -1;
    int fds[2];
    if (pipe2(fds, O_CLOEXEC) < 0)
        return snprintf(err, errlen, "%s: cannot make a pipe: %s", r->name, strerror(errno)), -1;
    fflush(NULL);
    pid_t pid = fork();
    if (pid < 0) {
        close(fds[0]);
        close(fds[1]);
        return snprintf(err, errlen, "%s: cannot fork: %s", r->name, strerror(errno)), -1;
    }
    if (pid == 0) {
        close(fds[0]);
        child(fds[1], r->name, buf, len);
    }
    close(fds[1]);
    struct dat_reply *rep = receive(fds[0], sizeof *rep);
    int rc = -1;
    if (rep && rep->rc < 0) {
        rep->err[sizeof rep->err - 1] = '\0';
        snprintf(err, errlen, "%s", rep->err);
    } else if (rep && rep->nr_cpus >= 1 && rep->nr_cpus <= NR_CPUS_MAX &&
               (r->capacity = receive(fds[0], rep->nr_cpus * sizeof *r->capacity)) &&
               rep->nr_runs <= len && rep->nr_instants <= len &&
               (r->runs = receive(fds[0], rep->nr_runs * sizeof *r->runs)) &&
               (r->instants = receive(fds[0], rep->nr_instants * sizeof *r->instants))) {
        r->nr_cpus = rep->nr_cpus;
        r->seed = rep->seed;
        r->aarch32 = rep->aarch32;
        memcpy(r->policy, rep->policy, sizeof r->policy);
        r->policy[sizeof r->policy - 1] = '\0';
        r->nr_runs = r->cap_runs = rep->nr_runs;
        r->nr_instants = r->cap_instants = rep->nr_instants;
        report_asymu_order(r);
        rc = 0;
    }
    close(fds[0]);
    int status = 0;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
        ;
    if (!rep)
        snprintf(err, errlen, "%s: libtracecmd failed reading it (%s %d)", r->name,
                 WIFSIGNALED(status) ? "signal" : "status",
                 WIFSIGNALED(status) ? WTERMSIG(status) : WEXITSTATUS(status));
    else if (rc < 0 && rep->rc == 0)
        snprintf(err, errlen, "%s: out of memory", r->name);
    free(rep);
    return rc;
}
