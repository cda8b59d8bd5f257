/* SPDX-License-Identifier: GPL-2.0-or-later */
/* cgroup.c - cgroup v2 with the cpuset and cpu controllers, as Linux 5.15's
 * kernel/cgroup/cgroup.c, kernel/cgroup/cpuset.c and kernel/sched/core.c
 * (the cpu controller's files) behave, with the asymmetric-32-bit changes
 * of 5.15 (guarantee_online_cpus() honouring task_cpu_possible_mask()),
 * and what the v1 hierarchies share with it (cgroup_v1.c has their mount,
 * files and hotplug). Rule ids (CGn) are those of docs/cgroups.md. The cpu
 * controller's values are stored and shown: the fair class does not use
 * group weights, quotas or clamps yet. */
#include "cgroup-int.h"
#include "machine.h"
#include "scheduler.h"
#include "task.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CGROUP_WEIGHT_DFL 100
#define CGROUP_WEIGHT_MAX 10000

/* In the order kernfs lists them (by name). */
static const struct cg_file files[] = {
    {"cgroup.controllers", IN_ROOT | IN_CHILD, 0, 0444},
    {"cgroup.events", IN_CHILD, 0, 0444},
    {"cgroup.max.depth", IN_ROOT | IN_CHILD, 0, 0644},
    {"cgroup.max.descendants", IN_ROOT | IN_CHILD, 0, 0644},
    {"cgroup.procs", IN_ROOT | IN_CHILD, 0, 0644},
    {"cgroup.stat", IN_ROOT | IN_CHILD, 0, 0444},
    {"cgroup.subtree_control", IN_ROOT | IN_CHILD, 0, 0644},
    {"cgroup.threads", IN_ROOT | IN_CHILD, 0, 0644},
    {"cgroup.type", IN_CHILD, 0, 0644},
    {"cpu.idle", IN_CHILD, CG_SS_CPU, 0644},
    {"cpu.max", IN_CHILD, CG_SS_CPU, 0644},
    {"cpu.stat", IN_ROOT | IN_CHILD, 0, 0444},
    {"cpu.uclamp.max", IN_CHILD, CG_SS_CPU, 0644},
    {"cpu.uclamp.min", IN_CHILD, CG_SS_CPU, 0644},
    {"cpu.weight", IN_CHILD, CG_SS_CPU, 0644},
    {"cpu.weight.nice", IN_CHILD, CG_SS_CPU, 0644},
    {"cpuset.cpus", IN_CHILD, CG_SS_CPUSET, 0644},
    {"cpuset.cpus.effective", IN_ROOT | IN_CHILD, CG_SS_CPUSET, 0444},
    {"cpuset.cpus.partition", IN_CHILD, CG_SS_CPUSET, 0644},
    {"cpuset.mems", IN_CHILD, CG_SS_CPUSET, 0644},
    {"cpuset.mems.effective", IN_ROOT | IN_CHILD, CG_SS_CPUSET, 0444},
};
#define NFILES (sizeof files / sizeof *files)

struct cgroup *grp(struct machine *m, int i)
{
    return &m->cgroups.g[i];
}

bool in_group(struct machine *m, const struct task *t, int i)
{
    return t->cgroup[grp(m, i)->hier] == i;
}

unsigned v1_bound(struct machine *m)
{
    unsigned ss = 0;
    for (unsigned h = 1; h < CGROUP_HIERS; h++)
        if (m->cgroups.h[h].used)
            ss |= m->cgroups.h[h].ss;
    return ss;
}

/* The controllers a group may enable (v2: its parent's subtree_control,
 * every one not bound to a v1 hierarchy for the root), or has (v1: its
 * hierarchy's). */
unsigned controllers_of(struct machine *m, int i)
{
    const struct cgroup *g = grp(m, i);
    if (g->hier)
        return m->cgroups.h[g->hier].ss;
    return g->parent < 0 ? CG_SS_ALL & ~v1_bound(m) : grp(m, g->parent)->subtree;
}

/* task_cs(): the group whose cpuset css a v2 group uses, the nearest one
 * (itself included) whose parent enables cpuset; the root's for none. In
 * a v1 hierarchy every group has its own. */
static int cpuset_css(struct machine *m, int i)
{
    while (grp(m, i)->parent >= 0 && !(controllers_of(m, i) & CG_SS_CPUSET))
        i = grp(m, i)->parent;
    return i;
}

/* The hierarchy the cpuset controller is bound to (0: v2). */
unsigned cpuset_hier(struct machine *m)
{
    for (unsigned h = 1; h < CGROUP_HIERS; h++)
        if (m->cgroups.h[h].used && (m->cgroups.h[h].ss & CG_SS_CPUSET))
            return h;
    return 0;
}

bool is_top(struct machine *m, int cs)
{
    return grp(m, cs)->parent < 0;
}

static bool hook_allowed(void *arg, const struct sched_task *se, struct cpumask *out);
static bool hook_fallback(void *arg, const struct sched_task *se, struct cpumask *out);

