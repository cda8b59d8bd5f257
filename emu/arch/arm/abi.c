/* SPDX-License-Identifier: GPL-2.0-or-later */
/* abi.c (arm) - what is particular to AArch32 EL0 (a compat task on arm64
 * Linux): registers, the user address space layout, hwcaps, struct stat64. */
#include "abi.h"
#include "engine.h"
#include "loader.h"
#include "mm.h"
#include "task.h"

#include <assert.h>
#include <string.h>
#include <sys/stat.h>

#include "syscall_nr_arm.h"
#include "syscall_table.h"

/* What arm64 Linux 5.15 gives a compat task on a v8 CPU (its
 * COMPAT_ELF_HWCAP_DEFAULT and the MVFR-derived compat hwcaps): half thumb
 * fastmult vfp edsp neon vfpv3 tls vfpv4 idiva idivt lpae evtstrm. vfpd32
 * (bit 19) only came to arm64 after 5.15. COMPAT_HWCAP2: aes pmull sha1 sha2
 * crc32. */
#define HWCAP_ARM                                                                                 \
    ((1u << 1) | (1u << 2) | (1u << 4) | (1u << 6) | (1u << 7) | (1u << 12) | (1u << 13) |       \
     (1u << 15) | (1u << 16) | (1u << 17) | (1u << 18) | (1u << 20) | (1u << 21))
#define HWCAP2_ARM (0x1 | 0x2 | 0x4 | 0x8 | 0x10)

#define CPSR_USR 0x10
#define CPSR_T 0x20

static int setup_cpu(uc_engine *uc)
{
    /* USR mode first: SP and LR are banked, written later they must land in
     * USR's copies. Then enable VFP/NEON (CPACR cp10/cp11, FPEXC.EN). */
    uint32_t cpsr = CPSR_USR, fpexc = 0x40000000;
    uc_arm_cp_reg cpacr = {.cp = 15, .crn = 1, .crm = 0, .opc1 = 0, .opc2 = 2, .val = 0x00f00000};
    uc_err e = uc_reg_write(uc, UC_ARM_REG_CPSR, &cpsr);
    if (e == UC_ERR_OK)
        e = uc_reg_write(uc, UC_ARM_REG_CP_REG, &cpacr);
    if (e == UC_ERR_OK)
        e = uc_reg_write(uc, UC_ARM_REG_FPEXC, &fpexc);
    return engine_errno(e);
}

static void start(uc_engine *uc, uint64_t pc, uint64_t sp)
{
    /* A CPSR write cannot change the execution state; writing the pc with
     * bit 0 set is what selects Thumb. */
    uint32_t zero = 0, sp32 = (uint32_t)sp, cpsr = CPSR_USR, pc32 = (uint32_t)pc;
    uc_reg_write(uc, UC_ARM_REG_CPSR, &cpsr);
    for (int r = UC_ARM_REG_R0; r <= UC_ARM_REG_R12; r++)
        uc_reg_write(uc, r, &zero);
    uc_reg_write(uc, UC_ARM_REG_LR, &zero);
    uc_reg_write(uc, UC_ARM_REG_SP, &sp32);
    uc_reg_write(uc, UC_ARM_REG_PC, &pc32);
}

static void get_syscall(uc_engine *uc, uint64_t *nr, uint64_t a[6])
{
    static const int regs[6] = {UC_ARM_REG_R0, UC_ARM_REG_R1, UC_ARM_REG_R2,
                                UC_ARM_REG_R3, UC_ARM_REG_R4, UC_ARM_REG_R5};
    uint32_t v = 0;
    uc_reg_read(uc, UC_ARM_REG_R7, &v);
    *nr = v;
    for (int i = 0; i < 6; i++) {
        uc_reg_read(uc, regs[i], &v);
        a[i] = v;
    }
}

static void set_return(uc_engine *uc, int64_t ret)
{
    uint32_t v = (uint32_t)ret;
    uc_reg_write(uc, UC_ARM_REG_R0, &v);
}

/* The pc as uc_emu_start wants it: bit 0 set in Thumb state. */
static uint64_t get_pc(uc_engine *uc)
{
    uint32_t pc = 0, cpsr = 0;
    uc_reg_read(uc, UC_ARM_REG_PC, &pc);
    uc_reg_read(uc, UC_ARM_REG_CPSR, &cpsr);
    return pc | ((cpsr & CPSR_T) ? 1u : 0u);
}

