/* SPDX-License-Identifier: GPL-2.0-or-later */
/* pty.h - pseudo-terminals: /dev/ptmx opens a master, /dev/pts/N its
 * slave; between them the N_TTY line discipline (tty_ldisc.c) on virtual
 * time. A pair is one object: its termios, window size, session and
 * foreground group are the slave's, and ioctls on the master act on them,
 * as Linux's tty_pair_get_tty does. */
#ifndef ASYMU_PTY_H
#define ASYMU_PTY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct file;
struct machine;
struct process;
struct task;
struct vfs_node;

/* N_TTY_BUF_SIZE: what one side can hold before its writers wait. */
#define TTY_BUF 4096
/* The kernel's struct termios on arm and arm64: NCCS is 19 there, not
 * glibc's 32 (TCGETS copies this layout). */
#define KNCCS 19
struct ktermios {
    uint32_t iflag, oflag, cflag, lflag;
    uint8_t line;
    uint8_t cc[KNCCS];
};

struct kwinsize {
    uint16_t row, col, xpixel, ypixel;
};

/* A queue of characters. In the slave's input, TTY_LINE_END marks the
 * character that ends a canonical line, and TTY_EOF_MARK a VEOF (which ends
 * a line and is not read). */
#define TTY_LINE_END 0x100
#define TTY_EOF_MARK 0x200
struct tty_queue {
    uint16_t buf[TTY_BUF];
    size_t head, len;
};

struct pty {
    struct machine *machine;
    struct pty *next; /* the machine's ptys, by index */
    int index;        /* N of /dev/pts/N */
    bool locked;      /* TIOCSPTLCK: the slave cannot be opened */
    bool master_open; /* false: hung up (the slave reads EOF, writes EIO) */
    int slave_files;  /* open descriptions of the slave */
    bool slave_closed; /* the slave was open and every description went: the master reads EIO */
    struct ktermios termios;
    struct kwinsize winsize;
    int session, pgrp; /* the session it controls and its foreground group, 0: none */
    struct tty_queue input; /* the slave reads it: what the master wrote, after the ldisc */
    size_t canon_len;       /* with ICANON, input's first canon_len entries are whole lines */
    struct tty_queue output; /* the master reads it: what the slave wrote and echoes */
};

/* ---- the line discipline (tty_ldisc.c) ---- */

/* A fresh slave's settings: Linux's tty_std_termios, cflag as the pty driver sets it. */
void tty_termios_init(struct ktermios *tio);
/* Takes bytes the master writes through the input side (ICRNL, ISIG,
 * ICANON editing, ECHO): how many were taken before input filled up. */
size_t tty_receive(struct pty *p, const uint8_t *buf, size_t len);
/* Takes bytes the slave writes through OPOST into output: how many fit. */
size_t tty_transmit(struct pty *p, const uint8_t *buf, size_t len);
/* Whether the slave can read now, and how many bytes (FIONREAD). */
size_t tty_input_readable(const struct pty *p);
/* Reads input as the slave does (one line at most with ICANON): bytes,
 * 0 at a VEOF that ends an empty line. Call only when readable. */
size_t tty_read_input(struct pty *p, uint8_t *buf, size_t len);
/* New settings: switching ICANON makes what is queued readable (Linux
 * pushes it as a line). */
void tty_set_termios(struct pty *p, const struct ktermios *tio);
void tty_flush_input(struct pty *p);
/* Sends sig to the foreground process group (ISIG, TIOCSIG, SIGWINCH). */
void tty_signal_pgrp(struct pty *p, int sig);

/* ---- pairs and controlling terminals (pty.c) ---- */

/* Opens /dev/ptmx (a new pair) or /dev/pts/N (node from the VFS). */
int pty_open_node(struct task *t, const struct vfs_node *node, int flags, struct file **out);
/* /dev/tty of a process whose controlling terminal is a pty: its slave.
 * false when the process has none (then /dev/tty is the console). */
bool pty_open_ctty(struct task *t, int flags, struct file **out, int *err);
/* The first live pty index after `after`, or -1 (lists /dev/pts). */
int pty_next_index(struct machine *m, int after);
/* setsid: the process leaves its controlling terminal. */
void pty_leave_ctty(struct process *p);
/* A session leader is exiting: its terminal's foreground group gets SIGHUP
 * and the session loses the terminal (disassociate_ctty). */
void pty_session_leader_exit(struct process *p);

#endif
