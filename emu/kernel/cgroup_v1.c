/* SPDX-License-Identifier: GPL-2.0-or-later */
/* cgroup_v1.c - the cgroup v1 hierarchies, as Linux 5.15's
 * kernel/cgroup/cgroup-v1.c mounts them (`mount -t cgroup -o cpuset`, and
 * the cpuset filesystem, `mount -t cpuset`, which Android's init uses) and
 * as kernel/cgroup/cpuset.c's legacy mode and kernel/sched/core.c's
 * cpu_legacy_files behave: a cpuset's CPUs within its parent's, no task in
 * a cpuset without CPUs or memory, and the hotplug that shrinks cpusets and
 * moves the tasks of an emptied one to its nearest ancestor with CPUs.
 * Rules CG14-CG19 of docs/cgroups.md. */
#include "cgroup-int.h"
#include "sort.h"
#include "machine.h"
#include "scheduler.h"
#include "task.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#define CPUSET_RELEASE_AGENT "/sbin/cpuset_release_agent"
#define MAX_CFS_QUOTA_US 17179869184000ll /* max_cfs_runtime, in us */

/* cgroup1_base_files, cpuset's legacy_files and cpu_legacy_files, by name. */
static const struct cg_file files[] = {
    {"cgroup.clone_children", IN_ROOT | IN_CHILD, 0, 0644},
    {"cgroup.procs", IN_ROOT | IN_CHILD, 0, 0644},
    {"cgroup.sane_behavior", IN_ROOT, 0, 0444},
    {"cpu.cfs_period_us", IN_ROOT | IN_CHILD, CG_SS_CPU, 0644},
    {"cpu.cfs_quota_us", IN_ROOT | IN_CHILD, CG_SS_CPU, 0644},
    {"cpu.idle", IN_ROOT | IN_CHILD, CG_SS_CPU, 0644},
    {"cpu.shares", IN_ROOT | IN_CHILD, CG_SS_CPU, 0644},
    {"cpu.stat", IN_ROOT | IN_CHILD, CG_SS_CPU, 0444},
    {"cpu.uclamp.max", IN_CHILD, CG_SS_CPU, 0644},
    {"cpu.uclamp.min", IN_CHILD, CG_SS_CPU, 0644},
    {"cpuset.cpus", IN_ROOT | IN_CHILD, CG_SS_CPUSET, 0644},
    {"cpuset.effective_cpus", IN_ROOT | IN_CHILD, CG_SS_CPUSET, 0444},
    {"cpuset.effective_mems", IN_ROOT | IN_CHILD, CG_SS_CPUSET, 0444},
    {"cpuset.mems", IN_ROOT | IN_CHILD, CG_SS_CPUSET, 0644},
    {"notify_on_release", IN_ROOT | IN_CHILD, 0, 0644},
    {"release_agent", IN_ROOT, 0, 0644},
    {"tasks", IN_ROOT | IN_CHILD, 0, 0644},
};
#define NFILES (sizeof files / sizeof *files)

static struct cgroup_hier *hier_of(struct machine *m, int i)
{
    return &m->cgroups.h[grp(m, i)->hier];
}

/* cgroup_file_name(): a controller's files carry its name, unless the
 * hierarchy was mounted with noprefix (cpuset's alone). */
static const char *shown_name(const struct cgroup_hier *h, const struct cg_file *f)
{
    return f->controller == CG_SS_CPUSET && h->noprefix ? f->name + strlen("cpuset.") : f->name;
}

static bool shows(struct machine *m, int i, const struct cg_file *f)
{
    unsigned where = is_top(m, i) ? IN_ROOT : IN_CHILD;
    return (f->where & where) && (!f->controller || (hier_of(m, i)->ss & f->controller));
}

const struct cg_file *v1_file_of(struct machine *m, int i, const char *name)
{
    for (size_t f = 0; f < NFILES; f++)
        if (shows(m, i, &files[f]) && strcmp(shown_name(hier_of(m, i), &files[f]), name) == 0)
            return &files[f];
    return NULL;
}

