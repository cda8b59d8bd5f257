/* SPDX-License-Identifier: GPL-2.0-or-later */
/* mm.c - a guest address space: VMAs backed by host memory that the kernel
 * layer owns and hands to Unicorn with uc_mem_map_ptr. Every change (map,
 * unmap, protect) is done here on the VMA list (and its index) and mirrored
 * into the engine region by region, so a Unicorn region is exactly one VMA,
 * except that PROT_NONE VMAs have no region (an access there faults as it
 * would on unmapped memory, which is all PROT_NONE means) and that under
 * pressure many VMAs share an engine window (mm_window.h). A VMA's host memory is
 * private anonymous memory, or for MAP_SHARED a host mapping of a shared
 * memory object (shmem.c). The engine itself may be parked while no task
 * of the address space runs (mm_engine_acquire). */
#include "abi.h"
#include "aio.h"
#include "emu.h"
#include "engine.h"
#include "hostblock.h"
#include "machine.h"
#include "mm.h"
#include "mm_lazy.h"
#include "mm_window.h"
#include "pagecopy.h"
#include "shmem.h"
#include "task.h"
#include "page.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

/* Unicorn (2.1, both ISAs) keeps every region of an engine as one section
 * of a table with TARGET_PAGE_SIZE (1 KiB pages on Arm: 1024) slots, one of
 * them its own: the 1024th region kills the host with "phys_section_add:
 * Assertion `map->sections_nb < TARGET_PAGE_SIZE' failed". Measured with
 * mprotect splits of one mapping: 1023 regions work, the next aborts, on
 * aarch64 and on arm. Like Linux's vm.max_map_count (65530, which
 * /proc/sys/vm/max_map_count shows), a change that would need more regions
 * than MM_MAX_REGIONS (23 below the abort) or more VMAs than MM_MAX_VMAS
 * fails with ENOMEM before the engine sees it. PROT_NONE VMAs need no
 * region, nor do windowed ones, but each VMA is a host mapping of asymu's,
 * and the host bounds those at its own vm.max_map_count (65530) for asymu
 * and every engine together: hence fewer than 65530 per process. */
#define MM_MAX_REGIONS 1000u
#define MM_MAX_VMAS 30000u
/* Every so many bytes mapped, the host's free memory is checked. */
#define HOST_CHECK_MIN (16u << 20)

struct mm *mm_new(const struct abi *abi, struct machine *m, int *err)
{
    struct mm *mm = calloc(1, sizeof *mm);
    if (!mm) {
        *err = -ENOMEM;
        return NULL;
    }
    mm->refs = 1;
    mm->machine = m;
    mm->abi = abi;
    mm->limit = abi->limit;
    mm->mmap_base = abi->mmap_base;
    mm->max_total = m->cfg->max_mem ? m->cfg->max_mem : abi->default_max_mem;
    mm->max_as = UINT64_MAX;
    if ((*err = mm_engine_acquire(mm)) < 0) {
        free(mm);
        return NULL;
    }
    return mm;
}

/* ---- engines: open while their address space runs, parked beyond
 * --warm-engines. A parked address space keeps everything of its own (its
 * VMAs and their host memory, its tasks' registers in their contexts); its
 * engine held only translated code, the soft TLB and the regions, which a
 * new engine rebuilds. About 2 MB of host memory each (bench/README.md). */

#define WARM_ENGINES_DEFAULT 64u

static void lru_unlink(struct mm *mm)
{
    struct machine *m = mm->machine;
    if (mm->lru_prev)
        mm->lru_prev->lru_next = mm->lru_next;
    else
        m->engines_lru = mm->lru_next;
    if (mm->lru_next)
        mm->lru_next->lru_prev = mm->lru_prev;
    mm->lru_prev = mm->lru_next = NULL;
}

static void lru_push(struct mm *mm)
{
    struct machine *m = mm->machine;
    mm->lru_prev = NULL;
    mm->lru_next = m->engines_lru;
    if (m->engines_lru)
        m->engines_lru->lru_prev = mm;
    m->engines_lru = mm;
}

/* Closes mm's engine, its loaded task's registers saved first. */
static void engine_park(struct mm *mm)
{
    if (mm->loaded)
        uc_context_save(mm->uc, mm->loaded->ctx);
    mm->loaded = NULL;
    lazy_forget(mm);
    engine_close(mm->uc);
    mm->uc = NULL;
    lru_unlink(mm);
    mm->machine->engines_open--;
}

void mm_engines_trim(struct machine *m, struct mm *keep)
{
    unsigned warm = m->cfg->warm_engines ? m->cfg->warm_engines : WARM_ENGINES_DEFAULT;
    if (m->engines_open <= warm)
        return;
    struct mm *o = m->engines_lru;
    while (o->lru_next)
        o = o->lru_next; /* the least recently run */
    while (m->engines_open > warm && o) {
        struct mm *newer = o->lru_prev;
        if (o != keep)
            engine_park(o);
        o = newer;
    }
}

void mm_engines_park_all(struct machine *m)
{
    while (m->engines_lru)
        engine_park(m->engines_lru);
}

