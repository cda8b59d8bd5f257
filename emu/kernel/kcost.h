/* SPDX-License-Identifier: GPL-2.0-or-later */
/* kcost.h - what kernel work costs in virtual time (docs/timing.md): a
 * table of times on a capacity-1024 vCPU at its maximum frequency, scaled
 * by the capacity and frequency of the vCPU doing the work. */
#ifndef ASYMU_KCOST_H
#define ASYMU_KCOST_H

#include <stdint.h>

#include "emu.h"

struct machine;
struct task;

#define FS_PER_NS UINT64_C(1000000)

/* The table in force: --costs, or the defaults. */
const struct emu_costs *kcost_table(const struct emu_config *cfg);
/* Charges kernel work c to t, which runs the slice: the slice's time on its
 * vCPU grows by the scaled cost, and so does t's system time. Work of a
 * task not in a slice now (killed between slices) costs nothing. Returns the
 * ns charged. */
uint64_t kcost_charge(struct task *t, enum emu_cost c);
/* The same for n pages' first touches (page_fault x n). */
uint64_t kcost_charge_n(struct task *t, enum emu_cost c, uint64_t n);

#endif
