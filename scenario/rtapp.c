/* SPDX-License-Identifier: GPL-2.0-or-later */
/* rtapp.c - an rt-app JSON file (github.com/scheduler-tools/rt-app,
 * doc/tutorial.txt) as a scenario: each task a workload (parse.c's
 * `workload:`), run by the worker of examples/workload.c. The subset that
 * maps is written out as the YAML scenario it means and parsed as one; a
 * key that does not map is refused as "FILE: rt-app key 'K' in W: why".
 * rt-app's times are microseconds. */
#include "scenario.h"

#include <stdlib.h>
#include <string.h>

/* Global keys that only concern rt-app's own run (logs, calibration of
 * `run`, memory locking): nothing to do on the emulated machine. */
static const char *const ignored_global[] = {
    "calibration", "logdir",     "log_basename", "log_size",        "lock_pages",       "ftrace",
    "gnuplot",     "pi_enabled", "io_device",    "mem_buffer_size", "cumulative_slack", NULL,
};

/* A task's settings, which rt-app also takes in a phase. */
static const char *const per_task_only[] = {
    "instance", "policy", "priority", "cpus", "nice", "phases", "delay", NULL,
};

static bool in(const char *key, const char *const *list)
{
    for (; *list; list++)
        if (strcmp(key, *list) == 0)
            return true;
    return false;
}

/* rt-app names events with any suffix of digits ("run0", "sleep1"). */
static bool event_is(const char *key, const char *name)
{
    size_t n = strlen(name);
    if (strncmp(key, name, n) != 0)
        return false;
    for (key += n; *key; key++)
        if (*key < '0' || *key > '9')
            return false;
    return true;
}

struct conv {
    const char *file;
    FILE *errors, *out;
    bool failed;
};

static bool refuse(struct conv *c, const char *key, const char *where, const char *why)
{
    if (!c->failed)
        fprintf(c->errors, "%s: rt-app key '%s' in %s: %s\n", c->file, key, where, why);
    c->failed = true;
    return false;
}

static bool want_usec(struct conv *c, const char *key, const char *where, json_t *v, json_int_t *us)
{
    if (!json_is_integer(v) || json_integer_value(v) < 0)
        return refuse(c, key, where, "expected a whole number of microseconds, 0 or more");
    *us = json_integer_value(v);
    return true;
}

static void quoted(FILE *f, const char *s)
{
    json_t *j = json_string(s);
    char *text = j ? json_dumps(j, JSON_ENCODE_ANY) : NULL;
    fputs(text ? text : "\"\"", f);
    free(text);
    json_decref(j);
}

/* The events of a task or a phase, in their order, as workload phases. */
static bool events(struct conv *c, json_t *obj, const char *where)
{
    const char *key;
    json_t *v;
    json_object_foreach(obj, key, v)
    {
        json_int_t us;
        FILE *f = c->out;
        if (event_is(key, "run") || event_is(key, "runtime") || event_is(key, "sleep")) {
            if (!want_usec(c, key, where, v, &us))
                return false;
            /* run is calibrated work in rt-app: here CPU time, as runtime. */
            fprintf(f, "        - %s: %lldus\n", event_is(key, "sleep") ? "sleep" : "runtime",
                    (long long)us);
        } else if (event_is(key, "timer")) {
            json_t *period = json_object_get(v, "period");
            if (!json_is_object(v) || !want_usec(c, key, where, period, &us) || us == 0)
                return c->failed || refuse(c, key, where,
                                           "expected {\"ref\": ..., \"period\": "
                                           "microseconds above 0}");
            fprintf(f, "        - timer: %lldus\n", (long long)us);
        } else if (event_is(key, "lock") || event_is(key, "unlock") || event_is(key, "barrier")) {
            if (!json_is_string(v))
                return refuse(c, key, where, "expected a name");
            fprintf(f, "        - %s: ",
                    event_is(key, "lock")     ? "lock"
                    : event_is(key, "unlock") ? "unlock"
                                              : "barrier");
            quoted(f, json_string_value(v));
            fputc('\n', f);
        } else if (event_is(key, "yield")) {
            fprintf(f, "        - yield\n");
        } else if (event_is(key, "mem")) {
            if (!json_is_integer(v) || json_integer_value(v) < 0)
                return refuse(c, key, where, "expected a number of bytes");
            fprintf(f, "        - mem: %lld\n", (long long)json_integer_value(v));
        } else if (!in(key, (const char *const[]){"instance", "loop", "policy", "priority", "cpus",
                                                  "nice", "phases", "delay", "dl-runtime",
                                                  "dl-deadline", "dl-period", "taskgroup",
                                                  NULL})) {
            return refuse(c, key, where,
                          "not an event asymu's workloads have (run, runtime, "
                          "sleep, timer, lock, unlock, barrier, yield, mem)");
        }
    }
    return true;
}