void v1_list(struct machine *m, int i,
             void (*emit)(const char *name, unsigned char type, void *arg), void *arg)
{
    for (size_t f = 0; f < NFILES; f++)
        if (shows(m, i, &files[f]))
            emit(shown_name(hier_of(m, i), &files[f]), DT_REG_, arg);
}

static int by_number(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}

/* cgroup_pidlist_start(): tasks lists thread ids, cgroup.procs process
 * ids, each sorted and without repeats. */
static void print_pidlist(FILE *out, struct machine *m, int i, bool procs)
{
    size_t n = 0, cap = 0;
    int *ids = NULL;
    for (struct task *t = m->tasks; t; t = t->next_all) {
        if (!in_group(m, t, i) || t->state == TASK_DEAD)
            continue;
        if (n == cap) {
            cap = cap ? 2 * cap : 64;
            int *more = realloc(ids, cap * sizeof *ids);
            if (!more)
                break;
            ids = more;
        }
        ids[n++] = procs ? t->proc->pid : t->tid;
    }
    sort_items(ids, n, sizeof *ids, by_number);
    for (size_t k = 0; k < n; k++)
        if (k == 0 || ids[k] != ids[k - 1])
            fprintf(out, "%d\n", ids[k]);
    free(ids);
}

void v1_read(FILE *out, struct machine *m, int i, const char *file)
{
    const struct cgroup *g = grp(m, i);
    if (!strcmp(file, "cgroup.procs") || !strcmp(file, "tasks"))
        print_pidlist(out, m, i, file[0] == 'c');
    else if (!strcmp(file, "cgroup.clone_children"))
        fprintf(out, "%d\n", g->v1_clone_children);
    else if (!strcmp(file, "notify_on_release"))
        fprintf(out, "%d\n", g->v1_notify_on_release);
    else if (!strcmp(file, "cgroup.sane_behavior"))
        fputs("0\n", out);
    else if (!strcmp(file, "release_agent"))
        fprintf(out, "%s\n", hier_of(m, i)->release_agent);
    else if (!strcmp(file, "cpu.shares"))
        fprintf(out, "%u\n", g->shares);
    else if (!strcmp(file, "cpu.cfs_period_us"))
        fprintf(out, "%" PRIu64 "\n", g->max_period);
    else if (!strcmp(file, "cpu.cfs_quota_us"))
        fprintf(out, "%" PRId64 "\n", g->max_quota);
    else if (!strcmp(file, "cpu.idle"))
        fprintf(out, "%d\n", g->idle);
    else if (!strcmp(file, "cpu.stat"))
        cpu_stat(out, m, i);
    else if (!strcmp(file, "cpu.uclamp.min"))
        print_uclamp(out, g->uclamp_min);
    else if (!strcmp(file, "cpu.uclamp.max"))
        print_uclamp(out, g->uclamp_max);
    else if (!strcmp(file, "cpuset.cpus"))
        print_cpulist(out, &g->cpus);
    else if (!strcmp(file, "cpuset.effective_cpus"))
        print_cpulist(out, &g->effective);
    else if (!strcmp(file, "cpuset.mems") || !strcmp(file, "cpuset.effective_mems"))
        fputs(g->mems_set ? "0\n" : "\n", out);
}

/* __cgroup1_procs_write(): tasks moves one thread, cgroup.procs its whole
 * thread group; cpuset_can_attach() refuses a cpuset without CPUs or
 * memory (ENOSPC, legacy mode only). */
static int procs_write(struct task *w, int i, const char *buf, bool threadgroup)
{
    struct machine *m = w->machine;
    int err;
    struct task *t = procs_target(w, buf, &err);
    if (!t)
        return err;
    const struct cgroup *g = grp(m, i);
    if ((hier_of(m, i)->ss & CG_SS_CPUSET) && (cpumask_empty(&g->cpus) || !g->mems_set))
        return -ENOSPC;
    move_to_group(m, t, i, threadgroup);
    return 0;
}