int mm_engine_acquire(struct mm *mm)
{
    struct machine *m = mm->machine;
    if (mm->uc) {
        if (m->engines_lru != mm) {
            lru_unlink(mm);
            lru_push(mm);
        }
        return 0;
    }
    int err = engine_open(mm->abi, m, &mm->uc);
    if (!err)
        err = windows_to_engine(mm);
    for (struct vma *v = mm->vmas; !err && v; v = v->next)
        err = vma_to_engine(mm, v);
    if (err) {
        if (mm->uc)
            engine_close(mm->uc);
        mm->uc = NULL;
        return err;
    }
    lru_push(mm);
    m->engines_open++;
    return 0;
}

static void origin_set(struct vma *v, const struct vma_origin *o, uint64_t pgoff)
{
    free((char *)v->origin.path);
    v->origin = (struct vma_origin){0};
    if (o && (o->path || o->shared_ro)) {
        v->origin = *o;
        v->origin.path = o->path ? strdup(o->path) : NULL;
        v->origin.pgoff = pgoff;
    }
}

/* A piece split off from v keeps its file, further into it. */
static void origin_split(const struct vma *v, struct vma *piece)
{
    origin_set(piece, &v->origin, v->origin.pgoff + (piece->start - v->start));
}

/* Returns [host, host+len) of v's host memory to the host, or keeps
 * private memory for the next mapping (hostblock.h). */
static void host_release(struct mm *mm, const struct vma *v, uint8_t *host, uint64_t len)
{
    if (v->shm)
        shmem_unmap_host(host, len);
    else if (v->win)
        window_host_release(host, len);
    else
        host_block_release(mm->machine, host, len);
}

/* Frees v's bookkeeping (not its host memory). */
static void vma_drop(struct vma *v)
{
    shmem_put(v->shm);
    free((char *)v->origin.path);
    free(v);
}

static void vma_free(struct mm *mm, struct vma *v)
{
    host_release(mm, v, v->host, v->end - v->start);
    vma_drop(v);
}

void mm_free(struct mm *mm)
{
    aio_mm_free(mm); /* exit_aio(): before the ring's mapping goes */
    for (struct vma *v = mm->vmas, *next; v; v = next) {
        next = v->next;
        if (v->win)
            vma_drop(v); /* its memory goes with its window's */
        else
            vma_free(mm, v);
    }
    windows_free(mm);
    lazy_free(mm);
    free(mm->index);
    if (mm->machine->insn_cache == mm->insn_cache)
        mm->machine->insn_cache = NULL;
    free(mm->insn_cache);
    if (mm->uc) {
        engine_close(mm->uc);
        lru_unlink(mm);
        mm->machine->engines_open--;
    }
    free(mm);
}

void mm_put(struct mm *mm)
{
    if (!mm || --mm->refs > 0)
        return;
    struct machine *m = mm->machine;
    if (m->running_uc == mm->uc) {
        mm->next_deferred = m->deferred_mms;
        m->deferred_mms = mm;
        return;
    }
    mm_free(mm);
}

static int map_range(struct mm *mm, uint64_t addr, uint64_t len, int prot,
                     const struct vma_origin *origin, struct shmem *shm, uint64_t shm_off,
                     unsigned fork, bool noreserve);

/* Shared mappings stay shared with the child; private ones are copied. */
struct mm *mm_copy(struct mm *src, int *err)
{
    struct mm *mm = mm_new(src->abi, src->machine, err);
    if (!mm)
        return NULL;
    mm->limit = src->limit;
    mm->mmap_base = src->mmap_base;
    mm->max_total = src->max_total;
    mm->max_as = src->max_as;
    mm->brk_start = src->brk_start;
    mm->brk = src->brk;
    mm->arg_start = src->arg_start;
    mm->arg_end = src->arg_end;
    mm->auxv_start = src->auxv_start;
    mm->auxv_end = src->auxv_end;
    mm->env_start = src->env_start;
    mm->env_end = src->env_end;
    if ((*err = windows_copy(mm, src)) < 0) {
        mm_free(mm);
        return NULL;
    }
    for (const struct vma *v = src->vmas; v; v = v->next) {
        if (v->fork & VMA_DONTFORK)
            continue;
        bool wipe = v->fork & VMA_WIPEONFORK;
        struct shmem *shm = wipe ? NULL : v->shm;
        *err = map_range(mm, v->start, v->end - v->start, v->prot, &v->origin, shm, v->shm_off,
                         v->fork & ~VMA_LOCKED, v->noreserve);
        if (*err < 0) {
            mm_free(mm);
            return NULL;
        }
        if (!shm && !wipe) {
            uint64_t len = v->end - v->start;
            uint8_t *to = mm_host_ptr(mm, v->start, len, 0);
            /* Either side may lie in a window (the child's pressure mode
             * may have opened one where the parent has none). */
            mm_host_writable(src, v->start, len, true);
            mm_host_writable(mm, v->start, len, true);
            copy_nonzero_pages(to, v->host, len);
            mm_host_writable(src, v->start, len, false);
            mm_host_writable(mm, v->start, len, false);
        }
    }
    return mm;
}

/* ---- the index: the VMA list as an array, for lookups in O(log n) with
 * thousands of mappings (a thread's stack and guard each) ---- */

/* The position of the first VMA ending after addr (nr_vmas if none). */
static size_t index_from(const struct mm *mm, uint64_t addr)
{
    size_t lo = 0, hi = mm->nr_vmas;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (mm->index[mid]->end > addr)
            hi = mid;
        else
            lo = mid + 1;
    }
    return lo;
}

