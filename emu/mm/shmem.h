/* SPDX-License-Identifier: GPL-2.0-or-later */
/* shmem.h - shared memory objects: what MAP_SHARED mappings, memfd_create
 * and (later) SysV segments map. Every guest process lives in this one host
 * process, so sharing is the host's own: each mapping of an object is a
 * host MAP_SHARED mapping of one host descriptor (a memfd for anonymous
 * memory, the file itself for a file), and every process that maps the
 * object - across fork, or two processes mapping the same file - sees the
 * same bytes, which are also what read(2) and write(2) see. */
#ifndef ASYMU_SHMEM_H
#define ASYMU_SHMEM_H

#include <stdbool.h>
#include <stdint.h>

struct machine;

struct shmem {
    int refs;          /* VMAs mapping it */
    int fd;            /* host descriptor: a memfd or the file (a dup of the guest's) */
    uint64_t dev, ino; /* the host inode: one object per inode, so futexes match */
    bool writable;     /* opened for writing: host mappings may be writable */
    /* An owner that holds a reference of its own (a SysV segment) hears of
     * every mapping that goes, and may then drop its reference. */
    void (*unmapped)(struct shmem *s);
    void *owner;
    struct shmem *next, **pprev; /* the machine's live objects (machine->shmems) */
};

/* A new object of m of len zero bytes (MAP_SHARED | MAP_ANONYMOUS): NULL
 * with *err set on failure. */
struct shmem *shmem_anon(struct machine *m, uint64_t len, int *err);
/* m's object of the host file open as host_fd (the one already mapped for
 * that inode, or a new one holding a dup of host_fd). */
struct shmem *shmem_file(struct machine *m, int host_fd, bool writable, int *err);
struct shmem *shmem_get(struct shmem *s);
void shmem_put(struct shmem *s);
/* At m's shutdown: the objects still referenced leave m's list, so that
 * their last shmem_put does not touch m. */
void shmem_machine_detach(struct machine *m);

/* Maps len bytes of s from off into the host, writable when write (and s
 * is): NULL on failure. Pages past the end of the file read as zeros (see
 * shmem_bus_recover). */
void *shmem_map_host(struct shmem *s, uint64_t off, uint64_t len, bool write);
/* Unmaps part of what shmem_map_host returned. */
void shmem_unmap_host(void *host, uint64_t len);

/* The host's SIGBUS handler asks this first: a touch of a shared file
 * mapping past the file's end (the file was truncated, or mapped beyond its
 * end) would kill the emulator; the page is replaced by a private zero page
 * instead and the access retried. True when addr was such a page. Called
 * in a signal handler: async-signal-safe. */
bool shmem_bus_recover(void *addr);
/* Whether addr lies in a mapping shmem_map_host made. Async-signal-safe. */
bool shmem_bus_owned(const void *addr);

#endif