/* update_cpumask() and validate_change() in legacy mode: not the top
 * cpuset's (EACCES); online CPUs only (EINVAL); its children's CPUs kept
 * (EBUSY); within its parent's (EACCES); not emptied while it has tasks
 * (ENOSPC). */
static int cpus_write(struct machine *m, int i, const char *buf)
{
    struct cgroup *g = grp(m, i);
    if (is_top(m, i))
        return -EACCES;
    struct cpumask trial;
    int err = cpus_parse(buf, &trial);
    if (err < 0)
        return err;
    if (!cpumask_subset(&trial, &m->sched.online))
        return -EINVAL;
    if (cpumask_equal(&trial, &g->cpus))
        return 0;
    for (int c = 0; c < CGROUP_MAX; c++)
        if (grp(m, c)->used && grp(m, c)->parent == i && !cpumask_subset(&grp(m, c)->cpus, &trial))
            return -EBUSY;
    if (!cpumask_subset(&trial, &grp(m, g->parent)->cpus))
        return -EACCES;
    if (has_tasks(m, i) && !cpumask_empty(&g->cpus) && cpumask_empty(&trial))
        return -ENOSPC;
    g->cpus = trial;
    update_all(m);
    return 0;
}

/* update_nodemask(): one memory node, 0; as for CPUs, not the top's and
 * not emptied while the cpuset has tasks. */
static int mems_write(struct machine *m, int i, const char *buf)
{
    struct cgroup *g = grp(m, i);
    if (is_top(m, i))
        return -EACCES;
    bool node0;
    int err = mems_parse(buf, &node0);
    if (err < 0)
        return err;
    if (has_tasks(m, i) && g->mems_set && !node0)
        return -ENOSPC;
    g->mems_set = node0;
    return 0;
}

/* cpu_shares_write_u64(), tg_set_cfs_period(), tg_set_cfs_quota(),
 * cpu_idle_write_s64(): the root group's are fixed (EINVAL); shares are
 * clamped to 2..262144; a period of 1 ms to 1 s; a negative quota is
 * none, else at least 1 ms. */
static int cpu_write(struct machine *m, int i, const char *file, const char *buf)
{
    struct cgroup *g = grp(m, i);
    long long v;
    if (!strcmp(file, "cpu.uclamp.min") || !strcmp(file, "cpu.uclamp.max"))
        return uclamp_parse(buf, file[10] == 'i' ? &g->uclamp_min : &g->uclamp_max);
    if (parse_ll(buf, &v) < 0)
        return -EINVAL;
    if (is_top(m, i))
        return -EINVAL;
    if (!strcmp(file, "cpu.shares")) {
        if (v < 0)
            return -EINVAL; /* kstrtoull */
        g->shares = v < MIN_SHARES ? MIN_SHARES : v > MAX_SHARES ? MAX_SHARES : (unsigned)v;
    } else if (!strcmp(file, "cpu.cfs_period_us")) {
        if (v < 1000 || v > 1000000)
            return -EINVAL;
        g->max_period = (uint64_t)v;
    } else if (!strcmp(file, "cpu.cfs_quota_us")) {
        if (v >= 0 && (v < 1000 || v > MAX_CFS_QUOTA_US))
            return -EINVAL;
        g->max_quota = v < 0 ? -1 : v;
    } else if (!strcmp(file, "cpu.idle")) {
        if (v < 0 || v > 1)
            return -EINVAL;
        g->idle = v == 1;
    }
    return 0;
}