/* v has just been linked into the list. */
static void index_add(struct mm *mm, struct vma *v)
{
    mm->nr_regions += vma_has_region(v);
    if (mm->index_lost) {
        mm->nr_vmas++;
        return;
    }
    if (mm->nr_vmas == mm->index_cap) {
        size_t cap = mm->index_cap ? mm->index_cap * 2 : 64;
        struct vma **index = realloc(mm->index, cap * sizeof *index);
        if (!index) {
            free(mm->index);
            mm->index = NULL;
            mm->index_lost = true;
            mm->nr_vmas++;
            return;
        }
        mm->index = index, mm->index_cap = cap;
    }
    size_t i = index_from(mm, v->start);
    memmove(&mm->index[i + 1], &mm->index[i], (mm->nr_vmas - i) * sizeof *mm->index);
    mm->index[i] = v;
    mm->nr_vmas++;
}

/* v is about to leave the list. */
static void index_del(struct mm *mm, const struct vma *v)
{
    mm->nr_regions -= vma_has_region(v);
    mm->nr_vmas--;
    if (mm->index_lost)
        return;
    size_t i = index_from(mm, v->start);
    memmove(&mm->index[i], &mm->index[i + 1], (mm->nr_vmas - i) * sizeof *mm->index);
}

void mm_vma_recount(struct mm *mm, const struct vma *v, bool counted)
{
    if (counted)
        mm->nr_regions += vma_has_region(v);
    else
        mm->nr_regions -= vma_has_region(v);
}

struct vma *mm_vma_from(const struct mm *mm, uint64_t addr)
{
    if (!mm->index_lost) {
        size_t i = index_from(mm, addr);
        return i < mm->nr_vmas ? mm->index[i] : NULL;
    }
    struct vma *v = mm->vmas;
    while (v && v->end <= addr)
        v = v->next;
    return v;
}

/* The link that points at mm_vma_from(mm, addr). */
static struct vma **link_from(struct mm *mm, uint64_t addr)
{
    if (!mm->index_lost) {
        size_t i = index_from(mm, addr);
        return i ? &mm->index[i - 1]->next : &mm->vmas;
    }
    struct vma **link = &mm->vmas;
    while (*link && (*link)->end <= addr)
        link = &(*link)->next;
    return link;
}

const struct vma *mm_find_vma(const struct mm *mm, uint64_t addr)
{
    const struct vma *v = mm_vma_from(mm, addr);
    return v && v->start <= addr ? v : NULL;
}

static bool accessible(const struct vma *v)
{
    return v->prot != PROT_NONE;
}

/* Whether v is an engine region of its own: PROT_NONE ones have none (an
 * access faults as on unmapped memory), windowed ones share their window's,
 * lazy ones get chunks when touched (mm_lazy.h). */
bool vma_has_region(const struct vma *v)
{
    return accessible(v) && !v->win && !v->lazy;
}

static bool is_file_shared(const struct vma *v)
{
    return v->shm && v->origin.path;
}

/* Whether a mapping's bytes are committed, the memory --max-mem bounds
 * (Linux's Committed_AS, mm/mmap.c accountable_mapping): private writable
 * memory, unless MAP_NORESERVE (VM_NORESERVE) or PROT_NONE, and shared
 * anonymous memory (shmem accounts it). Unlike Linux, a private copy of a
 * file's bytes counts even read-only: asymu copies the bytes in at mmap,
 * host memory at once. Not a file's own pages (a shared file mapping: the
 * host's page cache, which the file's size bounds, MM_SHARED_FACTOR).
 * Private anonymous memory that is read-only or PROT_NONE costs nothing
 * until it is made writable, when mprotect commits it. */
static bool commits(int prot, bool shm, const char *path, bool noreserve)
{
    if (prot == PROT_NONE)
        return false;
    if (shm)
        return !path;
    return path || ((prot & PROT_WRITE) && !noreserve);
}

static uint64_t usable_bytes(const struct vma *v, uint64_t n)
{
    return commits(v->prot, v->shm, v->origin.path, v->noreserve) ? n : 0;
}

/* What those shared file mappings may add up to in one address space, as a
 * multiple of --max-mem (64 GiB by default). Linux has no such bound, but
 * Unicorn removes a region page by page, about 0.2 s per GiB (measured on
 * 2.1.1): a guest that mapped terabytes of a sparse file or a SysV segment
 * would stall every task for minutes when it unmapped them. */
#define MM_SHARED_FACTOR 16

static uint64_t shared_bytes(const struct vma *v, uint64_t n)
{
    return accessible(v) && is_file_shared(v) ? n : 0;
}

int vma_to_engine(struct mm *mm, struct vma *v)
{
    if (!vma_has_region(v))
        return 0;
    uc_err e = uc_mem_map_ptr(mm->uc, v->start, v->end - v->start, (uint32_t)v->prot, v->host);
    return e == UC_ERR_OK ? 0 : engine_errno(e);
}

/* nv overlaps no VMA of mm. */
static void vma_insert(struct mm *mm, struct vma *nv)
{
    struct vma **pp = link_from(mm, nv->start);
    nv->next = *pp;
    *pp = nv;
    index_add(mm, nv);
}

static struct vma *vma_new(uint64_t start, uint64_t end, int prot, uint8_t *host)
{
    struct vma *v = calloc(1, sizeof *v);
    if (v) {
        v->start = start;
        v->end = end;
        v->prot = prot;
        v->host = host;
    }
    return v;
}

