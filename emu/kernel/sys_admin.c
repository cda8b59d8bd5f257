/* SPDX-License-Identifier: GPL-2.0-or-later */
/* sys_admin.c - the administrative calls Linux refuses an asymu guest, or
 * that asymu refuses where Linux would act on the machine: each answers as
 * Debian 12's kernel (5.15 reference) does for this machine's settings
 * (modules_disabled=1, kexec_load_disabled=1, perf_event_paranoid=3,
 * unprivileged_bpf_disabled=2, vm.unprivileged_userfaultfd=0, no swap, no
 * quota, no PCI device, Landlock not in the LSM list), with the argument
 * checks Linux makes first. The list and the root answers that differ from
 * Linux: docs/processes.md, "Calls Linux refuses here". */
#include "file.h"
#include "fs_calls.h"
#include "machine.h"
#include "mm.h"
#include "signals.h"
#include "syscalls.h"
#include "task.h"
#include "vfs.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <string.h>
#include <sys/stat.h>

#define GUEST_AT_FDCWD (-100)
#define GUEST_AT_SYMLINK_NOFOLLOW 0x100
#define GUEST_AT_SYMLINK_FOLLOW 0x400
#define GUEST_AT_EMPTY_PATH 0x1000

/* user_path_at(): the file upath names must exist (-ENOENT...), and be a
 * directory when dir (LOOKUP_DIRECTORY: -ENOTDIR); "" only with
 * AT_EMPTY_PATH. */
static int lookup(struct task *t, int dirfd, uint64_t upath, int at_flags, bool dir)
{
    char first[2] = "";
    if (strncpy_from_guest(task_mm(t), first, upath, sizeof first) == -EFAULT)
        return -EFAULT;
    if (first[0] == '\0' && !(at_flags & GUEST_AT_EMPTY_PATH))
        return -ENOENT; /* getname(): "" names nothing */
    struct stat st;
    int err = stat_at(t, dirfd, upath, at_flags, &st);
    if (err < 0)
        return err;
    return dir && !S_ISDIR(st.st_mode) ? -ENOTDIR : 0;
}

/* file_open_name(path, O_RDWR...) as swapon, swapoff and acct do it. */
static int open_check(struct task *t, uint64_t upath, int flags, bool regular)
{
    char path[VFS_PATH_MAX];
    int64_t err = path_from_guest(t, GUEST_AT_FDCWD, upath, path, sizeof path);
    if (err < 0)
        return (int)err;
    struct file *f;
    if ((err = file_open_path(t, path, flags, 0, &f)) < 0)
        return (int)err;
    struct stat st;
    err = file_stat(t, f, &st);
    file_put(f);
    if (err < 0)
        return (int)err;
    return regular && !S_ISREG(st.st_mode) ? -EACCES : 0;
}

/* ---- reboot (kernel/reboot.c) ---- */

#define REBOOT_MAGIC1 0xfee1deadu
#define REBOOT_CMD_RESTART 0x01234567u
#define REBOOT_CMD_HALT 0xcdef0123u
#define REBOOT_CMD_CAD_ON 0x89abcdefu
#define REBOOT_CMD_CAD_OFF 0x00000000u
#define REBOOT_CMD_POWER_OFF 0x4321fedcu
#define REBOOT_CMD_RESTART2 0xa1b2c3d4u
#define REBOOT_CMD_SW_SUSPEND 0xd000fce2u
#define REBOOT_CMD_KEXEC 0x45584543u

/* The machine is the guest's: a restart, halt or power-off ends it as
 * reboot_pid_ns() ends a PID namespace, pid 1 killed by SIGHUP (restart)
 * or SIGINT (halt, power-off), the caller exiting 0, every other process
 * killed with the machine. */
static void end_machine(struct task *t, int sig)
{
    struct process *init = t->machine->init;
    if (t->proc != init)
        process_exit_group(t->proc, 0);
    if (init && !init->exiting)
        process_exit_group(init, sig);
    t->stop = true;
}

SYSCALL_DECL(reboot)
{
    uint32_t magic1 = (uint32_t)a[0], magic2 = (uint32_t)a[1], cmd = (uint32_t)a[2];
    if (!capable(t, CAP_SYS_BOOT))
        return -EPERM;
    if (magic1 != REBOOT_MAGIC1 || (magic2 != 672274793 && magic2 != 85072278 &&
                                    magic2 != 369367448 && magic2 != 537993216))
        return -EINVAL;
    switch (cmd) {
    case REBOOT_CMD_CAD_ON:
    case REBOOT_CMD_CAD_OFF:
        return 0; /* C_A_D: nothing delivers Ctrl-Alt-Del here */
    case REBOOT_CMD_RESTART:
    case REBOOT_CMD_RESTART2:
        end_machine(t, SIGHUP);
        return 0;
    case REBOOT_CMD_HALT:
    case REBOOT_CMD_POWER_OFF:
        end_machine(t, SIGINT);
        return 0;
    case REBOOT_CMD_KEXEC:
        return -EINVAL; /* kernel_kexec(): no image loaded */
    case REBOOT_CMD_SW_SUSPEND:
        return -ENODEV; /* hibernate(): no swap device for the image */
    default:
        return -EINVAL;
    }
}

