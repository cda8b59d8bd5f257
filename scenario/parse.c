/* SPDX-License-Identifier: GPL-2.0-or-later */
/* parse.c - a scenario file (YAML, loaded by libyaml into a document whose
 * nodes keep their line and column) into a struct scenario. Every value is
 * checked here, so a run never starts on a broken scenario: the first defect
 * is reported as "FILE:LINE:COLUMN: what was expected there". */
#include "scenario.h"

#include "mevent.h"
#include "scheduler.h"
#include "sort.h"
#include "vfs.h"

#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <regex.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <linux/openat2.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <yaml.h>

#define DEFAULT_TIME_LIMIT_NS (10ull * 1000000000ull)

struct ctx {
    struct scenario *sc;
    const char *file;
    FILE *errors;
    scenario_options_fn options;
    yaml_document_t doc;
    char dir[PATH_MAX];    /* the scenario file's directory */
    uint64_t last_event_ns;
    size_t *by_name;       /* task indexes sorted by name, once the tasks are read */
    int dir_fd;            /* the scenario's directory (O_PATH), or -1 */
    uint64_t files_bytes;  /* of every file so far */
    size_t arg_bytes;      /* of the task's arguments and environment so far */
    int open_begins;       /* a workload's phases: begins not yet ended */
    const yaml_node_t *exec_phase; /* a workload's exec phase, which must be its last */
    /* Per group of sc->cgroups: where its files were given, and the first
     * task or phase that puts a process in it (NULL: none yet). */
    const yaml_node_t *cg_files[SCRIPT_CGROUP_MAX], *cg_member[SCRIPT_CGROUP_MAX];
    bool failed;
};

static void *own(struct scenario *sc, void *p)
{
    if (!p)
        abort(); /* out of memory while reading a scenario: nothing to save */
    if (sc->nowned == sc->owned_cap) {
        sc->owned_cap = sc->owned_cap ? 2 * sc->owned_cap : 64;
        sc->owned = realloc(sc->owned, sc->owned_cap * sizeof *sc->owned);
        if (!sc->owned)
            abort();
    }
    sc->owned[sc->nowned++] = p;
    return p;
}

static char *own_str(struct scenario *sc, const char *s)
{
    return own(sc, strdup(s));
}

/* Grows an owned array by one zeroed element; returns it. An array of n
 * elements made here has room for the next power of two >= n (calloc'ed,
 * so the room is zero): it moves only when n is 0 or a power of two, and a
 * list of N items costs O(N) time and at most 2N elements of memory (one
 * new array per item made a 20,000-task scenario quadratic: gigabytes). */
static void *grow(struct scenario *sc, void **array, size_t *n, size_t size)
{
    size_t have = *n;
    if (have == 0 || (have & (have - 1)) == 0) {
        void *old = *array;
        void *p = own(sc, calloc(have ? 2 * have : 1, size));
        if (old)
            memcpy(p, old, have * size);
        *array = p;
    }
    return (char *)*array + (*n)++ * size;
}

static bool fail(struct ctx *c, const yaml_node_t *n, const char *fmt, ...)
{
    if (c->failed)
        return false;
    c->failed = true;
    fprintf(c->errors, "%s:%zu:%zu: ", c->file, n->start_mark.line + 1, n->start_mark.column + 1);
    va_list ap;
    va_start(ap, fmt);
    vfprintf(c->errors, fmt, ap);
    va_end(ap);
    fputc('\n', c->errors);
    return false;
}

static yaml_node_t *node(struct ctx *c, int id)
{
    return yaml_document_get_node(&c->doc, id);
}

static const char *scalar(const yaml_node_t *n)
{
    return n->type == YAML_SCALAR_NODE ? (const char *)n->data.scalar.value : NULL;
}

static const char *type_name(const yaml_node_t *n)
{
    return n->type == YAML_MAPPING_NODE    ? "a mapping"
           : n->type == YAML_SEQUENCE_NODE ? "a list"
                                           : "a scalar";
}

static bool want_scalar(struct ctx *c, const yaml_node_t *n, const char *what)
{
    return scalar(n) ? true : fail(c, n, "expected %s, found %s", what, type_name(n));
}

static bool want_map(struct ctx *c, const yaml_node_t *n, const char *what)
{
    return n->type == YAML_MAPPING_NODE ? true
                                        : fail(c, n, "expected %s (a mapping), found %s", what,
                                               type_name(n));
}

static bool want_seq(struct ctx *c, const yaml_node_t *n, const char *what)
{
    return n->type == YAML_SEQUENCE_NODE ? true
                                         : fail(c, n, "expected %s (a list), found %s", what,
                                                type_name(n));
}

#define for_each_pair(c, map, k, v)                                                                \
    for (yaml_node_pair_t *p_ = (map)->data.mapping.pairs.start;                                   \
         p_ < (map)->data.mapping.pairs.top && ((k) = node(c, p_->key)) &&                         \
         ((v) = node(c, p_->value));                                                               \
         p_++)

#define for_each_item(c, seq, item)                                                                \
    for (yaml_node_item_t *i_ = (seq)->data.sequence.items.start;                                  \
         i_ < (seq)->data.sequence.items.top && ((item) = node(c, *i_)); i_++)

/* Calls each on every item of the list seq; false at the first failure. */
static bool parse_list(struct ctx *c, const yaml_node_t *seq, const char *what,
                       bool (*each)(struct ctx *c, const yaml_node_t *item))
{
    if (!want_seq(c, seq, what))
        return false;
    yaml_node_t *item;
    for_each_item(c, seq, item)
    {
        if (!each(c, item))
            return false;
    }
    return true;
}

/* A key k of map among allowed ("a, b, c"), and its first: false after an
 * error otherwise. A second key of a name would be lost (lookup finds the
 * first) or, in the machine section, overflow its argv. Finding the first
 * costs at most as many steps as there are allowed names: a map gets here
 * past that many keys only through a duplicate, which stops it. */
static bool known_key(struct ctx *c, const yaml_node_t *map, const yaml_node_t *k,
                      const char *section, const char *allowed)
{
    const char *name = scalar(k);
    if (!name)
        return fail(c, k, "expected a key of %s, found %s", section, type_name(k));
    size_t n = strlen(name);
    const char *p = allowed;
    while (*p) {
        size_t len = strcspn(p, ",");
        if (len == n && strncmp(p, name, n) == 0)
            break;
        p += len;
        while (*p == ',' || *p == ' ')
            p++;
    }
    if (!*p)
        return fail(c, k, "unknown key '%s' in %s (expected one of: %s)", name, section, allowed);
    for (yaml_node_pair_t *pair = map->data.mapping.pairs.start; pair < map->data.mapping.pairs.top;
         pair++) {
        const yaml_node_t *first = node(c, pair->key);
        if (first == k)
            break;
        if (scalar(first) && strcmp(scalar(first), name) == 0)
            return fail(c, k, "expected each key once in %s, found '%s' again (first on line %zu)",
                        section, name, first->start_mark.line + 1);
    }
    return true;
}

static bool key_is(const yaml_node_t *k, const char *name)
{
    return strcmp(scalar(k), name) == 0;
}

static yaml_node_t *lookup(struct ctx *c, const yaml_node_t *map, const char *name)
{
    yaml_node_t *k, *v;
    for_each_pair(c, map, k, v)
    {
        if (scalar(k) && strcmp(scalar(k), name) == 0)
            return v;
    }
    return NULL;
}

/* "2ms", "500us", "1s", "100ns", "0": virtual nanoseconds. */
static bool parse_time(struct ctx *c, const yaml_node_t *n, uint64_t *ns)
{
    if (!want_scalar(c, n, "a time like 2ms"))
        return false;
    const char *s = scalar(n);
    char *end;
    errno = 0;
    unsigned long long v = strtoull(s, &end, 10);
    static const struct {
        const char *unit;
        uint64_t ns;
    } units[] = {{"ns", 1}, {"us", 1000}, {"ms", 1000000}, {"s", 1000000000}};
    if (end != s && *s != '-' && !errno) {
        if (!*end && v == 0) {
            *ns = 0;
            return true;
        }
        for (size_t i = 0; i < sizeof units / sizeof *units; i++)
            if (strcmp(end, units[i].unit) == 0 && v <= UINT64_MAX / units[i].ns) {
                *ns = v * units[i].ns;
                return true;
            }
    }
    return fail(c, n, "expected a time like 2ms (a whole number of ns, us, ms or s), found '%s'",
                s);
}

static bool parse_long(struct ctx *c, const yaml_node_t *n, const char *what, long lo, long hi,
                       long *out)
{
    if (!want_scalar(c, n, what))
        return false;
    char *end;
    errno = 0;
    long v = strtol(scalar(n), &end, 10);
    if (end == scalar(n) || *end || errno || v < lo || v > hi)
        return fail(c, n, "expected %s, found '%s'", what, scalar(n));
    *out = v;
    return true;
}

static bool parse_cpulist(struct ctx *c, const yaml_node_t *n, struct cpumask *mask)
{
    if (!want_scalar(c, n, "a cpulist like 0-3,6"))
        return false;
    char why[128];
    if (cpulist_parse(scalar(n), c->sc->cfg.cpus, mask, why, sizeof why) < 0)
        return fail(c, n, "expected a cpulist within 0-%u, found '%s': %s", c->sc->cfg.cpus - 1,
                    scalar(n), why);
    return true;
}

static bool parse_signal(struct ctx *c, const yaml_node_t *n, long *sig)
{
    if (!want_scalar(c, n, "a signal like SIGKILL"))
        return false;
    for (int i = 1; i < 32; i++) {
        const char *abbrev = sigabbrev_np(i);
        if (abbrev && strncmp(scalar(n), "SIG", 3) == 0 && strcmp(scalar(n) + 3, abbrev) == 0) {
            *sig = i;
            return true;
        }
    }
    return parse_long(c, n, "a signal like SIGKILL or a number from 1 to 64", 1, 64, sig);
}

/* The index of the task named name, or -1: a binary search of by_name
 * (every event and expectation names a task; a scan of up to
 * SCENARIO_MAX_TASKS names each would make a long file quadratic). */
static int task_index(const struct ctx *c, const char *name)
{
    size_t lo = 0, hi = c->sc->ntasks;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        int order = strcmp(c->sc->tasks[c->by_name[mid]].name, name);
        if (order == 0)
            return (int)c->by_name[mid];
        if (order < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    return -1;
}

static int task_named(struct ctx *c, const yaml_node_t *n)
{
    if (!want_scalar(c, n, "a task's name"))
        return -1;
    int i = task_index(c, scalar(n));
    if (i < 0)
        fail(c, n, "expected the name of a task, found '%s' (no task has that name)", scalar(n));
    return i;
}

static const char *relative_to_scenario(struct ctx *c, const char *path)
{
    if (path[0] == '/')
        return own_str(c->sc, path);
    char *out = own(c->sc, malloc(strlen(c->dir) + strlen(path) + 2));
    sprintf(out, "%s/%s", c->dir, path);
    return out;
}

/* A program's host path: with a '/', relative to the scenario; a bare name
 * is looked for in $ASYMU_PROGRAMS (':'-separated), else next to asymu:
 * its build's tests/guest and examples, or where an installed asymu's
 * programs lie (LIBEXECDIR/asymu, relative to BINDIR). */
static const char *find_program(struct ctx *c, const yaml_node_t *n, const char *name)
{
    if (strchr(name, '/')) {
        const char *path = relative_to_scenario(c, name);
        if (access(path, F_OK) == 0)
            return path;
        fail(c, n, "expected a program, found '%s': %s", name, strerror(errno));
        return NULL;
    }
    char dirs[4 * PATH_MAX];
    const char *env = getenv("ASYMU_PROGRAMS");
    if (env) {
        snprintf(dirs, sizeof dirs, "%s", env);
    } else {
        char exe[PATH_MAX];
        ssize_t len = readlink("/proc/self/exe", exe, sizeof exe - 1);
        exe[len > 0 ? len : 0] = '\0';
        char *d = dirname(exe);
        snprintf(dirs, sizeof dirs, "%s/tests/guest:%s/examples:%s/" ASYMU_PROGRAMS_FROM_BINDIR, d,
                 d, d);
    }
    for (char *save, *d = strtok_r(dirs, ":", &save); d; d = strtok_r(NULL, ":", &save)) {
        char *path = own(c->sc, malloc(strlen(d) + strlen(name) + 2));
        sprintf(path, "%s/%s", d, name);
        if (access(path, F_OK) == 0)
            return path;
    }
    fail(c, n, "expected a program, found '%s': not in %s", name,
         env ? "$ASYMU_PROGRAMS" : "asymu's build (tests/guest, examples) or installation");
    return NULL;
}

/* A program as the guest knows it: one found by name or relative to the
 * scenario is shown at VFS_PROGRAMS_DIR/BASENAME, so its path (argv[0],
 * AT_EXECFN), and with it virtual time, is the same wherever the scenario
 * and the programs lie; one written as an absolute path keeps it (*guest
 * NULL). Two different programs may not share a base name. */
static bool find_guest_program(struct ctx *c, const yaml_node_t *n, const char *written,
                               const char **host, const char **guest)
{
    if (!(*host = find_program(c, n, written)))
        return false;
    /* Copied to the programs' directory before the run: a device
     * (../../dev/zero) would fill the disk. */
    struct stat st;
    if (stat(*host, &st) == 0 && !S_ISREG(st.st_mode))
        return fail(c, n, "expected a program (a regular file), found '%s' (%s)", written,
                    S_ISDIR(st.st_mode) ? "a directory" : "a device, FIFO or socket");
    *guest = NULL;
    if (written[0] == '/')
        return true;
    char real[PATH_MAX];
    if (!realpath(*host, real))
        return fail(c, n, "expected a program, found '%s': %s", written, strerror(errno));
    const char *name = strrchr(real, '/') + 1;
    struct scenario *sc = c->sc;
    size_t i = 0;
    while (i < sc->nprograms && strcmp(sc->programs[i].name, name) != 0)
        i++;
    if (i == sc->nprograms)
        *(struct script_program *)grow(sc, (void **)&sc->programs, &sc->nprograms,
                                       sizeof *sc->programs) =
            (struct script_program){own_str(sc, name), own_str(sc, real)};
    else if (strcmp(sc->programs[i].host_path, real) != 0)
        return fail(c, n, "expected one program named '%s', found '%s', another file of that name",
                    name, written);
    char *path = own(sc, malloc(sizeof VFS_PROGRAMS_DIR + strlen(name) + 1));
    sprintf(path, "%s/%s", VFS_PROGRAMS_DIR, name);
    *guest = path;
    return true;
}

/* An argument: each "{{NAME}}" in it becomes program NAME's path (and
 * NAME is copied into the guest), however many there are. Built in a
 * memstream: each piece is appended once, so an argument costs time in
 * proportion to its length and its programs' paths. */
static const char *expand_arg(struct ctx *c, const yaml_node_t *n)
{
    const char *s = scalar(n);
    if (!strstr(s, "{{"))
        return own_str(c->sc, s);
    char *out = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&out, &len);
    if (!f)
        abort();
    bool ok = true;
    for (const char *p = s, *open; ok && p; p = open) {
        open = strstr(p, "{{");
        if (!open) {
            fputs(p, f);
            break;
        }
        fwrite(p, 1, (size_t)(open - p), f);
        const char *close = strstr(open + 2, "}}");
        if (!close) {
            ok = fail(c, n, "expected '}}' after '{{' in '%s'", s);
            break;
        }
        char name[256];
        if (close - open - 2 >= (ptrdiff_t)sizeof name) {
            ok = fail(c, n, "expected a program's name of at most %zu bytes in '{{...}}', found "
                            "'%.*s'", sizeof name - 1, (int)(close - open - 2), open + 2);
            break;
        }
        snprintf(name, sizeof name, "%.*s", (int)(close - open - 2), open + 2);
        const char *host, *guest;
        if (!(ok = find_guest_program(c, n, name, &host, &guest)))
            break;
        fputs(guest ? guest : host, f);
        open = close + 2;
    }
    fclose(f);
    if (!ok) {
        free(out);
        return NULL;
    }
    return own(c->sc, out);
}