static uint64_t get_sp(uc_engine *uc)
{
    uint32_t sp = 0;
    uc_reg_read(uc, UC_ARM_REG_SP, &sp);
    return sp;
}

/* Bit 0 of pc set selects Thumb, as in start: a rewound pc from get_pc
 * keeps the state it had. */
static void set_pc(uc_engine *uc, uint64_t pc)
{
    uint32_t pc32 = (uint32_t)pc;
    uc_reg_write(uc, UC_ARM_REG_PC, &pc32);
}

/* arm64's do_signal() for a compat task: r7 = __NR_compat_restart_syscall. */
static void set_restart_syscall(uc_engine *uc)
{
    uint32_t nr = ARM_NR_restart_syscall;
    uc_reg_write(uc, UC_ARM_REG_R7, &nr);
}

static void set_tls(uc_engine *uc, uint64_t tls)
{
    uc_arm_cp_reg tpidruro = {.cp = 15, .crn = 13, .crm = 0, .opc1 = 0, .opc2 = 3, .val = (uint32_t)tls};
    uc_reg_write(uc, UC_ARM_REG_CP_REG, &tpidruro);
}

static void ctx_set_return(uc_context *ctx, int64_t ret)
{
    uint32_t v = (uint32_t)ret;
    uc_context_reg_write(ctx, UC_ARM_REG_R0, &v);
}

static void ctx_set_sp(uc_context *ctx, uint64_t sp)
{
    uint32_t v = (uint32_t)sp;
    uc_context_reg_write(ctx, UC_ARM_REG_SP, &v);
}

static unsigned syscall_insn_size(uc_engine *uc)
{
    uint32_t cpsr = 0;
    uc_reg_read(uc, UC_ARM_REG_CPSR, &cpsr);
    return (cpsr & CPSR_T) ? 2 : 4;
}

/* struct stat64 of arch/arm/include/uapi/asm/stat.h, EABI layout. */
struct stat64_arm {
    uint64_t dev;
    uint8_t pad0[4];
    uint32_t ino32, mode, nlink, uid, gid;
    uint64_t rdev;
    uint8_t pad3[4];
    uint32_t pad_align;
    int64_t size;
    uint32_t blksize, pad_blk;
    uint64_t blocks;
    uint32_t atime, atime_ns, mtime, mtime_ns, ctime, ctime_ns;
    uint64_t ino;
};
static_assert(sizeof(struct stat64_arm) == 104, "struct stat64 is 104 bytes on EABI");

static int put_stat(struct task *t, uint64_t addr, const struct stat *st)
{
    struct stat64_arm g;
    memset(&g, 0, sizeof g);
    g.dev = st->st_dev;
    g.ino32 = (uint32_t)st->st_ino;
    g.ino = st->st_ino;
    g.mode = st->st_mode;
    g.nlink = (uint32_t)st->st_nlink;
    g.uid = st->st_uid;
    g.gid = st->st_gid;
    g.rdev = st->st_rdev;
    g.size = st->st_size;
    g.blksize = (uint32_t)st->st_blksize;
    g.blocks = (uint64_t)st->st_blocks;
    g.atime = (uint32_t)st->st_atim.tv_sec, g.atime_ns = (uint32_t)st->st_atim.tv_nsec;
    g.mtime = (uint32_t)st->st_mtim.tv_sec, g.mtime_ns = (uint32_t)st->st_mtim.tv_nsec;
    g.ctime = (uint32_t)st->st_ctim.tv_sec, g.ctime_ns = (uint32_t)st->st_ctim.tv_nsec;
    return copy_to_guest(task_mm(t), addr, &g, sizeof g);
}

