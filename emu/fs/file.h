/* SPDX-License-Identifier: GPL-2.0-or-later */
/* file.h - open file descriptions and descriptor tables (fd.c), pipes
 * (pipe.c), kernel objects behind struct file_ops, and guest open flags. */
#ifndef ASYMU_FILE_H
#define ASYMU_FILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "vfs.h"

struct epitem;
struct fifo;
struct machine;
struct shmem;
struct stat;
struct task;
struct vfs_budget;

/* ---- guest open(2) flags: arm and arm64 differ from the x86-64 host ---- */

#define GUEST_O_DIRECTORY 0x4000
#define GUEST_O_NOFOLLOW 0x8000
#define GUEST_O_DIRECT 0x10000
#define GUEST_O_LARGEFILE 0x20000
/* Host O_* flags for guest ones (and back, for F_GETFL). */
int open_flags_to_host(uint32_t guest);
uint32_t open_flags_to_guest(int host);

/* ---- files (fd.c) ---- */

enum file_kind {
    FILE_HOST,    /* a host fd confined to the guest root */
    FILE_CONSOLE, /* the emulator's own stdin/stdout/stderr */
    FILE_VIRTUAL, /* a node of the virtual /dev or /proc */
    FILE_PIPE,    /* one end of a pipe (pipe.c) */
    FILE_OBJECT,  /* a kernel object behind struct file_ops (sockets, epoll, eventfd, ...) */
};

struct file;

/* What a FILE_OBJECT does. Reads and writes return bytes, -EAGAIN, or
 * -EBLOCK with t->wait_obj set (as pipes do); NULL members mean the call
 * fails with the errno Linux gives for such a file (EINVAL, or ENOTTY for
 * ioctl). State changes call file_notify() on the object. */
struct file_ops {
    const char *name; /* the /proc/PID/fd link: "anon_inode:[eventfd]", or a
                         prefix the inode number completes, "socket:" */
    int64_t (*read)(struct task *t, struct file *f, void *buf, size_t len);
    int64_t (*write)(struct task *t, struct file *f, const void *buf, size_t len);
    short (*poll)(struct task *t, struct file *f); /* POLL* bits ready now */
    int64_t (*ioctl)(struct task *t, struct file *f, unsigned long req, uint64_t arg);
    void (*release)(struct file *f); /* the last reference went */
    int (*stat)(struct file *f, struct stat *st); /* fstat; NULL: an anonymous inode of `mode` */
    /* MAP_SHARED of [off, off+len): the object mapped, or NULL with *err
     * set; NULL member: ENODEV, as for most such files. */
    struct shmem *(*mmap)(struct file *f, uint64_t off, uint64_t len, int *err);
    unsigned mode; /* S_IFSOCK | 0777, or 0600 for anonymous inodes (fstat) */
    bool fasync;   /* O_ASYNC can be set (sockets, terminals): FIOASYNC */
    /* lseek and pread move f->pos as default_llseek does, SEEK_END from
     * the stat size (POSIX message queues); else ESPIPE. */
    bool seekable;
    /* lseek answers the position and moves nothing (noop_llseek: inotify). */
    bool noop_llseek;
};

#define PIPE_CAPACITY 65536 /* a new pipe's; F_SETPIPE_SZ changes it */

struct pipe {
    struct machine *machine;
    int readers, writers; /* open file descriptions of each end */
    size_t head, len;
    size_t capacity;
    uint8_t *buf;         /* a ring of capacity bytes */
};

struct file {
    int refs;
    enum file_kind kind;
    int host_fd;                 /* FILE_HOST, FILE_CONSOLE */
    bool writable_mount;         /* FILE_HOST: the guest may change it (file_access.h) */
    struct vfs_budget *budget;   /* FILE_HOST on a size-limited mount (--tmp-size), or NULL */
    int flags;                   /* O_* status flags */
    struct vfs_node node;        /* FILE_VIRTUAL */
    struct pipe *pipe;           /* FILE_PIPE */
    struct fifo *fifo;           /* FILE_HOST on a named pipe: its open rules (fifo.h) */
    const struct file_ops *ops;  /* FILE_OBJECT */
    void *priv;                  /* FILE_OBJECT: the object */
    uint64_t ino;                /* FILE_OBJECT: inode number (fstat, /proc/PID/fd) */
    char *data;                  /* FILE_VIRTUAL generated content, fixed at open */
    size_t size;
    uint64_t pos;
    /* A virtual directory's last entry returned, when its name is a number
     * (/proc/PID/fd/N, /proc/PID): getdents resumes after it (sys_dir.c). */
    long dir_last_num;
    bool dir_last_valid;
    char *path;                  /* guest path, for /proc/self/fd and strace */
    struct epitem *epitems;      /* epoll items watching this description (epoll.c) */
    /* FILE_VIRTUAL trace_pipe and trace_pipe_raw: what poll() waits on
     * (tracefs_wait_key); NULL for other files. */
    const void *poll_key;
    /* A tracefs instance's file pins the instance (tracefs_pin()): rmdir
     * is EBUSY until the last such file is closed. */
    struct tracefs_pin *tracefs_pin;
    /* FILE_HOST opened by open(2): the machine its IN_OPEN went to, for
     * IN_CLOSE_* at the last reference (fsnotify.h); NULL for the files
     * the kernel opens for itself (truncate(2), exec). */
    struct machine *notify_machine;
    /* Set once a flock(2) or F_OFD_SETLK* call names it: the machine whose
     * lock list may hold locks it owns, dropped at its last reference
     * (flock.c); NULL for a file that never had one. */
    struct machine *lock_machine;
};