/* ---- machine ---- */

static const char *option_of(const char *key)
{
    static const char *const map[][2] = {
        {"cpus", "--cpus"},     {"aarch32", "--aarch32"}, {"capacity", "--capacity"},
        {"cmdline", "--cmdline"}, {"policy", "--policy"}, {"seed", "--seed"},
        {"slice", "--slice"},   {"sysroot", "--sysroot"}, {"-L", "-L"},
        {"max_procs", "--max-procs"}, {"host_reserve", "--host-reserve"},
        {"soc", "--soc"},       {"cpu_model", "--cpu-model"},
    };
    for (size_t i = 0; i < sizeof map / sizeof *map; i++)
        if (strcmp(map[i][0], key) == 0)
            return map[i][1];
    return NULL;
}

static bool parse_machine(struct ctx *c, const yaml_node_t *map)
{
    struct scenario *sc = c->sc;
    char *argv[64];
    const yaml_node_t *where[64];
    int argc = 0;
    sc->time_limit_ns = DEFAULT_TIME_LIMIT_NS;
    yaml_node_t *k, *v;
    if (map) {
        if (!want_map(c, map, "the machine"))
            return false;
        for_each_pair(c, map, k, v)
        {
            if (!known_key(c, map, k, "machine",
                           "cpus, aarch32, capacity, cmdline, policy, seed, slice, sysroot, -L, "
                           "max_procs, host_reserve, soc, cpu_model, check_invariants, "
                           "time_limit"))
                return false;
            if (key_is(k, "time_limit")) {
                if (!parse_time(c, v, &sc->time_limit_ns))
                    return false;
                /* 0 killed every task at its start. Not "no limit"
                 * either: a scenario from elsewhere must not run forever
                 * (docs/security.md), so a run always has an end. */
                if (sc->time_limit_ns == 0)
                    return fail(c, v, "expected a time limit above 0 (every task still running "
                                      "then is killed: 0 would kill them all at their start), "
                                      "found '%s'", scalar(v));
                continue;
            }
            if (key_is(k, "check_invariants")) {
                if (!want_scalar(c, v, "true or false"))
                    return false;
                if (strcmp(scalar(v), "true") != 0 && strcmp(scalar(v), "false") != 0)
                    return fail(c, v, "expected true or false, found '%s'", scalar(v));
                sc->check_invariants = strcmp(scalar(v), "true") == 0;
                continue;
            }
            if (!want_scalar(c, v, "a value as `asymu run` takes it"))
                return false;
            const char *val = scalar(v);
            if (key_is(k, "sysroot") || key_is(k, "-L"))
                val = relative_to_scenario(c, val);
            where[argc / 2] = k;
            argv[argc++] = (char *)option_of(scalar(k));
            argv[argc++] = own_str(sc, val);
        }
    }
    argv[argc++] = "--";
    argv[argc++] = "scenario";
    char *msg = NULL;
    size_t msglen = 0;
    FILE *errors = open_memstream(&msg, &msglen);
    int r = c->options(argc, argv, &sc->cfg, errors);
    fclose(errors);
    if (r != 0) {
        /* "asymu run: invalid value 'X' for --opt: allowed": at opt's key,
         * named as the scenario names it. */
        const char *text = strncmp(msg, "asymu run: ", 11) == 0 ? msg + 11 : msg;
        msg[strcspn(msg, "\n")] = '\0';
        for (int i = 0; i + 2 < argc; i += 2) {
            char needle[64];
            snprintf(needle, sizeof needle, " for %s:", argv[i]);
            const char *hit = strstr(text, needle);
            if (hit) {
                const yaml_node_t *k = where[i / 2];
                fail(c, k, "%.*s for %s:%s", (int)(hit - text), text, scalar(k),
                     hit + strlen(needle));
            }
        }
        fail(c, map ? map : &(yaml_node_t){0}, "%s", text);
        free(msg);
        return false;
    }
    free(msg);
    sc->cfg.check_invariants = sc->check_invariants;
    return true;
}

/* ---- files ---- */

/* A regular file inside the scenario's directory, named by n (from:,
 * input:): its descriptor, or -1 after an error that calls it a `noun`.
 * openat2's RESOLVE_BENEATH refuses (EXDEV) an absolute path, a ".." above
 * the directory and a symbolic link leading out of it, at every step of
 * the walk, so a scenario cannot hand the guest /etc/shadow; O_NONBLOCK,
 * because opening a FIFO to learn that it is not a regular file would wait
 * for a writer. */
static int open_beneath(struct ctx *c, const yaml_node_t *n, const char *noun, struct stat *st)
{
    const char *name = scalar(n);
    struct open_how how = {.flags = O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC,
                           .resolve = RESOLVE_BENEATH | RESOLVE_NO_MAGICLINKS};
    int fd = c->dir_fd < 0 ? -1 : (int)syscall(SYS_openat2, c->dir_fd, name, &how, sizeof how);
    if (fd < 0 && (errno == EXDEV || c->dir_fd < 0)) {
        fail(c, n, "expected a %s in the scenario's directory, found '%s' (outside it: copy the "
                   "file there)", noun, name);
        return -1;
    }
    if (fd < 0 || fstat(fd, st) < 0) {
        fail(c, n, "expected a readable %s, found '%s': %s", noun, name, strerror(errno));
        if (fd >= 0)
            close(fd);
        return -1;
    }
    if (!S_ISREG(st->st_mode)) {
        close(fd);
        fail(c, n, "expected a regular file, found '%s' (%s)", name,
             S_ISDIR(st->st_mode)    ? "a directory"
             : S_ISFIFO(st->st_mode) ? "a FIFO"
             : S_ISSOCK(st->st_mode) ? "a socket"
                                     : "a device");
        return -1;
    }
    return fd;
}

/* from: the file's bytes, at most SCENARIO_MAX_FILE_BYTES. */
static bool read_host_file(struct ctx *c, const yaml_node_t *n, struct script_file *f)
{
    const char *name = scalar(n);
    struct stat st;
    int fd = open_beneath(c, n, "file", &st);
    if (fd < 0)
        return false;
    uint64_t size = (uint64_t)st.st_size;
    if (size > SCENARIO_MAX_FILE_BYTES) {
        close(fd);
        return fail(c, n, "expected a file of at most 16 MiB, found '%s' (%llu bytes)", name,
                    (unsigned long long)size);
    }
    /* One byte more than fstat said: a file that grew is seen. */
    char *data = own(c->sc, malloc((size_t)size + 1));
    size_t len = 0;
    ssize_t got = 0;
    while (len <= size && (got = read(fd, data + len, (size_t)size + 1 - len)) > 0)
        len += (size_t)got;
    int err = errno;
    close(fd);
    if (got < 0)
        return fail(c, n, "expected a readable file, found '%s': %s", name, strerror(err));
    if (len != size)
        return fail(c, n, "expected a file that does not change while read, found '%s'", name);
    f->data = data;
    f->len = len;
    return true;
}

static bool parse_files(struct ctx *c, const yaml_node_t *seq)
{
    if (!want_seq(c, seq, "files"))
        return false;
    yaml_node_t *item, *k, *v;
    for_each_item(c, seq, item)
    {
        if (!want_map(c, item, "a file"))
            return false;
        struct script_file *f = grow(c->sc, (void **)&c->sc->files, &c->sc->nfiles, sizeof *f);
        const yaml_node_t *content = NULL;
        for_each_pair(c, item, k, v)
        {
            if (!known_key(c, item, k, "a file", "name, text, from") ||
                !want_scalar(c, v, key_is(k, "name") ? "a file name" : "text or a host path"))
                return false;
            if (key_is(k, "name")) {
                if (!*scalar(v) || strchr(scalar(v), '/') || strcmp(scalar(v), ".") == 0 ||
                    strcmp(scalar(v), "..") == 0)
                    return fail(c, v, "expected a file name in /tmp (no '/'), found '%s'",
                                scalar(v));
                f->name = own_str(c->sc, scalar(v));
            } else if (content) {
                return fail(c, k, "expected one of text and from, found both");
            } else if (key_is(k, "text")) {
                content = v;
                f->data = own_str(c->sc, scalar(v));
                f->len = strlen(f->data);
            } else {
                content = v;
                if (!read_host_file(c, v, f))
                    return false;
            }
            if (content == v && (c->files_bytes += f->len) > SCENARIO_MAX_FILES_BYTES)
                return fail(c, v, "expected at most 64 MiB of files in all, found more with "
                                  "this one");
        }
        if (!f->name)
            return fail(c, item, "expected a 'name' in this file");
        if (!content)
            return fail(c, item, "expected 'text' or 'from' in this file");
    }
    return true;
}

/* ---- tasks ---- */

/* One more string of a task's argv or envp (n so far, s the string, at
 * n): within execve's bounds, or false after an error. */
static bool arg_fits(struct ctx *c, const yaml_node_t *n, size_t count, const char *s,
                     const char *what)
{
    if (count >= SCENARIO_MAX_ARGS)
        return fail(c, n, "expected at most %d %s in a task (as execve takes), found more",
                    SCENARIO_MAX_ARGS, what);
    c->arg_bytes += strlen(s) + 1 + 8;
    if (c->arg_bytes > SCENARIO_MAX_ARG_BYTES)
        return fail(c, n, "expected at most 2 MiB of arguments and environment in a task "
                          "(strings and 8-byte pointers, as execve takes), found more");
    return true;
}

static bool parse_strings(struct ctx *c, const yaml_node_t *seq, char ***out, int *n, bool args)
{
    if (!want_seq(c, seq, args ? "arguments" : "strings"))
        return false;
    yaml_node_t *item;
    for_each_item(c, seq, item)
    {
        if (!want_scalar(c, item, args ? "an argument" : "a string"))
            return false;
        const char *s = args ? expand_arg(c, item) : own_str(c->sc, scalar(item));
        if (!s || (args && !arg_fits(c, item, (size_t)*n, s, "arguments, argv[0] included,")))
            return false;
        size_t count = (size_t)*n;
        *(const char **)grow(c->sc, (void **)out, &count, sizeof **out) = s;
        *n = (int)count;
    }
    return true;
}

/* Indexes into the keys (the context), by name then file order. */
static int by_key(const void *a, const void *b, void *keys)
{
    const yaml_node_t *const *sort_keys = keys;
    size_t i = *(const size_t *)a, j = *(const size_t *)b;
    int order = strcmp(scalar(sort_keys[i]), scalar(sort_keys[j]));
    return order ? order : (i > j) - (i < j);
}

/* A key twice in a mapping of free names (env), which known_key cannot
 * check by its list: the keys sorted by name (then file order), the
 * earliest second one in the file reported, in O(N log N) for N keys. */