/* ---- kexec and modules: EPERM (kexec_load_disabled, modules_disabled) ---- */

/* kexec_load_check() and kexec_file_load: !capable(CAP_SYS_BOOT) ||
 * kexec_load_disabled comes first. */
SYSCALL_DECL(kexec_load)
{
    (void)t, (void)a;
    return -EPERM;
}

SYSCALL_DECL(kexec_file_load)
{
    (void)t, (void)a;
    return -EPERM;
}

/* may_init_module() (init_module, finit_module) and delete_module:
 * !capable(CAP_SYS_MODULE) || modules_disabled before any argument. */
SYSCALL_DECL(init_module)
{
    (void)t, (void)a;
    return -EPERM;
}

SYSCALL_DECL(finit_module)
{
    (void)t, (void)a;
    return -EPERM;
}

SYSCALL_DECL(delete_module)
{
    (void)t, (void)a;
    return -EPERM;
}

/* ---- swap (mm/swapfile.c): the machine has none ---- */

#define SWAP_FLAGS_VALID 0x7ffffu

/* swapon: claim_swapfile() and read_swap_header() refuse every file here:
 * EINVAL (a file with a swap signature too: asymu has no swap). */
SYSCALL_DECL(swapon)
{
    if ((uint32_t)a[1] & ~SWAP_FLAGS_VALID)
        return -EINVAL;
    if (!capable(t, CAP_SYS_ADMIN))
        return -EPERM;
    int err = open_check(t, a[0], O_RDWR, false);
    return err < 0 ? err : -EINVAL;
}

/* swapoff: no active swap area is the file: EINVAL. */
SYSCALL_DECL(swapoff)
{
    if (!capable(t, CAP_SYS_ADMIN))
        return -EPERM;
    int err = open_check(t, a[0], O_RDWR, false);
    return err < 0 ? err : -EINVAL;
}

/* acct (kernel/acct.c): acct(NULL) turns accounting off (it is); a file
 * is checked as acct_on() opens it (O_WRONLY|O_APPEND, a regular file or
 * EACCES) and accepted, but asymu writes no accounting records. */
SYSCALL_DECL(acct)
{
    if (!capable(t, CAP_SYS_PACCT))
        return -EPERM;
    if (!a[0])
        return 0;
    return open_check(t, a[0], O_WRONLY | O_APPEND, true);
}

/* ---- quota (fs/quota/quota.c): no file system here has quota ---- */

#define Q_SYNC 0x800001u
#define MAXQUOTAS 3u

/* quotactl(QCMD(cmd, type), special, id, addr): special names a block device
 * (quotactl_block()); the guest has none: ENOTBLK for what exists. */
SYSCALL_DECL(quotactl)
{
    uint32_t cmd = (uint32_t)a[0];
    if ((cmd & 0xff) >= MAXQUOTAS)
        return -EINVAL;
    if (!a[1])
        return (cmd >> 8) == Q_SYNC ? 0 : -ENODEV; /* quota_sync_all() */
    struct stat st;
    int err = stat_at(t, GUEST_AT_FDCWD, a[1], 0, &st);
    if (err < 0)
        return err;
    return S_ISBLK(st.st_mode) ? -ENODEV : -ENOTBLK;
}

/* quotactl_fd(fd, cmd, id, addr): do_quotactl() on the file's file
 * system, which has no quota operations (!sb->s_qcop): ENOSYS, as Linux
 * answers for proc or (in 5.15) tmpfs. */
SYSCALL_DECL(quotactl_fd)
{
    uint32_t cmd = (uint32_t)a[1];
    if ((cmd & 0xff) >= MAXQUOTAS)
        return -EINVAL;
    if (!file_get(t, (int)a[0]))
        return -EBADF;
    return -ENOSYS;
}

/* ---- pivot_root (fs/namespace.c) ---- */

/* The new root must be a mount point other than the root: the guest's
 * mounts are fixed, so after the lookups EINVAL ("not a mountpoint"). */
SYSCALL_DECL(pivot_root)
{
    if (!capable(t, CAP_SYS_ADMIN) /* may_mount() */)
        return -EPERM;
    int err = lookup(t, GUEST_AT_FDCWD, a[0], 0, true);
    if (err == 0)
        err = lookup(t, GUEST_AT_FDCWD, a[1], 0, true);
    return err < 0 ? err : -EINVAL;
}

/* ---- security modules and kernel facilities ---- */

/* Landlock is built into Debian 12's kernel but not in its lsm= list:
 * landlock_initialized is false and every call, even the ABI version
 * query, is EOPNOTSUPP (security/landlock/syscalls.c). */
SYSCALL_DECL(landlock_create_ruleset)
{
    (void)t, (void)a;
    return -EOPNOTSUPP;
}

