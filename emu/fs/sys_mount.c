/* SPDX-License-Identifier: GPL-2.0-or-later */
/* sys_mount.c - mount(2) and umount2(2) for cgroups and mqueue alone:
 * `mount -t cgroup2 none DIR` shows the one cgroup v2 hierarchy
 * (emu/kernel/cgroup.c) at DIR too, as Linux does for every cgroup2 mount;
 * `mount -t cgroup -o cpuset` and `mount -t cpuset` a v1 hierarchy
 * (emu/kernel/cgroup_v1.c; docs/cgroups.md); `mount -t mqueue none DIR`
 * the machine's message queues (sysfs-fs/mqueue_fs.c; docs/ipc.md). Other
 * file systems, bind mounts and remounts are not modelled: ENODEV for an
 * unknown type, EINVAL for flags that need an existing mount. Both calls
 * need CAP_SYS_ADMIN (may_mount()), after the lookup of the target. */
#include "cgroup.h"
#include "cred.h"
#include "machine.h"
#include "mm.h"
#include "mqueue.h"
#include "syscalls.h"
#include "task.h"
#include "vfs.h"

#include <errno.h>
#include <string.h>
#include <sys/stat.h>

#define GUEST_MS_RDONLY 1
#define GUEST_MS_NOSUID 2
#define GUEST_MS_NODEV 4
#define GUEST_MS_NOEXEC 8
#define GUEST_MS_REMOUNT 32
#define GUEST_MS_NOATIME 1024
#define GUEST_MS_NODIRATIME 2048
#define GUEST_MS_STRICTATIME (1 << 24)
#define GUEST_MS_BIND 4096
#define GUEST_MS_MOVE 8192
#define GUEST_MS_PROPAGATION                                                                       \
    (0x20000 | 0x40000 | 0x80000 | 0x100000) /* unbindable, private, slave, shared */
#define GUEST_MNT_FORCE 1
#define GUEST_MNT_DETACH 2
#define GUEST_MNT_EXPIRE 4
#define GUEST_UMOUNT_NOFOLLOW 8

/* The canonical guest path of the directory upath names. */
static int64_t target_dir(struct task *t, uint64_t upath, char *out, size_t len)
{
    char path[VFS_PATH_MAX];
    int64_t err = path_from_guest(t, -100, upath, path, sizeof path);
    return err < 0 ? err : vfs_directory(&t->machine->vfs, t, path, out, len);
}

/* The mount's own options as /proc/self/mounts shows them after rw or ro,
 * in show_mnt_opts()'s order; relatime unless noatime or strictatime
 * (path_mount()'s default). */
static void mount_opts(unsigned long flags, char *out, size_t len)
{
    snprintf(out, len, "%s%s%s%s%s%s", flags & GUEST_MS_NOSUID ? "nosuid," : "",
             flags & GUEST_MS_NODEV ? "nodev," : "", flags & GUEST_MS_NOEXEC ? "noexec," : "",
             flags & GUEST_MS_NOATIME ? "noatime," : "",
             flags & GUEST_MS_NODIRATIME ? "nodiratime," : "",
             flags & (GUEST_MS_NOATIME | GUEST_MS_STRICTATIME) ? "" : "relatime,");
    size_t n = strlen(out);
    if (n)
        out[n - 1] = '\0';
}

/* a: source, target, filesystemtype, mountflags, data. */
SYSCALL_DECL(mount)
{
    unsigned long flags = (unsigned long)a[3];
    if (flags & (GUEST_MS_REMOUNT | GUEST_MS_BIND | GUEST_MS_MOVE | GUEST_MS_PROPAGATION))
        return -EINVAL;
    char type[64], source[64] = "none", dir[VFS_PATH_MAX];
    int64_t n = a[2] ? strncpy_from_guest(task_mm(t), type, a[2], sizeof type) : -EFAULT;
    if (n < 0)
        return n;
    if (n >= (int64_t)sizeof type)
        return -ENODEV;
    if (a[0] && strncpy_from_guest(task_mm(t), source, a[0], sizeof source) < 0)
        return -EFAULT;
    source[sizeof source - 1] = '\0';
    int64_t err = target_dir(t, a[1], dir, sizeof dir);
    if (err < 0)
        return err;
    if (!capable(t, CAP_SYS_ADMIN))
        return -EPERM;
    if (strcmp(type, "mqueue") == 0) {
        /* mqueue_get_tree: the one namespace's queues; no options of its own */
        char opts[64];
        mount_opts(flags, opts, sizeof opts);
        return vfs_mqueue_mount(&t->machine->vfs, source, dir, opts, flags & GUEST_MS_RDONLY);
    }
    if (strcmp(type, "cgroup2") == 0)
        return vfs_cgroup_mount(&t->machine->vfs, source, dir, 0, "cgroup2", "");
    if (strcmp(type, "cgroup") != 0 && strcmp(type, "cpuset") != 0)
        return -ENODEV;
    /* cgroup v1: the options are a string of at most a page. */
    char data[256] = "", options[128];
    n = a[4] ? strncpy_from_guest(task_mm(t), data, a[4], sizeof data) : 0;
    if (n < 0)
        return n;
    if (n >= (int64_t)sizeof data)
        return -EINVAL;
    int hier = cgroup_v1_mount(t->machine, type, data, options + 1, sizeof options - 1);
    if (hier < 0)
        return hier;
    options[0] = ',';
    err = vfs_cgroup_mount(&t->machine->vfs, source, dir, (unsigned)hier, "cgroup", options);
    if (err < 0)
        cgroup_v1_umount(t->machine, (unsigned)hier);
    return err;
}

SYSCALL_DECL(umount2)
{
    if (a[1] &
        ~(uint64_t)(GUEST_MNT_FORCE | GUEST_MNT_DETACH | GUEST_MNT_EXPIRE | GUEST_UMOUNT_NOFOLLOW))
        return -EINVAL;
    char dir[VFS_PATH_MAX];
    int64_t err = target_dir(t, a[0], dir, sizeof dir);
    if (err < 0)
        return err;
    if (!capable(t, CAP_SYS_ADMIN))
        return -EPERM;
    if (vfs_mqueue_rel(&t->machine->vfs, dir)) {
        /* an mqueue mount: busy while a queue is open through it */
        if (!mq_fs_umount(t->machine, dir, a[1] & GUEST_MNT_DETACH))
            return -EBUSY;
        return vfs_mqueue_umount(&t->machine->vfs, dir);
    }
    int hier = vfs_cgroup_umount(&t->machine->vfs, dir);
    if (hier > 0)
        cgroup_v1_umount(t->machine, (unsigned)hier);
    return hier < 0 ? hier : 0;
}