/* The part of v from at on, as a VMA of its own (v is not changed). */
static struct vma *vma_tail(const struct vma *v, uint64_t at)
{
    struct vma *tail = vma_new(at, v->end, v->prot, v->host + (at - v->start));
    if (tail) {
        origin_split(v, tail);
        tail->fork = v->fork;
        tail->win = v->win;
        tail->noreserve = v->noreserve;
        tail->lazy = v->lazy;
        if (v->shm) {
            tail->shm = shmem_get(v->shm);
            tail->shm_off = v->shm_off + (at - v->start);
        }
    }
    return tail;
}

/* Whether the address space may grow by more_vmas VMAs of which
 * more_regions need engine regions: 0 or -ENOMEM (see MM_MAX_REGIONS). */
unsigned mm_region_count(const struct mm *mm)
{
    unsigned regions = mm->nr_regions;
    for (const struct mm_window *w = mm->windows; w; w = w->next)
        regions++;
    return regions;
}

int mm_room_for(struct mm *mm, int more_vmas, int more_regions)
{
    long vmas = (long)mm->nr_vmas + more_vmas;
    long regions = (long)mm_region_count(mm) + more_regions;
    /* Lazy chunks are regions too, but a cache: given up for others. */
    if (regions + lazy_count(mm) > (long)MM_MAX_REGIONS)
        lazy_drop(mm, 0, UINT64_MAX);
    return vmas > (long)MM_MAX_VMAS || regions > (long)MM_MAX_REGIONS ? -ENOMEM : 0;
}

/* Enough regions to need windows (mm_window.h): from now on, mappings that
 * may lie in windows go into them. */
static void check_pressure(struct mm *mm)
{
    if (!mm->pressure && mm_region_count(mm) >= WINDOW_PRESSURE)
        windows_enter_pressure(mm);
}

/* Cuts [lo, hi) out of v (which overlaps it): re-registers the parts of v
 * outside the range with the engine and returns the host memory of the part
 * inside it to the host. */
static int vma_cut(struct mm *mm, struct vma **link, uint64_t lo, uint64_t hi)
{
    struct vma *v = *link;
    uint64_t cut_lo = lo > v->start ? lo : v->start;
    uint64_t cut_hi = hi < v->end ? hi : v->end;
    /* A hole in the middle leaves two pieces where there was one. */
    if (cut_lo > v->start && cut_hi < v->end && mm_room_for(mm, 1, vma_has_region(v)) < 0)
        return -ENOMEM;
    struct vma *tail = NULL;
    if (cut_hi < v->end && !(tail = vma_tail(v, cut_hi)))
        return -ENOMEM;
    if (vma_has_region(v))
        uc_mem_unmap(mm->uc, v->start, v->end - v->start);
    if (vma_has_region(v) && (v->prot & PROT_EXEC))
        uc_ctl_remove_cache(mm->uc, v->start, v->end);
    if (v->lazy)
        lazy_drop(mm, cut_lo, cut_hi);
    host_release(mm, v, v->host + (cut_lo - v->start), cut_hi - cut_lo);
    mm->total -= cut_hi - cut_lo;
    mm->usable -= usable_bytes(v, cut_hi - cut_lo);
    mm->shared -= shared_bytes(v, cut_hi - cut_lo);
    index_del(mm, v);
    bool keep_head = cut_lo > v->start;
    if (keep_head) {
        v->end = cut_lo;
        index_add(mm, v);
    }
    int err = 0;
    if (tail) {
        tail->next = v->next;
        v->next = tail;
        index_add(mm, tail);
        err = vma_to_engine(mm, tail);
    }
    if (keep_head) {
        int e2 = vma_to_engine(mm, v);
        return err ? err : e2;
    }
    *link = v->next;
    vma_drop(v);
    return err;
}

int mm_unmap(struct mm *mm, uint64_t addr, uint64_t len)
{
    if (addr % PAGE || len == 0)
        return -EINVAL;
    uint64_t end = addr + PAGE_UP(len);
    if (end < addr)
        return -EINVAL;
    struct vma **link = link_from(mm, addr);
    while (*link && (*link)->start < end) {
        struct vma *v = *link;
        if (v->end <= addr) {
            link = &v->next;
            continue;
        }
        int err = vma_cut(mm, link, addr, end);
        if (err)
            return err;
        if (*link == v) /* v kept its head part */
            link = &v->next;
    }
    return 0;
}

/* Host memory for guest [addr, addr+len): placed right after or before a
 * neighbour's host memory when that is free, so the two can become one
 * engine region (top-down mmap and brk growth make neighbours); else kept
 * memory of an ended mapping (hostblock.h); else new memory. */
static uint8_t *host_alloc(struct machine *m, const struct vma *prev, const struct vma *next,
                           uint64_t len)
{
    static const int flags = MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE;
    uint8_t *hints[2] = {prev ? prev->host + (prev->end - prev->start) : NULL,
                         next ? next->host - len : NULL};
    for (int i = 0; i < 2; i++) {
        if (!hints[i])
            continue;
        void *p = mmap(hints[i], len, PROT_READ | PROT_WRITE, flags | MAP_FIXED_NOREPLACE, -1, 0);
        if (p == hints[i])
            return p;
        if (p != MAP_FAILED)
            munmap(p, len);
    }
    uint8_t *kept = host_block_take(m, len);
    if (kept)
        return kept;
    void *p = mmap(NULL, len, PROT_READ | PROT_WRITE, flags, -1, 0);
    return p == MAP_FAILED ? NULL : p;
}

