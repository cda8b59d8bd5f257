/* SPDX-License-Identifier: GPL-2.0-or-later */
/* mm_window.c - engine windows (mm_window.h): many private mappings in one
 * Unicorn region, the guest's rights kept by host page protections. */
#include "mm_window.h"
#include "engine_exact.h"
#include "pagecopy.h"
#include "abi.h"
#include "engine.h"
#include "machine.h"
#include "mm.h"
#include "shmem.h"
#include "signals.h"
#include "task.h"
#include "page.h"

#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#define RESERVE_FLAGS (MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE)

/* Pages one block may touch: at most 512 instructions, two pages each. */
#define FAULT_PAGES 1024u

struct window_faults {
    unsigned n;
    uint64_t addr; /* guest address of the first fault */
    int code;      /* SEGV_MAPERR or SEGV_ACCERR */
    struct {
        uint8_t *page;
        int prot;        /* host protection to restore */
        bool gap;        /* no VMA: the page goes back to the reservation */
    } page[FAULT_PAGES];
    uint8_t saved[FAULT_PAGES][PAGE];
};

bool window_eligible(int prot, const struct shmem *shm)
{
    return !shm && !(prot & PROT_EXEC);
}

int window_host_prot(int prot)
{
    return prot == PROT_NONE ? PROT_NONE : prot == PROT_READ ? PROT_READ : PROT_READ | PROT_WRITE;
}

struct mm_window *window_of(const struct mm *mm, uint64_t addr, uint64_t end)
{
    for (struct mm_window *w = mm->windows; w && w->start < end; w = w->next)
        if (w->start <= addr && end <= w->end)
            return w;
    return NULL;
}

static void window_insert(struct mm *mm, struct mm_window *nw)
{
    struct mm_window **pp = &mm->windows;
    while (*pp && (*pp)->start < nw->start)
        pp = &(*pp)->next;
    nw->next = *pp;
    *pp = nw;
}

static int window_to_engine(struct mm *mm, const struct mm_window *w)
{
    if (!mm->uc)
        return 0;
    uc_err e = uc_mem_map_ptr(mm->uc, w->start, w->end - w->start, UC_PROT_READ | UC_PROT_WRITE,
                              w->host);
    return e == UC_ERR_OK ? 0 : engine_errno(e);
}

static void window_from_engine(struct mm *mm, const struct mm_window *w)
{
    if (mm->uc)
        uc_mem_unmap(mm->uc, w->start, w->end - w->start);
}

uint8_t *window_host_map(struct mm_window *w, uint64_t addr, uint64_t len, int prot)
{
    void *want = w->host + (addr - w->start);
    void *p = mmap(want, len, window_host_prot(prot), RESERVE_FLAGS | MAP_FIXED, -1, 0);
    return p == want ? p : NULL;
}

void window_host_release(uint8_t *host, uint64_t len)
{
    mmap(host, len, PROT_NONE, RESERVE_FLAGS | MAP_FIXED, -1, 0);
}

/* The range of [addr, end)'s chunk that a new window may take: bounded by
 * other windows, by mappings that cannot lie in one and by mappings that
 * reach out of the chunk. False when [addr, end) itself is not free of them. */
static bool window_bounds(const struct mm *mm, uint64_t addr, uint64_t end, uint64_t *lo_out,
                          uint64_t *hi_out)
{
    uint64_t lo = addr & ~(WINDOW_CHUNK - 1), hi = lo + WINDOW_CHUNK;
    if (hi > mm->limit)
        hi = mm->limit;
    if (end > hi)
        return false;
    for (const struct mm_window *w = mm->windows; w && w->start < hi; w = w->next) {
        if (w->end <= lo)
            continue;
        if (w->end <= addr)
            lo = w->end;
        else if (w->start >= end)
            hi = w->start;
        else
            return false;
    }
    for (const struct vma *v = mm_vma_from(mm, lo); v && v->start < hi; v = v->next) {
        if (v->win)
            continue;
        if (window_eligible(v->prot, v->shm) && !v->lazy && v->start >= lo && v->end <= hi)
            continue;
        if (v->end <= addr)
            lo = v->end;
        else if (v->start >= end)
            hi = v->start;
        else
            return false;
    }
    *lo_out = lo, *hi_out = hi;
    return lo < hi;
}