/* A group's values as the kernel's css_alloc functions set them. */
void group_defaults(struct cgroup *g, int parent, unsigned hier)
{
    memset(g, 0, sizeof *g);
    g->used = true;
    g->parent = parent;
    g->hier = hier;
    g->shares = 1024;
    g->max_quota = -1;
    g->max_period = CFS_PERIOD_DFL;
    g->uclamp_max = UCLAMP_PCT_MAX;
}

void cgroup_init(struct machine *m)
{
    memset(&m->cgroups, 0, sizeof m->cgroups);
    struct cgroup *r = grp(m, 0);
    group_defaults(r, -1, 0);
    r->effective = m->sched.online;
    m->sched.cpuset_allowed = hook_allowed;
    m->sched.cpuset_fallback = hook_fallback;
    m->sched.cpuset_arg = m;
}

void cgroup_fork(const struct task *parent, struct task *child)
{
    memcpy(child->cgroup, parent->cgroup, sizeof child->cgroup);
    child->cpuset_css = parent->cpuset_css;
}

/* guarantee_online_cpus() of Linux 5.15 (CG2): the task's possible CPUs
 * that are online, cut to the effective CPUs of the nearest cpuset (its
 * own, else an ancestor's) that has any of them. */
static void guarantee_online_cpus(struct machine *m, struct task *t, struct cpumask *out)
{
    struct sched *s = &m->sched;
    if (!cpumask_and(out, sched_task_possible_mask(s, &t->se), &s->online))
        *out = s->online; /* the WARN_ON's fallback */
    int cs = t->cpuset_css;
    while (!cpumask_intersects(&grp(m, cs)->effective, out)) {
        cs = grp(m, cs)->parent;
        if (cs < 0)
            return;
    }
    cpumask_and(out, out, &grp(m, cs)->effective);
}

static struct task *task_of(const struct sched_task *se)
{
    return (struct task *)((char *)se - offsetof(struct task, se));
}

/* The scheduler's hooks (scheduler.h). */
static bool hook_allowed(void *arg, const struct sched_task *se, struct cpumask *out)
{
    struct task *t = task_of(se);
    if (is_top(arg, t->cpuset_css))
        return false;
    guarantee_online_cpus(arg, t, out);
    return true;
}

/* cpuset_cpus_allowed_fallback() of 5.15 (CG8): in v2 the cpuset's
 * cpuset.cpus when within task_cpu_possible_mask(), else (and in v1)
 * nothing. */
static bool hook_fallback(void *arg, const struct sched_task *se, struct cpumask *out)
{
    struct machine *m = arg;
    struct task *t = task_of(se);
    if (is_top(m, t->cpuset_css) || grp(m, t->cpuset_css)->hier)
        return false;
    *out = grp(m, t->cpuset_css)->cpus;
    return cpumask_subset(out, sched_task_possible_mask(&m->sched, se));
}

bool cgroup_in_cpuset(struct machine *m, const struct task *t)
{
    return !is_top(m, t->cpuset_css);
}

bool cgroup_cut_affinity(struct machine *m, struct task *t, struct cpumask *mask)
{
    if (!cgroup_in_cpuset(m, t) || sched_user_mask_with_cpusets(&m->sched))
        return true;
    struct cpumask allowed;
    guarantee_online_cpus(m, t, &allowed);
    return cpumask_and(mask, mask, &allowed);
}

/* cpuset_attach() (CG1): a task joining the top cpuset gets
 * task_cpu_possible_mask(), one joining another cpuset what
 * guarantee_online_cpus() gives; set_cpus_allowed_ptr()'s failure is only
 * a WARN_ON_ONCE in the kernel, and changes nothing. */
void cpuset_attach(struct machine *m, struct task *t, int cs)
{
    struct cpumask mask;
    t->cpuset_css = cs;
    if (t->state == TASK_DEAD)
        return;
    if (is_top(m, cs))
        mask = *sched_task_possible_mask(&m->sched, &t->se);
    else
        guarantee_online_cpus(m, t, &mask);
    sched_task_set_cpus_allowed(&m->sched, &t->se, &mask);
}

/* Tasks whose cpuset css changed (a move, or subtree_control) are attached
 * to the new one (cgroup_update_dfl_csses() migrating them). The cpuset
 * controller moving between hierarchies (rebind_subsystems()) takes each
 * task from one top cpuset to the other and changes no mask. */
void reattach_all(struct machine *m)
{
    unsigned h = cpuset_hier(m);
    for (struct task *t = m->tasks; t; t = t->next_all) {
        int cs = h ? t->cgroup[h] : cpuset_css(m, t->cgroup[0]);
        if (cs < 0 || cs == t->cpuset_css)
            continue;
        if (is_top(m, cs) && is_top(m, t->cpuset_css))
            t->cpuset_css = cs;
        else
            cpuset_attach(m, t, cs);
    }
}

/* update_cpumasks_hier() and the v2 hotplug (CG5, CG9): top-down, a
 * cpuset's effective CPUs are its cpuset.cpus within what its parent
 * offers, or all of that when that leaves none (v2); a partition root's
 * CPUs leave its parent's effective mask (CG7). Tasks of a cpuset whose
 * effective mask changed get it (update_tasks_cpumask(), which calls
 * set_cpus_allowed_ptr() with the mask as it is: a 32-bit task refuses a
 * mask beyond its possible CPUs and keeps its own). The top cpuset's tasks
 * are not touched ("we don't mess with cpumasks of tasks in top_cpuset"). */
