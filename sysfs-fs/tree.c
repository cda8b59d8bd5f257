/* tree.c - the virtual trees the guest sees: /dev, /proc and /sys. Which
 * files exist, what they hold and what writes do; kernel state comes from
 * the provider emu/ fills in (the vCPUs, processes, kernel log). */
#include "vfs.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/sysmacros.h>

#define CPU_DIR "/sys/devices/system/cpu"
#define DT_DIR_ 4
#define DT_CHR_ 2
#define DT_REG_ 8
#define DT_LNK_ 10
/* MIDR_EL1 of the two kinds of vCPU: a Cortex-A710 r2p0 runs AArch32 EL0, a
 * Cortex-X2 r2p0 does not. */
#define MIDR_AARCH32 0x412fd470u
#define MIDR_AARCH64_ONLY 0x412fd480u

enum file_id {
    F_DIR,
    F_DEV_NULL,
    F_DEV_ZERO,
    F_DEV_RANDOM,
    F_DEV_KMSG,
    F_PROC_SELF,
    F_PROC_CPUINFO,
    F_PROC_CMDLINE,
    F_PID_EXE,
    F_PID_ROOT,
    F_PID_CWD,
    F_PID_STATUS,
    F_PID_COMM,
    F_CPU_POSSIBLE,
    F_CPU_PRESENT,
    F_CPU_ONLINE,
    F_CPU_OFFLINE,
    F_CPU_KERNEL_MAX,
    F_CPU_AARCH32_EL0,
    F_CPUN_ONLINE,
    F_CPUN_MIDR,
    F_CPUN_REVIDR,
};

/* A fixed entry: path, kind, mode, id. */
struct fixed {
    const char *path;
    enum vfs_node_kind kind;
    unsigned mode;
    enum file_id file;
};

static const struct fixed fixed[] = {
    {"/dev", VNODE_DIR, 0755, F_DIR},
    {"/dev/null", VNODE_NULL, 0666, F_DEV_NULL},
    {"/dev/zero", VNODE_ZERO, 0666, F_DEV_ZERO},
    {"/dev/random", VNODE_RANDOM, 0666, F_DEV_RANDOM},
    {"/dev/urandom", VNODE_RANDOM, 0666, F_DEV_RANDOM},
    {"/dev/kmsg", VNODE_GENERATED, 0644, F_DEV_KMSG},
    {"/proc", VNODE_DIR, 0555, F_DIR},
    {"/proc/self", VNODE_SYMLINK, 0777, F_PROC_SELF},
    {"/proc/cpuinfo", VNODE_GENERATED, 0444, F_PROC_CPUINFO},
    {"/proc/cmdline", VNODE_GENERATED, 0444, F_PROC_CMDLINE},
    {"/sys", VNODE_DIR, 0555, F_DIR},
    {"/sys/devices", VNODE_DIR, 0755, F_DIR},
    {"/sys/devices/system", VNODE_DIR, 0755, F_DIR},
    {CPU_DIR, VNODE_DIR, 0755, F_DIR},
    {CPU_DIR "/possible", VNODE_GENERATED, 0444, F_CPU_POSSIBLE},
    {CPU_DIR "/present", VNODE_GENERATED, 0444, F_CPU_PRESENT},
    {CPU_DIR "/online", VNODE_GENERATED, 0444, F_CPU_ONLINE},
    {CPU_DIR "/offline", VNODE_GENERATED, 0444, F_CPU_OFFLINE},
    {CPU_DIR "/kernel_max", VNODE_GENERATED, 0444, F_CPU_KERNEL_MAX},
    {CPU_DIR "/aarch32_el0", VNODE_GENERATED, 0444, F_CPU_AARCH32_EL0},
};

/* Files of /proc/PID and of cpuN, relative to their directory. */
static const struct fixed pid_files[] = {
    {"comm", VNODE_GENERATED, 0644, F_PID_COMM},
    {"cwd", VNODE_SYMLINK, 0777, F_PID_CWD},
    {"exe", VNODE_SYMLINK, 0777, F_PID_EXE},
    {"root", VNODE_SYMLINK, 0777, F_PID_ROOT},
    {"status", VNODE_GENERATED, 0444, F_PID_STATUS},
};

