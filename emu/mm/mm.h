/* SPDX-License-Identifier: GPL-2.0-or-later */
/* mm.h - a guest address space (mm.c): its mappings (VMAs), its engine,
 * and copying between guest and host memory. */
#ifndef ASYMU_MM_H
#define ASYMU_MM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tlb.h"
#include "uc_fwd.h"

struct abi;
struct machine;
struct mm_window;
struct shmem;
struct task;

/* Where a mapping's bytes came from, for /proc/PID/maps. */
struct vma_origin {
    const char *path; /* the file's guest path, NULL for anonymous memory */
    uint64_t pgoff;   /* file offset of the mapping's first byte */
    uint64_t dev, ino;
    bool shared_ro; /* MAP_SHARED of a file not open for writing: never writable */
};

struct vma {
    uint64_t start, end; /* [start, end), page aligned */
    int prot;            /* PROT_* */
    uint8_t *host;       /* host memory backing [start, end) */
    struct vma_origin origin; /* path owned (malloc'ed) */
    struct shmem *shm;   /* MAP_SHARED: the object mapped (a reference), else NULL */
    uint64_t shm_off;    /* its offset at start */
    unsigned fork;       /* VMA_DONTFORK, VMA_WIPEONFORK (madvise), VMA_LOCKED, the policy */
    struct vma *next;    /* sorted by start */
    struct mm_window *win; /* the engine window it lies in (mm_window.h), else NULL */
    bool noreserve;      /* MAP_NORESERVE: not committed (Linux's VM_NORESERVE) */
    bool lazy;           /* no engine region up front: chunks on touch (mm_lazy.h) */
};

#define VMA_DONTFORK 1u   /* a forked child does not get the mapping */
#define VMA_WIPEONFORK 2u /* a forked child gets it zeroed */
#define VMA_LOCKED 4u     /* mlock: in VmLck; a forked child's is not (sys_mlock.c) */
/* Bits 8..29: the VMA's memory policy (mbind), a policy word of
 * mempolicy.h; 0 is none. Kept with the flags so that splits, merges and
 * fork carry it as they carry the rest (Linux's vma->vm_policy). */
#define VMA_MPOL_SHIFT 8
#define VMA_MPOL_MASK (0x3fffffu << VMA_MPOL_SHIFT)

struct mm {
    int refs;               /* processes sharing it (threads, vfork children) */
    struct machine *machine;
    struct task *loaded;    /* the task whose registers are in the engine */
    uc_engine *uc;          /* NULL while parked (mm_engine_park) */
    struct mm *lru_prev, *lru_next; /* machine->engines_lru, while uc is open */
    const struct abi *abi;
    struct vma *vmas;
    uint64_t limit;         /* first address the guest cannot use */
    uint64_t mmap_base;     /* top-down mmap search starts below this */
    uint64_t brk_start, brk; /* program break */
    uint64_t arg_start, arg_end; /* argv strings on the stack (/proc/PID/cmdline) */
    uint64_t auxv_start, auxv_end; /* the auxiliary vector on the stack (/proc/PID/auxv) */
    uint64_t env_start, env_end;   /* the environment strings (/proc/PID/environ) */
    uint64_t total;         /* bytes mapped (RLIMIT_AS counts these) */
    bool mlock_future;      /* mlockall(MCL_FUTURE), kept only (sys_mlock.c) */
    unsigned membarrier_registered; /* membarrier's REGISTER_* commands done */
    uint64_t usable;        /* of them, bytes committed (mm.c committed_bytes): --max-mem */
    uint64_t shared;        /* and accessible bytes of shared objects (MM_SHARED_FACTOR) */
    uint64_t max_total;     /* --max-mem: bounds usable */
    uint64_t max_as;        /* RLIMIT_AS: bounds total */
    struct mm *next_deferred;
    struct tlb_growth tlb;  /* when to flush the engine's TLB (tlb.h) */
    struct mm_window *windows; /* sorted by start (mm_window.h) */
    bool pressure;             /* many regions: new private mappings go into windows */
    /* The VMAs as an array by address, kept with the list: lookups by
     * binary search (a list walk if it ever lacked memory). */
    struct vma **index;
    size_t nr_vmas, index_cap;
    bool index_lost;
    unsigned nr_regions;    /* VMAs with an engine region of their own */
    struct lazy_chunks *lazy; /* chunks of lazy VMAs in the engine (mm_lazy.h) */
    struct insn_cache *insn_cache; /* Thumb blocks' instruction counts (insn_count.h) */
    struct aio_table *aio;  /* its AIO contexts (aio.c), NULL before io_setup */
};

