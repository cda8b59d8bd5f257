/* SPDX-License-Identifier: GPL-2.0-or-later */
/* mqueue_fs.h - inside sysfs-fs/: the mqueue mounts' nodes (mqueue_fs.c)
 * for tree.c and vfs.c. */
#ifndef ASYMU_MQUEUE_FS_H
#define ASYMU_MQUEUE_FS_H

#include "vfs.h"

#define MQUEUE_NODE (-3) /* node->arg of an mqueue mount's nodes */

/* The node at abspath, rel its path under the mount: 1, -ENOENT, -ENOTDIR. */
int mqueue_fs_lookup(struct vfs *v, void *ctx, const char *abspath, const char *rel,
                     struct vfs_node *node);
/* A queue's own inode (owner, mode, times) from the provider; -ENOENT once gone. */
int mqueue_fs_stat(struct vfs *v, void *ctx, const struct vfs_node *node, struct stat *st);
/* What vfs_stat_virtual knows of a node without the provider: device and size. */
void mqueue_fs_stat_node(const struct vfs_node *node, struct stat *st);

#endif