static void update_effective(struct machine *m, int i, const struct cpumask *offered, bool *changed)
{
    struct cgroup *g = grp(m, i);
    struct cpumask eff;
    if (g->parent < 0) {
        eff = *offered;
        if (g->hier)
            g->cpus = eff; /* v1's top cpuset: the online CPUs */
    } else if (!cpumask_and(&eff, &g->cpus, offered) && !g->hier) {
        eff = *offered; /* v2 only: an empty result is the parent's */
    }
    struct cpumask mine = eff;
    for (int c = 1; c < CGROUP_MAX; c++) {
        const struct cgroup *ch = grp(m, c);
        if (ch->used && ch->parent == i && ch->partition_root && cpuset_css(m, c) == c)
            cpumask_andnot(&mine, &mine, &ch->cpus);
    }
    if (cpumask_empty(&mine))
        mine = eff;
    changed[i] = !cpumask_equal(&mine, &g->effective);
    g->effective = mine;
    for (int c = 1; c < CGROUP_MAX; c++) {
        const struct cgroup *ch = grp(m, c);
        if (!ch->used || ch->parent != i)
            continue;
        if (cpuset_css(m, c) == c)
            update_effective(m, c, ch->partition_root ? &eff : &mine, changed);
        else {
            grp(m, c)->effective = mine;
            changed[c] = false;
        }
    }
}

void update_all(struct machine *m)
{
    bool changed[CGROUP_MAX] = {0};
    unsigned h = cpuset_hier(m);
    update_effective(m, h ? m->cgroups.h[h].root : 0, &m->sched.online, changed);
    for (struct task *t = m->tasks; t; t = t->next_all) {
        if (is_top(m, t->cpuset_css) || !changed[t->cpuset_css] || t->state == TASK_DEAD)
            continue;
        /* 6.6's update_tasks_cpumask(): the task's possible CPUs among the
         * cpuset's (none: set_cpus_allowed_ptr() fails, A stays). */
        struct cpumask mask = grp(m, t->cpuset_css)->effective;
        if (sched_user_mask_with_cpusets(&m->sched))
            cpumask_and(&mask, &mask, sched_task_possible_mask(&m->sched, &t->se));
        sched_task_set_cpus_allowed(&m->sched, &t->se, &mask);
    }
}

void cgroup_hotplug(struct machine *m)
{
    if (cpuset_hier(m))
        v1_hotplug(m);
    else
        update_all(m);
}

/* ---- paths ---- */

/* The root group of hierarchy h, or -1 for none. */
static int root_of(struct machine *m, unsigned h)
{
    if (h == 0)
        return 0;
    return h < CGROUP_HIERS && m->cgroups.h[h].used ? m->cgroups.h[h].root : -1;
}

/* The group a path names in hierarchy h (rel "" the root, "a/b"): its
 * index or -ENOENT; *file the trailing file name when the last component
 * is one. */
int resolve(struct machine *m, unsigned h, const char *rel, const char **file)
{
    int cur = root_of(m, h);
    if (cur < 0)
        return -ENOENT;
    *file = NULL;
    while (*rel) {
        const char *slash = strchr(rel, '/');
        size_t n = slash ? (size_t)(slash - rel) : strlen(rel);
        int next = -1;
        for (int c = 1; c < CGROUP_MAX && next < 0; c++) {
            const struct cgroup *g = grp(m, c);
            if (g->used && g->parent == cur && strlen(g->name) == n && !memcmp(g->name, rel, n))
                next = c;
        }
        if (next < 0) {
            if (slash)
                return -ENOENT;
            *file = rel;
            return cur;
        }
        cur = next;
        rel += n + (slash ? 1 : 0);
    }
    return cur;
}

const struct cg_file *file_of(struct machine *m, int i, const char *name)
{
    if (grp(m, i)->hier)
        return v1_file_of(m, i, name);
    unsigned where = i == 0 ? IN_ROOT : IN_CHILD;
    unsigned ctl = controllers_of(m, i);
    for (size_t f = 0; f < NFILES; f++)
        if ((files[f].where & where) && strcmp(files[f].name, name) == 0 &&
            (!files[f].controller || (ctl & files[f].controller) ||
             (i == 0 && !(v1_bound(m) & files[f].controller))))
            return &files[f];
    return NULL;
}

int cgroup_node(struct machine *m, unsigned hier, const char *rel, bool *dir, unsigned *mode)
{
    const char *file;
    int i = resolve(m, hier, rel, &file);
    if (i < 0)
        return -ENOENT;
    if (!file) {
        *dir = true;
        *mode = 0755;
        return 1;
    }
    const struct cg_file *f = file_of(m, i, file);
    if (!f)
        return -ENOENT;
    *dir = false;
    *mode = f->mode;
    return 1;
}