static const struct fixed cpu_files[] = {
    {"online", VNODE_GENERATED, 0644, F_CPUN_ONLINE},
    {"regs", VNODE_DIR, 0755, F_DIR},
    {"regs/identification", VNODE_DIR, 0755, F_DIR},
    {"regs/identification/midr_el1", VNODE_GENERATED, 0444, F_CPUN_MIDR},
    {"regs/identification/revidr_el1", VNODE_GENERATED, 0444, F_CPUN_REVIDR},
};

static const char *const virtual_roots[] = {"/dev", "/proc", "/sys"};

#define COUNT(a) (sizeof(a) / sizeof *(a))

static bool under(const char *path, const char *dir)
{
    size_t n = strlen(dir);
    return strncmp(path, dir, n) == 0 && (path[n] == '\0' || path[n] == '/');
}

static void fill(struct vfs_node *node, const char *path, const struct fixed *f, int arg)
{
    snprintf(node->path, sizeof node->path, "%s", path);
    node->kind = f->kind;
    node->mode = f->mode;
    node->file = f->file;
    node->arg = arg;
}

/* "123" and the rest after it, or -1. */
static int leading_number(const char *s, const char **rest)
{
    if (*s < '0' || *s > '9')
        return -1;
    long v = strtol(s, (char **)rest, 10);
    return v > 0x7fffffff ? -1 : (int)v;
}

static int lookup_in(const struct fixed *files, size_t n, const char *dirpath, const char *rel,
                     int arg, struct vfs_node *node)
{
    if (*rel == '\0') {
        static const struct fixed dir = {"", VNODE_DIR, 0555, F_DIR};
        fill(node, dirpath, &dir, arg);
        return 1;
    }
    for (size_t i = 0; i < n; i++) {
        if (strcmp(files[i].path, rel) == 0) {
            char path[128];
            snprintf(path, sizeof path, "%s/%s", dirpath, rel);
            fill(node, path, &files[i], arg);
            return 1;
        }
    }
    return -ENOENT;
}

int vfs_lookup_virtual(struct vfs *v, void *ctx, const char *abspath, struct vfs_node *node)
{
    bool inside = false;
    for (size_t i = 0; i < COUNT(virtual_roots); i++)
        inside |= under(abspath, virtual_roots[i]);
    if (!inside)
        return 0;
    const struct vfs_provider *p = v->provider;
    struct vfs_cpus cpus;
    p->cpus(ctx, &cpus);
    for (size_t i = 0; i < COUNT(fixed); i++) {
        if (strcmp(fixed[i].path, abspath) != 0)
            continue;
        if (fixed[i].file == F_CPU_AARCH32_EL0 && !cpus.aarch32_file)
            return -ENOENT;
        fill(node, abspath, &fixed[i], 0);
        return 1;
    }
    const char *rest;
    char dir[64];
    /* /proc/self/... is /proc/PID/... of the caller. */
    if (strncmp(abspath, "/proc/self/", 11) == 0) {
        char real[VFS_PATH_MAX];
        snprintf(real, sizeof real, "/proc/%d/%s", p->self_pid(ctx), abspath + 11);
        return vfs_lookup_virtual(v, ctx, real, node);
    }
    if (strncmp(abspath, "/proc/", 6) == 0) {
        int pid = leading_number(abspath + 6, &rest);
        struct vfs_task_info info;
        if (pid <= 0 || (*rest && *rest != '/') || p->task(ctx, pid, &info) < 0)
            return -ENOENT;
        snprintf(dir, sizeof dir, "/proc/%d", pid);
        return lookup_in(pid_files, COUNT(pid_files), dir, *rest ? rest + 1 : rest, pid, node);
    }
    if (strncmp(abspath, CPU_DIR "/cpu", sizeof CPU_DIR + 3) == 0) {
        int cpu = leading_number(abspath + sizeof CPU_DIR + 3, &rest);
        if (cpu < 0 || (unsigned)cpu >= cpus.nr || (*rest && *rest != '/'))
            return -ENOENT;
        snprintf(dir, sizeof dir, CPU_DIR "/cpu%d", cpu);
        return lookup_in(cpu_files, COUNT(cpu_files), dir, *rest ? rest + 1 : rest, cpu, node);
    }
    return -ENOENT;
}

