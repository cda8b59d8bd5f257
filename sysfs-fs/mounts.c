/* SPDX-License-Identifier: GPL-2.0-or-later */
/* mounts.c - /proc/PID/mounts and /proc/PID/mountinfo: the guest's own
 * mounts, not the host's. The root is the sysroot (read-only unless --rw),
 * /tmp and /dev/shm the private tmpfs directories sharing --tmp-size,
 * /proc, /sys, /dev and /dev/pts the emulated kernel's trees, /dev/mqueue
 * the message queues (mqueue_fs.c), and for a
 * scenario its programs' read-only directory (VFS_PROGRAMS_DIR). The device
 * numbers are those stat reports for each mount point, so a program can
 * match a file to its mount. */
#include "vfs.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/statfs.h>
#include <sys/sysmacros.h>

/* As vfs_stat_virtual numbers the virtual trees (tree.c). */
#define DEV_DEVTMPFS makedev(0, 5)
#define DEV_SYSFS makedev(0, 0x15)
#define DEV_DEBUGFS makedev(0, 0x7)
#define DEV_TRACEFS makedev(0, 0xc)
#define DEV_PROC makedev(0, 0x16)
#define DEV_CGROUP2 makedev(0, 0x1a)
#define DEV_MQUEUE makedev(0, VFS_MQUEUE_DEV)

struct guest_mount {
    const char *point, *fstype, *source;
    const char *flags;      /* the mount's own flags, after rw or ro */
    const char *superopts;  /* the file system's options, after rw or ro */
    bool readonly;
    dev_t dev;
    int parent;             /* index of the mount it lies on, -1 for the root */
};

const struct vfs_fs_type vfs_fs_types[VFS_FS_TYPES] = {
    {"sysfs", true},   {"tmpfs", true},   {"proc", true},     {"cgroup", true},
    {"cgroup2", true}, {"cpuset", true},  {"devtmpfs", true}, {"debugfs", true},
    {"tracefs", true}, {"devpts", true},  {"mqueue", true},   {"ext4", false},
};

/* The name of the host file system under the root, by its statfs magic. */
static const char *host_fstype(int fd)
{
    static const struct {
        long magic;
        const char *name;
    } known[] = {
        {0xef53, "ext4"},      {0x9123683e, "btrfs"}, {0x58465342, "xfs"},
        {0x794c7630, "overlay"}, {0x01021994, "tmpfs"}, {0x2fc12fc1, "zfs"},
        {0xf2f52010, "f2fs"},  {0x6969, "nfs"},       {0x65735546, "fuse"},
    };
    struct statfs s;
    if (fstatfs(fd, &s) == 0)
        for (size_t i = 0; i < sizeof known / sizeof *known; i++)
            if ((long)s.f_type == known[i].magic)
                return known[i].name;
    return "unknown";
}

static dev_t dev_of(int fd)
{
    struct stat st;
    return fstat(fd, &st) == 0 ? st.st_dev : 0;
}

const char *vfs_mount_point(const struct vfs *v, const char *abspath)
{
    static const char *const points[] = {"/sys", "/proc", "/dev", "/dev/pts", "/dev/shm",
                                         VFS_CGROUP_MOUNT, "/tmp", "/sys/kernel/debug",
                                         "/sys/kernel/tracing", VFS_PROGRAMS_DIR};
    /* the fixed points that are there, then the guest's mounts */
    const char *all[sizeof points / sizeof *points + 1 + VFS_CGROUP_MOUNTS + VFS_MQUEUE_MOUNTS];
    size_t k = 0;
    for (size_t i = 0; i < sizeof points / sizeof *points; i++)
        if (strcmp(points[i], VFS_PROGRAMS_DIR) != 0 || v->mounts[VFS_MOUNT_PROGRAMS].fd >= 0)
            all[k++] = points[i];
    if (!v->mqueue_dev_gone)
        all[k++] = VFS_MQUEUE_MOUNT;
    for (unsigned i = 0; i < v->ncgroup_mounts; i++)
        all[k++] = v->cgroup_mounts[i].dir;
    for (unsigned i = 0; i < v->nmqueue_mounts; i++)
        all[k++] = v->mqueue_mounts[i].dir;
    const char *best = "/";
    size_t best_len = 1;
    for (size_t i = 0; i < k; i++) {
        size_t n = strlen(all[i]);
        if (n > best_len && strncmp(abspath, all[i], n) == 0 &&
            (abspath[n] == '/' || !abspath[n])) {
            best = all[i];
            best_len = n;
        }
    }
    return best;
}

/* The index in table of the mount holding dir: the longest point that is a
 * prefix of it (a guest mount's parent). */
static size_t parent_of(const struct vfs *v, const struct guest_mount *table, size_t count,
                        size_t mqueue_index, const char *dir)
{
    size_t parent = 0, best = 0;
    for (size_t i = 0; i < count; i++) {
        size_t n = strlen(table[i].point);
        bool holds = strncmp(dir, table[i].point, n) == 0 &&
                     (n == 1 || dir[n] == '/' || dir[n] == '\0');
        if (i == mqueue_index && v->mqueue_dev_gone)
            holds = false;
        if (holds && n >= best) {
            best = n;
            parent = i;
        }
    }
    return parent;
}