int v1_write(struct task *w, int i, const char *file, char *buf)
{
    struct machine *m = w->machine;
    struct cgroup *g = grp(m, i);
    long long v;
    if (!strcmp(file, "cgroup.procs") || !strcmp(file, "tasks"))
        return procs_write(w, i, buf, file[0] == 'c');
    if (!strcmp(file, "cgroup.clone_children") || !strcmp(file, "notify_on_release")) {
        if (parse_ll(buf, &v) < 0 || v < 0)
            return -EINVAL;
        if (file[0] == 'c')
            g->v1_clone_children = v != 0;
        else
            g->v1_notify_on_release = v != 0;
        return 0;
    }
    if (!strcmp(file, "release_agent")) {
        struct cgroup_hier *h = hier_of(m, i);
        if (strlen(buf) >= sizeof h->release_agent)
            return -EINVAL;
        snprintf(h->release_agent, sizeof h->release_agent, "%s", buf);
        return 0;
    }
    if (!strcmp(file, "cpuset.cpus"))
        return cpus_write(m, i, buf);
    if (!strcmp(file, "cpuset.mems"))
        return mems_write(m, i, buf);
    return cpu_write(m, i, file, buf);
}

/* A new child of a v1 cpuset whose parent has clone_children starts with
 * its parent's CPUs and memory (cpuset_css_online()). */
void v1_group_made(struct machine *m, int i)
{
    struct cgroup *g = grp(m, i);
    const struct cgroup *p = grp(m, g->parent);
    if ((m->cgroups.h[g->hier].ss & CG_SS_CPUSET) && p->v1_clone_children) {
        g->cpus = p->cpus;
        g->mems_set = p->mems_set;
    }
}

/* hotplug_update_tasks_legacy(), top-down: a cpuset keeps only the CPUs
 * its parent still has (CPUs coming back return only to the top cpuset),
 * its tasks get that; the tasks of a cpuset left with no CPU move to the
 * nearest ancestor that has some (remove_tasks_in_empty_cpuset()). */
static void shrink(struct machine *m, int i)
{
    for (int c = 0; c < CGROUP_MAX; c++) {
        struct cgroup *ch = grp(m, c);
        if (ch->used && ch->parent == i) {
            cpumask_and(&ch->cpus, &ch->cpus, &grp(m, i)->cpus);
            shrink(m, c);
        }
    }
}

void v1_hotplug(struct machine *m)
{
    unsigned h = cpuset_hier(m);
    int root = m->cgroups.h[h].root;
    grp(m, root)->cpus = m->sched.online;
    shrink(m, root);
    update_all(m);
    for (struct task *t = m->tasks; t; t = t->next_all) {
        int cs = t->cgroup[h];
        if (t->state == TASK_DEAD || !cpumask_empty(&grp(m, cs)->cpus))
            continue;
        while (cpumask_empty(&grp(m, cs)->cpus) || !grp(m, cs)->mems_set)
            cs = grp(m, cs)->parent;
        t->cgroup[h] = cs;
    }
    reattach_all(m);
}

/* ---- mount ---- */

static void show_options(const struct cgroup_hier *h, char *out, size_t len)
{
    snprintf(out, len, "%s%s%s%s%s%s", h->ss & CG_SS_CPUSET ? "cpuset" : "",
             h->ss == CG_SS_ALL ? "," : "", h->ss & CG_SS_CPU ? "cpu" : "",
             h->noprefix ? ",noprefix" : "", h->release_agent[0] ? ",release_agent=" : "",
             h->release_agent);
}

/* cgroup1_parse_param() and check_cgroupfs_options(): the controllers
 * (none named: all), none, all, noprefix (cpuset alone), release_agent=.
 * Controllers this kernel lacks, name=, xattr and the rest: EINVAL. */