int cgroup_list(struct machine *m, unsigned hier, const char *rel,
                void (*emit)(const char *name, unsigned char type, void *arg), void *arg)
{
    const char *file;
    int i = resolve(m, hier, rel, &file);
    if (i < 0 || file)
        return -ENOTDIR;
    if (hier)
        v1_list(m, i, emit, arg);
    for (size_t f = 0; f < NFILES && !hier; f++)
        if (file_of(m, i, files[f].name) == &files[f])
            emit(files[f].name, DT_REG_, arg);
    for (int c = 1; c < CGROUP_MAX; c++)
        if (grp(m, c)->used && grp(m, c)->parent == i)
            emit(grp(m, c)->name, DT_DIR_, arg);
    return 0;
}

/* cgroup_path(): "/" for the root, "/a/b". */
static void path_of(struct machine *m, int i, char *out, size_t len)
{
    if (grp(m, i)->parent < 0) {
        snprintf(out, len, "/");
        return;
    }
    char tmp[VFS_PATH_MAX_CG];
    out[0] = '\0';
    for (; grp(m, i)->parent >= 0; i = grp(m, i)->parent) {
        snprintf(tmp, sizeof tmp, "/%s%s", grp(m, i)->name, out);
        snprintf(out, len, "%s", tmp);
    }
}

bool has_tasks(struct machine *m, int i)
{
    for (struct task *t = m->tasks; t; t = t->next_all)
        if (in_group(m, t, i) && t->state != TASK_DEAD)
            return true;
    return false;
}

static void print_controllers(FILE *out, unsigned mask)
{
    const char *sep = "";
    if (mask & CG_SS_CPUSET) {
        fputs("cpuset", out);
        sep = " ";
    }
    if (mask & CG_SS_CPU)
        fprintf(out, "%scpu", sep);
    fputc('\n', out);
}

void print_cpulist(FILE *out, const struct cpumask *mask)
{
    char buf[4096];
    cpulist_format(mask, buf, sizeof buf);
    fprintf(out, "%s\n", buf);
}

/* cpu.stat (cpu_stat_show()): usage from the runtimes of the group's tasks
 * and its descendants' (the root: every task). Live tasks only: the
 * kernel's rstat keeps what exited tasks used, which is not modelled. */
static bool descends(struct machine *m, int i, int ancestor)
{
    for (; i >= 0; i = grp(m, i)->parent)
        if (i == ancestor)
            return true;
    return false;
}

void cpu_stat(FILE *out, struct machine *m, int i)
{
    unsigned h = grp(m, i)->hier;
    uint64_t ns = 0;
    for (struct task *t = m->tasks; t; t = t->next_all)
        if (t->state != TASK_DEAD && descends(m, t->cgroup[h], i))
            ns += t->se.sum_exec_ns;
    uint64_t sys = 0;
    for (struct task *t = m->tasks; t; t = t->next_all)
        if (t->state != TASK_DEAD && descends(m, t->cgroup[h], i))
            sys += t->sys_ns < t->se.sum_exec_ns ? t->sys_ns : t->se.sum_exec_ns;
    if (h) { /* cpu_cfs_stat_show() */
        fputs("nr_periods 0\nnr_throttled 0\nthrottled_time 0\n", out);
        return;
    }
    fprintf(out, "usage_usec %" PRIu64 "\nuser_usec %" PRIu64 "\nsystem_usec %" PRIu64 "\n",
            ns / 1000, (ns - sys) / 1000, sys / 1000);
    if (i != 0)
        fputs("nr_periods 0\nnr_throttled 0\nthrottled_usec 0\n", out);
}

/* cpu.weight.nice (cpu_weight_nice_read_s64()): the nice value whose
 * sched_prio_to_weight is nearest the group's shares (the first on a tie). */
static const int prio_to_weight[40] = {
    88761, 71755, 56483, 46273, 36291, 29154, 23254, 18705, 14949, 11916, 9548, 7620, 6100, 4904,
    3906,  3121,  2501,  1991,  1586,  1277,  1024,  820,   655,   526,   423,  335,  272,  215,
    172,   137,   110,   87,    70,    56,    45,    36,    29,    23,    18,   15,
};

static int shares_to_nice(unsigned shares)
{
    uint64_t w = shares;
    int best = 0;
    uint64_t bestd = UINT64_MAX;
    for (int k = 0; k < 40; k++) {
        uint64_t d =
            w > (uint64_t)prio_to_weight[k] ? w - prio_to_weight[k] : prio_to_weight[k] - w;
        if (d < bestd) {
            bestd = d;
            best = k;
        }
    }
    return best - 20;
}

/* cpu_uclamp_print(): "max" when the clamp is the whole capacity
 * (scale_from_percent() rounding to 1024), else the percentage written. */
void print_uclamp(FILE *out, unsigned pct)
{
    if ((pct * 1024u + UCLAMP_PCT_MAX / 2) / UCLAMP_PCT_MAX == 1024)
        fputs("max\n", out);
    else
        fprintf(out, "%u.%02u\n", pct / 100, pct % 100);
}

