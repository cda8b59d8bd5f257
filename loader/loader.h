/* SPDX-License-Identifier: GPL-2.0-or-later */
/* loader.h - the public interface of loader/: ELF32/ELF64 image parsing,
 * the initial process stack and the AArch32 kuser helper page. Pure logic:
 * no Unicorn, no I/O; emu/ reads files and maps memory. */
#ifndef ASYMU_LOADER_H
#define ASYMU_LOADER_H

#include <stddef.h>
#include <stdint.h>

#define LOADER_MAX_SEGMENTS 16
#define LOADER_PAGE_SIZE 4096u
#define LOADER_INTERP_MAX 256
#define LOADER_KUSER_ADDR 0xffff0000u /* AArch32 kuser helper page */

enum loader_isa {
    LOADER_ISA_AARCH64, /* ELFCLASS64, EM_AARCH64 */
    LOADER_ISA_ARM,     /* ELFCLASS32, EM_ARM, EABI5 hard-float */
};

/* One PT_LOAD segment, unbiased (as in the file). prot is PROT_READ/WRITE/EXEC.
 * Segments come sorted by vaddr with memsz > 0 (empty PT_LOADs are dropped) and
 * never overlap, but two neighbours may share a page: map that page with both
 * prots, copying each segment's own file bytes. */
struct loader_segment {
    uint64_t vaddr, memsz, filesz, offset;
    int prot;
};

/* A validated ELF image. Every address is unbiased: an ET_DYN image is placed
 * by adding a load bias chosen by the caller. */
struct loader_image {
    enum loader_isa isa;
    int is_dyn;          /* ET_DYN: static-pie or a shared interpreter */
    uint64_t entry;      /* e_entry; on ARM, bit 0 set means a Thumb entry point */
    uint64_t phdr_vaddr; /* where the program headers are in memory (AT_PHDR - bias) */
    uint16_t phnum, phentsize;
    uint64_t lo, hi;     /* page-aligned span covering every PT_LOAD */
    unsigned nseg;
    struct loader_segment seg[LOADER_MAX_SEGMENTS];
    char interp[LOADER_INTERP_MAX]; /* PT_INTERP path, "" if none */
    int exec_stack;                 /* PT_GNU_STACK asks for PF_X */
};

/* Parses and validates the ELF file in data[0..size). On success fills *img
 * and returns 0. On failure returns a negative errno as Linux's execve would
 * (-ENOEXEC for anything that is not a loadable ELF for one of our ISAs,
 * -EINVAL for unmappable layouts, -ENOMEM for absurd sizes) and writes a
 * one-line description of the defect to why (no file name; the caller adds it). */
int loader_parse(const void *data, size_t size, struct loader_image *img, char *why,
                 size_t whylen);

/* An auxv entry for the initial stack. */
struct loader_auxv {
    uint64_t type, val;
};

/* What goes on the initial stack. The builder adds AT_RANDOM (pointing at the
 * 16 random bytes it copies), AT_EXECFN, AT_PLATFORM (when platform is not
 * NULL) and the closing AT_NULL; auxv holds every other entry in order. */
struct loader_stack_spec {
    enum loader_isa isa; /* word size: 8 bytes for AARCH64, 4 for ARM */
    int argc;
    const char *const *argv;
    int envc;
    const char *const *envp;
    const char *execfn;
    const char *platform;
    uint8_t random[16];
    const struct loader_auxv *auxv;
    unsigned nauxv;
};

/* Where the stack's strings and auxv lie, for /proc/PID/cmdline, environ and
 * auxv (Linux's mm->arg_start and the others, set by create_elf_tables()). */
struct loader_stack_layout {
    uint64_t arg_start, arg_end;   /* argv's strings, back to back */
    uint64_t env_start, env_end;   /* envp's, right after them */
    uint64_t auxv_start, auxv_end; /* the auxiliary vector, its AT_NULL pair included */
};

/* Builds the initial stack: buf stands for guest memory [top - size, top).
 * Lays out strings, random bytes, auxv, envp, argv and argc as Linux does, with
 * the final sp 16-byte aligned; [sp, top) is fully written. Words are little-endian
 * and 4 bytes on ARM (auxv values are truncated to 32 bits). Returns 0 and *sp,
 * and *layout unless layout is NULL; -E2BIG if it does not fit, or -EINVAL for a
 * bad spec (negative counts, NULL execfn, top < size, or top above 4 GiB on ARM). */
int loader_build_stack(const struct loader_stack_spec *spec, uint64_t top, uint8_t *buf,
                       size_t size, uint64_t *sp, struct loader_stack_layout *layout);

/* Fills the 4 KiB AArch32 kuser helper page (mapped at LOADER_KUSER_ADDR) with
 * real ARM code: __kuser_cmpxchg64 (0xffff0f60), __kuser_memory_barrier
 * (0xffff0fa0), __kuser_cmpxchg (0xffff0fc0), __kuser_get_tls (0xffff0fe0)
 * and __kuser_helper_version (0xffff0ffc, which holds 5 as on Linux >= 3.1). Every
 * other word is an undefined instruction, so a stray jump raises SIGILL. */
void loader_kuser_page(uint8_t page[LOADER_PAGE_SIZE]);

#endif