static unsigned char dtype(enum vfs_node_kind k)
{
    return k == VNODE_DIR ? DT_DIR_ : k == VNODE_SYMLINK ? DT_LNK_
                                  : k == VNODE_GENERATED ? DT_REG_
                                                         : DT_CHR_;
}

/* Emits the direct children of dirpath among files (paths relative to
 * prefix, which is dirpath's own path relative to the table's directory). */
static void list_table(const struct fixed *files, size_t n, const char *prefix,
                       void (*emit)(const char *, unsigned char, void *), void *arg,
                       bool skip_aarch32)
{
    size_t pl = strlen(prefix);
    for (size_t i = 0; i < n; i++) {
        const char *f = files[i].path;
        if (skip_aarch32 && files[i].file == F_CPU_AARCH32_EL0)
            continue;
        if (strncmp(f, prefix, pl) != 0 || (pl && f[pl] != '/'))
            continue;
        const char *name = f + pl + (pl ? 1 : 0);
        if (*name && !strchr(name, '/'))
            emit(name, dtype(files[i].kind), arg);
    }
}

int vfs_list_virtual(struct vfs *v, void *ctx, const struct vfs_node *dir,
                     void (*emit)(const char *name, unsigned char type, void *arg), void *arg)
{
    if (dir->kind != VNODE_DIR)
        return -ENOTDIR;
    const struct vfs_provider *p = v->provider;
    struct vfs_cpus cpus;
    p->cpus(ctx, &cpus);
    const char *path = dir->path;
    char name[32];
    if (strncmp(path, "/proc/", 6) == 0) {
        char rel[128] = "";
        const char *slash = strchr(path + 6, '/');
        if (slash)
            snprintf(rel, sizeof rel, "%s", slash + 1);
        list_table(pid_files, COUNT(pid_files), rel, emit, arg, false);
        return 0;
    }
    if (strncmp(path, CPU_DIR "/cpu", sizeof CPU_DIR + 3) == 0) {
        char rel[128] = "";
        const char *slash = strchr(path + sizeof CPU_DIR + 3, '/');
        if (slash)
            snprintf(rel, sizeof rel, "%s", slash + 1);
        list_table(cpu_files, COUNT(cpu_files), rel, emit, arg, false);
        return 0;
    }
    /* A directory of the fixed table: its fixed children... */
    size_t pl = strlen(path);
    for (size_t i = 0; i < COUNT(fixed); i++) {
        const char *f = fixed[i].path;
        if (strncmp(f, path, pl) != 0 || f[pl] != '/' || strchr(f + pl + 1, '/'))
            continue;
        if (fixed[i].file == F_CPU_AARCH32_EL0 && !cpus.aarch32_file)
            continue;
        emit(f + pl + 1, dtype(fixed[i].kind), arg);
    }
    /* ...and the generated ones. */
    if (strcmp(path, "/proc") == 0) {
        for (int pid = p->next_pid(ctx, 0); pid > 0; pid = p->next_pid(ctx, pid)) {
            snprintf(name, sizeof name, "%d", pid);
            emit(name, DT_DIR_, arg);
        }
    } else if (strcmp(path, CPU_DIR) == 0) {
        for (unsigned cpu = 0; cpu < cpus.nr; cpu++) {
            snprintf(name, sizeof name, "cpu%u", cpu);
            emit(name, DT_DIR_, arg);
        }
    }
    return 0;
}

