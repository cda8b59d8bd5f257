/* SPDX-License-Identifier: GPL-2.0-or-later */
/* fuse_export.h - the live /sys and /proc of the emulated machine mounted on
 * the host (--sysfs-mount DIR) through libfuse3. The caller's loop polls
 * fuse_export_fd() and calls fuse_export_process() when it is readable. */
#ifndef ASYMU_FUSE_EXPORT_H
#define ASYMU_FUSE_EXPORT_H

#include "vfs.h"

struct fuse_export;

/* Mounts at dir. ctx(arg) gives the task whose view is served (pid 1).
 * Returns 0, or a negative errno with a reason (a leftover mount of a killed
 * emulator is reported with the command that removes it). */
int fuse_export_start(struct fuse_export **out, struct vfs *vfs, void *(*ctx)(void *), void *arg,
                      const char *dir, char *why, size_t whylen);
int fuse_export_fd(const struct fuse_export *e);
/* Calls fn(arg, path, buf, len) before each write from the host is served
 * (path as the guest names the file): the recording of host input does. */
void fuse_export_on_write(struct fuse_export *e,
                          void (*fn)(void *arg, const char *path, const char *buf, size_t len));
/* Serves one request from the kernel. */
void fuse_export_process(struct fuse_export *e);
/* Ends the session and frees (NULL is fine). The mount stays, answering
 * ENOTCONN, until the caller unmounts it: asymu's janitor process does
 * (emu/machine/crash.c), since the sandboxed emulator cannot. */
void fuse_export_stop(struct fuse_export *e);

#endif