/* taskgroup: rt-app's cgroup (of its cpu controller, "/" the root) as the
 * scenario's cgroup key (the task's, or a phase's at the phase's start).
 * rt-app moves each thread; the worker's cgroup phase moves its process
 * (cgroup.procs: threaded groups are not modelled), which is the same
 * once every instance has run the phase. */
static bool taskgroup(struct conv *c, json_t *obj, const char *where, const char *indent)
{
    json_t *v = json_object_get(obj, "taskgroup");
    if (!v)
        return true;
    if (!json_is_string(v))
        return refuse(c, "taskgroup", where, "expected a cgroup path like \"/tg1\"");
    fprintf(c->out, "%scgroup: ", indent);
    quoted(c->out, json_string_value(v));
    fputc('\n', c->out);
    return true;
}

static bool task(struct conv *c, const char *name, json_t *t, const char *default_policy)
{
    char where[300];
    snprintf(where, sizeof where, "task %s", name);
    if (!json_is_object(t))
        return refuse(c, name, "tasks", "expected an object");
    FILE *f = c->out;
    fputs("  - name: ", f);
    quoted(f, name);
    fputc('\n', f);
    json_t *cpus = json_object_get(t, "cpus"), *cpu, *v;
    size_t i;
    if (cpus) {
        if (!json_is_array(cpus) || json_array_size(cpus) == 0)
            return refuse(c, "cpus", where, "expected a list of CPU numbers");
        fputs("    affinity: \"", f);
        json_array_foreach(cpus, i, cpu)
        {
            if (!json_is_integer(cpu) || json_integer_value(cpu) < 0)
                return refuse(c, "cpus", where, "expected a list of CPU numbers");
            fprintf(f, "%s%lld", i ? "," : "", (long long)json_integer_value(cpu));
        }
        fputs("\"\n", f);
    }
    if (!taskgroup(c, t, where, "    "))
        return false;
    json_int_t us;
    if ((v = json_object_get(t, "delay"))) {
        if (!want_usec(c, "delay", where, v, &us))
            return false;
        fprintf(f, "    start: %lldus\n", (long long)us);
    }
    fputs("    workload:\n", f);
    if ((v = json_object_get(t, "instance")))
        fprintf(f, "      instances: %lld\n", (long long)json_integer_value(v));
    if ((v = json_object_get(t, "loop")))
        fprintf(f, "      loop: %lld\n", (long long)json_integer_value(v));
    const char *policy = json_string_value(json_object_get(t, "policy"));
    if (json_object_get(t, "policy") && !policy)
        return refuse(c, "policy", where, "expected a policy's name");
    policy = policy ? policy : default_policy;
    if (policy) {
        fputs("      policy: ", f);
        quoted(f, policy);
        fputc('\n', f);
    }
    bool rt = policy && (strcmp(policy, "SCHED_FIFO") == 0 || strcmp(policy, "SCHED_RR") == 0);
    if ((v = json_object_get(t, "priority"))) {
        /* rt-app's priority is the nice value under the fair policies. */
        if (!json_is_integer(v))
            return refuse(c, "priority", where, "expected a number");
        fprintf(f, "      %s: %lld\n", rt ? "priority" : "nice", (long long)json_integer_value(v));
    }
    if ((v = json_object_get(t, "nice")))
        fprintf(f, "      nice: %lld\n", (long long)json_integer_value(v));
    static const char *const dl[] = {"dl-runtime", "dl-deadline", "dl-period"};
    for (i = 0; i < 3; i++)
        if ((v = json_object_get(t, dl[i]))) {
            if (!want_usec(c, dl[i], where, v, &us))
                return false;
            fprintf(f, "      %s: %lldus\n", dl[i] + 3, (long long)us);
        }
    fputs("      phases:\n", f);
    if (!events(c, t, where))
        return false;
    json_t *phases = json_object_get(t, "phases"), *phase;
    const char *pname;
    json_object_foreach(phases, pname, phase)
    {
        char pwhere[600];
        snprintf(pwhere, sizeof pwhere, "phase %s of task %s", pname, name);
        if (!json_is_object(phase))
            return refuse(c, pname, where, "expected a phase (an object)");
        json_t *loop = json_object_get(phase, "loop");
        json_int_t n = loop ? json_integer_value(loop) : 1;
        if (n < 1)
            return refuse(c, "loop", pwhere, "expected a loop count of 1 or more in a phase");
        /* begin/end: the worker's repeat of the phase's events. */
        fprintf(f, "        - begin: %lld\n", (long long)n);
        const char *k;
        json_object_foreach(phase, k, v)
        {
            if (in(k, per_task_only))
                return refuse(c, k, pwhere,
                              "per-phase settings are not mapped (set them on the "
                              "task)");
        }
        if (!taskgroup(c, phase, pwhere, "        - ") || !events(c, phase, pwhere))
            return false;
        fputs("        - end\n", f);
    }
    return true;
}

