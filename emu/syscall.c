/* syscall.c - syscall entry: decode the number through the task's ABI table,
 * run the handler inside the interrupt hook, write the result back, and trace
 * it when --strace is on. */
#include "kernel.h"

#include <errno.h>
#include <stdio.h>

#define SYSCALL_COST_NS 1000 /* virtual time one syscall takes */

static const struct syscall_entry *lookup(const struct abi *abi, uint64_t nr)
{
    if (nr < abi->table_len && abi->table[nr].fn)
        return &abi->table[nr];
    return abi->lookup_private ? abi->lookup_private(nr) : NULL;
}

void syscall_report_unknown(struct task *t, uint64_t nr)
{
    struct machine *m = t->machine;
    for (unsigned i = 0; i < m->nunknown; i++)
        if (m->unknown_reported[i] == nr)
            return;
    if (m->nunknown < sizeof m->unknown_reported / sizeof *m->unknown_reported)
        m->unknown_reported[m->nunknown++] = nr;
    const char *name = task_abi(t)->syscall_name(nr);
    fprintf(stderr, "asymu: [pid %d] unsupported %s syscall %s (%llu): returning ENOSYS\n",
            t->proc->pid, task_abi(t)->name, name ? name : "unknown", (unsigned long long)nr);
}

void syscall_dispatch(struct task *t)
{
    const struct abi *abi = task_abi(t);
    uc_engine *uc = task_mm(t)->uc;
    uint64_t nr, a[6];
    abi->get_syscall(uc, &nr, a);
    t->machine->vtime_ns += SYSCALL_COST_NS;

    const struct syscall_entry *e = lookup(abi, nr);
    if (!e) {
        syscall_report_unknown(t, nr);
        if (t->machine->cfg->strace) {
            const char *name = abi->syscall_name(nr);
            if (name)
                fprintf(stderr, "[pid %d] %s(...) = -1 ENOSYS (Function not implemented)\n", t->tid,
                        name);
            else
                fprintf(stderr, "[pid %d] syscall_%#llx(...) = -1 ENOSYS (Function not implemented)\n",
                        t->tid, (unsigned long long)nr);
        }
        abi->set_return(uc, -ENOSYS);
        return;
    }
    char enter[512];
    bool trace = t->machine->cfg->strace;
    if (trace)
        strace_enter(t, e, a, enter, sizeof enter);
    int64_t ret = e->fn(t, a);
    if (trace)
        strace_exit(t, e, a, ret, enter);
    if (!t->stop)
        abi->set_return(uc, ret);
}
