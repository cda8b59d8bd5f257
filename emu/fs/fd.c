/* SPDX-License-Identifier: GPL-2.0-or-later */
/* fd.c - open files and per-process descriptor tables. */
#include "deferred.h"
#include "event.h"
#include "fifo.h"
#include "file.h"
#include "flock.h"
#include "fsnotify.h"
#include "mqueue.h"
#include "machine.h"
#include "rlimit.h"
#include "task.h"
#include "tracefs.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>

static const struct {
    uint32_t guest;
    int host;
} flag_map[] = {
    {GUEST_O_DIRECTORY, O_DIRECTORY},
    {GUEST_O_NOFOLLOW, O_NOFOLLOW},
    {GUEST_O_DIRECT, O_DIRECT},
    {GUEST_O_LARGEFILE, 0},
};

/* The guest bits of one entry are host bits of another (arm's O_NOFOLLOW
 * is the host's O_DIRECTORY): all of them are cleared before any is set. */
int open_flags_to_host(uint32_t guest)
{
    int host = (int)guest;
    for (size_t i = 0; i < sizeof flag_map / sizeof *flag_map; i++)
        host &= ~(int)flag_map[i].guest;
    for (size_t i = 0; i < sizeof flag_map / sizeof *flag_map; i++)
        if (guest & flag_map[i].guest)
            host |= flag_map[i].host;
    return host;
}

uint32_t open_flags_to_guest(int host)
{
    uint32_t guest = (uint32_t)host;
    for (size_t i = 0; i < sizeof flag_map / sizeof *flag_map; i++)
        guest &= ~(uint32_t)flag_map[i].host;
    for (size_t i = 0; i < sizeof flag_map / sizeof *flag_map; i++)
        if (flag_map[i].host && (host & flag_map[i].host))
            guest |= flag_map[i].guest;
    return guest;
}

struct file *file_new(enum file_kind kind)
{
    struct file *f = calloc(1, sizeof *f);
    if (f) {
        f->refs = 1;
        f->kind = kind;
        f->host_fd = -1;
    }
    return f;
}

struct file *file_new_object(struct machine *m, const struct file_ops *ops, void *priv, int flags)
{
    struct file *f = file_new(FILE_OBJECT);
    if (f) {
        f->ops = ops;
        f->priv = priv;
        f->flags = flags;
        f->ino = ++m->next_ino;
    }
    return f;
}

void file_notify_events(struct machine *m, const void *obj, unsigned events)
{
    task_wake_all(m, obj);
    epoll_notify(m, obj, events);
    deferred_notify(&m->aio_deferred, obj);
    deferred_notify(&m->uring_deferred, obj);
}

const void *file_notify_key(const struct file *f)
{
    switch (f->kind) {
    case FILE_PIPE:
        return f->pipe;
    case FILE_OBJECT:
        return f->priv;
    case FILE_CONSOLE:
        return &console_waitq;
    case FILE_HOST:
        return f->fifo;
    case FILE_VIRTUAL:
        return f->poll_key;
    default:
        return NULL;
    }
}

void file_notify(struct machine *m, const void *obj)
{
    file_notify_events(m, obj, ~0u);
}

void file_put(struct file *f)
{
    if (!f || --f->refs > 0)
        return;
    if (f->notify_machine && fsnotify_active(f->notify_machine))
        fsnotify_file_closing(f);
    if (f->kind == FILE_HOST && f->host_fd >= 0)
        close(f->host_fd);
    if (f->fifo)
        fifo_release(f);
    if (f->kind == FILE_PIPE)
        pipe_release(f);
    if (f->epitems)
        epoll_file_released(f);
    locks_file_released(f);
    tracefs_unpin(f->tracefs_pin);
    if (f->kind == FILE_OBJECT && f->ops->release)
        f->ops->release(f);
    free(f->data);
    free(f->path);
    free(f);
}

struct file *file_get(struct task *t, int fd)
{
    if (fd < 0 || fd >= FD_MAX)
        return NULL;
    return t->proc->files->fd[fd];
}

int fd_install(struct task *t, struct file *f, int min, bool cloexec)
{
    struct fdtable *fdt = t->proc->files;
    int limit = rlimit_nofile(t);
    for (int fd = min < 0 ? 0 : min; fd < limit; fd++) {
        if (!fdt->fd[fd]) {
            fdt->fd[fd] = f;
            fdt->cloexec[fd] = cloexec;
            return fd;
        }
    }
    t->fd_table_full = true; /* the guest's own EMFILE (syscall.c: host_table_errno) */
    return -EMFILE;
}

int fd_install_new(struct task *t, struct file *f, bool cloexec)
{
    int fd = fd_install(t, f, 0, cloexec);
    if (fd < 0)
        file_put(f);
    return fd;
}

int fd_close(struct task *t, int fd)
{
    struct file *f = file_get(t, fd);
    if (!f)
        return -EBADF;
    t->proc->files->fd[fd] = NULL;
    t->proc->files->cloexec[fd] = false;
    locks_process_closed(t->proc, f);
    mq_process_closed(t->proc, f);
    file_put(f);
    return 0;
}

struct fdtable *fdtable_new_console(void)
{
    static const int modes[3] = {O_RDONLY, O_WRONLY, O_WRONLY};
    struct fdtable *fdt = calloc(1, sizeof *fdt);
    if (!fdt)
        return NULL;
    fdt->refs = 1;
    for (int fd = 0; fd < 3; fd++) {
        struct file *f = file_new(FILE_CONSOLE);
        if (!f)
            continue;
        f->host_fd = fd;
        f->flags = modes[fd];
        fdt->fd[fd] = f;
    }
    return fdt;
}

struct fdtable *fdtable_copy(const struct fdtable *src)
{
    struct fdtable *fdt = calloc(1, sizeof *fdt);
    if (!fdt)
        return NULL;
    fdt->refs = 1;
    for (int fd = 0; fd < FD_MAX; fd++) {
        fdt->fd[fd] = src->fd[fd];
        fdt->cloexec[fd] = src->cloexec[fd];
        if (fdt->fd[fd])
            file_ref(fdt->fd[fd]);
    }
    return fdt;
}

void fdtable_put(struct fdtable *fdt)
{
    if (!fdt || --fdt->refs > 0)
        return;
    /* Each slot empties before its file goes: a file's last close may look
     * at the table's other files (fsnotify_inode_open), never at one gone. */
    for (int fd = 0; fd < FD_MAX; fd++) {
        struct file *f = fdt->fd[fd];
        fdt->fd[fd] = NULL;
        file_put(f);
    }
    free(fdt);
}

bool file_is_stream(const struct file *f)
{
    struct stat st;
    switch (f->kind) {
    case FILE_PIPE:
    case FILE_CONSOLE:
        return true;
    case FILE_OBJECT:
        return !f->ops->seekable;
    case FILE_HOST:
        return f->fifo || fstat(f->host_fd, &st) != 0 ||
               (!S_ISREG(st.st_mode) && !S_ISBLK(st.st_mode));
    case FILE_VIRTUAL:
        return file_is_tracing_pipe(f);
    }
    return true;
}
