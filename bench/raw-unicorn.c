/* SPDX-License-Identifier: GPL-2.0-or-later */
/* raw-unicorn.c - the ceiling for asymu's guest speed: runs a freestanding
 * static ELF (bench/store-raw.c) on bare Unicorn with nothing asymu adds: no
 * scheduler, no block hook, no kernel. It maps the PT_LOAD segments and a
 * stack, drops to EL0 / USR mode as asymu does, and stops at the first SVC,
 * which must be exit; it exits with the guest's status.
 *
 * Usage: raw-unicorn [-b] PROG
 *   -b  also install a UC_HOOK_BLOCK that counts blocks against a budget as
 *       asymu's slice counter does, to tell that hook's cost from the rest. */
#include "loader.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unicorn/unicorn.h>
#include <unistd.h>

#define STACK_BYTES (1u << 20)
#define AARCH64_STACK_TOP UINT64_C(0x7ffff0000000)
#define ARM_STACK_TOP UINT64_C(0xbf000000)
#define DYN_BIAS UINT64_C(0x10000) /* where an ET_DYN image goes */

#define EXCP_SWI 2 /* Unicorn's interrupt number for SVC on both ISAs */
#define CPSR_USR 0x10u

struct run {
    enum loader_isa isa;
    int done;                          /* the guest called exit */
    int status;                        /* its exit status */
    uint32_t intno;                    /* an interrupt other than an exit SVC, or 0 */
    uint64_t nr;                       /* the syscall number of a non-exit SVC */
    uint64_t slice_used, slice_budget; /* what asymu's block hook keeps */
};

static void hook_intr(uc_engine *uc, uint32_t intno, void *user)
{
    struct run *r = user;
    uint64_t nr = 0, arg0 = 0;
    if (r->isa == LOADER_ISA_AARCH64) {
        uc_reg_read(uc, UC_ARM64_REG_X8, &nr);
        uc_reg_read(uc, UC_ARM64_REG_X0, &arg0);
    } else {
        uint32_t v = 0;
        uc_reg_read(uc, UC_ARM_REG_R7, &v);
        nr = v;
        uc_reg_read(uc, UC_ARM_REG_R0, &v);
        arg0 = v;
    }
    /* exit and exit_group: 93/94 on AArch64, 1/248 on AArch32. */
    int is_exit = r->isa == LOADER_ISA_AARCH64 ? (nr == 93 || nr == 94) : (nr == 1 || nr == 248);
    if (intno == EXCP_SWI && is_exit) {
        r->done = 1;
        r->status = (int)(arg0 & 0xff);
    } else {
        r->intno = intno;
        r->nr = nr;
    }
    uc_emu_stop(uc);
}

/* The work asymu's slice counter (emu/machine/engine.c) does per block; the budget
 * is never reached, so the run is not cut into slices. */
static void hook_block(uc_engine *uc, uint64_t addr, uint32_t size, void *user)
{
    (void)addr, (void)size;
    struct run *r = user;
    if (++r->slice_used >= r->slice_budget)
        uc_emu_stop(uc);
}

static int read_file(const char *path, uint8_t **data, size_t *size)
{
    int fd = open(path, O_RDONLY);
    if (fd < 0)
        return -errno;
    struct stat st;
    if (fstat(fd, &st) < 0) {
        int err = -errno;
        close(fd);
        return err;
    }
    uint8_t *buf = malloc((size_t)st.st_size + 1);
    size_t got = 0;
    while (buf && got < (size_t)st.st_size) {
        ssize_t n = read(fd, buf + got, (size_t)st.st_size - got);
        if (n <= 0)
            break;
        got += (size_t)n;
    }
    close(fd);
    if (!buf || got != (size_t)st.st_size) {
        free(buf);
        return buf ? -EIO : -ENOMEM;
    }
    *data = buf;
    *size = got;
    return 0;
}

static uint32_t to_uc_prot(int prot)
{
    return (prot & PROT_READ ? UC_PROT_READ : 0) | (prot & PROT_WRITE ? UC_PROT_WRITE : 0) |
           (prot & PROT_EXEC ? UC_PROT_EXEC : 0);
}

