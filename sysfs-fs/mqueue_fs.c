/* SPDX-License-Identifier: GPL-2.0-or-later */
/* mqueue_fs.c - the mqueue file system (Linux's ipc/mqueue.c,
 * mqueue_fs_type): the machine's POSIX message queues as files. It is at
 * /dev/mqueue from boot, as systemd mounts it on Debian 12, and mount(2)
 * puts it at more directories; every mount shows the same queues, as
 * Linux's mounts within one IPC namespace share its superblock
 * (mqueue_get_tree). The root is a sticky 1777 directory (mqueue_fill_super)
 * whose entries are the queues' names; the queues themselves live in
 * emu/ipc/mqueue.c, reached through the provider. */
#include "mqueue_fs.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#define DIRENT_SIZE 20 /* mqueue.c: what each entry adds to the root's size */

static bool under(const char *path, const char *dir)
{
    size_t n = strlen(dir);
    return strncmp(path, dir, n) == 0 && (path[n] == '\0' || path[n] == '/');
}

/* The guest's mount holding abspath, or NULL (VFS_MQUEUE_MOUNT's or none). */
static const struct vfs_mqueue_mount *guest_mount(const struct vfs *v, const char *abspath)
{
    for (unsigned i = 0; i < v->nmqueue_mounts; i++)
        if (under(abspath, v->mqueue_mounts[i].dir))
            return &v->mqueue_mounts[i];
    return NULL;
}

const char *vfs_mqueue_rel(const struct vfs *v, const char *abspath)
{
    const char *dir = NULL;
    const struct vfs_mqueue_mount *m;
    if (!v->mqueue_dev_gone && under(abspath, VFS_MQUEUE_MOUNT))
        dir = VFS_MQUEUE_MOUNT;
    else if ((m = guest_mount(v, abspath)))
        dir = m->dir;
    if (!dir)
        return NULL;
    const char *rel = abspath + strlen(dir);
    return *rel ? rel + 1 : rel;
}

bool vfs_mqueue_readonly(const struct vfs *v, const char *abspath)
{
    const struct vfs_mqueue_mount *m = guest_mount(v, abspath);
    return m && m->readonly && !(!v->mqueue_dev_gone && under(abspath, VFS_MQUEUE_MOUNT));
}

const char *vfs_mqueue_flags(const struct vfs *v, const char *abspath)
{
    if (!v->mqueue_dev_gone && under(abspath, VFS_MQUEUE_MOUNT))
        return "nosuid,nodev,noexec,relatime"; /* systemd's (mounts.c) */
    const struct vfs_mqueue_mount *m = guest_mount(v, abspath);
    return m ? m->flags : "";
}

int vfs_mqueue_mount(struct vfs *v, const char *source, const char *dir, const char *flags,
                     bool readonly)
{
    /* as vfs_cgroup_mount: a mount point once; nor in a cgroup tree, whose
     * lookups come first */
    if ((vfs_mqueue_rel(v, dir) && !*vfs_mqueue_rel(v, dir)) || vfs_cgroup_rel(v, dir, NULL) ||
        strcmp(dir, "/") == 0)
        return -EBUSY;
    if (v->nmqueue_mounts == VFS_MQUEUE_MOUNTS)
        return -ENOSPC;
    if (strlen(dir) >= sizeof v->mqueue_mounts[0].dir)
        return -ENAMETOOLONG;
    struct vfs_mqueue_mount *m = &v->mqueue_mounts[v->nmqueue_mounts++];
    snprintf(m->dir, sizeof m->dir, "%s", dir);
    snprintf(m->source, sizeof m->source, "%s", source);
    snprintf(m->flags, sizeof m->flags, "%s", flags);
    m->readonly = readonly;
    return 0;
}

/* The queues stay: they belong to the namespace, not to a mount (an open
 * descriptor keeps working, as after Linux's umount). */
int vfs_mqueue_umount(struct vfs *v, const char *dir)
{
    for (unsigned i = 0; i < v->nmqueue_mounts; i++) {
        if (strcmp(v->mqueue_mounts[i].dir, dir) == 0) {
            for (unsigned j = i + 1; j < v->nmqueue_mounts; j++)
                v->mqueue_mounts[j - 1] = v->mqueue_mounts[j]; /* keep mount order */
            v->nmqueue_mounts--;
            return 0;
        }
    }
    if (!v->mqueue_dev_gone && strcmp(dir, VFS_MQUEUE_MOUNT) == 0) {
        v->mqueue_dev_gone = true;
        return 0;
    }
    return -EINVAL;
}

static void count_one(const char *name, unsigned char type, void *arg)
{
    (void)name;
    (void)type;
    ++*(int *)arg;
}

int mqueue_fs_lookup(struct vfs *v, void *ctx, const char *abspath, const char *rel,
                     struct vfs_node *node)
{
    const struct vfs_provider *p = v->provider;
    if (!p->mqueue_stat || !p->mqueue_list || strlen(abspath) >= sizeof node->path)
        return -ENOENT;
    memset(node, 0, sizeof *node);
    snprintf(node->path, sizeof node->path, "%s", abspath);
    node->arg = MQUEUE_NODE;
    if (!*rel) {
        /* mqueue_fill_super: S_IFDIR | S_ISVTX | S_IRWXUGO */
        int n = 0;
        p->mqueue_list(ctx, count_one, &n);
        node->kind = VNODE_DIR;
        node->mode = 01777;
        node->arg2 = n;
        return 1;
    }
    char name[256];
    const char *slash = strchr(rel, '/');
    size_t len = slash ? (size_t)(slash - rel) : strlen(rel);
    if (len >= sizeof name)
        return -ENAMETOOLONG;
    memcpy(name, rel, len);
    name[len] = '\0';
    struct stat st;
    if (p->mqueue_stat(ctx, name, &st) < 0)
        return -ENOENT;
    if (slash)
        return -ENOTDIR; /* a queue is a regular file */
    node->kind = VNODE_MQUEUE;
    node->mode = st.st_mode & 07777;
    return 1;
}

int mqueue_fs_stat(struct vfs *v, void *ctx, const struct vfs_node *node, struct stat *st)
{
    const char *rel = vfs_mqueue_rel(v, node->path);
    if (node->kind != VNODE_MQUEUE || !rel || !v->provider->mqueue_stat)
        return -ENOENT;
    return v->provider->mqueue_stat(ctx, rel, st);
}

void mqueue_fs_stat_node(const struct vfs_node *node, struct stat *st)
{
    st->st_dev = VFS_MQUEUE_DEV;
    if (node->kind == VNODE_DIR) {
        /* mqueue_get_inode: 2 * DIRENT_SIZE, and DIRENT_SIZE a queue */
        st->st_size = 2 * DIRENT_SIZE + (off_t)node->arg2 * DIRENT_SIZE;
    } else {
        st->st_size = 80; /* FILENT_SIZE */
    }
}