static bool unique_keys(struct ctx *c, const yaml_node_t *map, const char *section)
{
    size_t n = (size_t)(map->data.mapping.pairs.top - map->data.mapping.pairs.start);
    const yaml_node_t **keys = calloc(n + 1, sizeof *keys);
    size_t *order = calloc(n + 1, sizeof *order);
    if (!keys || !order)
        abort();
    for (size_t i = 0; i < n; i++) {
        keys[i] = node(c, map->data.mapping.pairs.start[i].key);
        order[i] = i;
    }
    sort_items_r(order, n, sizeof *order, by_key, keys);
    size_t again = n, first = n, run = 0; /* run: where the run of equal names starts */
    for (size_t i = 1; i < n; i++) {
        if (strcmp(scalar(keys[order[i - 1]]), scalar(keys[order[i]])) != 0)
            run = i;
        else if (order[i] < again) {
            again = order[i];
            first = order[run];
        }
    }
    bool ok = again == n ||
              fail(c, keys[again], "expected each key once in %s, found '%s' again (first on "
                                   "line %zu)", section, scalar(keys[again]),
                   keys[first]->start_mark.line + 1);
    free(keys);
    free(order);
    return ok;
}

static bool parse_env(struct ctx *c, const yaml_node_t *map, struct scenario_task *t)
{
    if (!want_map(c, map, "the environment (NAME: value)"))
        return false;
    yaml_node_t *k, *v;
    size_t n = 0;
    for_each_pair(c, map, k, v)
    {
        if (!want_scalar(c, k, "a variable's name") || !want_scalar(c, v, "a variable's value"))
            return false;
        const char *name = scalar(k) ?: "", *value = scalar(v) ?: ""; /* scalars here */
        char *s = own(c->sc, malloc(strlen(name) + strlen(value) + 2));
        sprintf(s, "%s=%s", name, value);
        if (!arg_fits(c, k, n, s, "environment variables"))
            return false;
        *(char **)grow(c->sc, (void **)&t->envp, &n, sizeof *t->envp) = s;
    }
    if (!unique_keys(c, map, "env"))
        return false;
    grow(c->sc, (void **)&t->envp, &n, sizeof *t->envp); /* NULL */
    return true;
}

/* ---- workloads (docs/scenarios.md "Workloads") ---- */