/* Joins b (just after a, host memory contiguous, same rights) into a. */
static void vma_merge(struct mm *mm, struct vma *a, struct vma *b)
{
    index_del(mm, b);
    if (vma_has_region(a))
        uc_mem_unmap(mm->uc, a->start, a->end - a->start);
    if (vma_has_region(b))
        uc_mem_unmap(mm->uc, b->start, b->end - b->start);
    a->end = b->end;
    a->next = b->next;
    free((char *)b->origin.path);
    free(b);
}

/* Regions stop growing at this size: re-registering a region with the
 * engine costs in proportion to its size, so unbounded merging would make a
 * run of small mappings quadratic; bounded, it still keeps regions few. */
#define MERGE_MAX (64u << 20)

static bool same_origin(const struct vma *a, const struct vma *b)
{
    if (a->origin.shared_ro != b->origin.shared_ro)
        return false;
    if (!a->origin.path || !b->origin.path)
        return !a->origin.path && !b->origin.path;
    return strcmp(a->origin.path, b->origin.path) == 0 && a->origin.ino == b->origin.ino &&
           a->origin.dev == b->origin.dev &&
           b->origin.pgoff == a->origin.pgoff + (a->end - a->start);
}

/* Shared mappings are never joined: each is a host mapping of its own. */
static bool mergeable(const struct vma *a, const struct vma *b)
{
    return a && b && !a->shm && !b->shm && a->win == b->win && a->fork == b->fork &&
           a->end == b->start && a->prot == b->prot && a->lazy == b->lazy &&
           a->noreserve == b->noreserve && a->host + (a->end - a->start) == b->host &&
           (a->lazy || b->end - a->start <= MERGE_MAX) && same_origin(a, b);
}

int mm_map_fixed(struct mm *mm, uint64_t addr, uint64_t len, int prot)
{
    return map_range(mm, addr, len, prot, NULL, NULL, 0, 0, false);
}

int mm_map_origin(struct mm *mm, uint64_t addr, uint64_t len, int prot,
                  const struct vma_origin *origin)
{
    return map_range(mm, addr, len, prot, origin, NULL, 0, 0, false);
}

int mm_map_private(struct mm *mm, uint64_t addr, uint64_t len, int prot,
                   const struct vma_origin *origin, bool noreserve)
{
    return map_range(mm, addr, len, prot, origin, NULL, 0, 0, noreserve);
}

int mm_map_shared(struct mm *mm, uint64_t addr, uint64_t len, int prot,
                  const struct vma_origin *origin, struct shmem *shm, uint64_t off)
{
    return map_range(mm, addr, len, prot, origin, shm, off, 0, false);
}

/* What mapping [addr, end) afresh adds to the address space: the VMAs and
 * regions (the new one, and pieces of the ones it cuts) and the bytes it
 * replaces (which it then no longer counts). */
static void map_cost(const struct mm *mm, uint64_t addr, uint64_t end, int prot, bool windowed,
                     int *more_vmas, int *more_regions, uint64_t *old_total,
                     uint64_t *old_usable, uint64_t *old_shared)
{
    *more_vmas = 1, *more_regions = prot != PROT_NONE && !windowed;
    *old_total = *old_usable = *old_shared = 0;
    for (const struct vma *v = mm_vma_from(mm, addr); v && v->start < end; v = v->next) {
        if (v->end <= addr)
            continue;
        uint64_t lo = addr > v->start ? addr : v->start, hi = end < v->end ? end : v->end;
        int pieces = (addr > v->start) + (end < v->end);
        *more_vmas += pieces - 1;
        *more_regions += (pieces - 1) * vma_has_region(v);
        *old_total += hi - lo;
        *old_usable += usable_bytes(v, hi - lo);
        *old_shared += shared_bytes(v, hi - lo);
    }
}

/* Maps [addr, addr+len) afresh: private zeroed memory, or shm from shm_off.
 * Every limit is checked before the old mappings of the range go, so a
 * failing MAP_FIXED leaves them as they were, as on Linux. */