const struct abi abi_arm = {
    .isa = LOADER_ISA_ARM,
    .name = "arm",
    .platform = "v8l",
    .hwcap = HWCAP_ARM,
    .hwcap2 = HWCAP2_ARM,
    .word = 4,
    .arch = UC_ARCH_ARM,
    .mode = UC_MODE_ARM,
    .limit = 0xffff0000u,
    .stack_top = 0xfffee000u,
    .mmap_base = 0xf7000000u,
    .dyn_base = 0xaaaaa000u,
    .default_max_mem = UINT64_C(3) << 30,
    .sigtramp = 0xfffef000u,
    .sigtramp_code = arm_sigtramp_code,
    .sigtramp_words = 4,
    .table = syscall_table_arm,
    .table_len = SYSCALL_TABLE_ARM_LEN,
    .syscall_name = syscall_name_arm,
    .lookup_private = syscall_lookup_arm_private,
    .setup_cpu = setup_cpu,
    .start = start,
    .get_syscall = get_syscall,
    .set_return = set_return,
    .get_pc = get_pc,
    .set_tls = set_tls,
    .ctx_set_return = ctx_set_return,
    .ctx_set_sp = ctx_set_sp,
    .syscall_insn_size = syscall_insn_size,
    .setup_frame = arm_setup_frame,
    .sigreturn = arm_sigreturn,
    .put_stat = put_stat,
    /* arm64's compat side (compat_ipc64_perm, compat_msqid64_ds,
     * compat_semid64_ds, compat_shmid64_ds): 32-bit words, each time with
     * its _high word; IPC_64 picks these; COMPAT_SHMLBA is 4 pages;
     * copy_compat_shminfo_to_user() cuts shmmax to INT_MAX. */
    .sysv = {.ipc_64_flag = true, .perm_size = 36, .msq_time_words = 6,
             .sem_tail = 7 * 4, .shm_tail = 12 * 4, .shmlba = 4 * 4096, .time_high = true,
             .shmmax_cap = INT32_MAX},
    /* compat_sys_fcntl64() (fs/fcntl.c): F_GETLK, F_SETLK and F_SETLKW
     * with struct compat_flock (32-bit offsets), F_GETLK64, F_SETLK64 and
     * F_SETLKW64 with struct compat_flock64. */
    .flock32 = true,
    /* A compat task gets 32-bit directory hashes (ext4's is_32bit_api()). */
    .dir_pos32 = true,
    /* compat_iovec_from_user() (lib/iov_iter.c): each compat_iovec's
     * length checked as it is read. */
    .iov_checked_as_read = true,
    /* copy_nodes_to_user() (mm/mempolicy.c): compat_put_bitmap(). */
    .nodemask_words = true,
    /* arm64 builds KVM without KVM_COMPAT: a compat task's open of
     * /dev/kvm is ENODEV and its ioctls EINVAL (virt/kvm/kvm_main.c
     * kvm_no_compat_open(), kvm_no_compat_ioctl()). */
    .kvm = false,
    .get_sp = get_sp,
    /* compat_siginfo_t (include/linux/compat.h): the union follows the
     * three ints directly. */
    .siginfo_fields = 12,
    /* COMPAT_MINSIGSTKSZ of arch/arm64/include/asm/compat.h
     * (compat_sys_sigaltstack). */
    .minsigstksz = 2048,
    /* AUDIT_ARCH_ARM of include/uapi/linux/audit.h (arm64's syscall_get_arch()
     * for a compat task). */
    .audit_arch = 0x40000028u,
    /* get_pc sets bit 0 in Thumb state; Linux's pc has it clear (the state
     * is the CPSR's T bit). */
    .pc_mask = 0xfffffffeu,
    .arch_ptrace = arm_arch_ptrace,
    /* compat_get_user_cpu_mask() reads whole compat_ulongs
     * (compat_get_bitmap(), kernel/compat.c). */
    .cpumask_unit = 4,
    /* COMPAT_RLIM_INFINITY of arch/arm64/include/asm/compat.h: a limit
     * past it reads as it (compat_sys_getrlimit()), it sets RLIM_INFINITY
     * (compat_sys_setrlimit()). */
    .rlim_infinity = 0xffffffffu,
    /* set_tagged_addr_ctrl() and get_tagged_addr_ctrl() refuse a compat
     * task (arch/arm64/kernel/process.c): EINVAL. */
    .tagged_addr = false,
    /* struct compat_sysinfo (kernel/sys.c): 64 bytes with its 8-byte _f. */
    .sysinfo_longs = 16,
    .set_pc = set_pc,
    .set_restart_syscall = set_restart_syscall,
    /* The compat vectors page with the kuser helpers
     * (aarch32_setup_additional_pages(), CONFIG_KUSER_HELPERS). */
    .kuser_helpers = true,
};
