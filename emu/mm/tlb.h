/* SPDX-License-Identifier: GPL-2.0-or-later */
/* tlb.h - growing Unicorn's soft TLB to a task's working set (tlb.c). */
#ifndef ASYMU_TLB_H
#define ASYMU_TLB_H

#include <stdbool.h>

#include "uc_fwd.h"

/* Per engine: how many slices of its tasks ran to the end of their budget. */
struct tlb_growth {
    uc_engine *uc;         /* the engine counted; another one starts over */
    unsigned full_slices;
};

/* After a slice on engine uc: a slice that used its whole budget (compute
 * bound) may flush the TLB, the only point where Unicorn resizes it. */
void tlb_after_slice(struct tlb_growth *g, uc_engine *uc, bool used_whole_budget);

#endif