static int map_range(struct mm *mm, uint64_t addr, uint64_t len, int prot,
                     const struct vma_origin *origin, struct shmem *shm, uint64_t shm_off,
                     unsigned fork, bool noreserve)
{
    len = PAGE_UP(len);
    if (addr % PAGE || len == 0 || addr + len < addr)
        return -EINVAL;
    /* Where the mapping goes in the engine: its window, else its own region
     * (then no window may hold [addr, addr+len) any more). */
    check_pressure(mm);
    /* MAP_NORESERVE memory stays out of windows: lazy, its touches are
     * seen (mm_lazy.h). */
    noreserve = noreserve && !shm;
    struct mm_window *win =
        window_eligible(prot, shm) && !noreserve ? window_open(mm, addr, addr + len) : NULL;
    int err = win ? 0 : window_carve(mm, addr, addr + len);
    if (err)
        return err;
    int more_vmas, more_regions;
    uint64_t old_total, old_usable, old_shared;
    map_cost(mm, addr, addr + len, prot, win, &more_vmas, &more_regions, &old_total, &old_usable,
             &old_shared);
    /* Reservations (PROT_NONE: glibc's 64 MiB malloc arenas, thread stack
     * guards, a JVM's heap; MAP_NORESERVE: ASan's shadow) cost nothing
     * until touched: --max-mem counts only committed bytes (commits()),
     * RLIMIT_AS every byte, as Linux's do. Linux's heuristic overcommit
     * (mm/util.c __vm_enough_memory, OVERCOMMIT_GUESS) refuses one
     * commitment larger than RAM and swap: the guest's RAM is --max-mem
     * (/proc/meminfo MemTotal), without swap, so the bound below refuses
     * it too. */
    const char *path = origin ? origin->path : NULL;
    bool file_shared = shm && path;
    uint64_t usable = commits(prot, shm, path, noreserve) ? len : 0;
    uint64_t shared = prot != PROT_NONE && file_shared ? len : 0;
    if (mm->usable - old_usable + usable > mm->max_total ||
        mm->shared - old_shared + shared > mm->max_total * MM_SHARED_FACTOR ||
        mm->total - old_total + len > mm->max_as || mm_room_for(mm, more_vmas, more_regions) < 0)
        return -ENOMEM;
    /* Committed memory is lazily backed, but may soon be touched: every 16
     * MiB committed (by any process) asks the host what it has left.
     * Reservations are asked about when touched (mm_lazy.c). */
    struct machine *m = mm->machine;
    m->mapped_unchecked += usable + shared;
    if (m->mapped_unchecked >= HOST_CHECK_MIN) {
        bool low = host_memory_low(m, m->mapped_unchecked);
        m->mapped_unchecked = 0;
        if (low)
            return -ENOMEM;
    }
    struct vma *prev = NULL, *next = NULL;
    for (struct vma *v = mm_vma_from(mm, addr ? addr - 1 : 0); v && v->start <= addr + len;
         v = v->next) {
        if (v->end == addr && v->prot == prot)
            prev = v;
        if (v->start == addr + len && v->prot == prot)
            next = v;
    }
    bool writable = !(origin && origin->shared_ro);
    /* A window's memory is the old mappings' own: taken once they are gone. */
    uint8_t *host = win  ? NULL
                    : shm ? shmem_map_host(shm, shm_off, len, writable)
                          : host_alloc(mm->machine, prev, next, len);
    if (!host && !win)
        return -ENOMEM;
    struct vma *v = vma_new(addr, addr + len, prot, host);
    if (!v) {
        struct vma bare = {.shm = shm};
        if (host)
            host_release(mm, &bare, host, len);
        return -ENOMEM;
    }
    v->shm = shm ? shmem_get(shm) : NULL;
    v->shm_off = shm_off;
    v->fork = fork;
    origin_set(v, origin, origin ? origin->pgoff : 0);
    err = mm_unmap(mm, addr, len);
    if (!err && win && !(v->host = window_host_map(win, addr, len, prot)))
        err = -ENOMEM;
    if (err) {
        if (host)
            vma_free(mm, v);
        else
            vma_drop(v);
        return err;
    }
    v->win = win;
    v->noreserve = noreserve;
    v->lazy = noreserve && !win;
    vma_insert(mm, v);
    if (mergeable(prev, v)) {
        vma_merge(mm, prev, v);
        v = prev;
    }
    if (mergeable(v, v->next))
        vma_merge(mm, v, v->next);
    if ((err = vma_to_engine(mm, v)) < 0)
        return err;
    mm->total += len;
    mm->usable += usable;
    mm->shared += shared;
    return 0;
}

static bool range_free(const struct mm *mm, uint64_t addr, uint64_t len)
{
    if (addr + len < addr || addr + len > mm->limit || addr < PAGE * 16)
        return false;
    const struct vma *v = mm_vma_from(mm, addr);
    return !v || v->start >= addr + len;
}

uint64_t mm_find_free(struct mm *mm, uint64_t hint, uint64_t len)
{
    len = PAGE_UP(len);
    if (len == 0 || len > mm->limit)
        return 0;
    if (hint && hint % PAGE == 0 && range_free(mm, hint, len))
        return hint;
    /* Top-down: the highest gap below mmap_base that fits, found from the
     * top (its neighbours are the VMAs around it in the index). */
    if (mm->index_lost)
        return 0; /* no memory */
    uint64_t top = mm->mmap_base < mm->limit ? mm->mmap_base : mm->limit;
    size_t i = index_from(mm, top);
    uint64_t gap_end = i < mm->nr_vmas && mm->index[i]->start < top ? mm->index[i]->start : top;
    for (;;) {
        uint64_t gap_start = i ? mm->index[i - 1]->end : 0;
        if (gap_start < PAGE * 16)
            gap_start = PAGE * 16;
        if (gap_end >= gap_start && gap_end - gap_start >= len) {
            /* Under pressure, a mapping that fits in a window's chunk does
             * not straddle two: it can lie in a window, none is cut. */
            uint64_t at = gap_end - len, chunk = gap_end & ~(WINDOW_CHUNK - 1);
            if (!mm->pressure || len > WINDOW_CHUNK || at >= chunk || chunk - gap_start < len)
                return at;
            return chunk - len;
        }
        if (i == 0)
            return 0;
        gap_end = mm->index[--i]->start;
    }
}