void vfs_stat_virtual(const struct vfs_node *node, struct stat *st)
{
    memset(st, 0, sizeof *st);
    uint64_t h = 1469598103934665603ull; /* stable inode numbers from the path */
    for (const char *c = node->path; *c; c++)
        h = (h ^ (unsigned char)*c) * 1099511628211ull;
    st->st_ino = (ino_t)(h & 0xffffffff);
    st->st_mode = node->mode;
    st->st_blksize = 4096;
    st->st_nlink = 1;
    st->st_dev = under(node->path, "/proc") ? 0x16 : under(node->path, "/sys") ? 0x15 : 0x5;
    switch (node->kind) {
    case VNODE_DIR:
        st->st_mode |= S_IFDIR;
        st->st_nlink = 2;
        break;
    case VNODE_SYMLINK:
        st->st_mode |= S_IFLNK;
        break;
    case VNODE_GENERATED:
        st->st_mode |= node->file == F_DEV_KMSG ? S_IFCHR : S_IFREG;
        if (node->file == F_DEV_KMSG)
            st->st_rdev = makedev(1, 11);
        break;
    case VNODE_NULL:
        st->st_mode |= S_IFCHR;
        st->st_rdev = makedev(1, 3);
        break;
    case VNODE_ZERO:
        st->st_mode |= S_IFCHR;
        st->st_rdev = makedev(1, 5);
        break;
    case VNODE_RANDOM:
        st->st_mode |= S_IFCHR;
        st->st_rdev = makedev(1, strcmp(node->path, "/dev/random") == 0 ? 8 : 9);
        break;
    }
}

int vfs_readlink_virtual(struct vfs *v, void *ctx, const struct vfs_node *node, char *buf,
                         size_t len)
{
    char target[VFS_PATH_MAX];
    int n;
    switch (node->file) {
    case F_PROC_SELF:
        n = snprintf(target, sizeof target, "%d", v->provider->self_pid(ctx));
        break;
    case F_PID_EXE:
    case F_PID_CWD:
        n = (node->file == F_PID_EXE ? v->provider->exe : v->provider->cwd)(ctx, node->arg, target,
                                                                          sizeof target);
        if (n < 0)
            return n;
        break;
    case F_PID_ROOT:
        n = snprintf(target, sizeof target, "/");
        break;
    default:
        return -EINVAL;
    }
    n = (size_t)n < len ? n : (int)len;
    memcpy(buf, target, (size_t)n);
    return n;
}

/* ---- generated content ---- */

struct text {
    char *buf;
    size_t len, cap;
    bool failed;
};

