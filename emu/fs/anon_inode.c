/* SPDX-License-Identifier: GPL-2.0-or-later */
/* anon_inode.c - installing the file of a kernel object that has no path
 * (Linux's anonymous inodes: eventpoll, eventfd, timerfd, signalfd, pidfd). */
#include "event.h"
#include "file.h"
#include "task.h"

#include <errno.h>
#include <stdlib.h>

int anon_inode_fd(struct task *t, const struct file_ops *ops, void *priv, int flags, bool cloexec)
{
    struct file *f = file_new_object(t->machine, ops, priv, flags);
    if (!f) {
        free(priv);
        return -ENOMEM;
    }
    return fd_install_new(t, f, cloexec);
}
