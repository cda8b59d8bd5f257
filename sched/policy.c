/* SPDX-License-Identifier: GPL-2.0-or-later */
/* policy.c - the policy registry (sched_policy.h): names, aliases and help
 * of each policy next to its hooks, and the texts the CLI makes of them. */
#include "sched-int.h"
#include "sched_policy.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

const struct sched_policy_info sched_policies[SCHED_NR_POLICIES] = {
    [SCHED_POLICY_UPSTREAM] = {"upstream", "linux-5.15", "Linux 5.15", &sched_policy_upstream},
    [SCHED_POLICY_OVERRIDE] = {"override", NULL, NULL, &sched_policy_override},
    [SCHED_POLICY_KILL] = {"kill", NULL, NULL, &sched_policy_kill},
    [SCHED_POLICY_FIXUP] = {"fixup", NULL, NULL, &sched_policy_fixup},
    [SCHED_POLICY_LINUX66] = {"linux-6.6", NULL, "the user's requested mask kept, 6.2+",
                              &sched_policy_linux66},
};

/* The order the texts name the policies in: the Linux generations first. */
static const enum sched_policy_id listed[SCHED_NR_POLICIES] = {
    SCHED_POLICY_UPSTREAM, SCHED_POLICY_LINUX66, SCHED_POLICY_OVERRIDE,
    SCHED_POLICY_KILL,     SCHED_POLICY_FIXUP,
};

int sched_policy_from_name(const char *name, enum sched_policy_id *out)
{
    for (unsigned i = 0; i < SCHED_NR_POLICIES; i++) {
        const struct sched_policy_info *p = &sched_policies[i];
        if (strcmp(name, p->name) == 0 || (p->alias && strcmp(name, p->alias) == 0)) {
            *out = (enum sched_policy_id)i;
            return 0;
        }
    }
    return -EINVAL;
}

const char *sched_policy_name(enum sched_policy_id id)
{
    return (unsigned)id < SCHED_NR_POLICIES ? sched_policies[id].name : "?";
}

/* Appends to buf (of len bytes, holding *at) what fmt makes, cut to fit. */
static void append(char *buf, size_t len, size_t *at, const char *fmt, ...)
{
    if (*at >= len)
        return;
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(buf + *at, len - *at, fmt, ap);
    va_end(ap);
    if (n > 0)
        *at += (size_t)n;
}

void sched_policy_describe(char *buf, size_t len)
{
    size_t at = 0;
    buf[0] = '\0';
    for (unsigned i = 0; i < SCHED_NR_POLICIES; i++) {
        const struct sched_policy_info *p = &sched_policies[listed[i]];
        const char *sep = i == 0 ? "" : i + 1 == SCHED_NR_POLICIES ? " or " : ", ";
        append(buf, len, &at, "%s%s", sep, p->name);
        if (p->help && p->alias)
            append(buf, len, &at, " (%s, also named %s)", p->help, p->alias);
        else if (p->help)
            append(buf, len, &at, " (%s)", p->help);
        else if (p->alias)
            append(buf, len, &at, " (also named %s)", p->alias);
    }
}

void sched_policy_accepted(char *buf, size_t len)
{
    size_t at = 0;
    buf[0] = '\0';
    append(buf, len, &at, "one of ");
    for (unsigned i = 0; i < SCHED_NR_POLICIES; i++) {
        const struct sched_policy_info *p = &sched_policies[listed[i]];
        append(buf, len, &at, "%s%s", i == 0 ? "" : ", ", p->name);
        if (p->alias)
            append(buf, len, &at, " (or %s)", p->alias);
    }
}