int cgroup_read(struct machine *m, unsigned hier, const char *rel, char **data, size_t *size)
{
    const char *file;
    int i = resolve(m, hier, rel, &file);
    const struct cg_file *f = i >= 0 && file ? file_of(m, i, file) : NULL;
    if (!f)
        return -ENOENT;
    struct cgroup *g = grp(m, i);
    FILE *out = open_memstream(data, size);
    if (!out)
        return -ENOMEM;
    if (hier)
        v1_read(out, m, i, f->name);
    else if (!strcmp(file, "cgroup.controllers")) {
        print_controllers(out, controllers_of(m, i));
    } else if (!strcmp(file, "cgroup.subtree_control")) {
        print_controllers(out, g->subtree);
    } else if (!strcmp(file, "cgroup.procs") || !strcmp(file, "cgroup.threads")) {
        bool procs = file[7] == 'p';
        for (struct task *t = m->tasks; t; t = t->next_all)
            if (t->cgroup[0] == i && t->state != TASK_DEAD && (!procs || t->tid == t->proc->pid))
                fprintf(out, "%d\n", t->tid);
    } else if (!strcmp(file, "cgroup.type")) {
        fputs("domain\n", out);
    } else if (!strcmp(file, "cgroup.events")) {
        fprintf(out, "populated %d\nfrozen 0\n", has_tasks(m, i) ? 1 : 0);
    } else if (!strcmp(file, "cgroup.max.depth") || !strcmp(file, "cgroup.max.descendants")) {
        fputs("max\n", out);
    } else if (!strcmp(file, "cgroup.stat")) {
        int n = 0;
        for (int c = 1; c < CGROUP_MAX; c++)
            n += grp(m, c)->used && c != i && descends(m, c, i);
        fprintf(out, "nr_descendants %d\nnr_dying_descendants 0\n", n);
    } else if (!strcmp(file, "cpu.stat")) {
        cpu_stat(out, m, i);
    } else if (!strcmp(file, "cpu.weight")) {
        /* cpu_weight_read_u64(): the shares back on the 1..10000 scale. */
        fprintf(out, "%u\n", (unsigned)((g->shares * 100ull + 512) / 1024));
    } else if (!strcmp(file, "cpu.weight.nice")) {
        fprintf(out, "%d\n", shares_to_nice(g->shares));
    } else if (!strcmp(file, "cpu.idle")) {
        fprintf(out, "%d\n", g->idle ? 1 : 0);
    } else if (!strcmp(file, "cpu.max")) {
        if (g->max_quota < 0)
            fprintf(out, "max %" PRIu64 "\n", g->max_period);
        else
            fprintf(out, "%" PRId64 " %" PRIu64 "\n", g->max_quota, g->max_period);
    } else if (!strcmp(file, "cpu.uclamp.min")) {
        print_uclamp(out, g->uclamp_min);
    } else if (!strcmp(file, "cpu.uclamp.max")) {
        print_uclamp(out, g->uclamp_max);
    } else if (!strcmp(file, "cpuset.cpus")) {
        print_cpulist(out, &g->cpus);
    } else if (!strcmp(file, "cpuset.cpus.effective")) {
        print_cpulist(out, &grp(m, cpuset_css(m, i))->effective);
    } else if (!strcmp(file, "cpuset.cpus.partition")) {
        fputs(g->partition_root ? "root\n" : "member\n", out);
    } else if (!strcmp(file, "cpuset.mems")) {
        fputs("\n", out);
    } else if (!strcmp(file, "cpuset.mems.effective")) {
        fputs("0\n", out);
    }
    if (fclose(out) != 0) {
        free(*data);
        *data = NULL;
        return -ENOMEM;
    }
    return 0;
}

/* ---- writes ---- */

/* The buffer without leading and trailing blanks (strstrip()), in out. */
int stripped(const char *data, size_t len, char *out, size_t outlen)
{
    while (len && (*data == ' ' || *data == '\t' || *data == '\n')) {
        data++;
        len--;
    }
    while (len && (data[len - 1] == ' ' || data[len - 1] == '\t' || data[len - 1] == '\n'))
        len--;
    if (len >= outlen)
        return -E2BIG;
    memcpy(out, data, len);
    out[len] = '\0';
    return 0;
}

/* kstrtoint-like: the whole of s, a decimal integer. */
int parse_ll(const char *s, long long *v)
{
    char *end;
    errno = 0;
    *v = strtoll(s, &end, 10);
    return end == s || *end || errno ? -EINVAL : 0;
}

/* cgroup.procs (threadgroup) and cgroup.threads (CG4, CG10):
 * __cgroup_procs_write(). A pid of 0 is the writer. */
struct task *procs_target(struct task *w, const char *buf, int *err)
{
    long long pid;
    if (parse_ll(buf, &pid) < 0 || pid < 0) {
        *err = -EINVAL;
        return NULL;
    }
    struct task *t = pid ? task_find(w->machine, (int)pid) : w;
    if (!t || t->state == TASK_DEAD) {
        *err = -ESRCH;
        return NULL;
    }
    return t;
}

void move_to_group(struct machine *m, struct task *t, int i, bool threadgroup)
{
    unsigned h = grp(m, i)->hier;
    for (struct task *u = m->tasks; u; u = u->next_all)
        if ((threadgroup ? u->proc == t->proc : u == t) && u->state != TASK_DEAD)
            u->cgroup[h] = i;
    reattach_all(m);
}

