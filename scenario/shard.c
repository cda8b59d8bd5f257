/* SPDX-License-Identifier: GPL-2.0-or-later */
/* shard.c - `asymu replay --shard auto`: the shard of this machine from the
 * variables a CI or batch system sets on each of its parallel jobs
 * (docs/scenarios.md "Shards"). Each system numbers its jobs its own way
 * (from 1, from 0, from an array's first id); all become I/N from 1. */
#include "scenario.h"

#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#define SHARD_MAX 100000u

struct ci {
    const char *name;        /* as messages call it */
    const char *index, *total; /* the variables */
    unsigned base;           /* the index of the first job */
};

/* Slurm's is apart: its ids start at SLURM_ARRAY_TASK_MIN and step by
 * SLURM_ARRAY_TASK_STEP. Kubernetes gives only the index (the Job's
 * completions are not in the pod's environment): the total is ASYMU_SHARD_TOTAL,
 * set in the Job's spec. */
static const struct ci cis[] = {
    {"GitLab CI", "CI_NODE_INDEX", "CI_NODE_TOTAL", 1},
    {"a Kubernetes Indexed Job", "JOB_COMPLETION_INDEX", "ASYMU_SHARD_TOTAL", 0},
    {"a Slurm array", "SLURM_ARRAY_TASK_ID", "SLURM_ARRAY_TASK_COUNT", 0},
    {"CircleCI", "CIRCLE_NODE_INDEX", "CIRCLE_NODE_TOTAL", 0},
    {"Buildkite", "BUILDKITE_PARALLEL_JOB", "BUILDKITE_PARALLEL_JOB_COUNT", 0},
};
#define NCIS (sizeof cis / sizeof *cis)

static bool say(char *why, size_t len, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(why, len, fmt, ap);
    va_end(ap);
    return false;
}

/* The value of variable var as a number from lo to hi. */
static bool number(const struct ci *ci, const char *var, unsigned long lo, unsigned long hi,
                   unsigned long *out, char *why, size_t len)
{
    const char *s = getenv(var);
    char *end;
    errno = 0;
    unsigned long v = s ? strtoul(s, &end, 10) : 0;
    if (!s || end == s || *end || errno || *s == '-' || *s == '+' || *s == ' ' || v < lo ||
        v > hi)
        return say(why, len, "%s's %s='%s' is not a number from %lu to %lu", ci->name, var,
                   s ? s : "", lo, hi);
    *out = v;
    return true;
}

/* One system's slice, its variables being set: false with why. */
static bool slice_of(const struct ci *ci, unsigned *index, unsigned *total, char *why,
                     size_t len)
{
    const char *index_s = getenv(ci->index), *total_s = getenv(ci->total);
    if (!total_s)
        return say(why, len, "%s's %s=%s without %s%s", ci->name, ci->index, index_s, ci->total,
                   strcmp(ci->total, "ASYMU_SHARD_TOTAL") == 0
                       ? " (set it in the Job's spec to its completions)"
                       : "");
    unsigned long n, i, first = ci->base, step = 1;
    if (!number(ci, ci->total, 1, SHARD_MAX, &n, why, len))
        return false;
    if (!index_s) { /* GitLab without parallel: CI_NODE_TOTAL=1 alone */
        if (n == 1) {
            *index = *total = 1;
            return true;
        }
        return say(why, len, "%s's %s=%lu without %s", ci->name, ci->total, n, ci->index);
    }
    bool slurm = strcmp(ci->index, "SLURM_ARRAY_TASK_ID") == 0;
    if (slurm) {
        if (getenv("SLURM_ARRAY_TASK_MIN") &&
            !number(ci, "SLURM_ARRAY_TASK_MIN", 0, 4000000000ul, &first, why, len))
            return false;
        if (getenv("SLURM_ARRAY_TASK_STEP") &&
            !number(ci, "SLURM_ARRAY_TASK_STEP", 1, 4000000000ul, &step, why, len))
            return false;
    }
    if (!number(ci, ci->index, 0, 4000000000ul, &i, why, len))
        return false;
    if (i < first || (i - first) % step || (i - first) / step >= n) {
        if (slurm)
            return say(why, len, "%s's %s=%lu is not one of the %lu ids from "
                                 "SLURM_ARRAY_TASK_MIN=%lu by SLURM_ARRAY_TASK_STEP=%lu "
                                 "(SLURM_ARRAY_TASK_COUNT=%lu)", ci->name, ci->index, i, n,
                       first, step, n);
        return say(why, len, "%s's %s=%lu is not a shard of %s=%lu (expected %lu to %lu)",
                   ci->name, ci->index, i, ci->total, n, first, first + n - 1);
    }
    *index = (unsigned)((i - first) / step + 1);
    *total = (unsigned)n;
    return true;
}

int scenario_shard_auto(unsigned *index, unsigned *total, char *why, size_t len)
{
    /* A system whose index is set gives the slice; one whose total alone
     * is set (GitLab without parallel: CI_NODE_TOTAL=1) only when no other
     * gives one. ASYMU_SHARD_TOTAL alone is not Kubernetes. */
    const struct ci *found = NULL, *total_only = NULL;
    for (size_t k = 0; k < NCIS; k++) {
        const struct ci *ci = &cis[k];
        if (getenv(ci->index)) {
            if (found)
                return say(why, len, "found the variables of %s (%s) and of %s (%s): give "
                                     "--shard I/N", found->name, found->index, ci->name,
                           ci->index),
                       -1;
            found = ci;
        } else if (getenv(ci->total) && strcmp(ci->total, "ASYMU_SHARD_TOTAL") != 0 &&
                   !total_only) {
            total_only = ci;
        }
    }
    if (!found)
        found = total_only;
    if (!found)
        return say(why, len, "found no shard in the environment: expected CI_NODE_INDEX and "
                             "CI_NODE_TOTAL (GitLab CI), JOB_COMPLETION_INDEX and "
                             "ASYMU_SHARD_TOTAL (a Kubernetes Indexed Job), SLURM_ARRAY_TASK_ID "
                             "and SLURM_ARRAY_TASK_COUNT (a Slurm array), CIRCLE_NODE_INDEX and "
                             "CIRCLE_NODE_TOTAL (CircleCI), or BUILDKITE_PARALLEL_JOB and "
                             "BUILDKITE_PARALLEL_JOB_COUNT (Buildkite); or give --shard I/N"),
               -1;
    if (!slice_of(found, index, total, why, len))
        return -1;
    const char *v = getenv(found->index);
    if (v)
        snprintf(why, len, "%u/%u from %s (%s=%s, %s=%s)", *index, *total, found->name,
                 found->index, v, found->total, getenv(found->total));
    else
        snprintf(why, len, "%u/%u from %s (%s=%s)", *index, *total, found->name, found->total,
                 getenv(found->total));
    return 0;
}
