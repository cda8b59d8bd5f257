/* SPDX-License-Identifier: GPL-2.0-or-later */
/* fuse_export.c - `--sysfs-mount DIR`: the emulated machine's /sys and /proc
 * mounted on the host through libfuse3, served from the emulator's own loop
 * between slices. Reads give the bytes pid 1 would read; a write to
 * sys/devices/system/cpu/cpuN/online hotplugs the vCPU; everything else is
 * read-only. */
#define FUSE_USE_VERSION 35
#include "fuse_export.h"

#include <errno.h>
#include <fuse3/fuse.h>
#include <fuse3/fuse_lowlevel.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "leakcheck.h"

struct open_file;

struct fuse_export {
    struct vfs *vfs;
    struct open_file *open; /* files opened and not yet released */
    void *(*ctx)(void *arg); /* the task whose view is served */
    void *arg;
    void (*on_write)(void *arg, const char *path, const char *buf, size_t len);
    struct fuse *fuse;
    struct fuse_session *se;
    struct fuse_buf buf;
};

/* Opened files keep the content generated at open, like the guest's. The
 * kernel sends their release after close, asynchronously: those still
 * pending when the export stops are freed there. */
struct open_file {
    struct vfs_node node;
    char *data;
    size_t size;
    struct open_file *prev, *next;
};

static void open_file_free(struct fuse_export *e, struct open_file *of)
{
    if (of->prev)
        of->prev->next = of->next;
    else
        e->open = of->next;
    if (of->next)
        of->next->prev = of->prev;
    free(of->data);
    free(of);
}

void fuse_export_on_write(struct fuse_export *e,
                          void (*fn)(void *arg, const char *path, const char *buf, size_t len))
{
    e->on_write = fn;
}

static struct fuse_export *self(void)
{
    return fuse_get_context()->private_data;
}

static bool is_root(const char *path)
{
    return strcmp(path, "/") == 0;
}

/* Only /sys and /proc are exported. */
static int lookup(struct fuse_export *e, const char *path, struct vfs_node *node)
{
    if (strncmp(path, "/sys", 4) != 0 && strncmp(path, "/proc", 5) != 0)
        return -ENOENT;
    int r = vfs_lookup_virtual(e->vfs, e->ctx(e->arg), path, node);
    return r > 0 ? 0 : r < 0 ? r : -ENOENT;
}

static int op_getattr(const char *path, struct stat *st, struct fuse_file_info *fi)
{
    (void)fi;
    struct fuse_export *e = self();
    if (is_root(path)) {
        memset(st, 0, sizeof *st);
        st->st_mode = S_IFDIR | 0555;
        st->st_nlink = 2;
        return 0;
    }
    struct vfs_node node;
    int err = lookup(e, path, &node);
    if (err < 0)
        return err;
    vfs_stat_virtual(&node, st);
    if (node.kind == VNODE_GENERATED)
        st->st_size = 4096; /* as sysfs reports: the real size is known at read */
    return 0;
}

static int op_readlink(const char *path, char *buf, size_t len)
{
    struct fuse_export *e = self();
    struct vfs_node node;
    int err = lookup(e, path, &node);
    if (err < 0)
        return err;
    int n = vfs_readlink_virtual(e->vfs, e->ctx(e->arg), &node, buf, len - 1);
    if (n < 0)
        return n;
    buf[n] = '\0';
    return 0;
}

struct fill {
    void *buf;
    fuse_fill_dir_t filler;
};

static void fill_one(const char *name, unsigned char type, void *arg)
{
    (void)type;
    struct fill *f = arg;
    f->filler(f->buf, name, NULL, 0, 0);
}

static int op_readdir(const char *path, void *buf, fuse_fill_dir_t filler, off_t off,
                      struct fuse_file_info *fi, enum fuse_readdir_flags flags)
{
    (void)off, (void)fi, (void)flags;
    struct fuse_export *e = self();
    filler(buf, ".", NULL, 0, 0);
    filler(buf, "..", NULL, 0, 0);
    if (is_root(path)) {
        filler(buf, "proc", NULL, 0, 0);
        filler(buf, "sys", NULL, 0, 0);
        return 0;
    }
    struct vfs_node node;
    int err = lookup(e, path, &node);
    if (err < 0)
        return err;
    struct fill f = {buf, filler};
    return vfs_list_virtual(e->vfs, e->ctx(e->arg), &node, fill_one, &f);
}

static int op_open(const char *path, struct fuse_file_info *fi)
{
    struct fuse_export *e = self();
    struct vfs_node node;
    int err = lookup(e, path, &node);
    if (err < 0)
        return err;
    if (node.kind != VNODE_GENERATED)
        return -EACCES;
    bool writes = (fi->flags & O_ACCMODE) != O_RDONLY;
    if (writes && !(node.mode & 0200))
        return -EACCES;
    struct open_file *of = calloc(1, sizeof *of);
    if (!of)
        return -ENOMEM;
    of->node = node;
    if (!writes && (err = vfs_generate(e->vfs, e->ctx(e->arg), &node, &of->data, &of->size)) < 0) {
        free(of);
        return err;
    }
    of->next = e->open;
    if (e->open)
        e->open->prev = of;
    e->open = of;
    fi->fh = (uint64_t)(uintptr_t)of;
    fi->direct_io = 1; /* sizes are unknown until read */
    return 0;
}