static int parse_options(const char *data, unsigned *ss, bool *noprefix, char *agent,
                         size_t agentlen)
{
    char buf[256];
    if (strlen(data) >= sizeof buf)
        return -EINVAL;
    snprintf(buf, sizeof buf, "%s", data);
    bool none = false, all = false;
    for (char *save, *tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
        if (!strcmp(tok, "cpuset"))
            *ss |= CG_SS_CPUSET;
        else if (!strcmp(tok, "cpu"))
            *ss |= CG_SS_CPU;
        else if (!strcmp(tok, "none"))
            none = true;
        else if (!strcmp(tok, "all"))
            all = true;
        else if (!strcmp(tok, "noprefix"))
            *noprefix = true;
        else if (!strncmp(tok, "release_agent=", 14) && strlen(tok + 14) < agentlen)
            snprintf(agent, agentlen, "%s", tok + 14);
        else
            return -EINVAL;
    }
    if (all || (!none && !*ss))
        *ss = CG_SS_ALL;
    if (!*ss)
        return -EINVAL; /* "Need name or subsystem set" */
    if (*noprefix && (*ss & ~(unsigned)CG_SS_CPUSET))
        return -EINVAL; /* "noprefix used incorrectly" */
    if (none)
        return -EINVAL; /* "none used incorrectly" */
    return 0;
}

int cgroup_v1_mount(struct machine *m, const char *type, const char *data, char *shown,
                    size_t len)
{
    unsigned ss = 0;
    bool noprefix = false;
    char agent[64] = "";
    if (!strcmp(type, "cpuset")) { /* cpuset_fs_context: cpuset,noprefix,release_agent */
        ss = CG_SS_CPUSET;
        noprefix = true;
        snprintf(agent, sizeof agent, "%s", CPUSET_RELEASE_AGENT);
    } else if (parse_options(data ? data : "", &ss, &noprefix, agent, sizeof agent) < 0) {
        return -EINVAL;
    }
    struct cgroups *cg = &m->cgroups;
    /* cgroup1_root_to_use(): the hierarchy of the same controllers is
     * shown again (other options only warn); one sharing some is EBUSY. */
    for (unsigned h = 1; h < CGROUP_HIERS; h++) {
        if (!cg->h[h].used || !(cg->h[h].ss & ss))
            continue;
        if (cg->h[h].ss != ss)
            return -EBUSY;
        cg->h[h].mounts++;
        show_options(&cg->h[h], shown, len);
        return (int)h;
    }
    /* rebind_subsystems(): a controller v2 groups use stays there. */
    if (grp(m, 0)->subtree & ss)
        return -EBUSY;
    unsigned h = 1;
    while (h < CGROUP_HIERS && cg->h[h].used)
        h++;
    int root = 1;
    while (root < CGROUP_MAX && grp(m, root)->used)
        root++;
    if (h == CGROUP_HIERS || root == CGROUP_MAX)
        return -ENOSPC;
    group_defaults(grp(m, root), -1, h);
    grp(m, root)->mems_set = true;
    cg->h[h] = (struct cgroup_hier){.used = true, .ss = ss, .noprefix = noprefix,
                                    .root = root, .id = ++cg->last_id, .mounts = 1};
    snprintf(cg->h[h].release_agent, sizeof cg->h[h].release_agent, "%s", agent);
    for (struct task *t = m->tasks; t; t = t->next_all)
        t->cgroup[h] = root;
    if (ss & CG_SS_CPUSET) {
        update_all(m);
        reattach_all(m);
    }
    show_options(&cg->h[h], shown, len);
    return (int)h;
}

void cgroup_v1_umount(struct machine *m, unsigned h)
{
    struct cgroup_hier *hi = &m->cgroups.h[h];
    if (h == 0 || h >= CGROUP_HIERS || !hi->used || --hi->mounts)
        return;
    for (int c = 0; c < CGROUP_MAX; c++)
        if (grp(m, c)->used && grp(m, c)->hier == h && grp(m, c)->parent >= 0)
            return; /* kept while it has groups (cgroup_kill_sb()) */
    grp(m, hi->root)->used = false;
    bool cpuset = hi->ss & CG_SS_CPUSET;
    hi->used = false;
    if (cpuset) { /* back to v2's top cpuset */
        update_all(m);
        reattach_all(m);
    }
}
