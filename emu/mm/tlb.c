/* SPDX-License-Identifier: GPL-2.0-or-later */
/* tlb.c - lets Unicorn's soft TLB grow to a task's working set.
 *
 * Unicorn 2.1 (QEMU 5's cputlb) sizes its dynamic TLB only inside a flush,
 * doubling it when more than 70% of the entries were in use since the last
 * flush. Nothing flushes an engine that only runs user code, so it keeps 256
 * entries and a working set of a few MiB refills the TLB on every page
 * (bench/README.md, issue 14: the 4 MiB store loop 3x qemu-user's time).
 * Flushing after compute-bound slices lets it double each time: every such
 * slice up to 8 (256 -> 64 Ki entries) and then at powers of two, so a
 * long-running task can still grow rarely, while the flushes' cost (a TLB
 * refill, a reset of the jump cache) stays logarithmic in the run.
 *
 * Nothing the guest sees changes: a flush drops cached translations of
 * addresses, not translated code, and the block boundaries (virtual time)
 * do not depend on the TLB. */
#include "tlb.h"

#include <unicorn/unicorn.h>

/* Slices flushed after unconditionally, before powers of two only. */
#define TLB_EARLY_FLUSHES 8u

void tlb_after_slice(struct tlb_growth *g, uc_engine *uc, bool used_whole_budget)
{
    if (g->uc != uc) {
        g->uc = uc;
        g->full_slices = 0;
    }
    if (!used_whole_budget || !uc)
        return;
    unsigned n = ++g->full_slices;
    if (n <= TLB_EARLY_FLUSHES || (n & (n - 1)) == 0)
        uc_ctl_flush_tlb(uc);
}