#define FD_MAX 1024

struct fdtable {
    int refs; /* processes sharing it (CLONE_FILES) */
    struct file *fd[FD_MAX];
    bool cloexec[FD_MAX];
};

struct file *file_get(struct task *t, int fd); /* NULL if fd is not open */
/* Opens an absolute guest path (host O_* flags), following the virtual
 * trees' symlinks such as /proc/self/exe. */
int file_open_path(struct task *t, const char *abspath, int flags, int mode, struct file **out);
/* openat's work after the walk: the open of the resolved guest path (the
 * guest's string at upath tells a trailing "/"), with host O_* flags and
 * the creation mode, into a new descriptor. */
int64_t open_resolved(struct task *t, uint64_t upath, const char *path, int flags, int mode);
int fd_install(struct task *t, struct file *f, int min, bool cloexec);
/* Installs a new file at the lowest free descriptor and returns it, or
 * drops the file and returns -EMFILE. */
int fd_install_new(struct task *t, struct file *f, bool cloexec);
int fd_close(struct task *t, int fd);
void file_put(struct file *f);
static inline void file_ref(struct file *f) { f->refs++; }

/* Pipes: reads and writes return bytes, 0 at end of file, -EAGAIN when a
 * non-blocking end would block, or -EBLOCK with t->wait_obj set. */
int pipe_create(struct machine *m, struct file **rd, struct file **wr);
int64_t pipe_read(struct task *t, struct file *f, void *buf, size_t len);
int64_t pipe_write(struct task *t, struct file *f, const void *buf, size_t len);
void pipe_release(struct file *f);
/* F_SETPIPE_SZ: the new capacity in bytes, -EPERM growing past 1 MiB
 * without cap_resource (CAP_SYS_RESOURCE), -EBUSY if the pipe holds more,
 * -EINVAL past 2 GiB, -ENOMEM. */
int64_t pipe_set_capacity(struct machine *m, struct pipe *p, uint64_t want, bool cap_resource);
/* Reads or writes up to len bytes of f at off, or at its position when
 * off < 0 (sys_rw.c's read and write without the guest buffer): bytes,
 * -errno, or -EBLOCK with t->wait_obj set. */
int64_t file_read(struct task *t, struct file *f, void *buf, size_t len, int64_t off);
int64_t file_write(struct task *t, struct file *f, const void *buf, size_t len, int64_t off);
/* splice and tee (splice.c) see a pipe's bytes: copies up to len of
 * them, past the skip oldest, without taking them (the count copied); takes n
 * (at most p->len), waking the writers of a full pipe as a read does;
 * the room for whole pages, as Linux counts a pipe's free buffers
 * (pipe_occupancy() against max_usage) times 4096. */
size_t pipe_peek(const struct pipe *p, size_t skip, void *buf, size_t len);
void pipe_consume(struct pipe *p, size_t n);
size_t pipe_page_room(const struct pipe *p);
/* poll(2) readiness of a file: POLLIN/POLLOUT/POLLHUP/POLLERR bits. */
short file_poll(struct task *t, struct file *f);
/* The same for a trace_pipe or trace_pipe_raw (sys_rw.c). */
short tracing_pipe_poll(struct task *t, struct file *f);
/* The path of a trace_pipe or trace_pipe_raw below its tracing directory
 * (the name tracefs_wait_key() and tracefs_readable() take). */
const char *tracing_rel(const char *path);
/* Whether f is a trace_pipe or trace_pipe_raw: tracefs files read as a
 * pipe (text) or as pages, with a ->poll. */
static inline bool file_is_tracing_pipe(const struct file *f)
{
    return f->kind == FILE_VIRTUAL && (f->node.pipe || f->node.pages);
}
/* Whether f is read and written as a stream, without an offset (pipes,
 * FIFOs, sockets, terminals, the event descriptors): AIO and io_uring
 * requests on it take no position (fd.c). */
bool file_is_stream(const struct file *f);
/* Whether the emulator's stdin has data or its end; if not, the host loop
 * watches it and notifies console_waitq when it has. */
bool console_ready(struct machine *m);
extern const int console_waitq;
struct file *file_new(enum file_kind kind);
/* A FILE_OBJECT file for priv, with a fresh inode number of the machine. */
struct file *file_new_object(struct machine *m, const struct file_ops *ops, void *priv, int flags);
/* An object's state changed: wakes the tasks blocked on obj (poll and
 * select waiters among them) and queues its epoll items, so they look
 * again. */
void file_notify(struct machine *m, const void *obj);
/* The same for a change that can only have made `events` (POLL* bits) true,
 * as epoll's edge-triggered items tell apart: a pipe read frees room
 * (POLLOUT), a write brings data (POLLIN). */
void file_notify_events(struct machine *m, const void *obj, unsigned events);
/* What file_notify calls f's object: the pointer its changes are told by
 * (NULL for files that are always ready). */
const void *file_notify_key(const struct file *f);
struct fdtable *fdtable_new_console(void);
struct fdtable *fdtable_copy(const struct fdtable *src);
void fdtable_put(struct fdtable *fdt);

#endif