SYSCALL_DECL(landlock_add_rule)
{
    (void)t, (void)a;
    return -EOPNOTSUPP;
}

SYSCALL_DECL(landlock_restrict_self)
{
    (void)t, (void)a;
    return -EOPNOTSUPP;
}

#define PERF_FLAG_ALL 0xfu

/* perf_event_open: the flag check, then Debian's perf_event_paranoid=3
 * (no use without CAP_PERFMON/CAP_SYS_ADMIN): EACCES. Root: the machine
 * has no PMU and asymu no software events: ENOENT, as perf_init_event()
 * answers for an event type no PMU serves. */
SYSCALL_DECL(perf_event_open)
{
    if (a[4] & ~(uint64_t)PERF_FLAG_ALL)
        return -EINVAL;
    if (!(capable(t, CAP_PERFMON) || capable(t, CAP_SYS_ADMIN)))
        return -EACCES;
    uint32_t head[2];
    if (copy_from_guest(task_mm(t), head, a[0], sizeof head) < 0)
        return -EFAULT;
    return -ENOENT;
}

/* bpf: unprivileged_bpf_disabled=2 refuses it without CAP_BPF (before
 * the attribute is read). Root: asymu has no BPF, EPERM as well. */
SYSCALL_DECL(bpf)
{
    (void)a;
    (void)t; /* CAP_BPF: root is refused too */
    return -EPERM;
}

#define UFFD_USER_MODE_ONLY 1u

/* userfaultfd (fs/userfaultfd.c): vm.unprivileged_userfaultfd=0 refuses
 * it without CAP_SYS_PTRACE unless UFFD_USER_MODE_ONLY; then the flag
 * check. What Linux would then create asymu refuses: EPERM. */
SYSCALL_DECL(userfaultfd)
{
    uint32_t flags = (uint32_t)a[0];
    if (!(flags & UFFD_USER_MODE_ONLY) && !capable(t, CAP_SYS_PTRACE))
        return -EPERM;
    if (flags & ~(UFFD_USER_MODE_ONLY | O_CLOEXEC | O_NONBLOCK))
        return -EINVAL;
    return -EPERM;
}

/* fanotify_init: EPERM without CAP_SYS_ADMIN (and asymu has no fanotify
 * for root either: EPERM). fanotify_mark: no descriptor is a fanotify
 * group: EBADF for a closed one, else EINVAL. */
SYSCALL_DECL(fanotify_init)
{
    (void)t, (void)a;
    return -EPERM;
}

SYSCALL_DECL(fanotify_mark)
{
    return file_get(t, (int)a[0]) ? -EINVAL : -EBADF;
}

/* ---- file handles (fs/fhandle.c) ---- */

/* name_to_handle_at: the flag check and the lookup, then EOPNOTSUPP, as
 * for a file system without export operations: asymu gives no handles. */
SYSCALL_DECL(name_to_handle_at)
{
    int flags = (int)a[4];
    if (flags & ~(GUEST_AT_SYMLINK_FOLLOW | GUEST_AT_EMPTY_PATH))
        return -EINVAL;
    int at = (flags & GUEST_AT_EMPTY_PATH) |
             ((flags & GUEST_AT_SYMLINK_FOLLOW) ? 0 : GUEST_AT_SYMLINK_NOFOLLOW);
    int err = lookup(t, (int)a[0], a[1], at, false);
    return err < 0 ? err : -EOPNOTSUPP;
}

#define HANDLE_BYTES_MAX 128u /* MAX_HANDLE_SZ */

/* open_by_handle_at: handle_to_path() needs CAP_DAC_READ_SEARCH; then the
 * handle's size, the mount's descriptor, and ESTALE: no handle names a
 * file here (exportfs_decode_fh() without export operations). */
SYSCALL_DECL(open_by_handle_at)
{
    if (!capable(t, CAP_DAC_READ_SEARCH))
        return -EPERM;
    uint32_t head[2];
    if (copy_from_guest(task_mm(t), head, a[1], sizeof head) < 0)
        return -EFAULT;
    if (head[0] > HANDLE_BYTES_MAX || head[0] == 0)
        return -EINVAL;
    uint8_t handle[HANDLE_BYTES_MAX];
    if (copy_from_guest(task_mm(t), handle, a[1] + 8, head[0]) < 0)
        return -EFAULT;
    if ((int)a[0] != GUEST_AT_FDCWD && !file_get(t, (int)a[0]))
        return -EBADF;
    return -ESTALE;
}

/* remap_file_pages (mm/mmap.c, an emulation by mmap since 4.0): Linux
 * answers EINVAL for a prot other than 0, a range that wraps, or one not
 * inside a shared mapping; what it would then remap (a range of one shared
 * file mapping, as mmap(MAP_SHARED|MAP_FIXED) of the file at pgoff) asymu
 * refuses too: EINVAL for every call. */
SYSCALL_DECL(remap_file_pages)
{
    (void)t, (void)a;
    return -EINVAL;
}