/* Maps the image as host memory handed to Unicorn (as asymu does), one
 * mapping per segment; a page two neighbours share gets both prots. */
static uc_err map_image(uc_engine *uc, const struct loader_image *img, const uint8_t *file,
                        uint64_t bias)
{
    const uint64_t pg = LOADER_PAGE_SIZE;
    size_t span = (size_t)(img->hi - img->lo);
    uint8_t *host = mmap(NULL, span, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (host == MAP_FAILED)
        return UC_ERR_NOMEM;
    for (unsigned i = 0; i < img->nseg; i++) {
        const struct loader_segment *s = &img->seg[i];
        memcpy(host + (s->vaddr - img->lo), file + s->offset, (size_t)s->filesz);
    }
    uint64_t start = 0, end = 0; /* the pending mapping, not yet handed over */
    int prot = 0;
    for (unsigned i = 0; i < img->nseg; i++) {
        const struct loader_segment *s = &img->seg[i];
        uint64_t s_start = s->vaddr & ~(pg - 1);
        uint64_t s_end = (s->vaddr + s->memsz + pg - 1) & ~(pg - 1);
        if (end > s_start) { /* shared page: end the pending one before it */
            end -= pg;
            if (end > start) {
                uc_err e = uc_mem_map_ptr(uc, start + bias, end - start, to_uc_prot(prot),
                                          host + (start - img->lo));
                if (e != UC_ERR_OK)
                    return e;
            }
            uc_err e = uc_mem_map_ptr(uc, end + bias, pg, to_uc_prot(prot | s->prot),
                                      host + (end - img->lo));
            if (e != UC_ERR_OK)
                return e;
            s_start = end + pg;
        } else if (end > start) {
            uc_err e = uc_mem_map_ptr(uc, start + bias, end - start, to_uc_prot(prot),
                                      host + (start - img->lo));
            if (e != UC_ERR_OK)
                return e;
        }
        start = s_start, end = s_end, prot = s->prot;
    }
    if (end > start)
        return uc_mem_map_ptr(uc, start + bias, end - start, to_uc_prot(prot),
                              host + (start - img->lo));
    return UC_ERR_OK;
}

/* EL0 / USR mode with FP on, the stack and the entry point, as asymu sets them. */
static uc_err set_user_mode(uc_engine *uc, enum loader_isa isa, uint64_t pc, uint64_t sp)
{
    uc_err e;
    if (isa == LOADER_ISA_AARCH64) {
        uint32_t pstate = 0; /* EL0t; Unicorn starts at EL1 */
        if ((e = uc_reg_write(uc, UC_ARM64_REG_PSTATE, &pstate)) != UC_ERR_OK ||
            (e = uc_reg_write(uc, UC_ARM64_REG_SP, &sp)) != UC_ERR_OK)
            return e;
        return uc_reg_write(uc, UC_ARM64_REG_PC, &pc);
    }
    /* USR first: SP is banked, written before it would land in SVC's copy. A
     * CPSR write cannot set the T bit; a pc with bit 0 set selects Thumb. */
    uint32_t cpsr = CPSR_USR, fpexc = 0x40000000, sp32 = (uint32_t)sp, pc32 = (uint32_t)pc;
    uc_arm_cp_reg cpacr = {.cp = 15, .crn = 1, .crm = 0, .opc1 = 0, .opc2 = 2, .val = 0x00f00000};
    if ((e = uc_reg_write(uc, UC_ARM_REG_CPSR, &cpsr)) != UC_ERR_OK ||
        (e = uc_reg_write(uc, UC_ARM_REG_CP_REG, &cpacr)) != UC_ERR_OK ||
        (e = uc_reg_write(uc, UC_ARM_REG_FPEXC, &fpexc)) != UC_ERR_OK ||
        (e = uc_reg_write(uc, UC_ARM_REG_SP, &sp32)) != UC_ERR_OK)
        return e;
    return uc_reg_write(uc, UC_ARM_REG_PC, &pc32);
}

static int run_image(const struct loader_image *img, const uint8_t *file, int block_hook,
                     struct run *r)
{
    int a64 = img->isa == LOADER_ISA_AARCH64;
    uint64_t bias = img->is_dyn ? DYN_BIAS : 0;
    uint64_t stack_top = a64 ? AARCH64_STACK_TOP : ARM_STACK_TOP;
    uc_engine *uc;
    uc_err e = uc_open(a64 ? UC_ARCH_ARM64 : UC_ARCH_ARM, UC_MODE_ARM, &uc);
    if (e != UC_ERR_OK) {
        fprintf(stderr, "raw-unicorn: uc_open: %s\n", uc_strerror(e));
        return 1;
    }
    uc_hook h;
    r->isa = img->isa;
    r->slice_budget = UINT64_MAX;
    uint8_t *stack =
        mmap(NULL, STACK_BYTES, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    /* The same CPU models as asymu (emu/machine/engine.c), so both translate alike. */
    if ((e = uc_ctl_set_cpu_model(uc, a64 ? UC_CPU_ARM64_A72 : UC_CPU_ARM_MAX)) != UC_ERR_OK ||
        (e = stack == MAP_FAILED ? UC_ERR_NOMEM : UC_ERR_OK) != UC_ERR_OK ||
        (e = map_image(uc, img, file, bias)) != UC_ERR_OK ||
        (e = uc_mem_map_ptr(uc, stack_top - STACK_BYTES, STACK_BYTES, UC_PROT_READ | UC_PROT_WRITE,
                            stack)) != UC_ERR_OK ||
        (e = uc_hook_add(uc, &h, UC_HOOK_INTR, (void *)hook_intr, r, 1, 0)) != UC_ERR_OK ||
        (block_hook &&
         (e = uc_hook_add(uc, &h, UC_HOOK_BLOCK, (void *)hook_block, r, 1, 0)) != UC_ERR_OK) ||
        (e = set_user_mode(uc, img->isa, img->entry + bias, stack_top - 64)) != UC_ERR_OK) {
        fprintf(stderr, "raw-unicorn: setting up the engine: %s\n", uc_strerror(e));
        uc_close(uc);
        return 1;
    }
    e = uc_emu_start(uc, img->entry + bias, a64 ? UINT64_MAX : 0xffffffffu, 0, 0);
    uc_close(uc);
    if (e != UC_ERR_OK) {
        fprintf(stderr, "raw-unicorn: guest stopped: %s\n", uc_strerror(e));
        return 1;
    }
    if (!r->done) {
        fprintf(stderr,
                "raw-unicorn: guest raised interrupt %u (syscall %llu); only exit is "
                "supported\n",
                r->intno, (unsigned long long)r->nr);
        return 1;
    }
    return 0;
}

int main(int argc, char **argv)
{
    int block_hook = argc > 1 && strcmp(argv[1], "-b") == 0;
    if (argc != 2 + block_hook) {
        fprintf(stderr, "usage: raw-unicorn [-b] PROG (a freestanding static AArch64 or "
                        "AArch32 ELF whose only syscall is exit)\n");
        return 2;
    }
    const char *path = argv[1 + block_hook];
    uint8_t *file = NULL;
    size_t size = 0;
    int err = read_file(path, &file, &size);
    if (err) {
        fprintf(stderr, "raw-unicorn: %s: %s\n", path, strerror(-err));
        return 1;
    }
    struct loader_image img;
    char why[256];
    if ((err = loader_parse(file, size, &img, why, sizeof why)) != 0) {
        fprintf(stderr, "raw-unicorn: %s: %s\n", path, why);
        return 1;
    }
    if (img.interp[0]) {
        fprintf(stderr, "raw-unicorn: %s: dynamically linked; build it -static -nostdlib\n", path);
        return 1;
    }
    struct run r = {0};
    int rc = run_image(&img, file, block_hook, &r);
    free(file);
    return rc ? 125 : r.status;
}