int vfs_mounts_text(struct vfs *v, bool mountinfo, char **data, size_t *size)
{
    char tmpfs_opts[48];
    snprintf(tmpfs_opts, sizeof tmpfs_opts, "size=%" PRIu64 "k", v->tmp_budget.limit / 1024);
    const struct vfs_mount *root = &v->mounts[VFS_MOUNT_ROOT];
    const struct vfs_mount *programs = &v->mounts[VFS_MOUNT_PROGRAMS];
    const struct guest_mount table[] = {
        {"/", host_fstype(root->fd), "/dev/root", "relatime", "", !root->writable,
         dev_of(root->fd), -1},
        {"/sys", "sysfs", "sysfs", "nosuid,nodev,noexec,relatime", "", false, DEV_SYSFS, 0},
        {"/proc", "proc", "proc", "nosuid,nodev,noexec,relatime", "", false, DEV_PROC, 0},
        {"/dev", "devtmpfs", "udev", "nosuid,nodev,noexec,relatime", "mode=755", false,
         DEV_DEVTMPFS, 0},
        {"/dev/pts", "devpts", "devpts", "nosuid,nodev,noexec,relatime",
         "gid=5,mode=620,ptmxmode=000", false, DEV_DEVTMPFS, 3},
        {"/dev/shm", "tmpfs", "tmpfs", "nosuid,nodev,relatime", tmpfs_opts, false,
         dev_of(v->mounts[VFS_MOUNT_SHM].fd), 3},
        /* as systemd mounts it on Debian */
        {VFS_CGROUP_MOUNT, "cgroup2", "cgroup2", "nosuid,nodev,noexec,relatime",
         "nsdelegate,memory_recursiveprot", false, DEV_CGROUP2, 1},
        {"/tmp", "tmpfs", "tmpfs", "nosuid,nodev,relatime", tmpfs_opts, false,
         dev_of(v->mounts[VFS_MOUNT_TMP].fd), 0},
        {"/sys/kernel/debug", "debugfs", "debugfs", "nosuid,nodev,noexec,relatime", "", false,
         DEV_DEBUGFS, 1},
        {"/sys/kernel/tracing", "tracefs", "tracefs", "nosuid,nodev,noexec,relatime", "", false,
         DEV_TRACEFS, 1},
        /* as systemd mounts it on Debian; gone after the guest's umount */
        {VFS_MQUEUE_MOUNT, "mqueue", "mqueue", "nosuid,nodev,noexec,relatime", "", false,
         DEV_MQUEUE, 3},
        /* last: only when there is one */
        {VFS_PROGRAMS_DIR, "tmpfs", "asymu-programs", "nosuid,nodev,relatime", "", true,
         dev_of(programs->fd), 0},
    };
    size_t count = sizeof table / sizeof *table - (programs->fd < 0);
    const size_t mqueue_index = sizeof table / sizeof *table - 2;
    enum { FIRST_ID = 21, ROOT_PARENT_ID = 1 };
    FILE *out = open_memstream(data, size);
    if (!out)
        return -ENOMEM;
    for (size_t i = 0; i < count; i++) {
        const struct guest_mount *m = &table[i];
        if (i == mqueue_index && v->mqueue_dev_gone)
            continue; /* the ids of the others stay, as Linux's */
        const char *rw = m->readonly ? "ro" : "rw";
        const char *comma = *m->superopts ? "," : "";
        if (mountinfo)
            fprintf(out, "%zu %d %u:%u / %s %s,%s - %s %s %s%s%s\n", FIRST_ID + i,
                    m->parent < 0 ? ROOT_PARENT_ID : FIRST_ID + m->parent, major(m->dev),
                    minor(m->dev), m->point, rw, m->flags, m->fstype, m->source, rw, comma,
                    m->superopts);
        else
            fprintf(out, "%s %s %s %s,%s%s%s 0 0\n", m->source, m->point, m->fstype, rw,
                    m->flags, comma, m->superopts);
    }
    /* cgroup2 mounted by the guest, in mount order, on the mount holding
     * their directory (the longest point that is a prefix of it). */
    for (unsigned c = 0; c < v->ncgroup_mounts; c++) {
        const struct vfs_cgroup_mount *cm = &v->cgroup_mounts[c];
        size_t parent = parent_of(v, table, count, mqueue_index, cm->dir);
        if (mountinfo)
            fprintf(out, "%zu %zu %u:%u / %s rw,relatime - %s %s rw%s\n", FIRST_ID + count + c,
                    FIRST_ID + parent, major(DEV_CGROUP2), minor(DEV_CGROUP2), cm->dir, cm->type,
                    cm->source, cm->options);
        else
            fprintf(out, "%s %s %s rw,relatime%s 0 0\n", cm->source, cm->dir, cm->type,
                    cm->options);
    }
    /* then the guest's mqueue mounts (its flags; the super block's "rw") */
    for (unsigned q = 0; q < v->nmqueue_mounts; q++) {
        const struct vfs_mqueue_mount *mm = &v->mqueue_mounts[q];
        size_t parent = parent_of(v, table, count, mqueue_index, mm->dir);
        const char *rw = mm->readonly ? "ro" : "rw", *comma = *mm->flags ? "," : "";
        if (mountinfo)
            fprintf(out, "%zu %zu %u:%u / %s %s%s%s - mqueue %s rw\n",
                    FIRST_ID + count + v->ncgroup_mounts + q, FIRST_ID + parent,
                    major(DEV_MQUEUE), minor(DEV_MQUEUE), mm->dir, rw, comma, mm->flags,
                    mm->source);
        else
            fprintf(out, "%s %s mqueue %s%s%s 0 0\n", mm->source, mm->dir, rw, comma, mm->flags);
    }
    if (fclose(out) != 0) {
        free(*data);
        *data = NULL;
        return -ENOMEM;
    }
    return 0;
}
