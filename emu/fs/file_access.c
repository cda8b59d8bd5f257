/* SPDX-License-Identifier: GPL-2.0-or-later */
/* file_access.c - descriptor rights: O_PATH descriptors and read-only mounts. */
#include "file.h"
#include "file_access.h"
#include "task.h"

#include <errno.h>
#include <fcntl.h>

struct file *file_get_io(struct task *t, int fd)
{
    struct file *f = file_get(t, fd);
    return f && !(f->flags & O_PATH) ? f : NULL;
}

int file_may_change(const struct file *f)
{
    if (f->kind != FILE_HOST)
        return -EPERM;
    return f->writable_mount ? 0 : -EROFS;
}
