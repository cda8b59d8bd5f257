/* SPDX-License-Identifier: GPL-2.0-or-later */
/* mm_window.h - engine windows: one Unicorn region over many mappings.
 *
 * Normally every accessible VMA is a Unicorn region of its own (mm.c), and
 * Unicorn bounds an engine at about 1,000 regions: a process with a few
 * hundred threads (a stack and a PROT_NONE guard each) reaches it. Once an
 * address space needs WINDOW_PRESSURE regions it goes into pressure mode:
 * private, non-executable mappings (thread stacks, their guards, heaps,
 * arenas, data) are gathered into windows, each a guest range
 * within one WINDOW_CHUNK-aligned chunk backed by one contiguous host
 * reservation and registered as ONE read-write engine region. Inside a
 * window the host's own page protections keep the guest's rights: a
 * PROT_NONE mapping and an unmapped gap are host PROT_NONE, a read-only
 * mapping host PROT_READ, so the guest's forbidden access faults on the
 * host; window_fault_recover (in the host SIGSEGV
 * handler) lets the access finish harmlessly on a saved page and stops the
 * engine, and run.c gives the guest its SIGSEGV (SEGV_ACCERR or
 * SEGV_MAPERR, the exact address) at the end of that basic block, the
 * page's bytes restored. Unlike a fault outside windows, the pc the guest
 * sees is then the end of the block, not the faulting instruction
 * (docs/processes.md). Mapping, unmapping or protecting inside a window
 * changes only host mappings: no engine region changes at all. */
#ifndef ASYMU_MM_WINDOW_H
#define ASYMU_MM_WINDOW_H

#include <stdbool.h>
#include <stdint.h>

struct machine;
struct mm;
struct shmem;
struct task;
struct vma;

/* Address spaces with this many engine regions go into pressure mode. */
#define WINDOW_PRESSURE 128u
/* Windows never cross a boundary aligned to this. */
#define WINDOW_CHUNK (256ull << 20)

struct mm_window {
    uint64_t start, end; /* guest range, page aligned */
    uint8_t *host;       /* host reservation backing [start, end) */
    struct mm_window *next;
};

/* Whether a mapping of these rights may lie in a window. */
bool window_eligible(int prot, const struct shmem *shm);
/* The host protection of a windowed mapping with guest rights prot. */
int window_host_prot(int prot);
/* The window holding all of [addr, end), or NULL. */
struct mm_window *window_of(const struct mm *mm, uint64_t addr, uint64_t end);
/* Puts mm in pressure mode and gathers its eligible mappings into windows. */
void windows_enter_pressure(struct mm *mm);
/* In pressure mode: the window [addr, end) lies in, opened over what of
 * its chunk no ineligible mapping holds (gathering the eligible mappings
 * there) if need be; NULL when [addr, end) cannot lie in a window. */
struct mm_window *window_open(struct mm *mm, uint64_t addr, uint64_t end);
/* Takes [addr, end) out of every window, so that a mapping there may be
 * one the windows cannot hold: its windowed mappings get regions of their
 * own. 0 or -ENOMEM (too many regions then). */
int window_carve(struct mm *mm, uint64_t addr, uint64_t end);
/* Fresh zeroed host memory for guest [addr, addr+len) in w, with prot's
 * host protection: NULL on failure. */
uint8_t *window_host_map(struct mm_window *w, uint64_t addr, uint64_t len, int prot);
/* Gives [host, host+len) of a window back to its reservation. */
void window_host_release(uint8_t *host, uint64_t len);
/* Registers every window with mm's engine: 0 or an errno. */
int windows_to_engine(struct mm *mm);
/* dst (a fork of src) gets windows over the same ranges, empty. */
int windows_copy(struct mm *dst, const struct mm *src);
void windows_free(struct mm *mm);

/* For a kernel-side copy into or out of [addr, addr+len): on, its windowed
 * PROT_NONE and read-only pages are host-writable; off, protected again. */
void mm_host_writable(struct mm *mm, uint64_t addr, uint64_t len, bool on);

/* From mm.c, for the windows. */
/* Around a change of v's rights or window: uncounts (counted false) and
 * counts again (true) its engine region. */
void mm_vma_recount(struct mm *mm, const struct vma *v, bool counted);
bool vma_has_region(const struct vma *v);
int vma_to_engine(struct mm *mm, struct vma *v);
int mm_room_for(struct mm *mm, int more_vmas, int more_regions);
unsigned mm_region_count(const struct mm *mm);
/* Splits the VMA that straddles at, if one does: 0 or -ENOMEM. */
int mm_split_at(struct mm *mm, uint64_t at);
/* Joins the VMAs of [lo, hi] that became alike. */
int mm_merge_range(struct mm *mm, uint64_t lo, uint64_t hi);

/* Host SIGSEGV at host_addr, raised by the host instruction host_pc: true
 * when it was guest code touching a protected page of a window of the
 * running task. When host_pc is the access in translated code, the run
 * ends at the guest instruction that made it (engine_exact_abort: this
 * does not return); otherwise the access goes on and the engine stops at
 * the end of the block. Async-signal-safe. */
bool window_fault_recover(struct machine *m, void *host_addr, uintptr_t host_pc);
/* Whether a window fault waits for delivery. */
bool window_fault_pending(const struct machine *m);
/* Restores the pages the faulting block touched and gives t its SIGSEGV. */
void window_fault_deliver(struct machine *m, struct task *t);
/* Frees what window_fault_recover needs, at the machine's end. */
void window_faults_free(struct machine *m);

#endif