/* What changing [addr, end) to prot adds to the address space: the pieces
 * split off the VMAs it cuts, the engine regions they and the changed
 * parts need (a part turning PROT_NONE gives its region up), and the bytes
 * that stop being PROT_NONE (--max-mem counts them). -EACCES when it
 * would make a read-only shared file mapping writable. */
static int protect_cost(const struct mm *mm, uint64_t addr, uint64_t end, int prot, int *more_vmas,
                        int *more_regions, uint64_t *more_usable, uint64_t *more_shared)
{
    *more_vmas = *more_regions = 0;
    *more_usable = *more_shared = 0;
    for (const struct vma *v = mm_vma_from(mm, addr); v && v->start < end; v = v->next) {
        if (v->end <= addr || v->prot == prot)
            continue;
        if ((prot & PROT_WRITE) && v->origin.shared_ro)
            return -EACCES;
        uint64_t lo = addr > v->start ? addr : v->start, hi = end < v->end ? end : v->end;
        if (!accessible(v) && prot != PROT_NONE && is_file_shared(v))
            *more_shared += hi - lo;
        /* Made writable, private memory is committed (mprotect_fixup). */
        if (!usable_bytes(v, 1) && commits(prot, v->shm, v->origin.path, v->noreserve))
            *more_usable += hi - lo;
        int pieces = (addr > v->start) + (end < v->end);
        *more_vmas += pieces;
        *more_regions += pieces * vma_has_region(v) + (prot != PROT_NONE && !v->win) -
                         vma_has_region(v);
    }
    return 0;
}

/* Gives v new rights in the engine: a region appears or goes when v turns
 * from or to PROT_NONE. In a window, the host's page rights change instead. */
static int vma_set_prot(struct mm *mm, struct vma *v, int prot)
{
    bool was_exec = vma_has_region(v) && (v->prot & PROT_EXEC);
    uc_err e = UC_ERR_OK;
    if (v->win)
        mprotect(v->host, v->end - v->start, window_host_prot(prot));
    else if (v->lazy)
        lazy_drop(mm, v->start, v->end);
    else if (accessible(v) && prot == PROT_NONE)
        e = uc_mem_unmap(mm->uc, v->start, v->end - v->start);
    else if (accessible(v))
        e = uc_mem_protect(mm->uc, v->start, v->end - v->start, (uint32_t)prot);
    if (e != UC_ERR_OK)
        return engine_errno(e);
    if (was_exec && !(prot & PROT_EXEC))
        uc_ctl_remove_cache(mm->uc, v->start, v->end);
    bool was_none = !accessible(v);
    uint64_t len = v->end - v->start;
    mm->usable -= usable_bytes(v, len);
    mm->shared -= shared_bytes(v, len);
    mm_vma_recount(mm, v, false);
    v->prot = prot;
    mm_vma_recount(mm, v, true);
    mm->usable += usable_bytes(v, len);
    mm->shared += shared_bytes(v, len);
    return was_none ? vma_to_engine(mm, v) : 0;
}

/* Joins the VMAs from lo to hi that a change of rights made alike, as Linux
 * does, so that toggling rights back and forth does not pile up VMAs. */
int mm_merge_range(struct mm *mm, uint64_t lo, uint64_t hi)
{
    for (struct vma *v = mm_vma_from(mm, lo ? lo - 1 : 0); v && v->start <= hi; v = v->next) {
        bool merged = false;
        while (v->next && v->next->start <= hi && mergeable(v, v->next)) {
            vma_merge(mm, v, v->next);
            merged = true;
        }
        int err = merged ? vma_to_engine(mm, v) : 0;
        if (err)
            return err;
    }
    return 0;
}

static int split_to_range(struct mm *mm, struct vma **vp, uint64_t addr, uint64_t end);

int mm_protect(struct mm *mm, uint64_t addr, uint64_t len, int prot)
{
    if (addr % PAGE)
        return -EINVAL;
    if (len == 0)
        return 0;
    uint64_t end = addr + PAGE_UP(len);
    if (PAGE_UP(len) == 0 || end <= addr)
        return -ENOMEM;
    /* Linux fails with ENOMEM when part of the range is unmapped. */
    for (uint64_t a = addr; a < end;) {
        const struct vma *v = mm_find_vma(mm, a);
        if (!v)
            return -ENOMEM;
        a = v->end;
    }
    check_pressure(mm);
    int err = window_eligible(prot, NULL) ? 0 : window_carve(mm, addr, end);
    if (err)
        return err;
    int more_vmas, more_regions;
    uint64_t more_usable, more_shared;
    err = protect_cost(mm, addr, end, prot, &more_vmas, &more_regions, &more_usable, &more_shared);
    if (!err)
        err = mm_room_for(mm, more_vmas, more_regions);
    if (!err && (mm->usable + more_usable > mm->max_total ||
                 mm->shared + more_shared > mm->max_total * MM_SHARED_FACTOR))
        err = -ENOMEM;
    if (err)
        return err;
    for (struct vma *v = mm_vma_from(mm, addr); v && v->start < end; v = v->next) {
        if (v->prot == prot)
            continue;
        if ((err = split_to_range(mm, &v, addr, end)) < 0 || (err = vma_set_prot(mm, v, prot)) < 0)
            return err;
    }
    return mm_merge_range(mm, addr, end);
}

/* Splits *vp (which overlaps [addr, end)) at addr and end, so that the part
 * inside the range is a VMA of its own, which *vp then is. */