/* Moves the host memory of the mappings in [lo, hi) into the reservation
 * at host; on failure moves back what it moved: 0 or -ENOMEM. */
static int gather(struct mm *mm, uint64_t lo, uint64_t hi, uint8_t *host)
{
    struct vma *first = mm_vma_from(mm, lo);
    for (struct vma *v = first; v && v->start < hi; v = v->next) {
        uint8_t *to = host + (v->start - lo);
        uint64_t len = v->end - v->start;
        if (mremap(v->host, len, len, MREMAP_MAYMOVE | MREMAP_FIXED, to) != MAP_FAILED)
            continue;
        /* Not one host mapping (mremap wants one): copied instead. */
        if (mprotect(to, len, PROT_READ | PROT_WRITE) == 0) {
            copy_nonzero_pages(to, v->host, len);
            munmap(v->host, len);
            continue;
        }
        for (struct vma *u = first; u != v; u = u->next)
            mremap(host + (u->start - lo), u->end - u->start, u->end - u->start,
                       MREMAP_MAYMOVE | MREMAP_FIXED, u->host);
        return -ENOMEM;
    }
    return 0;
}

struct mm_window *window_open(struct mm *mm, uint64_t addr, uint64_t end)
{
    struct mm_window *w = window_of(mm, addr, end);
    if (w || !mm->pressure)
        return w;
    uint64_t lo, hi;
    if (!window_bounds(mm, addr, end, &lo, &hi) || mm_room_for(mm, 0, 1) < 0)
        return NULL;
    w = calloc(1, sizeof *w);
    void *host = mmap(NULL, hi - lo, PROT_NONE, RESERVE_FLAGS, -1, 0);
    if (!w || host == MAP_FAILED || gather(mm, lo, hi, host) < 0) {
        if (host != MAP_FAILED)
            munmap(host, hi - lo);
        free(w);
        return NULL;
    }
    *w = (struct mm_window){.start = lo, .end = hi, .host = host};
    for (struct vma *v = mm_vma_from(mm, lo); v && v->start < hi; v = v->next) {
        if (vma_has_region(v) && mm->uc)
            uc_mem_unmap(mm->uc, v->start, v->end - v->start);
        v->host = w->host + (v->start - lo);
        mm_vma_recount(mm, v, false);
        v->win = w;
        mm_vma_recount(mm, v, true);
        mprotect(v->host, v->end - v->start, window_host_prot(v->prot));
    }
    window_insert(mm, w);
    window_to_engine(mm, w);
    mm_merge_range(mm, lo, hi);
    return w;
}

void windows_enter_pressure(struct mm *mm)
{
    mm->pressure = true;
    struct machine *m = mm->machine;
    if (!m->window_faults)
        m->window_faults = calloc(1, sizeof *m->window_faults);
    /* Every window that makes two or more regions one. */
    uint64_t at = 0;
    for (;;) {
        const struct vma *v = mm_vma_from(mm, at);
        while (v && (v->start < at || v->win || !vma_has_region(v) ||
                     !window_eligible(v->prot, v->shm)))
            v = v->next;
        if (!v)
            return;
        uint64_t lo, hi;
        if (!window_bounds(mm, v->start, v->end, &lo, &hi)) {
            at = v->end;
            continue;
        }
        unsigned regions = 0;
        for (const struct vma *u = v; u && u->start < hi; u = u->next)
            regions += vma_has_region(u);
        struct mm_window *w = regions >= 2 ? window_open(mm, v->start, v->end) : NULL;
        at = w ? w->end : hi;
    }
}