static void push_arg(struct ctx *c, struct scenario_task *t, const char *fmt, ...)
{
    char buf[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    *(const char **)grow(c->sc, (void **)&t->argv, &(size_t){(size_t)t->argc}, sizeof *t->argv) =
        own_str(c->sc, buf);
    t->argc++;
    c->arg_bytes += strlen(buf) + 1 + 8;
}

/* ---- cgroup: a task's or a phase's group (docs/scenarios.md "cgroup") ---- */

#define CGROUP_PATH_MAX 255

/* The group of sc->cgroups at path (below the root, "bg/fg"; len bytes of
 * it), made with its ancestors (first) if new; -1 past SCRIPT_CGROUP_MAX. */
static int cgroup_group(struct ctx *c, const char *path, size_t len)
{
    struct scenario *sc = c->sc;
    for (size_t i = 0; i < sc->ncgroups; i++)
        if (strlen(sc->cgroups[i].path) == len && memcmp(sc->cgroups[i].path, path, len) == 0)
            return (int)i;
    const char *slash = memrchr(path, '/', len);
    if (slash && cgroup_group(c, path, (size_t)(slash - path)) < 0)
        return -1;
    if (sc->ncgroups == SCRIPT_CGROUP_MAX - 1) /* the root is one of the kernel's CGROUP_MAX */
        return -1;
    struct script_cgroup *g = grow(sc, (void **)&sc->cgroups, &sc->ncgroups, sizeof *g);
    g->path = own(sc, strndup(path, len));
    return (int)(sc->ncgroups - 1);
}

/* Whether group a is a proper ancestor of group b (their paths). */
static bool cgroup_above(const char *a, const char *b)
{
    size_t n = strlen(a);
    return strncmp(a, b, n) == 0 && b[n] == '/';
}

/* A group's path as /proc/PID/cgroup shows it: "/" the root, "/bg/fg". */
static bool cgroup_path_ok(struct ctx *c, const yaml_node_t *n, const char *path)
{
    const char *expected = "expected a cgroup v2 path from the hierarchy's root, as "
                           "/proc/PID/cgroup shows it (/bg/fg)";
    if (path[0] != '/')
        return fail(c, n, "%s, found '%s' (not from the root)", expected, path);
    if (strcmp(path, "/sys/fs/cgroup") == 0 || strncmp(path, "/sys/fs/cgroup/", 15) == 0)
        return fail(c, n, "%s, found '%s' (a path of its mount: write '%s')", expected, path,
                    path[14] ? path + 14 : "/");
    if (strlen(path) > CGROUP_PATH_MAX)
        return fail(c, n, "%s, found one of %zu bytes (at most %d)", expected, strlen(path),
                    CGROUP_PATH_MAX);
    if (strcmp(path, "/") == 0)
        return true;
    for (const char *p = path + 1;; ) {
        size_t len = strcspn(p, "/");
        char name[CGROUP_PATH_MAX + 1];
        snprintf(name, sizeof name, "%.*s", (int)len, p);
        if (len == 0)
            return fail(c, n, "%s, found '%s' (an empty name)", expected, path);
        if (strcmp(name, ".") == 0 || strcmp(name, "..") == 0)
            return fail(c, n, "%s, found '%s' ('%s': a group's path names each group, it "
                              "never climbs out of the hierarchy)", expected, path, name);
        if (len >= SCRIPT_CGROUP_NAME_MAX)
            return fail(c, n, "%s, found '%s' (a name of %zu bytes: at most %d)", expected, path,
                        len, SCRIPT_CGROUP_NAME_MAX - 1);
        for (size_t i = 0; i < len; i++)
            if ((unsigned char)p[i] < 0x20 || p[i] == 0x7f)
                return fail(c, n, "%s, found a control character in '%s'", expected, path);
        if (script_cgroup_is_file(name))
            return fail(c, n, "%s, found '%s' ('%s' is a file of every group: cgroup_mkdir() "
                              "gives EEXIST)", expected, path, name);
        if (!p[len])
            return true;
        p += len + 1;
    }
}

static const char *const cgroup_keys =
    "path, cpuset.cpus, cpu.weight, cpu.max, cpu.uclamp.min, cpu.uclamp.max";

/* One of a group's files: its value checked as cgroup_write() checks it. */
static bool cgroup_file_ok(struct ctx *c, const yaml_node_t *k, const yaml_node_t *v)
{
    if (key_is(k, "cpuset.cpus")) {
        struct cpumask mask;
        return parse_cpulist(c, v, &mask);
    }
    const char *what = key_is(k, "cpu.weight") ? "a cpu.weight from 1 to 10000"
                       : key_is(k, "cpu.max")
                           ? "a cpu.max 'QUOTA PERIOD' in us (QUOTA max or 1000 and more, "
                             "PERIOD 1000 to 1000000; 100000 if left out)"
                           : "a percentage from 0 to 100 (two decimals kept, the next rounded) or max";
    if (!want_scalar(c, v, what))
        return false;
    int err = script_cgroup_check(scalar(k), scalar(v));
    if (err < 0)
        return fail(c, v, "expected %s, found '%s' (the kernel's write gives %s)", what,
                    scalar(v), strerrorname_np(-err));
    return true;
}

/* cgroup: PATH or {path: PATH, FILE: VALUE...}: the group (made before the
 * first task starts, docs/scenarios.md "cgroup"), its files, and a process
 * in it when member (a task or a phase moves one there). *rel: its path
 * below the root ("bg/fg"), NULL for the root. A group with processes
 * cannot enable a controller for its children, and one that enables them
 * takes no processes (no internal processes: the kernel's
 * cgroup_vet_subtree_control_enable(), cgroup_migrate_vet_dst()): the
 * files of a group enable their controllers in its ancestors, so a group
 * with processes is never one's ancestor. */
static bool parse_cgroup(struct ctx *c, const yaml_node_t *v, const char **rel)
{
    const yaml_node_t *path = v, *files = NULL;
    if (!scalar(v)) {
        if (!want_map(c, v, "a cgroup path (/bg) or {path: /bg, cpuset.cpus: 4-7, ...}"))
            return false;
        yaml_node_t *k, *val;
        for_each_pair(c, v, k, val)
        {
            if (!known_key(c, v, k, "a cgroup", cgroup_keys))
                return false;
            if (!key_is(k, "path") && !cgroup_file_ok(c, k, val))
                return false;
            if (!key_is(k, "path") && !files)
                files = k;
        }
        if (!(path = lookup(c, v, "path")))
            return fail(c, v, "expected a 'path' in this cgroup");
    }
    if (!want_scalar(c, path, "a cgroup path like /bg") || !cgroup_path_ok(c, path, scalar(path)))
        return false;
    if (strcmp(scalar(path), "/") == 0) {
        if (files)
            return fail(c, files, "expected files only for a group below the root (the root "
                                  "has no %s)", scalar(files));
        *rel = NULL;
        return true;
    }
    struct scenario *sc = c->sc;
    int i = cgroup_group(c, scalar(path) + 1, strlen(scalar(path) + 1));
    if (i < 0)
        return fail(c, path, "expected at most %d cgroups (the kernel layer's, the root "
                             "included), found more", SCRIPT_CGROUP_MAX);
    struct script_cgroup *g = &sc->cgroups[i];
    *rel = g->path;
    if (files) {
        if (c->cg_files[i])
            return fail(c, files, "expected the files of cgroup /%s once, found them again "
                                  "(first on line %zu)", g->path,
                        c->cg_files[i]->start_mark.line + 1);
        c->cg_files[i] = files;
        yaml_node_t *k, *val;
        for_each_pair(c, v, k, val)
        {
            if (key_is(k, "path"))
                continue;
            g->file[g->nfiles] = own_str(sc, scalar(k));
            g->value[g->nfiles++] = own_str(sc, scalar(val));
        }
        for (size_t j = 0; j < sc->ncgroups; j++)
            if (c->cg_member[j] && cgroup_above(sc->cgroups[j].path, g->path))
                return fail(c, files, "expected no files for cgroup /%s: they enable their "
                                      "controllers in /%s, which has a process (line %zu; no "
                                      "internal processes: cgroup_vet_subtree_control_enable())",
                            g->path, sc->cgroups[j].path, c->cg_member[j]->start_mark.line + 1);
    }
    if (!c->cg_member[i]) {
        for (size_t j = 0; j < sc->ncgroups; j++)
            if (c->cg_files[j] && cgroup_above(g->path, sc->cgroups[j].path))
                return fail(c, path, "expected a group without processes below it enabling "
                                     "controllers, found /%s, whose child /%s has files (line "
                                     "%zu; no internal processes: cgroup_migrate_vet_dst())",
                            g->path, sc->cgroups[j].path, c->cg_files[j]->start_mark.line + 1);
        c->cg_member[i] = path;
    }
    return true;
}

/* A policy's name, "SCHED_FIFO" or "fifo", as the worker's argument. */
static const char *workload_policy(const char *s)
{
    static const char *const names[] = {"other", "batch", "idle", "fifo", "rr", "deadline"};
    if (strncasecmp(s, "SCHED_", 6) == 0)
        s += 6;
    for (size_t i = 0; i < sizeof names / sizeof *names; i++)
        if (strcasecmp(s, names[i]) == 0)
            return names[i];
    return NULL;
}

/* exec: NAME or {program: NAME, args: [...]}: the worker execs the program
 * (found as a task's `path` is, copied into the guest), "exec:PATH" then
 * "arg:A" per argument. The process becomes the program: it is the last
 * phase, outside any begin (the phases after it would never run). */
static bool parse_exec_phase(struct ctx *c, const yaml_node_t *v, struct scenario_task *t)
{
    const yaml_node_t *prog = v, *args = NULL;
    if (c->open_begins)
        return fail(c, v, "expected exec outside begin ... end (the process becomes the "
                          "program: nothing after it runs)");
    if (!scalar(v)) {
        if (!want_map(c, v, "a program name or {program: NAME, args: [...]}"))
            return false;
        yaml_node_t *k, *val;
        for_each_pair(c, v, k, val)
            if (!known_key(c, v, k, "an exec", "program, args"))
                return false;
        if (!(prog = lookup(c, v, "program")))
            return fail(c, v, "expected a 'program' in this exec");
        args = lookup(c, v, "args");
    }
    const char *host, *guest;
    if (!want_scalar(c, prog, "a program name") ||
        !find_guest_program(c, prog, scalar(prog), &host, &guest))
        return false;
    push_arg(c, t, "exec:%s", guest ? guest : scalar(prog));
    if (args) {
        yaml_node_t *item;
        if (!want_seq(c, args, "a list of arguments"))
            return false;
        if (args->data.sequence.items.top - args->data.sequence.items.start > 64)
            return fail(c, args, "expected at most 64 exec arguments");
        for_each_item(c, args, item)
        {
            if (!want_scalar(c, item, "an argument"))
                return false;
            const char *a = expand_arg(c, item);
            if (!a)
                return false;
            if (strlen(a) > 500) /* the worker's arguments are built in 512 bytes */
                return fail(c, item, "expected an exec argument of at most 500 bytes");
            push_arg(c, t, "arg:%s", a);
        }
    }
    c->exec_phase = prog;
    return true;
}

/* sched: {policy, priority, nice, runtime, deadline, period, uclamp_min,
 * uclamp_max}: the thread's sched_setattr from this phase on, with the
 * rules of the workload's own policy keys. Without a policy the thread
 * keeps its own (SCHED_FLAG_KEEP_POLICY) and only nice and the clamps may
 * change; without nice or priority its parameters are kept. */
static bool parse_sched_phase(struct ctx *c, const yaml_node_t *v, struct scenario_task *t)
{
    if (!want_map(c, v, "a scheduling change like {policy: SCHED_FIFO, priority: 10}"))
        return false;
    const char *policy = "keep";
    long nice = 0, prio = 0, umin = -1, umax = -1;
    uint64_t dl[3] = {0, 0, 0};
    const yaml_node_t *policy_node = NULL, *prio_node = NULL, *nice_node = NULL, *dl_node = NULL;
    yaml_node_t *k, *val;
    for_each_pair(c, v, k, val)
    {
        if (!known_key(c, v, k, "a sched phase",
                       "policy, priority, nice, runtime, deadline, period, uclamp_min, "
                       "uclamp_max"))
            return false;
        bool ok = true;
        if (key_is(k, "policy")) {
            if (!want_scalar(c, val, "a policy") || !(policy = workload_policy(scalar(val))))
                return fail(c, val, "expected a policy (SCHED_OTHER, SCHED_BATCH, SCHED_IDLE, "
                                    "SCHED_FIFO, SCHED_RR, SCHED_DEADLINE)");
            policy_node = val;
        } else if (key_is(k, "priority")) {
            ok = parse_long(c, val, "a real-time priority from 1 to 99", 1, 99, &prio);
            prio_node = val;
        } else if (key_is(k, "nice")) {
            ok = parse_long(c, val, "a nice value from -20 to 19", -20, 19, &nice);
            nice_node = val;
        } else if (key_is(k, "uclamp_min") || key_is(k, "uclamp_max")) {
            ok = parse_long(c, val, "a utilization clamp from 0 to 1024", 0, 1024,
                            key_is(k, "uclamp_min") ? &umin : &umax);
        } else {
            ok = parse_time(c, val, &dl[key_is(k, "runtime") ? 0 : key_is(k, "deadline") ? 1 : 2]);
            dl_node = k;
        }
        if (!ok)
            return false;
    }
    bool rt = strcmp(policy, "fifo") == 0 || strcmp(policy, "rr") == 0;
    bool deadline = strcmp(policy, "deadline") == 0;
    if (!policy_node && (prio_node || dl_node))
        return fail(c, prio_node ? prio_node : dl_node, "expected a 'policy' with priority, "
                                                        "runtime, deadline and period");
    if (rt && !prio_node)
        return fail(c, policy_node, "expected a 'priority' with SCHED_FIFO and SCHED_RR");
    if (policy_node && !rt && prio_node)
        return fail(c, prio_node, "expected 'priority' only with SCHED_FIFO or SCHED_RR");
    if (deadline && (!dl[0] || !dl[1] || !dl[2] || dl[0] > dl[1] || dl[1] > dl[2]))
        return fail(c, policy_node, "expected runtime <= deadline <= period, each above 0, "
                                    "with SCHED_DEADLINE");
    if (policy_node && !deadline && dl_node)
        return fail(c, dl_node, "expected runtime, deadline and period only with SCHED_DEADLINE");
    if (umin >= 0 && umax >= 0 && umin > umax)
        return fail(c, v, "expected uclamp_min not above uclamp_max");
    if (!policy_node && !nice_node && umin < 0 && umax < 0)
        return fail(c, v, "expected a change in this sched phase (policy, nice, uclamp_min, "
                          "uclamp_max)");
    if (!policy_node && !nice_node)
        push_arg(c, t, "sched:keep:keep:%ld:%ld", umin, umax);
    else
        push_arg(c, t, "sched:%s:%ld,%ld,%llu,%llu,%llu:%ld:%ld", policy, nice, prio,
                 (unsigned long long)dl[0], (unsigned long long)dl[1],
                 (unsigned long long)dl[2], umin, umax);
    return true;
}

/* One phase: a mapping of one key (`run: 1000`, `sleep: 1ms`, `lock: m`),
 * or `yield`. */
static bool parse_phase(struct ctx *c, const yaml_node_t *item, struct scenario_task *t)
{
    static const char *const keys =
        "run, runtime, sleep, timer, lock, unlock, barrier, yield, mem, begin, fork, exec, "
        "sched, cgroup";
    if (scalar(item) && (strcmp(scalar(item), "yield") == 0 || strcmp(scalar(item), "fork") == 0)) {
        push_arg(c, t, "%s", scalar(item));
        return true;
    }
    if (scalar(item) && strcmp(scalar(item), "end") == 0) {
        if (c->open_begins == 0)
            return fail(c, item, "expected a 'begin' before this 'end'");
        c->open_begins--;
        push_arg(c, t, "end");
        return true;
    }
    if (!want_map(c, item, "a phase like {run: 100000} or yield"))
        return false;
    /* One phase, and its `name` (throughput counts its completions). */
    const yaml_node_t *label = lookup(c, item, "name");
    long pairs = item->data.mapping.pairs.top - item->data.mapping.pairs.start;
    if (pairs != 1 + (label != NULL))
        return fail(c, item, "expected one phase in this mapping (%s), and its 'name'", keys);
    if (label && (!want_scalar(c, label, "a phase's name") || !*scalar(label) ||
                  strlen(scalar(label)) > 64 || strpbrk(scalar(label), ": \t\n")))
        return c->failed || fail(c, label, "expected a phase's name (1 to 64 bytes, no ':' or "
                                           "space)");
    yaml_node_t *k, *v;
    for_each_pair(c, item, k, v)
    {
        if (key_is(k, "name"))
            continue;
        if (!known_key(c, item, k, "a phase", keys))
            return false;
        if (label && (key_is(k, "begin") || key_is(k, "fork") || key_is(k, "exec")))
            return fail(c, label, "expected a 'name' on a phase other than begin, fork and exec "
                                  "(name the phase after its end)");
        if (key_is(k, "exec")) {
            if (!parse_exec_phase(c, v, t))
                return false;
            continue;
        }
        if (key_is(k, "sched")) {
            if (!parse_sched_phase(c, v, t))
                return false;
            continue;
        }
        if (key_is(k, "cgroup")) { /* the worker writes 0 to its cgroup.procs */
            const char *rel;
            if (!parse_cgroup(c, v, &rel))
                return false;
            push_arg(c, t, "cgroup:" SCRIPT_CGROUP_MOUNT "/%s%scgroup.procs", rel ? rel : "",
                     rel ? "/" : "");
            continue;
        }
        const char *key = scalar(k);
        uint64_t n;
        if (key_is(k, "runtime") || key_is(k, "sleep") || key_is(k, "timer")) {
            if (!parse_time(c, v, &n))
                return false;
            if (key_is(k, "timer") && n == 0)
                return fail(c, v, "expected a period above 0");
            push_arg(c, t, "%s:%llu", key, (unsigned long long)n);
        } else if (key_is(k, "begin")) {
            long count;
            if (!parse_long(c, v, "a number of repeats (1 or more)", 1, LONG_MAX, &count))
                return false;
            if (++c->open_begins > SCENARIO_MAX_DEPTH)
                return fail(c, v, "expected at most %d nested begins", SCENARIO_MAX_DEPTH);
            push_arg(c, t, "begin:%ld", count);
        } else if (key_is(k, "run") || key_is(k, "mem")) {
            long count;
            if (!parse_long(c, v, key_is(k, "run") ? "a number of loop iterations"
                                                   : "a number of bytes (at most 1 GiB)",
                            0, key_is(k, "run") ? LONG_MAX : 1L << 30, &count))
                return false;
            push_arg(c, t, "%s:%ld", key, count);
        } else if (key_is(k, "yield") || key_is(k, "fork")) {
            push_arg(c, t, "%s", key);
        } else {
            if (!want_scalar(c, v, "a name") || !*scalar(v) || strlen(scalar(v)) > 64 ||
                strchr(scalar(v), ':'))
                return fail(c, v, "expected a name (1 to 64 bytes, no ':')");
            push_arg(c, t, "%s:%s", key, scalar(v));
        }
    }
    if (label) /* the worker writes a trace marker after the phase */
        push_arg(c, t, "mark:%s", scalar(label));
    return true;
}

/* workload: the worker for its ISA, its arguments from the description
 * (examples/workload.c reads them). */
static bool parse_workload(struct ctx *c, const yaml_node_t *map, struct scenario_task *t)
{
    if (!want_map(c, map, "a workload"))
        return false;
    const char *isa = "aarch64", *policy = "other";
    long instances = 1, loops = 1, nice = 0, prio = 0;
    uint64_t dl[3] = {0, 0, 0};
    const yaml_node_t *phases = NULL, *policy_node = NULL, *prio_node = NULL, *dl_node = NULL;
    yaml_node_t *k, *v;
    for_each_pair(c, map, k, v)
    {
        if (!known_key(c, map, k, "a workload",
                       "isa, instances, loop, policy, priority, nice, runtime, deadline, period, "
                       "phases"))
            return false;
        bool ok = true;
        if (key_is(k, "isa")) {
            if (!want_scalar(c, v, "an ISA (aarch64 or arm)") ||
                (strcmp(scalar(v), "aarch64") != 0 && strcmp(scalar(v), "arm") != 0))
                return fail(c, v, "expected an ISA (aarch64 or arm)");
            isa = strcmp(scalar(v), "arm") == 0 ? "armhf" : "aarch64";
        } else if (key_is(k, "instances")) {
            ok = parse_long(c, v, "a number of instances from 1 to 256", 1, 256, &instances);
        } else if (key_is(k, "loop")) {
            ok = parse_long(c, v, "a number of loops (-1: until the end)", -1, LONG_MAX, &loops);
            if (ok && loops == 0)
                return fail(c, v, "expected a number of loops (-1: until the end), found '0'");
        } else if (key_is(k, "policy")) {
            if (!want_scalar(c, v, "a policy") || !(policy = workload_policy(scalar(v))))
                return fail(c, v, "expected a policy (SCHED_OTHER, SCHED_BATCH, SCHED_IDLE, "
                                  "SCHED_FIFO, SCHED_RR, SCHED_DEADLINE)");
            policy_node = v;
        } else if (key_is(k, "priority")) {
            ok = parse_long(c, v, "a real-time priority from 1 to 99", 1, 99, &prio);
            prio_node = v;
        } else if (key_is(k, "nice")) {
            ok = parse_long(c, v, "a nice value from -20 to 19", -20, 19, &nice);
        } else if (key_is(k, "phases")) {
            phases = v;
        } else {
            ok = parse_time(c, v, &dl[key_is(k, "runtime") ? 0 : key_is(k, "deadline") ? 1 : 2]);
            dl_node = k;
        }
        if (!ok)
            return false;
    }
    bool rt = strcmp(policy, "fifo") == 0 || strcmp(policy, "rr") == 0;
    bool deadline = strcmp(policy, "deadline") == 0;
    if (rt && !prio_node)
        return fail(c, policy_node, "expected a 'priority' with SCHED_FIFO and SCHED_RR");
    if (!rt && prio_node)
        return fail(c, prio_node, "expected 'priority' only with SCHED_FIFO or SCHED_RR");
    if (deadline && (!dl[0] || !dl[1] || !dl[2] || dl[0] > dl[1] || dl[1] > dl[2]))
        return fail(c, policy_node, "expected runtime <= deadline <= period, each above 0, "
                                    "with SCHED_DEADLINE");
    if (!deadline && dl_node)
        return fail(c, dl_node, "expected runtime, deadline and period only with SCHED_DEADLINE");
    if (!phases)
        return fail(c, map, "expected 'phases' in this workload");
    if (!want_seq(c, phases, "phases"))
        return false;
    char program[32];
    snprintf(program, sizeof program, "workload-%s", isa);
    const char *host;
    if (!find_guest_program(c, map, program, &host, &t->exe))
        return false;
    t->path = (char *)host;
    t->argc = 0;
    push_arg(c, t, "%s", t->exe ? t->exe : t->path);
    push_arg(c, t, "%.11s", t->name);
    push_arg(c, t, "%ld", instances);
    push_arg(c, t, "%ld", loops);
    push_arg(c, t, "%s", policy);
    push_arg(c, t, "%ld", nice);
    push_arg(c, t, "%ld", prio);
    for (int i = 0; i < 3; i++)
        push_arg(c, t, "%llu", (unsigned long long)dl[i]);
    size_t before = (size_t)t->argc;
    yaml_node_t *item;
    c->open_begins = 0;
    c->exec_phase = NULL;
    for_each_item(c, phases, item)
    {
        if (c->exec_phase)
            return fail(c, item, "expected exec to be the last phase (the process becomes the "
                                 "program: nothing after it runs)");
        if (!parse_phase(c, item, t))
            return false;
    }
    if ((size_t)t->argc == before)
        return fail(c, phases, "expected at least one phase");
    if (c->open_begins)
        return fail(c, phases, "expected an 'end' for each 'begin'");
    return true;
}

static bool parse_task(struct ctx *c, const yaml_node_t *map)
{
    struct scenario *sc = c->sc;
    if (!want_map(c, map, "a task"))
        return false;
    if (sc->ntasks == SCENARIO_MAX_TASKS)
        return fail(c, map, "expected at most %d tasks, found more", SCENARIO_MAX_TASKS);
    struct scenario_task *t = grow(sc, (void **)&sc->tasks, &sc->ntasks, sizeof *t);
    const yaml_node_t *args = NULL, *workload = NULL;
    c->arg_bytes = 0;
    yaml_node_t *k, *v;
    for_each_pair(c, map, k, v)
    {
        if (!known_key(c, map, k, "a task",
                       "name, path, workload, args, env, affinity, cgroup, start"))
            return false;
        if (key_is(k, "workload")) {
            workload = v;
            continue;
        }
        if (key_is(k, "name")) {
            if (!want_scalar(c, v, "a task's name"))
                return false;
            for (size_t i = 0; i + 1 < sc->ntasks; i++)
                if (strcmp(sc->tasks[i].name, scalar(v)) == 0)
                    return fail(c, v, "expected a new task name, found '%s' (already a task's)",
                                scalar(v));
            t->name = own_str(sc, scalar(v));
        } else if (key_is(k, "path")) {
            const char *host;
            if (!want_scalar(c, v, "a program") ||
                !find_guest_program(c, v, scalar(v), &host, &t->exe))
                return false;
            t->path = (char *)host;
        } else if (key_is(k, "args")) {
            args = v;
        } else if (key_is(k, "env")) {
            if (!parse_env(c, v, t))
                return false;
        } else if (key_is(k, "affinity")) {
            if (!parse_cpulist(c, v, &t->affinity))
                return false;
            t->has_affinity = true;
        } else if (key_is(k, "cgroup")) {
            if (!parse_cgroup(c, v, &t->cgroup))
                return false;
        } else if (!parse_time(c, v, &t->start_ns)) {
            return false;
        }
    }
    if (!t->name)
        return fail(c, map, "expected a 'name' in this task");
    if (workload && (t->path || args))
        return fail(c, workload, "expected 'workload' or 'path' and 'args', found both");
    if (workload) {
        if (!parse_workload(c, workload, t))
            return false;
        grow(sc, (void **)&t->argv, &(size_t){(size_t)t->argc}, sizeof *t->argv); /* NULL */
        if (!t->envp)
            grow(sc, (void **)&t->envp, &(size_t){0}, sizeof *t->envp);
        if (sc->ntasks == 1 && t->start_ns != 0)
            return fail(c, map, "expected the first task to start at 0 (it is pid 1)");
        return true;
    }
    if (!t->path)
        return fail(c, map, "expected a 'path' or a 'workload' in this task");
    *(const char **)grow(sc, (void **)&t->argv, &(size_t){0}, sizeof *t->argv) =
        t->exe ? t->exe : t->path;
    t->argc = 1;
    c->arg_bytes += strlen(t->argv[0]) + 1 + 8;
    if (args && !parse_strings(c, args, &t->argv, &t->argc, true))
        return false;
    grow(sc, (void **)&t->argv, &(size_t){(size_t)t->argc}, sizeof *t->argv); /* NULL */
    if (!t->envp)
        grow(sc, (void **)&t->envp, &(size_t){0}, sizeof *t->envp);
    if (sc->ntasks == 1 && t->start_ns != 0)
        return fail(c, map, "expected the first task to start at 0 (it is pid 1)");
    return true;
}

/* input: a recording that feeds the machine, a regular file beneath the
 * scenario's directory as from: is (/dev/zero would be read as one endless
 * line). The run opens it again by this path. */
static bool parse_input(struct ctx *c, const yaml_node_t *v)
{
    if (!want_scalar(c, v, "a recording (asymu replay --record)"))
        return false;
    struct stat st;
    int fd = open_beneath(c, v, "recording", &st);
    if (fd < 0)
        return false;
    close(fd);
    c->sc->input = relative_to_scenario(c, scalar(v));
    return true;
}

/* Indexes into the tasks (the context), by name. */
static int by_task_name(const void *a, const void *b, void *tasks)
{
    const struct scenario_task *sort_tasks = tasks;
    return strcmp(sort_tasks[*(const size_t *)a].name, sort_tasks[*(const size_t *)b].name);
}

static bool parse_tasks(struct ctx *c, const yaml_node_t *seq)
{
    if (!parse_list(c, seq, "tasks", parse_task))
        return false;
    struct scenario *sc = c->sc;
    if (sc->ntasks == 0)
        return fail(c, seq, "expected at least one task");
    c->by_name = own(sc, calloc(sc->ntasks, sizeof *c->by_name));
    for (size_t i = 0; i < sc->ntasks; i++)
        c->by_name[i] = i;
    sort_items_r(c->by_name, sc->ntasks, sizeof *c->by_name, by_task_name, sc->tasks);
    return true;
}

/* ---- events ---- */

static bool event_task(struct ctx *c, const yaml_node_t *v, struct script_action *a,
                       const char *keys, const char *what)
{
    if (!want_map(c, v, what))
        return false;
    a->task = -1;
    yaml_node_t *k, *x;
    for_each_pair(c, v, k, x)
    {
        if (!known_key(c, v, k, what, keys))
            return false;
        if (key_is(k, "task")) {
            if ((a->task = task_named(c, x)) < 0)
                return false;
            const struct scenario_task *t = &c->sc->tasks[a->task];
            if (t->start_ns > a->at_ns)
                return fail(c, x, "expected a task started by then, found '%s' (it starts later)",
                            t->name);
        } else if (key_is(k, "cpus")) {
            if (!parse_cpulist(c, x, &a->mask))
                return false;
        } else if (key_is(k, "signal")) {
            long sig;
            if (!parse_signal(c, x, &sig))
                return false;
            a->sig = (int)sig;
        } else if (key_is(k, "data")) {
            if (!want_scalar(c, x, "bytes"))
                return false;
            a->data = own_str(c->sc, scalar(x));
            a->len = strlen(a->data);
        } else {
            if (!want_scalar(c, x, "a /sys or /proc path"))
                return false;
            if (strncmp(scalar(x), "/sys/", 5) != 0 && strncmp(scalar(x), "/proc/", 6) != 0)
                return fail(c, x, "expected a /sys or /proc path, found '%s'", scalar(x));
            a->path = own_str(c->sc, scalar(x));
        }
    }
    if (a->task < 0 && strstr(keys, "task"))
        return fail(c, v, "expected a 'task' in %s", what);
    return true;
}

static bool event_cpu(struct ctx *c, const yaml_node_t *v, struct script_action *a, bool online)
{
    long cpu = 0;
    if (!parse_long(c, v, "a vCPU number", 0, c->sc->cfg.cpus - 1, &cpu))
        return false;
    char *path = own(c->sc, malloc(64));
    snprintf(path, 64, "/sys/devices/system/cpu/cpu%ld/online", cpu);
    a->path = path;
    a->data = online ? "1" : "0";
    a->len = 1;
    a->kind = SCRIPT_WRITE;
    return true;
}

/* "N slices": N times a slice (machine.slice blocks, each
 * SCHED_DEFAULT_NS_PER_BLOCK of virtual time). A product past 2^64 - 1 ns
 * is refused, as parse_time refuses one: it wrapped, and an event meant
 * for the far future fired at once. */
static bool parse_slices(struct ctx *c, const yaml_node_t *tv, uint64_t *at)
{
    if (!want_scalar(c, tv, "N slices"))
        return false;
    const char *s = scalar(tv);
    char *end;
    errno = 0;
    unsigned long long n = strtoull(s, &end, 10);
    if (end == s || *s < '0' || *s > '9' || strcmp(end, " slices") != 0)
        return fail(c, tv, "expected N slices (like 5 slices), found '%s'", s);
    uint64_t blocks = c->sc->cfg.slice_blocks ? c->sc->cfg.slice_blocks
                                              : SCHED_DEFAULT_SLICE_BLOCKS;
    uint64_t per_slice = blocks * SCHED_DEFAULT_NS_PER_BLOCK;
    if (errno == ERANGE || __builtin_mul_overflow((uint64_t)n, per_slice, at))
        return fail(c, tv, "expected N slices within 2^64 - 1 ns of virtual time (about 584 "
                           "years), found '%s'", s);
    return true;
}

/* "exec of NAME", "exit of NAME", "syscall S by NAME": NAME is a task's
 * name, or else the comm of any process (a program's name, 15 bytes). */
static bool parse_trigger(struct ctx *c, const yaml_node_t *v, struct script_action *a)
{
    static const char *const usage = "a trigger (exec of NAME, exit of NAME, syscall S by NAME, "
                                     "NAME runs on LIST; each of them after 'each ')";
    if (!want_scalar(c, v, usage))
        return false;
    char what[16], syscall[64], name[256], list[256], tail;
    const char *s = scalar(v);
    if (strncmp(s, "each ", 5) == 0) { /* fires at each matching event, not once */
        a->each = true;
        s += 5;
    }
    if (sscanf(s, "%255s runs on %255s %c", name, list, &tail) == 2 &&
        strncmp(s + strlen(name), " runs on ", 9) == 0) {
        a->when = SCRIPT_ON_RUNS;
        char err[256];
        if (cpulist_parse(list, c->sc->cfg.cpus, &a->on_cpus, err, sizeof err) < 0)
            return fail(c, v, "expected a cpulist within 0-%u after 'runs on', found '%s': %s",
                        c->sc->cfg.cpus - 1, list, err);
    } else if (sscanf(s, "exec of %255s %c", name, &tail) == 1 && strncmp(s, "exec ", 5) == 0) {
        a->when = SCRIPT_ON_EXEC;
    } else if (sscanf(s, "exit of %255s %c", name, &tail) == 1 && strncmp(s, "exit ", 5) == 0) {
        a->when = SCRIPT_ON_EXIT;
    } else if (sscanf(s, "%15s %63s by %255s %c", what, syscall, name, &tail) == 3 &&
               strcmp(what, "syscall") == 0) {
        a->when = SCRIPT_ON_SYSCALL;
        a->on_syscall = own_str(c->sc, syscall);
    } else {
        return fail(c, v, "expected %s, found '%s'", usage, scalar(v));
    }
    a->on_task = task_index(c, name);
    if (a->on_task < 0 && strlen(name) >= MEVENT_COMM_LEN)
        return fail(c, v, "expected a task's name or a comm (at most %d bytes), found '%s'",
                    MEVENT_COMM_LEN - 1, name);
    a->on_comm = own_str(c->sc, name);
    return true;
}

static bool parse_event(struct ctx *c, const yaml_node_t *map)
{
    struct scenario *sc = c->sc;
    if (!want_map(c, map, "an event"))
        return false;
    const yaml_node_t *when = NULL, *action = NULL, *action_key = NULL, *every = NULL;
    yaml_node_t *k, *v;
    for_each_pair(c, map, k, v)
    {
        if (!known_key(c, map, k, "an event",
                       "at, after, on, every, offline, online, write, setaffinity, signal, "
                       "stdin"))
            return false;
        if (key_is(k, "every")) {
            every = k;
        } else if (key_is(k, "at") || key_is(k, "after") || key_is(k, "on")) {
            if (when)
                return fail(c, k, "expected one of at, after and on, found '%s' after '%s'",
                            scalar(k), scalar(when));
            when = k;
        } else if (action) {
            return fail(c, k, "expected one action in this event, found '%s' after '%s'",
                        scalar(k), scalar(action_key));
        } else {
            action = v;
            action_key = k;
        }
    }
    uint64_t every_ns = 0;
    if (every) {
        const yaml_node_t *ev = lookup(c, map, "every");
        if (when && key_is(when, "on"))
            return fail(c, every, "expected 'every' with 'at' or 'after' (its first time) or "
                                  "alone, not with 'on' (write 'on: each TRIGGER')");
        if (!parse_time(c, ev, &every_ns))
            return false;
        if (every_ns < 1000)
            return fail(c, ev, "expected a period of 1us or more, found '%s'", scalar(ev));
    }
    if (!when && !every)
        return fail(c, map, "expected 'at: TIME', 'after: N slices', 'every: TIME' or 'on: "
                            "TRIGGER' in this event");
    if (!action)
        return fail(c, map, "expected an action (offline, online, write, setaffinity, signal, "
                            "stdin) in this event");
    uint64_t at = 0;
    const yaml_node_t *tv = lookup(c, map, scalar(when ? when : every));
    struct script_action trigger = {.when = SCRIPT_AT, .on_task = -1, .every_ns = every_ns};
    if (!when) {
        at = every_ns; /* every alone: first after one period */
    } else if (key_is(when, "on")) {
        if (!parse_trigger(c, tv, &trigger))
            return false;
        at = UINT64_MAX; /* triggered events sort after the timed ones */
    } else if (key_is(when, "at")) {
        if (!parse_time(c, tv, &at))
            return false;
    } else {
        if (!parse_slices(c, tv, &at))
            return false;
    }
    if (trigger.when == SCRIPT_AT) {
        if (at < c->last_event_ns)
            return fail(c, tv, "expected a time not before the previous event's, found '%s' (in "
                               "the past)", scalar(tv));
        c->last_event_ns = at;
    }
    struct script_action *a = grow(sc, (void **)&sc->actions, &sc->nactions, sizeof *a);
    *a = trigger;
    a->at_ns = at;
    a->task = -1;
    if (key_is(action_key, "offline") || key_is(action_key, "online"))
        return event_cpu(c, action, a, key_is(action_key, "online"));
    if (key_is(action_key, "write")) {
        a->kind = SCRIPT_WRITE;
        if (!event_task(c, action, a, "path, data", "a write"))
            return false;
        if (!a->path || !a->data)
            return fail(c, action, "expected 'path' and 'data' in a write");
        return true;
    }
    if (key_is(action_key, "setaffinity")) {
        a->kind = SCRIPT_SETAFFINITY;
        return event_task(c, action, a, "task, cpus", "a setaffinity") &&
               (!cpumask_empty(&a->mask) || fail(c, action, "expected 'cpus' in a setaffinity"));
    }
    if (key_is(action_key, "signal")) {
        a->kind = SCRIPT_SIGNAL;
        return event_task(c, action, a, "task, signal", "a signal") &&
               (a->sig || fail(c, action, "expected 'signal' in a signal"));
    }
    a->kind = SCRIPT_STDIN;
    return event_task(c, action, a, "task, data", "a stdin") &&
           (a->data || fail(c, action, "expected 'data' in a stdin"));
}

static bool parse_events(struct ctx *c, const yaml_node_t *seq)
{
    if (!parse_list(c, seq, "events", parse_event))
        return false;
    /* Each task's stdin closes after its last bytes: the first stdin event
     * of each task seen from the end. */
    bool *later = calloc(c->sc->ntasks + 1, sizeof *later);
    if (!later)
        abort();
    for (size_t i = c->sc->nactions; i-- > 0;) {
        struct script_action *a = &c->sc->actions[i];
        if (a->kind != SCRIPT_STDIN)
            continue;
        a->last_stdin = !later[a->task];
        later[a->task] = true;
    }
    free(later);
    return true;
}

/* ---- expect ---- */

static bool parse_policies(struct ctx *c, const yaml_node_t *seq, unsigned *out)
{
    if (!want_seq(c, seq, "policies"))
        return false;
    yaml_node_t *item;
    for_each_item(c, seq, item)
    {
        int p = scalar(item) ? scenario_policy_parse(scalar(item)) : -1;
        if (p < 0)
            return fail(c, item, "expected a policy (upstream, linux-5.15, linux-6.6, override, "
                                 "kill, fixup), found %s%s%s",
                        scalar(item) ? "'" : "", scalar(item) ? scalar(item) : type_name(item),
                        scalar(item) ? "'" : "");
        *out |= 1u << p;
    }
    return true;
}

static bool parse_texts(struct ctx *c, const yaml_node_t *v, struct expectation *e)
{
    int n = 0;
    if (scalar(v)) {
        e->texts = own(c->sc, calloc(1, sizeof *e->texts));
        e->texts[0] = own_str(c->sc, scalar(v));
        e->ntexts = 1;
        return true;
    }
    if (!parse_strings(c, v, &e->texts, &n, false))
        return false;
    e->ntexts = (size_t)n;
    return true;
}

static bool add_read(struct ctx *c, const yaml_node_t *map, struct expectation *e)
{
    const yaml_node_t *at = lookup(c, map, "at"), *content = lookup(c, map, "content");
    if (!at || !content)
        return fail(c, map, "expected 'at' and 'content' with 'file'");
    struct script_action r = {.kind = SCRIPT_READ, .task = -1, .path = e->text};
    if (!parse_time(c, at, &r.at_ns) || !want_scalar(c, content, "the file's content"))
        return false;
    e->text = own_str(c->sc, scalar(content));
    e->read = (int)c->sc->nactions;
    *(struct script_action *)grow(c->sc, (void **)&c->sc->actions, &c->sc->nactions, sizeof r) = r;
    return true;
}

/* A cpulist in its canonical form (as the outcome writes it), or "none". */
static char *canonical_mask(struct ctx *c, const yaml_node_t *n, bool none_allowed)
{
    if (none_allowed && scalar(n) && strcmp(scalar(n), "none") == 0)
        return own_str(c->sc, "none");
    struct cpumask mask;
    if (!parse_cpulist(c, n, &mask))
        return NULL;
    char buf[4096];
    cpulist_format(&mask, buf, sizeof buf);
    return own_str(c->sc, buf);
}

/* affinity_history: a list of "OLD -> NEW (RULE)", the cpulists canonical. */
static bool parse_history(struct ctx *c, const yaml_node_t *seq, struct expectation *e)
{
    if (!want_seq(c, seq, "affinity changes like \"0-7 -> 0-3 (U1)\""))
        return false;
    yaml_node_t *item;
    size_t n = 0;
    for_each_item(c, seq, item)
    {
        char old[256], new_list[256], rule[32], tail;
        struct cpumask a, b;
        const char *s = scalar(item);
        if (!s || sscanf(s, "%255s -> %255s (%31[^)]) %c", old, new_list, rule, &tail) != 3 ||
            s[strlen(s) - 1] != ')' ||
            cpulist_parse(old, c->sc->cfg.cpus, &a, NULL, 0) < 0 ||
            cpulist_parse(new_list, c->sc->cfg.cpus, &b, NULL, 0) < 0)
            return fail(c, item, "expected an affinity change like \"0-7 -> 0-3 (U1)\", found %s%s%s",
                        s ? "'" : "", s ? s : type_name(item), s ? "'" : "");
        cpulist_format(&a, old, sizeof old);
        cpulist_format(&b, new_list, sizeof new_list);
        char *text = own(c->sc, malloc(strlen(old) + strlen(new_list) + strlen(rule) + 8));
        sprintf(text, "%s -> %s (%s)", old, new_list, rule);
        *(char **)grow(c->sc, (void **)&e->texts, &n, sizeof *e->texts) = text;
    }
    e->ntexts = n;
    return true;
}

/* saved_mask: LIST or none (when the task ended), or a list of them (after
 * each of its execve calls, its start included). */
static bool parse_saved_masks(struct ctx *c, const yaml_node_t *v, struct expectation *e)
{
    if (scalar(v)) {
        e->text = canonical_mask(c, v, true);
        return e->text != NULL;
    }
    if (!want_seq(c, v, "a cpulist, none, or a list of them"))
        return false;
    yaml_node_t *item;
    size_t n = 0;
    for_each_item(c, v, item)
    {
        char *text = canonical_mask(c, item, true);
        if (!text)
            return false;
        *(char **)grow(c->sc, (void **)&e->texts, &n, sizeof *e->texts) = text;
    }
    e->ntexts = n;
    return true;
}

/* glibc's regcomp writes a bounded repetition out as copies of what it
 * repeats, so "((a{255}){255}){255}" is 16 million pieces: minutes and
 * gigabytes. And what may be skipped ("a{0,N}", "?", "*") it links so that
 * each piece records every piece it can skip to: time and memory grow with
 * the square of the pieces ("a{0,30000}", 30,000 pieces, took 20 s and 7 GB;
 * fuzz-scenario's find, tests/fuzz/README.md). So at most REGEX_MAX_PIECES
 * (the worst shape of 1,000 measured at 40 MB and 0.1 s). The pieces a regex
 * would become: each atom and each "*+?" one, a group the sum of its
 * contents, a repetition the copies regex_copies() says and one more;
 * saturated at REGEX_SATURATED, as is a regex nesting more than
 * SCENARIO_MAX_DEPTH groups. Sets *backref when the regex has a
 * back-reference (\1..\9: not POSIX ERE, but glibc takes them, and matching
 * with them can take exponential time). */
#define REGEX_MAX_PIECES 1000
#define REGEX_SATURATED (UINT64_C(1) << 40)

static uint64_t sat_add(uint64_t a, uint64_t b)
{
    return a + b > REGEX_SATURATED ? REGEX_SATURATED : a + b;
}

static uint64_t sat_mul(uint64_t a, uint64_t b)
{
    return a && b > REGEX_SATURATED / a ? REGEX_SATURATED : a * b;
}

/* How many copies of the item before it the repetition at *p makes glibc
 * write out (parse_dup_op): "*" and "?" none more, "+" one more ("X+" is
 * "XX*", so nested "+" doubles: "((a+)+)+..." 20 deep is a million
 * pieces), "{M,N}" N, "{M}" M, "{M,}" M and a starred one. *last is left at
 * the repetition's last character. */
static uint64_t regex_copies(const char *p, const char **last)
{
    *last = p;
    if (*p != '{')
        return *p == '+' ? 2 : 1;
    char *end;
    unsigned long long lo = strtoull(p + 1, &end, 10), hi = lo;
    bool unbounded = false;
    if (*end == ',') {
        unbounded = end[1] == '}';
        if (unbounded)
            end++;
        else
            hi = strtoull(end + 1, &end, 10);
    }
    if (*end == '}')
        *last = end;
    if (unbounded)
        return lo > 0 ? sat_add(lo, 1) : 1;
    return hi > lo ? hi : lo;
}

static uint64_t regex_pieces(const char *re, bool *backref)
{
    uint64_t sum[SCENARIO_MAX_DEPTH + 1] = {0};
    int depth = 0;
    uint64_t last = 0; /* the item before: what a repetition repeats */
    for (const char *p = re; *p; p++) {
        uint64_t item = 1;
        if (*p == '\\' && p[1]) {
            p++;
            *backref |= *p >= '1' && *p <= '9';
        } else if (*p == '[') { /* a bracket expression, one atom: to its ']' */
            const char *q = p + 1;
            q += *q == '^';
            q += *q == ']';
            while (*q && *q != ']') {
                const char *close = q[0] == '[' && strchr(":.=", q[1]) && q[1] ? strchr(q + 2, q[1])
                                                                               : NULL;
                q = close && close[1] == ']' ? close + 2 : q + 1;
            }
            p = *q ? q : q - 1;
        } else if (*p == '(') {
            if (depth == SCENARIO_MAX_DEPTH)
                return REGEX_SATURATED;
            sum[++depth] = 0;
            last = 0;
            continue;
        } else if (*p == ')' && depth > 0) {
            item = sum[depth--] + 1;
        } else if (*p == '{' || strchr("*+?", *p)) {
            uint64_t copies = regex_copies(p, &p);
            sum[depth] = sat_add(sum[depth], sat_add(sat_mul(last, copies ? copies - 1 : 0), 1));
            last = sat_add(sat_mul(last, copies), 1);
            continue;
        } else if (strchr("|^$", *p)) {
            continue;
        }
        last = item;
        sum[depth] = sat_add(sum[depth], item);
    }
    while (depth > 0) { /* an unclosed group: regcomp refuses it */
        uint64_t inner = sum[depth--];
        sum[depth] = sat_add(sum[depth], inner);
    }
    return sum[0];
}

static const char *const per_task = "exit, signal, affinity, stdout, stdout_contains, "
                                    "stdout_matches, only_on, never_on, cpus_used, "
                                    "affinity_history, saved_mask";

static bool parse_check(struct ctx *c, const yaml_node_t *map, const yaml_node_t *k,
                        const yaml_node_t *v, int task, unsigned policies)
{
    static const char *const names[] = {
        [EXPECT_EXIT] = "exit", [EXPECT_SIGNAL] = "signal", [EXPECT_AFFINITY] = "affinity",
        [EXPECT_STDOUT] = "stdout", [EXPECT_STDOUT_CONTAINS] = "stdout_contains",
        [EXPECT_STDOUT_MATCHES] = "stdout_matches", [EXPECT_KLOG_CONTAINS] = "kernel_log_contains",
        [EXPECT_KLOG_LACKS] = "kernel_log_lacks", [EXPECT_FILE] = "file",
        [EXPECT_INVARIANTS] = "invariants", [EXPECT_TIME_UNDER] = "time_under",
        [EXPECT_ONLY_ON] = "only_on", [EXPECT_NEVER_ON] = "never_on",
        [EXPECT_CPUS_USED] = "cpus_used", [EXPECT_AFFINITY_HISTORY] = "affinity_history",
        [EXPECT_SAVED_MASK] = "saved_mask",
    };
    enum expect_kind kind = 0;
    while (strcmp(names[kind], scalar(k)) != 0)
        kind++;
    bool needs_task = strstr(per_task, scalar(k)) != NULL;
    if (needs_task && task < 0)
        return fail(c, k, "expected a 'task' with '%s'", scalar(k));
    struct expectation *e = grow(c->sc, (void **)&c->sc->expects, &c->sc->nexpects, sizeof *e);
    *e = (struct expectation){.kind = kind, .line = (int)k->start_mark.line + 1,
                              .task = needs_task ? task : -1, .policies = policies, .read = -1};
    switch (kind) {
    case EXPECT_EXIT:
        return parse_long(c, v, "an exit status from 0 to 255", 0, 255, &e->number);
    case EXPECT_SIGNAL:
        return parse_signal(c, v, &e->number);
    case EXPECT_AFFINITY:
    case EXPECT_ONLY_ON:
    case EXPECT_NEVER_ON:
    case EXPECT_CPUS_USED:
        return parse_cpulist(c, v, &e->mask);
    case EXPECT_AFFINITY_HISTORY:
        return parse_history(c, v, e);
    case EXPECT_SAVED_MASK:
        return parse_saved_masks(c, v, e);
    case EXPECT_KLOG_CONTAINS:
    case EXPECT_KLOG_LACKS:
        return parse_texts(c, v, e);
    case EXPECT_INVARIANTS:
        if (!want_scalar(c, v, "clean") || strcmp(scalar(v), "clean") != 0)
            return fail(c, v, "expected 'clean'");
        if (!c->sc->check_invariants)
            return fail(c, k, "expected machine.check_invariants: true with 'invariants'");
        return true;
    case EXPECT_TIME_UNDER:
        return parse_time(c, v, &e->ns);
    default:
        break;
    }
    if (!want_scalar(c, v, "text"))
        return false;
    e->text = own_str(c->sc, scalar(v));
    if (kind == EXPECT_FILE)
        return add_read(c, map, e);
    if (kind == EXPECT_STDOUT_MATCHES) {
        bool backref = false;
        if (regex_pieces(e->text, &backref) > REGEX_MAX_PIECES)
            return fail(c, v, "expected a POSIX extended regex of at most %d pieces with its "
                              "repetitions written out (and %d nested groups), found '%s'",
                        REGEX_MAX_PIECES, SCENARIO_MAX_DEPTH, e->text);
        if (backref)
            return fail(c, v, "expected a POSIX extended regex, found '%s': back-references "
                              "(\\1) are not part of it", e->text);
        regex_t re;
        int err = regcomp(&re, e->text, REG_EXTENDED | REG_NOSUB);
        if (err) {
            char why[128];
            regerror(err, &re, why, sizeof why);
            return fail(c, v, "expected a POSIX extended regex, found '%s': %s", e->text, why);
        }
        regfree(&re);
    }
    return true;
}

/* Quantitative expectations (quant.c). Amounts: a percentage ("90%",
 * "92.5%", up to 3 decimals, kept in thousandths), a time, a count. */
enum quant_unit { UNIT_PCT, UNIT_NS, UNIT_COUNT, UNIT_RATE };

static bool parse_amount(struct ctx *c, const yaml_node_t *n, enum quant_unit unit, uint64_t *out)
{
    if (unit == UNIT_NS)
        return parse_time(c, n, out);
    if (unit == UNIT_COUNT) {
        long v;
        if (!parse_long(c, n, "a count (a whole number, 0 or more)", 0, LONG_MAX, &v))
            return false;
        *out = (uint64_t)v;
        return true;
    }
    bool rate = unit == UNIT_RATE;
    if (!want_scalar(c, n, rate ? "a rate like 50/s" : "a percentage like 90%"))
        return false;
    const char *s = scalar(n);
    unsigned long whole = 0, frac = 0;
    int digits = 0, at = 0;
    while (s[at] >= '0' && s[at] <= '9' && at < (rate ? 9 : 4))
        whole = whole * 10 + (unsigned long)(s[at++] - '0');
    bool ok = at > 0;
    if (ok && s[at] == '.') {
        at++;
        while (s[at] >= '0' && s[at] <= '9' && digits < 3) {
            frac = frac * 10 + (unsigned long)(s[at++] - '0');
            digits++;
        }
        ok = digits > 0;
    }
    for (int d = digits; d < 3; d++)
        frac *= 10;
    if (rate && (!ok || strcmp(s + at, "/s") != 0))
        return fail(c, n, "expected a rate like 50/s (completions per second, at most 9 digits "
                          "and 3 decimals), found '%s'", s);
    if (!rate && (!ok || strcmp(s + at, "%") != 0 || whole * 1000 + frac > 100000))
        return fail(c, n, "expected a percentage from 0%% to 100%% (at most 3 decimals) like 90%%, "
                          "found '%s'", s);
    *out = whole * 1000 + frac;
    return true;
}

/* A bound mapping: at_least, at_most (either or both), exactly, or about
 * with tolerance (the same unit: about 75% tolerance 2% is 73% to 77%);
 * residency's cpus and utilisation's cpu beside them. */
static bool parse_bounds(struct ctx *c, const yaml_node_t *map, enum quant_unit unit,
                         const char *allowed, struct expectation *e)
{
    if (!want_map(c, map, "bounds like {at_least: ..., at_most: ...}"))
        return false;
    yaml_node_t *k, *v;
    const yaml_node_t *about = NULL, *tolerance = NULL, *exactly = NULL, *ranged = NULL;
    uint64_t about_v = 0, tol_v = 0;
    bool tol_share = false;
    struct text_buf {
        char *s;
        size_t len;
    } text = {0};
    FILE *f = open_memstream(&text.s, &text.len);
    bool ok = true;
    for_each_pair(c, map, k, v)
    {
        if (!(ok = known_key(c, map, k, "these bounds", allowed)))
            break;
        uint64_t *slot = key_is(k, "at_least") ? &e->lo : key_is(k, "at_most") ? &e->hi
                         : key_is(k, "exactly") ? &e->lo : key_is(k, "about") ? &about_v
                         : key_is(k, "tolerance") ? &tol_v : NULL;
        if (!slot)
            continue; /* cpus, cpu, phase: the caller's */
        /* A tolerance in % of a count, time or rate is a share of 'about'. */
        bool share = key_is(k, "tolerance") && unit != UNIT_PCT && scalar(v) &&
                     *scalar(v) && scalar(v)[strlen(scalar(v)) - 1] == '%';
        if (!(ok = parse_amount(c, v, share ? UNIT_PCT : unit, slot)))
            break;
        tol_share = tol_share || share;
        if (key_is(k, "at_least") || key_is(k, "at_most")) {
            ranged = k;
            *(key_is(k, "at_least") ? &e->has_lo : &e->has_hi) = true;
            fprintf(f, "%s%s %s", e->has_lo && e->has_hi ? ", " : "",
                    key_is(k, "at_least") ? "at least" : "at most", scalar(v));
        } else if (key_is(k, "exactly")) {
            exactly = k;
            e->hi = e->lo;
            e->has_lo = e->has_hi = true;
            fprintf(f, "exactly %s", scalar(v));
        } else if (key_is(k, "about")) {
            about = k;
            fprintf(f, "about %s", scalar(v));
        } else {
            tolerance = k;
            fprintf(f, " (tolerance %s)", scalar(v));
        }
    }
    fclose(f);
    e->bound = own(c->sc, text.s);
    if (!ok)
        return false;
    if (exactly && (ranged || about || tolerance))
        return fail(c, exactly, "expected 'exactly' alone, found other bounds with it");
    if (about && ranged)
        return fail(c, about, "expected 'about' or at_least/at_most, found both");
    if (!about != !tolerance)
        return fail(c, about ? about : tolerance, "expected 'about' and 'tolerance' together");
    if (about) {
        if (tol_share) /* thousandths of a percent of about_v */
            tol_v = (uint64_t)((unsigned __int128)about_v * tol_v / 100000);
        e->lo = about_v > tol_v ? about_v - tol_v : 0;
        e->hi = about_v + tol_v;
        e->has_lo = e->has_hi = true;
    }
    if (!e->has_lo && !e->has_hi)
        return fail(c, map, "expected a bound in this mapping (at_least, at_most, exactly, or "
                            "about with tolerance)");
    if (e->has_lo && e->has_hi && e->lo > e->hi)
        return fail(c, map, "expected at_least not above at_most");
    return true;
}

static struct expectation *new_quant(struct ctx *c, const yaml_node_t *k, enum expect_kind kind,
                                     int task, const char *pattern, unsigned policies)
{
    struct expectation *e = grow(c->sc, (void **)&c->sc->expects, &c->sc->nexpects, sizeof *e);
    *e = (struct expectation){.kind = kind, .line = (int)k->start_mark.line + 1, .task = task,
                              .policies = policies, .read = -1, .pattern = pattern};
    return e;
}

static const char *const bound_keys = "at_least, at_most, exactly, about, tolerance";

/* throughput on a workload task: the phase it counts must be named in its
 * workload (its worker's "mark:NAME" argument), else it would count 0. A
 * program's own marks are not known before the run. */
static bool workload_names_phase(struct ctx *c, const yaml_node_t *at,
                                 const struct scenario_task *t, const char *name)
{
    bool workload = false;
    for (int i = 0; i < t->argc; i++) {
        if (strncmp(t->argv[i], "mark:", 5) == 0 && strcmp(t->argv[i] + 5, name) == 0)
            return true;
        if (i == 0 && strstr(t->argv[0], "workload-"))
            workload = true;
    }
    return !workload || fail(c, at, "expected the name of a phase of task %s's workload (a "
                                    "phase with 'name: %s'), found none", t->name, name);
}

/* residency, migrations, wakeup_latency, runnable_wait, utilisation. */
static bool parse_quant(struct ctx *c, const yaml_node_t *k, const yaml_node_t *v, int task,
                        const char *pattern, unsigned policies)
{
    char allowed[128];
    if (key_is(k, "utilisation")) {
        if (task >= 0 || pattern)
            return fail(c, k, "expected no 'task' or 'task_pattern' with 'utilisation' (a vCPU's)");
        struct expectation *e = new_quant(c, k, EXPECT_UTILISATION, -1, NULL, policies);
        snprintf(allowed, sizeof allowed, "cpu, %s", bound_keys);
        if (!parse_bounds(c, v, UNIT_PCT, allowed, e))
            return false;
        const yaml_node_t *cpu = lookup(c, v, "cpu");
        if (!cpu)
            return fail(c, v, "expected a 'cpu' in utilisation");
        return parse_long(c, cpu, "a vCPU number of the machine", 0, (long)c->sc->cfg.cpus - 1,
                          &e->number);
    }
    if (task < 0 && !pattern)
        return fail(c, k, "expected a 'task' or a 'task_pattern' with '%s'", scalar(k));
    if (key_is(k, "residency")) {
        struct expectation *e = new_quant(c, k, EXPECT_RESIDENCY, task, pattern, policies);
        snprintf(allowed, sizeof allowed, "cpus, %s", bound_keys);
        if (!parse_bounds(c, v, UNIT_PCT, allowed, e))
            return false;
        const yaml_node_t *cpus = lookup(c, v, "cpus");
        if (!cpus)
            return fail(c, v, "expected 'cpus' in residency");
        return parse_cpulist(c, cpus, &e->mask);
    }
    if (key_is(k, "migrations"))
        return parse_bounds(c, v, UNIT_COUNT, bound_keys,
                            new_quant(c, k, EXPECT_MIGRATIONS, task, pattern, policies));
    if (key_is(k, "deadline_misses"))
        return parse_bounds(c, v, UNIT_COUNT, bound_keys,
                            new_quant(c, k, EXPECT_DEADLINE_MISSES, task, pattern, policies));
    if (key_is(k, "throughput")) {
        struct expectation *e = new_quant(c, k, EXPECT_THROUGHPUT, task, pattern, policies);
        snprintf(allowed, sizeof allowed, "phase, %s", bound_keys);
        if (!parse_bounds(c, v, UNIT_RATE, allowed, e))
            return false;
        const yaml_node_t *phase = lookup(c, v, "phase");
        if (!phase)
            return fail(c, v, "expected a 'phase' in throughput (the 'name' of a workload's "
                              "phase)");
        if (!want_scalar(c, phase, "a phase's name"))
            return false;
        e->text = own_str(c->sc, scalar(phase));
        return task < 0 || workload_names_phase(c, phase, &c->sc->tasks[task], e->text);
    }
    if (key_is(k, "runnable_wait"))
        return parse_bounds(c, v, UNIT_NS, bound_keys,
                            new_quant(c, k, EXPECT_RUNNABLE_WAIT, task, pattern, policies));
    /* wakeup_latency: a bound mapping per percentile. */
    if (!want_map(c, v, "percentiles like {p99: {at_most: 200us}}"))
        return false;
    yaml_node_t *pk, *pv;
    size_t before = c->sc->nexpects;
    for_each_pair(c, v, pk, pv)
    {
        if (!known_key(c, v, pk, "wakeup_latency", "p50, p90, p95, p99, max"))
            return false;
        struct expectation *e = new_quant(c, pk, EXPECT_WAKEUP_LATENCY, task, pattern, policies);
        e->percentile = key_is(pk, "max") ? 100 : (unsigned)atoi(scalar(pk) + 1);
        if (!parse_bounds(c, pv, UNIT_NS, bound_keys, e))
            return false;
    }
    return c->sc->nexpects > before ||
           fail(c, v, "expected a percentile in wakeup_latency (p50, p90, p95, p99, max)");
}

static bool is_quant_key(const yaml_node_t *k)
{
    return key_is(k, "residency") || key_is(k, "migrations") || key_is(k, "wakeup_latency") ||
           key_is(k, "runnable_wait") || key_is(k, "utilisation") ||
           key_is(k, "deadline_misses") || key_is(k, "throughput");
}

static bool parse_expect(struct ctx *c, const yaml_node_t *map)
{
    if (!want_map(c, map, "an expectation"))
        return false;
    int task = -1;
    unsigned policies = 0;
    const yaml_node_t *file = NULL, *isa_key = NULL, *pattern_key = NULL;
    const char *isa = NULL, *pattern = NULL;
    yaml_node_t *k, *v;
    for_each_pair(c, map, k, v)
    {
        if (!known_key(c, map, k, "an expectation",
                       "task, policies, exit, signal, affinity, stdout, stdout_contains, "
                       "stdout_matches, kernel_log_contains, kernel_log_lacks, file, at, "
                       "content, invariants, time_under, only_on, never_on, cpus_used, isa, "
                       "affinity_history, saved_mask, task_pattern, residency, migrations, "
                       "wakeup_latency, runnable_wait, utilisation, deadline_misses, "
                       "throughput"))
            return false;
        if (key_is(k, "task") && (task = task_named(c, v)) < 0)
            return false;
        if (key_is(k, "task_pattern")) {
            if (!want_scalar(c, v, "a pattern of thread names like \"worker-*\"") ||
                !*scalar(v) || strlen(scalar(v)) > 255)
                return fail(c, v, "expected a pattern of thread names (fnmatch, 1 to 255 bytes) "
                                  "like \"worker-*\"");
            pattern = own_str(c->sc, scalar(v));
            pattern_key = k;
        }
        if (key_is(k, "policies") && !parse_policies(c, v, &policies))
            return false;
        if (key_is(k, "file"))
            file = k;
        if (key_is(k, "isa")) {
            if (!want_scalar(c, v, "an ISA (aarch64 or arm)") ||
                (strcmp(scalar(v), "aarch64") != 0 && strcmp(scalar(v), "arm") != 0))
                return fail(c, v, "expected an ISA (aarch64 or arm), found '%s'",
                            scalar(v) ? scalar(v) : type_name(v));
            isa = own_str(c->sc, scalar(v));
            isa_key = k;
        }
    }
    if (isa && !lookup(c, map, "only_on") && !lookup(c, map, "never_on") &&
        !lookup(c, map, "cpus_used"))
        return fail(c, isa_key, "expected only_on, never_on or cpus_used with 'isa'");
    if ((lookup(c, map, "at") || lookup(c, map, "content")) && !file)
        return fail(c, map, "expected 'file' with 'at' and 'content'");
    if (pattern && task >= 0)
        return fail(c, pattern_key, "expected 'task' or 'task_pattern', found both");
    size_t before = c->sc->nexpects;
    for_each_pair(c, map, k, v)
    {
        if (key_is(k, "task") || key_is(k, "policies") || key_is(k, "at") ||
            key_is(k, "content") || key_is(k, "isa") || key_is(k, "task_pattern"))
            continue;
        if (is_quant_key(k)) {
            if (!parse_quant(c, k, v, task, pattern, policies))
                return false;
            continue;
        }
        if (pattern)
            return fail(c, k, "expected only residency, migrations, wakeup_latency, "
                              "runnable_wait, deadline_misses or throughput with "
                              "'task_pattern', found '%s'", scalar(k));
        if (!parse_check(c, map, k, v, task, policies))
            return false;
        struct expectation *e = &c->sc->expects[c->sc->nexpects - 1];
        if (e->kind == EXPECT_ONLY_ON || e->kind == EXPECT_NEVER_ON ||
            e->kind == EXPECT_CPUS_USED)
            e->isa = isa;
    }
    if (c->sc->nexpects == before)
        return fail(c, map, "expected a check in this expectation (%s, kernel_log_contains, "
                            "kernel_log_lacks, file, invariants, time_under, residency, "
                            "migrations, wakeup_latency, runnable_wait, utilisation, "
                            "deadline_misses, throughput)", per_task);
    return true;
}

/* Events and reads in time order; at one time, in file order: indexes
 * into the actions (the context). */
static int by_time(const void *a, const void *b, void *actions)
{
    const struct script_action *sort_base = actions;
    size_t i = *(const size_t *)a, j = *(const size_t *)b;
    if (sort_base[i].at_ns != sort_base[j].at_ns)
        return sort_base[i].at_ns < sort_base[j].at_ns ? -1 : 1;
    return i < j ? -1 : i > j;
}

static void sort_actions(struct scenario *sc)
{
    size_t n = sc->nactions;
    size_t *order = calloc(n + 1, sizeof *order), *place = calloc(n + 1, sizeof *place);
    struct script_action *sorted = own(sc, calloc(n + 1, sizeof *sorted));
    if (!order || !place)
        abort();
    for (size_t i = 0; i < n; i++)
        order[i] = i;
    sort_items_r(order, n, sizeof *order, by_time, sc->actions);
    for (size_t i = 0; i < n; i++) {
        sorted[i] = sc->actions[order[i]];
        place[order[i]] = i;
    }
    for (size_t e = 0; e < sc->nexpects; e++)
        if (sc->expects[e].read >= 0)
            sc->expects[e].read = (int)place[sc->expects[e].read];
    free(order);
    free(place);
    sc->actions = sorted;
}

static bool parse_root(struct ctx *c, const yaml_node_t *root)
{
    if (!root)
        return fail(c, &(yaml_node_t){0}, "expected a scenario (a mapping), found an empty file");
    if (!want_map(c, root, "a scenario"))
        return false;
    yaml_node_t *k, *v;
    for_each_pair(c, root, k, v)
    {
        if (!known_key(c, root, k, "the scenario",
                       "description, machine, files, tasks, events, expect, input"))
            return false;
        if (key_is(k, "input") && !parse_input(c, v))
            return false;
    }
    const yaml_node_t *tasks = lookup(c, root, "tasks");
    if (!parse_machine(c, lookup(c, root, "machine")))
        return false;
    if (lookup(c, root, "files") && !parse_files(c, lookup(c, root, "files")))
        return false;
    if (!tasks)
        return fail(c, root, "expected 'tasks' in the scenario");
    if (!parse_tasks(c, tasks))
        return false;
    if (lookup(c, root, "events") && !parse_events(c, lookup(c, root, "events")))
        return false;
    if (lookup(c, root, "expect") &&
        !parse_list(c, lookup(c, root, "expect"), "expectations", parse_expect))
        return false;
    sort_actions(c->sc);
    return true;
}

/* ---- the document ---- */

static void yaml_error(struct ctx *c, const yaml_parser_t *parser)
{
    yaml_mark_t mark = parser->problem_mark;
    if (parser->error == YAML_MEMORY_ERROR)
        abort(); /* as own(): nothing to save */
    fprintf(c->errors, "%s:%zu:%zu: bad YAML: %s%s%s\n", c->file, mark.line + 1, mark.column + 1,
            parser->problem ? parser->problem : "unreadable", parser->context ? " " : "",
            parser->context ? parser->context : "");
}

static bool load_fail(struct ctx *c, const yaml_event_t *e, const char *what)
{
    fprintf(c->errors, "%s:%zu:%zu: %s\n", c->file, e->start_mark.line + 1,
            e->start_mark.column + 1, what);
    return false;
}

/* Adds the node an event starts to the document, under the open collection
 * (stack[depth - 1]: a sequence, or a mapping whose key *key is pending);
 * 0 when it was no node's start. */
static int add_node(struct ctx *c, yaml_event_t *e)
{
    yaml_document_t *d = &c->doc;
    int id = 0;
    if (e->type == YAML_SCALAR_EVENT)
        id = yaml_document_add_scalar(d, NULL, e->data.scalar.value, (int)e->data.scalar.length,
                                      e->data.scalar.style);
    else if (e->type == YAML_SEQUENCE_START_EVENT)
        id = yaml_document_add_sequence(d, NULL, e->data.sequence_start.style);
    else if (e->type == YAML_MAPPING_START_EVENT)
        id = yaml_document_add_mapping(d, NULL, e->data.mapping_start.style);
    else
        return 0;
    if (!id)
        abort(); /* out of memory (the parser's text is valid UTF-8) */
    yaml_node_t *n = yaml_document_get_node(d, id);
    n->start_mark = e->start_mark;
    n->end_mark = e->end_mark;
    return id;
}

/* The scenario's YAML as a document whose nodes keep their marks, built
 * from libyaml's events rather than by yaml_parser_load, so that a hostile
 * file costs time and memory in proportion to its size: nesting stops at
 * SCENARIO_MAX_DEPTH (libyaml's scanner looks at the possible key of every
 * open flow level for each token, yaml_parser_fetch_more_tokens: 40,000 '['
 * took 12 s, twice as many four times as long), and anchors and aliases are
 * refused (yaml_parser_load matches every alias against every anchor, and an
 * alias would let a few bytes stand for a large subtree read many times).
 * The stream holds one document: yaml_parser_load reads the first and
 * leaves the rest, so a second one (after "---") was silently ignored. */
static bool load_document(struct ctx *c, yaml_parser_t *parser)
{
    int stack[SCENARIO_MAX_DEPTH];
    int key[SCENARIO_MAX_DEPTH]; /* a mapping's pending key, or 0 */
    int depth = 0;
    bool ok = true, done = false, ended = false;
    if (!yaml_document_initialize(&c->doc, NULL, NULL, NULL, 1, 1))
        abort();
    while (ok && !done) {
        yaml_event_t e;
        if (!yaml_parser_parse(parser, &e)) {
            yaml_error(c, parser);
            ok = false;
            break;
        }
        if (e.type == YAML_ALIAS_EVENT ||
            (e.type == YAML_SCALAR_EVENT && e.data.scalar.anchor) ||
            (e.type == YAML_SEQUENCE_START_EVENT && e.data.sequence_start.anchor) ||
            (e.type == YAML_MAPPING_START_EVENT && e.data.mapping_start.anchor)) {
            ok = load_fail(c, &e, "expected no anchor or alias (&NAME, *NAME): a scenario "
                                  "writes each value out");
        } else if (e.type == YAML_STREAM_END_EVENT) {
            done = true;
        } else if (e.type == YAML_DOCUMENT_END_EVENT) {
            ended = true;
        } else if (e.type == YAML_DOCUMENT_START_EVENT && ended) {
            ok = load_fail(c, &e, "expected one YAML document, found a second (after '---'): a "
                                  "scenario is one mapping");
        } else if (e.type == YAML_SEQUENCE_END_EVENT || e.type == YAML_MAPPING_END_EVENT) {
            depth--;
        } else if (e.type == YAML_SEQUENCE_START_EVENT || e.type == YAML_MAPPING_START_EVENT ||
                   e.type == YAML_SCALAR_EVENT) {
            bool opens = e.type != YAML_SCALAR_EVENT;
            if (opens && depth == SCENARIO_MAX_DEPTH) {
                char what[96];
                snprintf(what, sizeof what, "expected at most %d levels of nesting, found more",
                         SCENARIO_MAX_DEPTH);
                ok = load_fail(c, &e, what);
            } else {
                int id = add_node(c, &e);
                if (depth == 0) {
                    /* the document's first node: its root */
                } else if (yaml_document_get_node(&c->doc, stack[depth - 1])->type ==
                           YAML_SEQUENCE_NODE) {
                    if (!yaml_document_append_sequence_item(&c->doc, stack[depth - 1], id))
                        abort();
                } else if (!key[depth - 1]) {
                    key[depth - 1] = id;
                } else {
                    if (!yaml_document_append_mapping_pair(&c->doc, stack[depth - 1],
                                                           key[depth - 1], id))
                        abort();
                    key[depth - 1] = 0;
                }
                if (opens) {
                    stack[depth] = id;
                    key[depth++] = 0;
                }
            }
        }
        yaml_event_delete(&e);
    }
    if (!ok)
        yaml_document_delete(&c->doc);
    return ok;
}

struct scenario *scenario_parse(const char *name, const char *dir, const char *text, size_t len,
                                FILE *errors, scenario_options_fn options)
{
    struct scenario *sc = calloc(1, sizeof *sc);
    if (!sc)
        abort();
    struct ctx c = {.sc = sc, .file = name, .errors = errors, .options = options};
    sc->file = own_str(sc, name);
    snprintf(c.dir, sizeof c.dir, "%s", dir);
    c.dir_fd = open(dir, O_PATH | O_DIRECTORY | O_CLOEXEC);
    yaml_parser_t parser;
    if (!yaml_parser_initialize(&parser))
        abort();
    yaml_parser_set_input_string(&parser, (const unsigned char *)text, len);
    bool ok = load_document(&c, &parser);
    if (ok) {
        ok = parse_root(&c, yaml_document_get_root_node(&c.doc));
        yaml_document_delete(&c.doc);
    }
    yaml_parser_delete(&parser);
    if (c.dir_fd >= 0)
        close(c.dir_fd);
    if (!ok) {
        scenario_free(sc);
        return NULL;
    }
    return sc;
}

struct scenario *scenario_load(const char *path, FILE *errors, scenario_options_fn options)
{
    char copy[PATH_MAX];
    snprintf(copy, sizeof copy, "%s", path);
    /* O_NONBLOCK: a FIFO named as a scenario is refused, not waited on. */
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
    struct stat st;
    const char *why = NULL;
    if (fd < 0 || fstat(fd, &st) < 0)
        why = strerror(errno);
    else if (!S_ISREG(st.st_mode))
        why = "not a regular file";
    else if ((uint64_t)st.st_size > SCENARIO_MAX_BYTES)
        why = "larger than 4 MiB";
    char *text = why ? NULL : malloc((size_t)st.st_size + 1);
    size_t len = 0;
    ssize_t got = 1;
    while (text && len <= (size_t)st.st_size &&
           (got = read(fd, text + len, (size_t)st.st_size + 1 - len)) > 0)
        len += (size_t)got;
    if (!why && (got < 0 || len != (size_t)st.st_size))
        why = got < 0 ? strerror(errno) : "changed while read";
    if (fd >= 0)
        close(fd);
    if (why) {
        fprintf(errors, "%s:1:1: expected a readable scenario file: %s\n", path, why);
        free(text);
        return NULL;
    }
    /* An rt-app file: the scenario it means (rtapp.c). An error there has
     * no place in the file: it is told as "FILE: rt-app file: what". */
    size_t n = strlen(path);
    if (n > 5 && strcmp(path + n - 5, ".json") == 0) {
        char *yaml = scenario_rtapp_to_yaml(path, text, len, errors);
        free(text);
        if (!yaml)
            return NULL;
        char *msg = NULL;
        size_t msg_len = 0;
        FILE *f = open_memstream(&msg, &msg_len);
        struct scenario *sc = scenario_parse(path, dirname(copy), yaml, strlen(yaml), f, options);
        fclose(f);
        if (!sc && msg && strncmp(msg, path, strlen(path)) == 0) {
            const char *what = msg + strlen(path);
            what += strspn(what, ":0123456789");
            fprintf(errors, "%s: rt-app file:%s", path, what);
        }
        free(msg);
        free(yaml);
        return sc;
    }
    struct scenario *sc = scenario_parse(path, dirname(copy), text, len, errors, options);
    free(text);
    return sc;
}

void scenario_free(struct scenario *sc)
{
    if (!sc)
        return;
    for (size_t i = 0; i < sc->nowned; i++)
        free(sc->owned[i]);
    free(sc->owned);
    free(sc);
}

int scenario_policy_parse(const char *name)
{
    enum sched_policy_id id;
    return sched_policy_from_name(name, &id) < 0 ? -1 : (int)id;
}
