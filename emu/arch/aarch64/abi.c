/* SPDX-License-Identifier: GPL-2.0-or-later */
/* abi.c (aarch64) - what is particular to AArch64 EL0: registers, the user
 * address space layout, hwcaps, and the layout of struct stat. */
#include "abi.h"
#include "engine.h"
#include "loader.h"
#include "mm.h"
#include "task.h"

#include <assert.h>
#include <string.h>
#include <sys/stat.h>

#include "syscall_nr_aarch64.h"
#include "syscall_table.h"

/* HWCAP bits of arch/arm64/include/uapi/asm/hwcap.h for a Cortex-A72 class
 * CPU: fp asimd evtstrm aes pmull sha1 sha2 crc32 cpuid. */
#define HWCAP_AARCH64 (0x1 | 0x2 | 0x4 | 0x8 | 0x10 | 0x20 | 0x40 | 0x80 | 0x800)

static int setup_cpu(uc_engine *uc)
{
    uint32_t pstate = 0; /* EL0t, interrupts unmasked */
    return engine_errno(uc_reg_write(uc, UC_ARM64_REG_PSTATE, &pstate));
}

static void start(uc_engine *uc, uint64_t pc, uint64_t sp)
{
    uint64_t zero = 0;
    for (int r = UC_ARM64_REG_X0; r <= UC_ARM64_REG_X28; r++)
        uc_reg_write(uc, r, &zero);
    uc_reg_write(uc, UC_ARM64_REG_X29, &zero);
    uc_reg_write(uc, UC_ARM64_REG_X30, &zero);
    uc_reg_write(uc, UC_ARM64_REG_SP, &sp);
    uc_reg_write(uc, UC_ARM64_REG_PC, &pc);
}

static void get_syscall(uc_engine *uc, uint64_t *nr, uint64_t a[6])
{
    static const int regs[6] = {UC_ARM64_REG_X0, UC_ARM64_REG_X1, UC_ARM64_REG_X2,
                                UC_ARM64_REG_X3, UC_ARM64_REG_X4, UC_ARM64_REG_X5};
    uc_reg_read(uc, UC_ARM64_REG_X8, nr);
    for (int i = 0; i < 6; i++)
        uc_reg_read(uc, regs[i], &a[i]);
}

static void set_return(uc_engine *uc, int64_t ret)
{
    uc_reg_write(uc, UC_ARM64_REG_X0, &ret);
}

static uint64_t get_pc(uc_engine *uc)
{
    uint64_t pc = 0;
    uc_reg_read(uc, UC_ARM64_REG_PC, &pc);
    return pc;
}

static uint64_t get_sp(uc_engine *uc)
{
    uint64_t sp = 0;
    uc_reg_read(uc, UC_ARM64_REG_SP, &sp);
    return sp;
}

static void set_pc(uc_engine *uc, uint64_t pc)
{
    uc_reg_write(uc, UC_ARM64_REG_PC, &pc);
}

/* arm64's do_signal(): x8 = __NR_restart_syscall. */
static void set_restart_syscall(uc_engine *uc)
{
    uint64_t nr = AARCH64_NR_restart_syscall;
    uc_reg_write(uc, UC_ARM64_REG_X8, &nr);
}

static void set_tls(uc_engine *uc, uint64_t tls)
{
    uc_reg_write(uc, UC_ARM64_REG_TPIDR_EL0, &tls);
}

static void ctx_set_return(uc_context *ctx, int64_t ret)
{
    uc_context_reg_write(ctx, UC_ARM64_REG_X0, &ret);
}

static void ctx_set_sp(uc_context *ctx, uint64_t sp)
{
    uc_context_reg_write(ctx, UC_ARM64_REG_SP, &sp);
}

static unsigned syscall_insn_size(uc_engine *uc)
{
    (void)uc;
    return 4;
}

/* struct stat of include/uapi/asm-generic/stat.h. */
struct stat_aarch64 {
    uint64_t dev, ino;
    uint32_t mode, nlink, uid, gid;
    uint64_t rdev, pad1;
    int64_t size;
    int32_t blksize, pad2;
    int64_t blocks;
    int64_t atime, atime_ns, mtime, mtime_ns, ctime, ctime_ns;
    uint32_t unused[2];
};
static_assert(sizeof(struct stat_aarch64) == 128, "struct stat is 128 bytes on arm64");

