/* SPDX-License-Identifier: GPL-2.0-or-later */
/* reopen.c - a new open file description of an open file (reopen.h). */
#include "file.h"
#include "reopen.h"
#include "task.h"

#include <errno.h>
#include <fcntl.h>

/* A pipe opened again (Linux's fifo_open on the pipe's inode): another
 * reader, writer, or both for O_RDWR, with its own status flags. An
 * anonymous pipe never waits for the other end and has no ENXIO, unlike a
 * named one. */
static int pipe_reopen(struct pipe *p, int flags, struct file **out)
{
    int accmode = flags & O_ACCMODE;
    struct file *f = file_new(FILE_PIPE);
    if (!f)
        return -ENOMEM;
    f->pipe = p;
    f->flags = flags & (O_ACCMODE | O_NONBLOCK);
    if (accmode != O_WRONLY)
        p->readers++;
    if (accmode != O_RDONLY)
        p->writers++;
    file_notify(p->machine, p);
    *out = f;
    return 0;
}

struct file *file_of_process(struct task *t, int pid, int fd)
{
    struct process *p = process_find(t->machine, pid);
    return p && p->files && fd >= 0 && fd < FD_MAX ? p->files->fd[fd] : NULL;
}

int file_reopen(struct task *t, int pid, int fd, int flags, int mode, struct file **out)
{
    struct file *f = file_of_process(t, pid, fd);
    if (!f)
        return -ENOENT;
    switch (f->kind) {
    case FILE_PIPE:
        /* An O_PATH descriptor of a pipe is not kept (asymu's difference). */
        if (flags & O_PATH)
            return -ENXIO;
        return pipe_reopen(f->pipe, flags, out);
    case FILE_CONSOLE: {
        /* The emulator's own stdin, stdout or stderr, open again: the same
         * host descriptor, which the file does not own. */
        struct file *c = file_new(FILE_CONSOLE);
        if (!c)
            return -ENOMEM;
        c->host_fd = f->host_fd;
        c->flags = flags & (O_ACCMODE | O_NONBLOCK | O_APPEND);
        *out = c;
        return 0;
    }
    case FILE_HOST:
    case FILE_VIRTUAL:
        /* By its path: a host file renamed or unlinked since it was opened
         * is not found again, where Linux would find its inode. */
        if (!f->path)
            return -ENOENT;
        return file_open_path(t, f->path, flags, mode, out);
    case FILE_OBJECT:
        break;
    }
    return -ENXIO;
}
