/* SPDX-License-Identifier: GPL-2.0-or-later */
/* sched_policy.h - the policy registry: every way the emulated kernel can
 * keep 32-bit tasks on 32-bit vCPUs (--policy), by name. The one list of
 * policies: the CLI parses and documents --policy from it, the scheduler
 * takes each policy's hooks from it (sched-int.h). */
#ifndef ASYMU_SCHED_POLICY_H
#define ASYMU_SCHED_POLICY_H

#include <stddef.h>

enum sched_policy_id {
    SCHED_POLICY_UPSTREAM, /* Linux 5.15: override + saved mask, trimming, U5 */
    SCHED_POLICY_OVERRIDE, /* Deacon v3: narrow on exec, reject bad masks */
    SCHED_POLICY_KILL,     /* Deacon v1 / Yousef RFC 2: SIGKILL outside M */
    SCHED_POLICY_FIXUP,    /* Yousef RFC 3: narrow A at the check, else SIGKILL */
    SCHED_POLICY_LINUX66,  /* Linux 6.6: upstream with the user's requested mask kept */
    SCHED_NR_POLICIES,
};

struct sched_policy;

struct sched_policy_info {
    const char *name;  /* what --policy takes: "upstream" */
    const char *alias; /* another name it takes, or NULL: "linux-5.15" */
    const char *help;  /* what --help says of it in parentheses, or NULL */
    const struct sched_policy *ops; /* its hooks (sched-int.h) */
};

/* Every policy, indexed by enum sched_policy_id. */
extern const struct sched_policy_info sched_policies[SCHED_NR_POLICIES];

/* The policy a name or alias names: 0, or -EINVAL (*out unchanged). */
int sched_policy_from_name(const char *name, enum sched_policy_id *out);
const char *sched_policy_name(enum sched_policy_id id);
/* --help's list: "upstream (Linux 5.15, also named linux-5.15), linux-6.6
 * (...), override, kill or fixup". */
void sched_policy_describe(char *buf, size_t len);
/* What a bad --policy is told: "one of upstream (or linux-5.15), linux-6.6,
 * override, kill, fixup". */
void sched_policy_accepted(char *buf, size_t len);

#endif