static int put_stat(struct task *t, uint64_t addr, const struct stat *st)
{
    struct stat_aarch64 g;
    memset(&g, 0, sizeof g);
    g.dev = st->st_dev;
    g.ino = st->st_ino;
    g.mode = st->st_mode;
    g.nlink = (uint32_t)st->st_nlink;
    g.uid = st->st_uid;
    g.gid = st->st_gid;
    g.rdev = st->st_rdev;
    g.size = st->st_size;
    g.blksize = (int32_t)st->st_blksize;
    g.blocks = st->st_blocks;
    g.atime = st->st_atim.tv_sec, g.atime_ns = st->st_atim.tv_nsec;
    g.mtime = st->st_mtim.tv_sec, g.mtime_ns = st->st_mtim.tv_nsec;
    g.ctime = st->st_ctim.tv_sec, g.ctime_ns = st->st_ctim.tv_nsec;
    return copy_to_guest(task_mm(t), addr, &g, sizeof g);
}

const struct abi abi_aarch64 = {
    .isa = LOADER_ISA_AARCH64,
    .name = "aarch64",
    .platform = "aarch64",
    .hwcap = HWCAP_AARCH64,
    .hwcap2 = 0,
    .word = 8,
    .arch = UC_ARCH_ARM64,
    .mode = UC_MODE_ARM,
    .limit = UINT64_C(1) << 48,
    .stack_top = UINT64_C(0xffffffffe000),
    .mmap_base = UINT64_C(0xfffff7000000),
    .dyn_base = UINT64_C(0xaaaaaaaa0000),
    .default_max_mem = UINT64_C(4) << 30,
    .sigtramp = UINT64_C(0xfffffffff000),
    .sigtramp_code = aarch64_sigtramp_code,
    .sigtramp_words = 2,
    .table = syscall_table_aarch64,
    .table_len = SYSCALL_TABLE_AARCH64_LEN,
    .syscall_name = syscall_name_aarch64,
    .lookup_private = NULL,
    .setup_cpu = setup_cpu,
    .start = start,
    .get_syscall = get_syscall,
    .set_return = set_return,
    .get_pc = get_pc,
    .set_tls = set_tls,
    .ctx_set_return = ctx_set_return,
    .ctx_set_sp = ctx_set_sp,
    .syscall_insn_size = syscall_insn_size,
    .setup_frame = aarch64_setup_frame,
    .sigreturn = aarch64_sigreturn,
    .put_stat = put_stat,
    /* asm-generic/ipcbuf.h, msgbuf.h, sembuf.h, shmbuf.h with 64-bit
     * longs: only the 64 layouts, no IPC_64 flag, each time one long;
     * SHMLBA is a page; struct shminfo64's shmmax as it is. */
    .sysv = {.ipc_64_flag = false, .perm_size = 48, .msq_time_words = 3,
             .sem_tail = 5 * 8, .shm_tail = 8 * 8, .shmlba = 4096, .time_high = false,
             .shmmax_cap = UINT64_MAX},
    /* asm-generic/fcntl.h: struct flock has 64-bit offsets, and the
     * F_*LK64 commands are only for !CONFIG_64BIT. */
    .flock32 = false,
    /* A native task takes the file system's 64-bit positions. */
    .dir_pos32 = false,
    /* copy_iovec_from_user() (lib/iov_iter.c): the array copied whole,
     * then each length checked. */
    .iov_checked_as_read = false,
    /* copy_nodes_to_user() (mm/mempolicy.c): the bytes of the longs asked for. */
    .nodemask_words = false,
    .kvm = true,
    .get_sp = get_sp,
    /* include/uapi/asm-generic/siginfo.h: the union holds pointers, so on
     * a 64-bit ABI it starts 8-aligned, after 4 bytes of padding. */
    .siginfo_fields = 16,
    /* MINSIGSTKSZ of arch/arm64/include/uapi/asm/signal.h (sys_sigaltstack). */
    .minsigstksz = 5120,
    /* AUDIT_ARCH_AARCH64 of include/uapi/linux/audit.h (syscall_get_arch()). */
    .audit_arch = 0xc00000b7u,
    .pc_mask = UINT64_MAX,
    /* arm64's arch_ptrace() adds only MTE's tag requests, which need a CPU
     * the machine does not emulate. */
    .arch_ptrace = NULL,
    /* get_user_cpu_mask() (kernel/sched/core.c) copies the bytes asked. */
    .cpumask_unit = 1,
    /* RLIM_INFINITY of include/uapi/asm-generic/resource.h, ~0UL. */
    .rlim_infinity = UINT64_MAX,
    /* The tagged address ABI (Documentation/arm64/tagged-address-abi.rst). */
    .tagged_addr = true,
    /* struct sysinfo of include/uapi/linux/sysinfo.h: 112 bytes, its _f
     * pad empty. */
    .sysinfo_longs = 14,
    .set_pc = set_pc,
    .set_restart_syscall = set_restart_syscall,
    .kuser_helpers = false,
};
