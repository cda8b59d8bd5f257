/* SPDX-License-Identifier: GPL-2.0-or-later */
/* fd_unshare.c - a private copy of a shared descriptor table (fd_unshare.h). */
#include "fd_unshare.h"
#include "file.h"
#include "task.h"

#include <errno.h>

int fdtable_unshare(struct process *p)
{
    if (p->files->refs == 1)
        return 0;
    struct fdtable *own = fdtable_copy(p->files);
    if (!own)
        return -ENOMEM;
    /* The others keep the table; a reference goes, never the last. */
    fdtable_put(p->files);
    p->files = own;
    return 0;
}
