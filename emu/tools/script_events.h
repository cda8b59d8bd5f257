/* SPDX-License-Identifier: GPL-2.0-or-later */
/* script_events.h - what a script (script.h) takes from the machine's
 * event stream: each task's history (vCPUs used, affinity changes with
 * their rule, the saved mask after each execve) and the triggers of its
 * actions (`on: exec of NAME`, `on: exit of NAME`, `on: syscall S by NAME`). */
#ifndef ASYMU_SCRIPT_EVENTS_H
#define ASYMU_SCRIPT_EVENTS_H

#include <stddef.h>
#include <stdint.h>

struct machine;
struct machine_script;

/* Subscribes the recorder and the trigger matchers, before the first task
 * starts: 0, or a negative errno. */
int script_events_start(struct machine *m, struct machine_script *s);
/* script_events_free, which the scenario runner calls, is in script.h. */

/* script.c's: arms action i to happen at virtual time `at` (its trigger's
 * event happened then; the machine loop fires it at the next slice
 * boundary, with no task loaded). */
void script__arm_action(struct machine *m, size_t i, uint64_t at);

#endif
