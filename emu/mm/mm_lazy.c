/* SPDX-License-Identifier: GPL-2.0-or-later */
/* mm_lazy.c - lazy engine regions for large mappings (mm_lazy.h). */
#include "mm_lazy.h"
#include "machine.h"
#include "mm.h"
#include "mm_window.h"

#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unicorn/unicorn.h>

unsigned lazy_count(const struct mm *mm)
{
    return mm->lazy ? mm->lazy->n : 0;
}

static void drop_one(struct mm *mm, unsigned i)
{
    struct lazy_chunks *l = mm->lazy;
    if (mm->uc)
        uc_mem_unmap(mm->uc, l->c[i].start, l->c[i].end - l->c[i].start);
    memmove(&l->c[i], &l->c[i + 1], (--l->n - i) * sizeof l->c[0]);
}

void lazy_drop(struct mm *mm, uint64_t lo, uint64_t hi)
{
    struct lazy_chunks *l = mm->lazy;
    for (unsigned i = 0; l && i < l->n;) {
        if (l->c[i].start < hi && lo < l->c[i].end)
            drop_one(mm, i);
        else
            i++;
    }
}

bool lazy_fault(struct mm *mm, uint64_t addr)
{
    const struct vma *v = mm_find_vma(mm, addr);
    if (!v || !v->lazy || v->prot == PROT_NONE || !mm->uc)
        return false;
    uint64_t lo = addr & ~(LAZY_CHUNK - 1), hi = lo + LAZY_CHUNK;
    if (lo < v->start)
        lo = v->start;
    if (hi > v->end || hi < lo)
        hi = v->end;
    /* Memory nobody committed (MAP_NORESERVE) becomes the host's now: its
     * first touch of each chunk asks whether the host has it to give (a
     * refusal is the guest's SIGSEGV, where Linux's OOM killer would act). */
    if (v->noreserve && host_memory_low(mm->machine, hi - lo))
        return false;
    if (!mm->lazy && !(mm->lazy = calloc(1, sizeof *mm->lazy)))
        return false;
    struct lazy_chunks *l = mm->lazy;
    lazy_drop(mm, lo, hi); /* a chunk of a VMA since merged with this one */
    if (l->n == LAZY_MAX)
        drop_one(mm, 0);
    if (mm_room_for(mm, 0, 1) < 0) /* which gives up every chunk first */
        return false;
    if (uc_mem_map_ptr(mm->uc, lo, hi - lo, (uint32_t)v->prot, v->host + (lo - v->start)) !=
        UC_ERR_OK)
        return false;
    l->c[l->n].start = lo;
    l->c[l->n].end = hi;
    l->n++;
    return true;
}

void lazy_forget(struct mm *mm)
{
    if (mm->lazy)
        mm->lazy->n = 0;
}

void lazy_free(struct mm *mm)
{
    free(mm->lazy);
    mm->lazy = NULL;
}