static int procs_write(struct task *w, int i, const char *buf, bool threadgroup)
{
    struct machine *m = w->machine;
    int err;
    struct task *t = procs_target(w, buf, &err);
    if (!t)
        return err;
    if (threadgroup)
        t = task_find(m, t->proc->pid) ? task_find(m, t->proc->pid) : t;
    /* cgroup_attach_permissions(): a thread moves only within its
     * domain (threaded cgroups are not modelled). */
    if (!threadgroup && t->cgroup[0] != i)
        return -EOPNOTSUPP;
    /* cgroup_migrate_vet_dst(): no internal processes. */
    if (i != 0 && grp(m, i)->subtree)
        return -EBUSY;
    move_to_group(m, t, i, threadgroup);
    return 0;
}

static int subtree_write(struct machine *m, int i, char *buf)
{
    unsigned enable = 0, disable = 0;
    for (char *save, *tok = strtok_r(buf, " \t\n", &save); tok;
         tok = strtok_r(NULL, " \t\n", &save)) {
        unsigned ss = !strcmp(tok + 1, "cpuset") ? CG_SS_CPUSET
                      : !strcmp(tok + 1, "cpu")  ? CG_SS_CPU
                                                 : 0;
        if (!ss || (tok[0] != '+' && tok[0] != '-'))
            return -EINVAL;
        if (tok[0] == '+') {
            enable |= ss;
            disable &= ~ss;
        } else {
            disable |= ss;
            enable &= ~ss;
        }
    }
    struct cgroup *g = grp(m, i);
    enable &= ~g->subtree;
    disable &= g->subtree;
    if (enable & ~controllers_of(m, i))
        return -ENOENT;
    /* A child still using a controller keeps it (cgroup_subtree_control_write). */
    for (int c = 1; c < CGROUP_MAX; c++)
        if (grp(m, c)->used && grp(m, c)->parent == i && (grp(m, c)->subtree & disable))
            return -EBUSY;
    /* cgroup_vet_subtree_control_enable(): no internal processes. */
    if (enable && i != 0 && has_tasks(m, i))
        return -EBUSY;
    g->subtree = (g->subtree | enable) & ~disable;
    if ((enable | disable) & CG_SS_CPUSET) {
        /* cpuset_css_online(): a new cpuset starts with no cpuset.cpus. */
        for (int c = 1; c < CGROUP_MAX; c++)
            if (grp(m, c)->used && grp(m, c)->parent == i && (disable & CG_SS_CPUSET)) {
                cpumask_clear(&grp(m, c)->cpus);
                grp(m, c)->partition_root = false;
            }
        update_all(m);
        reattach_all(m);
    }
    return 0;
}

/* update_cpumask() (CG5): a cpulist (empty allowed in v2), within the
 * possible CPUs; "" means the parent's effective CPUs. */
int cpus_parse(const char *buf, struct cpumask *mask)
{
    char why[128];
    if (cpulist_parse(buf, NR_CPUS_MAX, mask, why, sizeof why) < 0)
        return -EINVAL;
    unsigned cpu;
    for_each_cpu(cpu, mask) if (cpu >= KERNEL_NR_CPUS) return -ERANGE;
    return 0;
}

int mems_parse(const char *buf, bool *node0)
{
    struct cpumask mems;
    char why[64];
    if (cpulist_parse(buf, NR_CPUS_MAX, &mems, why, sizeof why) < 0 ||
        cpumask_weight(&mems) > 1 || (!cpumask_empty(&mems) && !cpumask_test_cpu(0, &mems)))
        return -EINVAL;
    *node0 = !cpumask_empty(&mems);
    return 0;
}

static int cpus_write(struct machine *m, int i, const char *buf)
{
    struct cpumask mask;
    int err = cpus_parse(buf, &mask);
    if (err < 0)
        return err;
    if (!cpumask_subset(&mask, &m->sched.possible))
        return -EINVAL;
    struct cgroup *g = grp(m, i);
    /* validate_change(): a partition root's CPUs stay exclusive. */
    if (g->partition_root && cpumask_empty(&mask))
        return -EINVAL;
    g->cpus = mask;
    update_all(m);
    return 0;
}

/* update_prstate() (CG7): "root" needs CPUs of its own, within its
 * parent's, the parent a partition root too, and no sibling's CPUs. */
static int partition_write(struct machine *m, int i, const char *buf)
{
    bool root;
    if (!strcmp(buf, "root"))
        root = true;
    else if (!strcmp(buf, "member"))
        root = false;
    else
        return -EINVAL;
    struct cgroup *g = grp(m, i);
    if (root == g->partition_root)
        return 0;
    if (root) {
        int p = g->parent;
        if (cpumask_empty(&g->cpus) || (p != 0 && !grp(m, p)->partition_root) ||
            !cpumask_subset(&g->cpus, &grp(m, p)->effective))
            return -EINVAL;
        for (int c = 1; c < CGROUP_MAX; c++)
            if (c != i && grp(m, c)->used && grp(m, c)->parent == p &&
                cpumask_intersects(&grp(m, c)->cpus, &g->cpus))
                return -EINVAL;
    }
    g->partition_root = root;
    update_all(m);
    return 0;
}