static int split_to_range(struct mm *mm, struct vma **vp, uint64_t addr, uint64_t end)
{
    struct vma *v = *vp;
    uint64_t points[2] = {addr, end};
    for (int i = 0; i < 2; i++) {
        if (points[i] <= v->start || points[i] >= v->end)
            continue;
        struct vma *tail = vma_tail(v, points[i]);
        if (!tail)
            return -ENOMEM;
        if (vma_has_region(v))
            uc_mem_unmap(mm->uc, v->start, v->end - v->start);
        index_del(mm, v);
        tail->next = v->next;
        v->next = tail;
        v->end = points[i];
        index_add(mm, v);
        index_add(mm, tail);
        int err = vma_to_engine(mm, v);
        if (!err)
            err = vma_to_engine(mm, tail);
        if (err)
            return err;
        if (points[i] == addr)
            v = tail; /* the part inside the range starts here */
    }
    *vp = v;
    return 0;
}

int mm_split_at(struct mm *mm, uint64_t at)
{
    struct vma *v = mm_vma_from(mm, at);
    return v && v->start < at ? split_to_range(mm, &v, at, v->end) : 0;
}

int mm_set_fork(struct mm *mm, uint64_t addr, uint64_t len, unsigned set, unsigned clear)
{
    uint64_t end = addr + len;
    int pieces = 0;
    for (const struct vma *v = mm_vma_from(mm, addr); v && v->start < end; v = v->next)
        pieces += (addr > v->start) + (end < v->end);
    int err = mm_room_for(mm, pieces, pieces);
    for (struct vma *v = mm_vma_from(mm, addr); !err && v && v->start < end; v = v->next) {
        unsigned fork = (v->fork | set) & ~clear;
        if (v->fork == fork)
            continue;
        if ((err = split_to_range(mm, &v, addr, end)) == 0)
            v->fork = fork;
    }
    return err ? err : mm_merge_range(mm, addr, end);
}

void *mm_host_ptr(struct mm *mm, uint64_t addr, uint64_t len, int prot)
{
    const struct vma *v = mm_find_vma(mm, addr);
    if (!v || addr + len < addr || addr + len > v->end || (v->prot & prot) != prot)
        return NULL;
    return v->host + (addr - v->start);
}

/* Walks [addr, addr+len) VMA by VMA, calling fn on each host piece. */
static int guest_walk(struct mm *mm, uint64_t addr, size_t len, int prot,
                      void (*fn)(uint8_t *host, size_t n, size_t done, void *arg), void *arg)
{
    size_t done = 0;
    while (done < len) {
        const struct vma *v = mm_find_vma(mm, addr + done);
        if (!v || (v->prot & prot) != prot)
            return -EFAULT;
        uint64_t a = addr + done;
        size_t n = len - done;
        if (n > v->end - a)
            n = (size_t)(v->end - a);
        fn(v->host + (a - v->start), n, done, arg);
        done += n;
    }
    return 0;
}

static void piece_read(uint8_t *host, size_t n, size_t done, void *arg)
{
    memcpy((uint8_t *)arg + done, host, n);
}

static void piece_write(uint8_t *host, size_t n, size_t done, void *arg)
{
    memcpy(host, (const uint8_t *)arg + done, n);
}

int copy_from_guest(struct mm *mm, void *dst, uint64_t src, size_t len)
{
    if (src + len < src)
        return -EFAULT;
    return guest_walk(mm, src, len, PROT_READ, piece_read, dst);
}

int copy_to_guest(struct mm *mm, uint64_t dst, const void *src, size_t len)
{
    if (dst + len < dst)
        return -EFAULT;
    return guest_walk(mm, dst, len, PROT_WRITE, piece_write, (void *)src);
}

int64_t strncpy_from_guest(struct mm *mm, char *dst, uint64_t src, size_t max)
{
    size_t i = 0;
    while (i < max) {
        const struct vma *v = mm_find_vma(mm, src + i);
        if (!v || !(v->prot & PROT_READ))
            return -EFAULT;
        const uint8_t *p = v->host + (src + i - v->start);
        size_t avail = (size_t)(v->end - (src + i));
        if (avail > max - i)
            avail = max - i;
        const uint8_t *nul = memchr(p, 0, avail);
        size_t n = nul ? (size_t)(nul - p) : avail;
        memcpy(dst + i, p, n);
        i += n;
        if (nul) {
            dst[i] = '\0';
            return (int64_t)i;
        }
    }
    return -ENAMETOOLONG;
}

int64_t copy_to_guest_partial(struct mm *mm, uint64_t dst, const void *src, size_t len)
{
    size_t done = 0;
    while (done < len) {
        const struct vma *v = mm_find_vma(mm, dst + done);
        if (!v || !(v->prot & PROT_WRITE))
            break;
        size_t n = len - done;
        if (n > v->end - (dst + done))
            n = (size_t)(v->end - (dst + done));
        memcpy(v->host + (dst + done - v->start), (const uint8_t *)src + done, n);
        done += n;
    }
    return (int64_t)done;
}

void mm_set_origin(struct mm *mm, uint64_t start, uint64_t end, const struct vma_origin *origin)
{
    for (struct vma *v = mm->vmas; v && v->start < end; v = v->next)
        if (v->start >= start)
            origin_set(v, origin, origin->pgoff + (v->start - start));
}