/* Unmaps the host pages of [lo, hi) of a window that no VMA holds. */
static void release_gaps(const struct mm *mm, const struct mm_window *w, uint64_t lo, uint64_t hi)
{
    uint64_t p = lo;
    for (const struct vma *v = mm_vma_from(mm, lo); v && v->start < hi; v = v->next) {
        if (v->start > p)
            munmap(w->host + (p - w->start), v->start - p);
        p = v->end;
    }
    if (hi > p)
        munmap(w->host + (p - w->start), hi - p);
}

/* v leaves its window: host read-write as outside windows (its region
 * comes after). */
static void unwindow(struct mm *mm, struct vma *v)
{
    mm_vma_recount(mm, v, false);
    v->win = NULL;
    mm_vma_recount(mm, v, true);
    mprotect(v->host, v->end - v->start, PROT_READ | PROT_WRITE);
}

int window_carve(struct mm *mm, uint64_t addr, uint64_t end)
{
    struct mm_window **link = &mm->windows;
    while (*link && (*link)->start < end) {
        struct mm_window *w = *link;
        if (w->end <= addr) {
            link = &w->next;
            continue;
        }
        uint64_t lo = addr > w->start ? addr : w->start, hi = end < w->end ? end : w->end;
        int err = mm_split_at(mm, lo);
        if (!err)
            err = mm_split_at(mm, hi);
        int regions = (lo > w->start) + (hi < w->end) - 1;
        for (const struct vma *v = mm_vma_from(mm, lo); v && v->start < hi; v = v->next)
            regions += v->prot != PROT_NONE;
        if (!err)
            err = mm_room_for(mm, 0, regions);
        if (err)
            return err;
        window_from_engine(mm, w);
        for (struct vma *v = mm_vma_from(mm, lo); v && v->start < hi; v = v->next)
            unwindow(mm, v);
        release_gaps(mm, w, lo, hi);
        struct mm_window *upper = NULL;
        if (hi < w->end && (upper = calloc(1, sizeof *upper))) {
            *upper = (struct mm_window){.start = hi, .end = w->end, .host = w->host + (hi - w->start)};
            for (struct vma *v = mm_vma_from(mm, hi); v && v->start < upper->end; v = v->next)
                v->win = upper; /* counts unchanged */
        } else if (hi < w->end) {
            /* No memory for the part above: its mappings get regions too. */
            release_gaps(mm, w, hi, w->end);
            for (struct vma *v = mm_vma_from(mm, hi); v && v->start < w->end; v = v->next)
                unwindow(mm, v);
        }
        uint64_t unwindowed_end = upper ? hi : w->end;
        if (lo > w->start) {
            w->end = lo;
            window_to_engine(mm, w);
            link = &w->next;
        } else {
            *link = w->next;
            free(w);
        }
        if (upper) {
            window_insert(mm, upper);
            window_to_engine(mm, upper);
        }
        for (struct vma *v = mm_vma_from(mm, lo); v && v->start < unwindowed_end; v = v->next)
            if ((err = vma_to_engine(mm, v)) < 0)
                return err;
    }
    return 0;
}

int windows_to_engine(struct mm *mm)
{
    for (const struct mm_window *w = mm->windows; w; w = w->next) {
        int err = window_to_engine(mm, w);
        if (err)
            return err;
    }
    return 0;
}

int windows_copy(struct mm *dst, const struct mm *src)
{
    dst->pressure = src->pressure;
    for (const struct mm_window *s = src->windows; s; s = s->next) {
        struct mm_window *w = calloc(1, sizeof *w);
        void *host = mmap(NULL, s->end - s->start, PROT_NONE, RESERVE_FLAGS, -1, 0);
        if (!w || host == MAP_FAILED) {
            free(w);
            return -ENOMEM;
        }
        *w = (struct mm_window){.start = s->start, .end = s->end, .host = host};
        window_insert(dst, w);
        int err = window_to_engine(dst, w);
        if (err)
            return err;
    }
    return 0;
}

