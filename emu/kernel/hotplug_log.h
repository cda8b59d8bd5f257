/* SPDX-License-Identifier: GPL-2.0-or-later */
/* hotplug_log.h - the platform's kernel log lines when a vCPU goes offline
 * or comes back (spec section 6), the same in Linux 5.15 and 6.6. */
#ifndef ASYMU_HOTPLUG_LOG_H
#define ASYMU_HOTPLUG_LOG_H

#include <stdbool.h>
#include <stdint.h>

#include <stdint.h>

#include "klog.h"

/* After cpu went offline. */
void hotplug_log_offline(struct klog *log, uint64_t now, unsigned cpu);
/* After cpu came online; midr is its MIDR_EL1 (cpu_layout_midr()). */
void hotplug_log_online(struct klog *log, uint64_t now, unsigned cpu, uint32_t midr);

#endif