char *scenario_rtapp_to_yaml(const char *file, const char *text, size_t len, FILE *errors)
{
    json_error_t err;
    json_t *root = json_loadb(text, len, JSON_REJECT_DUPLICATES, &err);
    if (!root) {
        fprintf(errors, "%s:%d:%d: expected an rt-app JSON file: %s\n", file, err.line, err.column,
                err.text);
        return NULL;
    }
    char *yaml = NULL;
    size_t ylen = 0;
    struct conv c = {.file = file, .errors = errors, .out = open_memstream(&yaml, &ylen)};
    json_t *global = json_object_get(root, "global"), *tasks = json_object_get(root, "tasks");
    const char *key, *policy = NULL;
    json_t *v;
    if (!json_is_object(root) || !json_is_object(tasks) || json_object_size(tasks) == 0)
        refuse(&c, "tasks", "the file", "expected an object of tasks");
    fprintf(c.out, "# from rt-app file %s\n", file);
    json_object_foreach(root, key, v)
    {
        if (!c.failed && strcmp(key, "global") != 0 && strcmp(key, "tasks") != 0)
            refuse(&c, key, "the file", "expected only global and tasks");
    }
    json_object_foreach(global, key, v)
    {
        if (c.failed || in(key, ignored_global))
            continue;
        if (strcmp(key, "duration") == 0) {
            if (!json_is_integer(v))
                refuse(&c, key, "global", "expected seconds (-1: none)");
            else if (json_integer_value(v) > 0)
                fprintf(c.out, "machine:\n  time_limit: %llds\n", (long long)json_integer_value(v));
        } else if (strcmp(key, "default_policy") == 0) {
            if (!(policy = json_string_value(v)))
                refuse(&c, key, "global", "expected a policy's name");
        } else {
            refuse(&c, key, "global",
                   "not mapped (asymu maps duration and default_policy and "
                   "ignores calibration, logs and memory locking)");
        }
    }
    fputs("tasks:\n", c.out);
    json_object_foreach(tasks, key, v)
    {
        if (!c.failed)
            task(&c, key, v, policy);
    }
    fclose(c.out);
    json_decref(root);
    if (c.failed) {
        free(yaml);
        return NULL;
    }
    return yaml;
}