/* A fresh address space on a new engine of abi's ISA: NULL with *err set on failure. */
struct mm *mm_new(const struct abi *abi, struct machine *m, int *err);
/* Makes sure mm has an open engine (it may have been parked) and counts
 * it as the most recently used: 0 or -ENOMEM. Before a task of mm runs. */
int mm_engine_acquire(struct mm *mm);
/* Parks the least recently used engines beyond --warm-engines, but keep's.
 * Only while no engine runs. */
void mm_engines_trim(struct machine *m, struct mm *keep);
/* Parks every engine, their translated code given back to the host (run.c,
 * when the host has less than --host-reserve). Only while no engine runs. */
void mm_engines_park_all(struct machine *m);
/* A copy of src (fork): same mappings and contents, a new engine. */
struct mm *mm_copy(struct mm *src, int *err);
/* Drops a reference; the last one frees the memory and the engine (after the
 * engine has stopped, when it is the one running). */
void mm_put(struct mm *mm);
void mm_free(struct mm *mm);
/* Maps [addr, addr+len) fresh (replacing what was there) with zeroed memory. */
int mm_map_fixed(struct mm *mm, uint64_t addr, uint64_t len, int prot);
/* The same for a file's bytes (the caller fills them): origin names the file. */
int mm_map_origin(struct mm *mm, uint64_t addr, uint64_t len, int prot,
                  const struct vma_origin *origin);
/* mm_map_origin with MAP_NORESERVE's choice: a noreserve anonymous mapping
 * is not committed (--max-mem), as Linux's VM_NORESERVE. */
int mm_map_private(struct mm *mm, uint64_t addr, uint64_t len, int prot,
                   const struct vma_origin *origin, bool noreserve);
/* The same for len bytes of a shared memory object from off (MAP_SHARED). */
int mm_map_shared(struct mm *mm, uint64_t addr, uint64_t len, int prot,
                  const struct vma_origin *origin, struct shmem *shm, uint64_t off);
/* Sets and clears VMA_* fork flags on the mapped parts of [addr, addr+len)
 * (page aligned, no overflow). */
int mm_set_fork(struct mm *mm, uint64_t addr, uint64_t len, unsigned set, unsigned clear);
/* Names the file behind the mappings that start in [start, end): the first
 * byte of the range is at file offset origin->pgoff. */
void mm_set_origin(struct mm *mm, uint64_t start, uint64_t end, const struct vma_origin *origin);
/* Finds a free range of len bytes below mmap_base (or at hint if free). 0 on failure. */
uint64_t mm_find_free(struct mm *mm, uint64_t hint, uint64_t len);
int mm_unmap(struct mm *mm, uint64_t addr, uint64_t len);
int mm_protect(struct mm *mm, uint64_t addr, uint64_t len, int prot);
/* The host pointer for guest [addr, addr+len) if it lies in one VMA with at
 * least `prot` access, else NULL. */
void *mm_host_ptr(struct mm *mm, uint64_t addr, uint64_t len, int prot);
const struct vma *mm_find_vma(const struct mm *mm, uint64_t addr);
/* Bytes mapped with VMA_LOCKED: /proc/PID/status's VmLck (sys_mlock.c). */
uint64_t mm_locked_bytes(const struct mm *mm);
/* The first VMA that ends after addr (it may start after it), or NULL. */
struct vma *mm_vma_from(const struct mm *mm, uint64_t addr);

/* Guest memory access for handlers: 0 or -EFAULT. Sizes are bounded by the
 * caller; a range may span VMAs. */
int copy_from_guest(struct mm *mm, void *dst, uint64_t src, size_t len);
int copy_to_guest(struct mm *mm, uint64_t dst, const void *src, size_t len);
/* Copies what it can up to the first unwritable byte: the bytes copied. */
int64_t copy_to_guest_partial(struct mm *mm, uint64_t dst, const void *src, size_t len);
/* Copies a NUL-terminated guest string of at most max-1 bytes: its length,
 * -EFAULT, or -ENAMETOOLONG. */
int64_t strncpy_from_guest(struct mm *mm, char *dst, uint64_t src, size_t max);

#endif
