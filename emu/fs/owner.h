/* SPDX-License-Identifier: GPL-2.0-or-later */
/* owner.h - the owners the guest gives its files. The guest runs as root
 * but its files are the host's, owned by whoever runs asymu, who need not
 * be root and could not give them away. So the guest-visible owner of a
 * file on a writable place lives here, in a table keyed by the host file's
 * (st_dev, st_ino): the files the guest creates belong to the creating
 * process's fsuid and fsgid (the directory's group when it has the
 * set-group-ID bit), chown changes the entry, and every stat of a host
 * file reports it. Files without an entry (the read-only root, files of a
 * --rw root the guest did not create) report the host's owner. A user.*
 * extended attribute would not do: symlinks take none, and tmpfs takes
 * none before Linux 6.6. */
#ifndef ASYMU_OWNER_H
#define ASYMU_OWNER_H

#include <stdint.h>

#include <sys/stat.h>

struct machine;
struct task;

/* The owner the guest gave the host file st describes, if it gave one. */
void owner_apply(const struct machine *m, struct stat *st);

/* The guest created the file st describes (fstat of it) in the directory
 * dir describes: it now belongs to t's fsuid and fsgid. */
void owner_created(struct task *t, const struct stat *st, const struct stat *dir);
/* The same for the entry name of the host directory dirfd. */
void owner_created_at(struct task *t, int dirfd, const char *name);

/* chown of the host file open on fd (possibly O_PATH, on a writable place)
 * to uid and gid ((uint32_t)-1: unchanged), with Linux's rules: a process
 * with CAP_CHOWN (fsuid 0) may give any owner; another only its own file,
 * to the same owner and a group it is in, else EPERM. A non-directory
 * loses its set-user-ID bit, and its set-group-ID bit when group-executable. */
int64_t owner_chown(struct task *t, int fd, uint32_t uid, uint32_t gid);

void owner_table_free(struct machine *m);

#endif