void windows_free(struct mm *mm)
{
    while (mm->windows) {
        struct mm_window *w = mm->windows;
        mm->windows = w->next;
        munmap(w->host, w->end - w->start);
        free(w);
    }
}

/* Whether v's host memory forbids writes (a windowed PROT_NONE or
 * read-only mapping). */
static bool vma_host_guarded(const struct vma *v)
{
    return v->win && !(window_host_prot(v->prot) & PROT_WRITE);
}

void mm_host_writable(struct mm *mm, uint64_t addr, uint64_t len, bool on)
{
    for (const struct vma *v = mm_vma_from(mm, addr); v && v->start < addr + len; v = v->next) {
        int prot = window_host_prot(v->prot);
        if (!vma_host_guarded(v))
            continue;
        uint64_t lo = addr > v->start ? addr : v->start;
        uint64_t hi = addr + len < v->end ? addr + len : v->end;
        mprotect(v->host + (lo - v->start), hi - lo, on ? PROT_READ | PROT_WRITE : prot);
    }
}

/* ---- guest faults inside windows ---- */

bool window_fault_recover(struct machine *m, void *host_addr, uintptr_t host_pc)
{
    struct window_faults *f = m ? m->window_faults : NULL;
    struct task *t = m ? m->current : NULL;
    if (!f || !t || !m->running_uc || f->n == FAULT_PAGES)
        return false;
    struct mm *mm = task_mm(t);
    uint8_t *a = host_addr;
    for (const struct mm_window *w = mm->windows; w; w = w->next) {
        if (a < w->host || a >= w->host + (w->end - w->start))
            continue;
        uint8_t *page = (uint8_t *)((uintptr_t)a & ~(uintptr_t)(PAGE - 1));
        uint64_t guest = w->start + (uint64_t)(a - w->host);
        const struct vma *v = mm_find_vma(mm, guest);
        int prot = v ? window_host_prot(v->prot) : PROT_NONE;
        if (prot & PROT_WRITE)
            return false; /* not a page the windows protect */
        if (f->n == 0) {
            f->addr = guest;
            f->code = v ? SEGV_ACCERR : SEGV_MAPERR;
            /* Nothing to restore: the access does not happen. */
            f->page[0].page = NULL;
            f->n = 1;
            engine_exact_abort(m->running_uc, task_abi(t), SIGSEGV, host_pc);
            f->n = 0;
        }
        unsigned i = f->n++;
        f->page[i].page = page;
        f->page[i].prot = prot;
        f->page[i].gap = !v;
        if (v && mprotect(page, PAGE, PROT_READ) == 0)
            memcpy(f->saved[i], page, PAGE);
        mprotect(page, PAGE, PROT_READ | PROT_WRITE);
        uc_emu_stop(m->running_uc);
        return true;
    }
    return false;
}

bool window_fault_pending(const struct machine *m)
{
    return m->window_faults && m->window_faults->n;
}

void window_fault_deliver(struct machine *m, struct task *t)
{
    struct window_faults *f = m->window_faults;
    for (unsigned i = 0; i < f->n; i++) {
        if (!f->page[i].page)
            continue; /* an exact fault (window_fault_recover) */
        if (f->page[i].gap) {
            window_host_release(f->page[i].page, PAGE);
            continue;
        }
        memcpy(f->page[i].page, f->saved[i], PAGE);
        mprotect(f->page[i].page, PAGE, f->page[i].prot);
    }
    f->n = 0;
    signal_fault_code(t, SIGSEGV, f->code, task_abi(t)->get_pc(task_mm(t)->uc), f->addr,
                      f->code == SEGV_ACCERR ? "access to a protected page"
                                             : "access to unmapped memory");
}

void window_faults_free(struct machine *m)
{
    free(m->window_faults);
    m->window_faults = NULL;
}
