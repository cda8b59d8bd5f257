/* SPDX-License-Identifier: GPL-2.0-or-later */
/* kcost.c - the cost table of kernel work (kcost.h, docs/timing.md) and
 * the --costs file that overrides it. */
#include "kcost.h"
#include "machine.h"
#include "scheduler.h"
#include "task.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const names[EMU_COST_NR] = {
    [EMU_COST_SYSCALL] = "syscall", [EMU_COST_PAGE_FAULT] = "page_fault",
    [EMU_COST_FORK] = "fork",       [EMU_COST_CLONE] = "clone",
    [EMU_COST_EXECVE] = "execve",   [EMU_COST_EXIT] = "exit",
    [EMU_COST_SIGNAL] = "signal",   [EMU_COST_CTXSW] = "context_switch",
};

/* Estimates for a Cortex-A72 (the CPU model of asymu's AArch64 engines) at
 * about 2 GHz running Linux 5.x, in the units of lmbench's tests; where
 * each comes from: docs/timing.md, "The cost table". */
static const struct emu_costs defaults = {{
    [EMU_COST_SYSCALL] = 250,       /* lat_syscall null */
    [EMU_COST_PAGE_FAULT] = 700,    /* lat_pagefault, plus zeroing the page */
    [EMU_COST_FORK] = 100000,       /* lat_proc fork, less exit and wait */
    [EMU_COST_CLONE] = 15000,       /* pthread_create of a thread, no lmbench test */
    [EMU_COST_EXECVE] = 300000,     /* lat_proc exec, less fork+exit */
    [EMU_COST_EXIT] = 40000,        /* lat_proc fork's exit and reaping */
    [EMU_COST_SIGNAL] = 1500,       /* lat_sig catch */
    [EMU_COST_CTXSW] = 2000,        /* lat_ctx -s 0 2, less its pipe syscalls */
}};

/* No cost above 10 s: a typo's extra digits would stop the machine. */
#define COST_MAX_NS UINT64_C(10000000000)

void emu_costs_default(struct emu_costs *out)
{
    *out = defaults;
}

const char *emu_cost_name(unsigned c)
{
    return c < EMU_COST_NR ? names[c] : NULL;
}

const struct emu_costs *kcost_table(const struct emu_config *cfg)
{
    return cfg && cfg->costs ? cfg->costs : &defaults;
}

static int lookup(const char *name, size_t len)
{
    for (unsigned c = 0; c < EMU_COST_NR; c++)
        if (strlen(names[c]) == len && !memcmp(names[c], name, len))
            return (int)c;
    return -1;
}

static int line_error(char *why, size_t len, const char *path, unsigned line, const char *msg,
                      const char *arg)
{
    snprintf(why, len, "%s:%u: %s%s", path, line, msg, arg ? arg : "");
    return -1;
}

/* One line, comment and newline cut: "", or "name value". */
static int parse_line(char *p, const char *path, unsigned line, struct emu_costs *out,
                      bool seen[EMU_COST_NR], char *why, size_t len)
{
    while (isspace((unsigned char)*p))
        p++;
    if (!*p)
        return 0;
    char *name = p;
    while (*p && !isspace((unsigned char)*p))
        p++;
    size_t nlen = (size_t)(p - name);
    int c = lookup(name, nlen);
    if (c < 0) {
        name[nlen] = '\0';
        return line_error(why, len, path, line, "unknown cost name: ", name);
    }
    if (seen[c])
        return line_error(why, len, path, line, "cost given twice: ", names[c]);
    seen[c] = true;
    while (isspace((unsigned char)*p))
        p++;
    if (!isdigit((unsigned char)*p))
        return line_error(why, len, path, line, "expected a time in ns after ", names[c]);
    errno = 0;
    char *end;
    unsigned long long v = strtoull(p, &end, 10);
    while (isspace((unsigned char)*end))
        end++;
    if (*end)
        return line_error(why, len, path, line, "expected only a time in ns after ", names[c]);
    if (errno || v > COST_MAX_NS)
        return line_error(why, len, path, line, "a time from 0 to 10000000000 ns for ",
                          names[c]);
    out->ns[c] = v;
    return 0;
}

int emu_costs_load(const char *path, struct emu_costs *out, char *why, size_t len)
{
    *out = defaults;
    FILE *f = fopen(path, "r");
    if (!f) {
        snprintf(why, len, "%s: %s", path, strerror(errno));
        return -1;
    }
    bool seen[EMU_COST_NR] = {false};
    char buf[256];
    unsigned line = 0;
    int err = 0;
    while (!err && fgets(buf, sizeof buf, f)) {
        line++;
        size_t n = strlen(buf);
        if (n && buf[n - 1] == '\n')
            buf[--n] = '\0';
        else if (!feof(f)) {
            err = line_error(why, len, path, line, "line longer than 255 bytes", NULL);
            break;
        }
        char *hash = strchr(buf, '#');
        if (hash)
            *hash = '\0';
        err = parse_line(buf, path, line, out, seen, why, len);
    }
    if (!err && ferror(f))
        err = line_error(why, len, path, line + 1, "cannot read: ", strerror(EIO));
    fclose(f);
    return err;
}

uint64_t kcost_charge_n(struct task *t, enum emu_cost c, uint64_t n)
{
    struct machine *m = t->machine;
    if (m->slice_task != t || !n)
        return 0;
    uint64_t fs = sched_cpu_fs(&m->sched, m->slice_cpu, m->costs->ns[c] * n * FS_PER_NS);
    m->slice_fs += fs;
    uint64_t ns = fs / FS_PER_NS;
    t->sys_ns += ns;
    return ns;
}

uint64_t kcost_charge(struct task *t, enum emu_cost c)
{
    return kcost_charge_n(t, c, 1);
}