/* cpu.uclamp.{min,max} (cpu_uclamp_write(), capacity_from_percent()):
 * "max" or a percentage with at most two decimals, 0..100; ERANGE beyond. */
int uclamp_parse(const char *buf, unsigned *out)
{
    if (!strcmp(buf, "max")) {
        *out = UCLAMP_PCT_MAX;
        return 0;
    }
    unsigned whole = 0, frac = 0, digits = 0, next = 0;
    const char *c = buf;
    if (*c < '0' || *c > '9')
        return -EINVAL;
    for (; *c >= '0' && *c <= '9'; c++) {
        whole = whole * 10 + (unsigned)(*c - '0');
        if (whole > 1000000)
            return -ERANGE;
    }
    if (*c == '.') {
        for (c++; *c >= '0' && *c <= '9'; c++)
            if (digits < 2) {
                frac = frac * 10 + (unsigned)(*c - '0');
                digits++;
            } else if (digits++ == 2) {
                next = (unsigned)(*c - '0');
            }
    }
    if (*c)
        return -EINVAL;
    /* cgroup_parse_float(): two decimals, the rest rounded to nearest. */
    for (; digits < 2; digits++)
        frac *= 10;
    frac += next >= 5;
    unsigned pct = whole * 100 + frac;
    if (pct > UCLAMP_PCT_MAX)
        return -ERANGE;
    *out = pct;
    return 0;
}

/* cpu.max (cpu_max_write(), tg_set_cfs_bandwidth()): "QUOTA [PERIOD]",
 * QUOTA "max" or >= 1000 us, PERIOD 1000 us..1 s; quota at most ~1.6e13. */
static int max_write(struct cgroup *g, char *buf)
{
    char *save, *q = strtok_r(buf, " ", &save), *p = strtok_r(NULL, " ", &save);
    if (!q || strtok_r(NULL, " ", &save))
        return -EINVAL;
    long long quota = -1, period = (long long)g->max_period;
    if (p && parse_ll(p, &period) < 0)
        return -EINVAL;
    if (strcmp(q, "max") && (parse_ll(q, &quota) < 0 || quota < 0))
        return -EINVAL;
    if (period < 1000 || period > 1000000)
        return -EINVAL;
    if (quota >= 0 && quota < 1000)
        return -EINVAL;
    if (quota > 17179869184000ll) /* max_cfs_runtime: MAX_BW's bound, in us */
        return -EINVAL;
    g->max_quota = quota;
    g->max_period = (uint64_t)period;
    return 0;
}

/* cpu.weight (cpu_weight_write_u64()): 1..10000, else ERANGE; kept as
 * shares, DIV_ROUND_CLOSEST. */
static int weight_write(struct cgroup *g, const char *buf)
{
    long long v;
    if (parse_ll(buf, &v) < 0)
        return -EINVAL;
    if (v < 1 || v > CGROUP_WEIGHT_MAX)
        return -ERANGE;
    g->shares = (unsigned)((v * 1024 + 50) / 100);
    return 0;
}

/* The cpu controller's values a scenario gives its groups, checked before
 * the run by the parsers cgroup_write() uses, on a group of its own. */
int cgroup_value_check(const char *file, const char *value)
{
    char buf[4096];
    if (stripped(value, strlen(value), buf, sizeof buf) < 0)
        return -E2BIG;
    struct cgroup g;
    group_defaults(&g, 0, 0);
    unsigned pct;
    if (!strcmp(file, "cpu.weight"))
        return weight_write(&g, buf);
    if (!strcmp(file, "cpu.max"))
        return max_write(&g, buf);
    if (!strcmp(file, "cpu.uclamp.min") || !strcmp(file, "cpu.uclamp.max"))
        return uclamp_parse(buf, &pct);
    return -ENOENT;
}

bool cgroup_is_file_name(const char *name)
{
    for (size_t f = 0; f < NFILES; f++)
        if (!strcmp(files[f].name, name))
            return true;
    return false;
}