static int op_read(const char *path, char *buf, size_t len, off_t off, struct fuse_file_info *fi)
{
    (void)path;
    struct open_file *of = (struct open_file *)(uintptr_t)fi->fh;
    if (off < 0 || (size_t)off >= of->size)
        return 0;
    size_t n = of->size - (size_t)off < len ? of->size - (size_t)off : len;
    memcpy(buf, of->data + off, n);
    return (int)n;
}

static int op_write(const char *path, const char *buf, size_t len, off_t off,
                    struct fuse_file_info *fi)
{
    struct fuse_export *e = self();
    struct open_file *of = (struct open_file *)(uintptr_t)fi->fh;
    if (e->on_write)
        e->on_write(e->arg, path, buf, len);
    int64_t r = vfs_write_virtual(e->vfs, e->ctx(e->arg), &of->node, buf, len,
                                  off < 0 ? 0 : (uint64_t)off);
    return (int)r;
}

/* `echo 0 > file` truncates first: allowed, and nothing to do, on the
 * writable files. */
static int op_truncate(const char *path, off_t size, struct fuse_file_info *fi)
{
    (void)size, (void)fi;
    struct vfs_node node;
    int err = lookup(self(), path, &node);
    if (err < 0)
        return err;
    return node.kind == VNODE_GENERATED && (node.mode & 0200) ? 0 : -EACCES;
}

static int op_release(const char *path, struct fuse_file_info *fi)
{
    (void)path;
    struct open_file *of = (struct open_file *)(uintptr_t)fi->fh;
    if (of)
        open_file_free(self(), of);
    return 0;
}

static const struct fuse_operations ops = {
    .getattr = op_getattr,
    .readlink = op_readlink,
    .readdir = op_readdir,
    .open = op_open,
    .read = op_read,
    .write = op_write,
    .truncate = op_truncate,
    .release = op_release,
};

/* ENOTCONN on stat: a FUSE mount whose server died. */
static bool stale_mount(const char *dir)
{
    struct stat st;
    return stat(dir, &st) < 0 && errno == ENOTCONN;
}
/* fuse_mount: the mount point's name it keeps is freed only by
 * fuse_unmount, which asymu never calls (the unconfined janitor unmounts:
 * emu/machine/crash.c), so LeakSanitizer does not count it (leakcheck.h).
 * Not by a suppression: matching one symbolizes the allocation's stack,
 * which clang's runtime does by forking llvm-symbolizer, and the sandbox
 * refuses fork. */
static int mount_kept(struct fuse *f, const char *dir)
{
    leakcheck_pause();
    int rc = fuse_mount(f, dir);
    leakcheck_resume();
    return rc;
}


int fuse_export_start(struct fuse_export **out, struct vfs *vfs, void *(*ctx)(void *), void *arg,
                      const char *dir, char *why, size_t whylen)
{
    if (stale_mount(dir)) {
        snprintf(why, whylen,
                 "--sysfs-mount %s: a leftover mount of an emulator that was killed is still "
                 "there; remove it with: fusermount3 -u %s",
                 dir, dir);
        return -EBUSY;
    }
    if (access("/dev/fuse", R_OK | W_OK) < 0) {
        snprintf(why, whylen, "--sysfs-mount %s: /dev/fuse is not usable: %s", dir,
                 strerror(errno));
        return -ENODEV;
    }
    struct fuse_export *e = calloc(1, sizeof *e);
    if (!e)
        return -ENOMEM;
    e->vfs = vfs;
    e->ctx = ctx;
    e->arg = arg;
    char *argv[] = {"asymu", "-o", "fsname=asymu,subtype=asymu,default_permissions", NULL};
    struct fuse_args args = FUSE_ARGS_INIT(3, argv);
    e->fuse = fuse_new(&args, &ops, sizeof ops, e);
    fuse_opt_free_args(&args);
    if (!e->fuse)
        goto fail_fuse_new;
    if (mount_kept(e->fuse, dir) != 0)
        goto fail_fuse_mount;
    e->se = fuse_get_session(e->fuse);
    *out = e;
    return 0;

fail_fuse_mount:
    fuse_destroy(e->fuse);
fail_fuse_new:
    free(e);
    snprintf(why, whylen, "--sysfs-mount %s: cannot mount (is it an existing directory?)", dir);
    return -EIO;
}

int fuse_export_fd(const struct fuse_export *e)
{
    return fuse_session_fd(e->se);
}

void fuse_export_process(struct fuse_export *e)
{
    int n = fuse_session_receive_buf(e->se, &e->buf);
    if (n > 0)
        fuse_session_process_buf(e->se, &e->buf);
}

void fuse_export_stop(struct fuse_export *e)
{
    if (!e)
        return;
    fuse_destroy(e->fuse);
    while (e->open)
        open_file_free(e, e->open);
    free(e->buf.mem);
    free(e);
}