static void add(struct text *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void add(struct text *t, const char *fmt, ...)
{
    va_list ap;
    for (;;) {
        va_start(ap, fmt);
        int n = vsnprintf(t->buf ? t->buf + t->len : NULL, t->buf ? t->cap - t->len : 0, fmt, ap);
        va_end(ap);
        if (n < 0) {
            t->failed = true;
            return;
        }
        if (t->buf && t->len + (size_t)n < t->cap) {
            t->len += (size_t)n;
            return;
        }
        size_t cap = (t->cap ? t->cap * 2 : 256) + (size_t)n;
        char *b = realloc(t->buf, cap);
        if (!b) {
            t->failed = true;
            return;
        }
        t->buf = b;
        t->cap = cap;
    }
}

static void add_cpulist(struct text *t, const struct cpumask *m)
{
    char list[4096];
    cpulist_format(m, list, sizeof list);
    add(t, "%s\n", list);
}

static void cpuinfo(struct text *t, const struct vfs_cpus *c)
{
    unsigned cpu;
    for_each_cpu(cpu, &c->online) {
        uint32_t midr = cpumask_test_cpu(cpu, &c->aarch32) ? MIDR_AARCH32 : MIDR_AARCH64_ONLY;
        add(t,
            "processor\t: %u\nBogoMIPS\t: 50.00\n"
            "Features\t: fp asimd evtstrm aes pmull sha1 sha2 crc32 cpuid\n"
            "CPU implementer\t: 0x%02x\nCPU architecture: 8\nCPU variant\t: 0x%x\n"
            "CPU part\t: 0x%03x\nCPU revision\t: %u\n\n",
            cpu, midr >> 24, (midr >> 20) & 0xf, (midr >> 4) & 0xfff, midr & 0xf);
    }
}

static int pid_status(struct text *t, const struct vfs_task_info *i, unsigned nr_cpus)
{
    static const char *const states[] = {"R (running)", "S (sleeping)", "Z (zombie)"};
    const char *state = i->state == 'Z' ? states[2] : i->state == 'S' ? states[1] : states[0];
    char hex[512], list[4096];
    cpumask_format_hex(&i->allowed, nr_cpus, hex, sizeof hex);
    cpulist_format(&i->allowed, list, sizeof list);
    add(t,
        "Name:\t%s\nUmask:\t0022\nState:\t%s\nTgid:\t%d\nNgid:\t0\nPid:\t%d\nPPid:\t%d\n"
        "TracerPid:\t0\nUid:\t0\t0\t0\t0\nGid:\t0\t0\t0\t0\nThreads:\t%d\n"
        "Cpus_allowed:\t%s\nCpus_allowed_list:\t%s\nMems_allowed:\t1\nMems_allowed_list:\t0\n",
        i->comm, state, i->pid, i->pid, i->ppid, i->threads, hex, list);
    return 0;
}

int vfs_generate(struct vfs *v, void *ctx, const struct vfs_node *node, char **data, size_t *size)
{
    const struct vfs_provider *p = v->provider;
    struct text t = {0};
    struct vfs_cpus c;
    struct cpumask m;
    struct vfs_task_info info;
    p->cpus(ctx, &c);
    switch (node->file) {
    case F_DEV_KMSG:
        return p->kmsg(ctx, data, size);
    case F_PROC_CPUINFO:
        cpuinfo(&t, &c);
        break;
    case F_PROC_CMDLINE:
        add(&t, "%s\n", p->cmdline(ctx));
        break;
    case F_PID_STATUS:
    case F_PID_COMM:
        if (p->task(ctx, node->arg, &info) < 0)
            return -ESRCH;
        if (node->file == F_PID_COMM)
            add(&t, "%s\n", info.comm);
        else
            pid_status(&t, &info, c.nr);
        break;
    case F_CPU_POSSIBLE:
    case F_CPU_PRESENT:
        cpumask_setall(&m, c.nr);
        add_cpulist(&t, &m);
        break;
    case F_CPU_ONLINE:
        add_cpulist(&t, &c.online);
        break;
    case F_CPU_OFFLINE: {
        struct cpumask all;
        cpumask_setall(&all, c.nr);
        cpumask_andnot(&m, &all, &c.online);
        add_cpulist(&t, &m);
        break;
    }
    case F_CPU_KERNEL_MAX:
        add(&t, "%d\n", NR_CPUS_MAX - 1);
        break;
    case F_CPU_AARCH32_EL0:
        add_cpulist(&t, &c.aarch32);
        break;
    case F_CPUN_ONLINE:
        add(&t, "%d\n", cpumask_test_cpu((unsigned)node->arg, &c.online) ? 1 : 0);
        break;
    case F_CPUN_MIDR:
        add(&t, "0x%016x\n", cpumask_test_cpu((unsigned)node->arg, &c.aarch32) ? MIDR_AARCH32
                                                                               : MIDR_AARCH64_ONLY);
        break;
    case F_CPUN_REVIDR:
        add(&t, "0x%016x\n", 0u);
        break;
    default:
        return -EINVAL;
    }
    if (t.failed) {
        free(t.buf);
        return -ENOMEM;
    }
    *data = t.buf ? t.buf : calloc(1, 1);
    *size = t.len;
    return *data ? 0 : -ENOMEM;
}

int64_t vfs_write_virtual(struct vfs *v, void *ctx, const struct vfs_node *node, const char *data,
                          size_t len)
{
    if (node->file != F_CPUN_ONLINE)
        return node->kind == VNODE_GENERATED && (node->mode & 0200) ? (int64_t)len : -EACCES;
    /* kstrtobool-like: "0" or "1", an optional newline after it. */
    size_t n = len;
    if (n && data[n - 1] == '\n')
        n--;
    if (n != 1 || (data[0] != '0' && data[0] != '1'))
        return -EINVAL;
    int err = v->provider->set_cpu_online(ctx, (unsigned)node->arg, data[0] == '1');
    return err < 0 ? err : (int64_t)len;
}