int64_t cgroup_write(struct task *w, unsigned hier, const char *rel, const char *data,
                     size_t len)
{
    struct machine *m = w->machine;
    const char *file;
    int i = resolve(m, hier, rel, &file);
    if (i < 0 || !file)
        return -ENOENT;
    const struct cg_file *f = file_of(m, i, file);
    if (!f)
        return -ENOENT;
    if (!(f->mode & 0200))
        return -EACCES;
    char buf[4096];
    if (stripped(data, len, buf, sizeof buf) < 0)
        return -E2BIG;
    struct cgroup *g = grp(m, i);
    int err = 0;
    long long v;
    if (hier) {
        err = v1_write(w, i, f->name, buf);
    } else if (!strcmp(file, "cgroup.procs") || !strcmp(file, "cgroup.threads")) {
        err = procs_write(w, i, buf, file[7] == 'p');
    } else if (!strcmp(file, "cgroup.subtree_control")) {
        err = subtree_write(m, i, buf);
    } else if (!strcmp(file, "cgroup.type")) {
        err = strcmp(buf, "threaded") ? -EINVAL : -EOPNOTSUPP;
    } else if (!strcmp(file, "cgroup.max.depth") || !strcmp(file, "cgroup.max.descendants")) {
        err = strcmp(buf, "max") && (parse_ll(buf, &v) < 0 || v < 0) ? -EINVAL : 0;
    } else if (!strcmp(file, "cpu.weight")) {
        err = weight_write(g, buf);
    } else if (!strcmp(file, "cpu.weight.nice")) {
        /* cpu_weight_nice_write_s64(): -20..19, stored as the weight. */
        if (parse_ll(buf, &v) < 0)
            err = -EINVAL;
        else if (v < -20 || v > 19)
            err = -ERANGE;
        else
            g->shares = (unsigned)prio_to_weight[v + 20];
    } else if (!strcmp(file, "cpu.idle")) {
        if (parse_ll(buf, &v) < 0 || v < 0 || v > 1)
            err = -EINVAL;
        else
            g->idle = v == 1;
    } else if (!strcmp(file, "cpu.max")) {
        err = max_write(g, buf);
    } else if (!strcmp(file, "cpu.uclamp.min") || !strcmp(file, "cpu.uclamp.max")) {
        unsigned pct;
        err = uclamp_parse(buf, &pct);
        if (!err && !strcmp(file, "cpu.uclamp.min"))
            g->uclamp_min = pct;
        else if (!err)
            g->uclamp_max = pct;
    } else if (!strcmp(file, "cpuset.cpus")) {
        err = cpus_write(m, i, buf);
    } else if (!strcmp(file, "cpuset.cpus.partition")) {
        err = partition_write(m, i, buf);
    } else if (!strcmp(file, "cpuset.mems")) {
        bool node0;
        err = mems_parse(buf, &node0);
    }
    return err < 0 ? err : (int64_t)len;
}

int cgroup_mkdir(struct machine *m, unsigned hier, const char *rel)
{
    const char *file;
    int parent = resolve(m, hier, rel, &file);
    if (parent < 0)
        return -ENOENT;
    if (!file)
        return -EEXIST;
    if (strchr(file, '\n') || strlen(file) >= CGROUP_NAME_MAX)
        return strchr(file, '\n') ? -EINVAL : -ENAMETOOLONG;
    if (file_of(m, parent, file))
        return -EEXIST;
    for (int c = 1; c < CGROUP_MAX; c++) {
        struct cgroup *g = grp(m, c);
        if (g->used)
            continue;
        group_defaults(g, parent, hier);
        snprintf(g->name, sizeof g->name, "%s", file);
        if (hier)
            v1_group_made(m, c);
        update_all(m);
        return 0;
    }
    return -ENOSPC;
}

int cgroup_rmdir(struct machine *m, unsigned hier, const char *rel)
{
    const char *file;
    if (hier >= CGROUP_HIERS)
        return -ENOENT;
    int i = resolve(m, hier, rel, &file);
    if (i < 0)
        return -ENOENT;
    if (file)
        return file_of(m, i, file) ? -ENOTDIR : -ENOENT;
    if (is_top(m, i))
        return -EBUSY; /* the mount point */
    /* cgroup_destroy_locked(): no tasks, no children. */
    if (has_tasks(m, i))
        return -EBUSY;
    for (int c = 1; c < CGROUP_MAX; c++)
        if (grp(m, c)->used && grp(m, c)->parent == i)
            return -EBUSY;
    /* Dead tasks left in it count as the root's. */
    for (struct task *t = m->tasks; t; t = t->next_all) {
        if (in_group(m, t, i))
            t->cgroup[hier] = root_of(m, hier);
        if (t->cpuset_css == i)
            t->cpuset_css = root_of(m, hier);
    }
    grp(m, i)->used = false;
    update_all(m);
    return 0;
}

int cgroup_proc_file(struct machine *m, int pid, char **data, size_t *size)
{
    struct task *t = task_find_unreaped(m, pid);
    if (!t)
        return -ESRCH;
    char path[VFS_PATH_MAX_CG];
    FILE *out = open_memstream(data, size);
    if (!out)
        return -ENOMEM;
    /* proc_cgroup_show(): the roots newest first, v2's last. */
    for (int id = m->cgroups.last_id; id > 0; id--) {
        for (unsigned h = 1; h < CGROUP_HIERS; h++) {
            const struct cgroup_hier *hi = &m->cgroups.h[h];
            if (!hi->used || hi->id != id)
                continue;
            path_of(m, t->cgroup[h], path, sizeof path);
            fprintf(out, "%d:%s%s%s:%s\n", id, hi->ss & CG_SS_CPUSET ? "cpuset" : "",
                    hi->ss == CG_SS_ALL ? "," : "", hi->ss & CG_SS_CPU ? "cpu" : "", path);
        }
    }
    path_of(m, t->cgroup[0], path, sizeof path);
    fprintf(out, "0::%s\n", path);
    if (fclose(out) != 0) {
        free(*data);
        *data = NULL;
        return -ENOMEM;
    }
    return 0;
}
