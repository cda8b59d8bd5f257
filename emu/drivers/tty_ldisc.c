/* SPDX-License-Identifier: GPL-2.0-or-later */
/* tty_ldisc.c - the N_TTY line discipline of a pty pair: input processing
 * (ISTRIP, IGNCR, ICRNL, INLCR), signal characters (ISIG), canonical lines
 * with ERASE, WERASE, KILL and EOF, echo (ECHO, ECHOCTL, ECHOE, ECHOK,
 * ECHOKE, ECHONL) and output processing (OPOST with ONLCR, OCRNL). Not
 * done: IXON flow control, VTIME timeouts, VLNEXT, PARMRK, tab expansion. */
#include "machine.h"
#include "pty.h"
#include "signals.h"
#include "task.h"

#include <signal.h>
#include <string.h>
#include <termios.h>

void tty_termios_init(struct ktermios *tio)
{
    static const uint8_t cc[KNCCS] = {
        [VINTR] = CTRL('c'),  [VQUIT] = 034,      [VERASE] = 0177,    [VKILL] = CTRL('u'),
        [VEOF] = CTRL('d'),   [VTIME] = 0,        [VMIN] = 1,         [VSTART] = CTRL('q'),
        [VSTOP] = CTRL('s'),  [VSUSP] = CTRL('z'), [VREPRINT] = CTRL('r'),
        [VDISCARD] = CTRL('o'), [VWERASE] = CTRL('w'), [VLNEXT] = CTRL('v'),
    };
    *tio = (struct ktermios){
        .iflag = ICRNL | IXON,
        .oflag = OPOST | ONLCR,
        .cflag = B38400 | CS8 | CREAD, /* the pty slave's: no HUPCL */
        .lflag = ISIG | ICANON | ECHO | ECHOE | ECHOK | ECHOCTL | ECHOKE | IEXTEN,
    };
    memcpy(tio->cc, cc, sizeof cc);
}

/* ---- queues ---- */

static size_t queue_room(const struct tty_queue *q)
{
    return TTY_BUF - 1 - q->len; /* N_TTY keeps one slot free */
}

static void queue_put(struct tty_queue *q, uint16_t c)
{
    q->buf[(q->head + q->len++) % TTY_BUF] = c;
}

static uint16_t queue_at(const struct tty_queue *q, size_t i)
{
    return q->buf[(q->head + i) % TTY_BUF];
}

static void queue_drop(struct tty_queue *q, size_t n)
{
    q->head = (q->head + n) % TTY_BUF;
    q->len -= n;
}

/* ---- output ---- */

/* One character through OPOST, all or nothing: false when it does not fit. */
static bool output_char(struct pty *p, uint8_t c)
{
    const struct ktermios *tio = &p->termios;
    struct tty_queue *q = &p->output;
    if (tio->oflag & OPOST) {
        if (c == '\n' && (tio->oflag & ONLCR)) {
            if (queue_room(q) < 2)
                return false;
            queue_put(q, '\r');
        } else if (c == '\r' && (tio->oflag & OCRNL)) {
            c = '\n';
        }
    }
    if (queue_room(q) < 1)
        return false;
    queue_put(q, c);
    return true;
}

size_t tty_transmit(struct pty *p, const uint8_t *buf, size_t len)
{
    size_t n = 0;
    while (n < len && output_char(p, buf[n]))
        n++;
    return n;
}

/* Echoes go through output processing and are lost when it is full. */
static void echo_raw(struct pty *p, uint8_t c)
{
    output_char(p, c);
}

static bool is_ctl(uint8_t c)
{
    return c < 0x20 || c == 0177;
}

/* A character as echo shows it: ^X for controls with ECHOCTL. */
static void echo_char(struct pty *p, uint8_t c)
{
    if ((p->termios.lflag & ECHOCTL) && is_ctl(c) && c != '\t') {
        echo_raw(p, '^');
        echo_raw(p, c ^ 0100);
    } else {
        echo_raw(p, c);
    }
}

/* ---- input ---- */

static bool is_cc(const struct pty *p, int which, uint8_t c)
{
    uint8_t v = p->termios.cc[which];
    return v != _POSIX_VDISABLE && c == v;
}

void tty_flush_input(struct pty *p)
{
    p->input.len = 0;
    p->canon_len = 0;
}

void tty_signal_pgrp(struct pty *p, int sig)
{
    if (p->pgrp <= 0)
        return;
    struct siginfo_lite info = {.code = 0x80 /* SI_KERNEL */};
    for (struct task *o = p->machine->tasks; o; o = o->next_all) {
        struct process *proc = o->proc;
        if (o == proc->threads && !proc->zombie && proc->pgid == p->pgrp)
            signal_queue_process(proc, sig, &info);
    }
}

/* Erases the last character of the line being edited: false if none. */
static bool erase_one(struct pty *p)
{
    if (p->input.len <= p->canon_len)
        return false;
    uint8_t c = (uint8_t)queue_at(&p->input, p->input.len - 1);
    p->input.len--;
    const struct ktermios *tio = &p->termios;
    if (!(tio->lflag & ECHO))
        return true;
    /* ECHOCTL showed a control as two columns. */
    int cols = (tio->lflag & ECHOCTL) && is_ctl(c) && c != '\t' ? 2 : 1;
    for (int i = 0; i < cols; i++) {
        echo_raw(p, '\b');
        echo_raw(p, ' ');
        echo_raw(p, '\b');
    }
    return true;
}

/* ERASE, WERASE and KILL on the line being edited. */
static void edit_line(struct pty *p, uint8_t c)
{
    const struct ktermios *tio = &p->termios;
    bool visual = (tio->lflag & ECHO) && (tio->lflag & ECHOE);
    if (is_cc(p, VERASE, c)) {
        if (visual || !(tio->lflag & ECHO)) {
            erase_one(p);
        } else if (p->input.len > p->canon_len) {
            p->input.len--;
            echo_char(p, c);
        }
        return;
    }
    if (is_cc(p, VKILL, c) && !(visual && (tio->lflag & ECHOK) && (tio->lflag & ECHOKE))) {
        p->input.len = p->canon_len;
        if (tio->lflag & ECHO) {
            echo_char(p, c);
            if (tio->lflag & ECHOK)
                echo_raw(p, '\n');
        }
        return;
    }
    struct ktermios saved = *tio;
    if (!visual) /* WERASE without ECHOE removes silently */
        p->termios.lflag &= ~(tcflag_t)ECHO;
    if (is_cc(p, VKILL, c)) {
        while (erase_one(p))
            ;
    } else { /* WERASE: the blanks before the cursor, then the word */
        while (p->input.len > p->canon_len && queue_at(&p->input, p->input.len - 1) == ' ')
            erase_one(p);
        while (p->input.len > p->canon_len && queue_at(&p->input, p->input.len - 1) != ' ')
            erase_one(p);
    }
    p->termios = saved;
}

/* One character from the master: false when input has no room for it. */
static bool receive_char(struct pty *p, uint8_t c)
{
    const struct ktermios *tio = &p->termios;
    bool canon = tio->lflag & ICANON;
    if (tio->iflag & ISTRIP)
        c &= 0x7f;
    if (c == '\r') {
        if (tio->iflag & IGNCR)
            return true;
        if (tio->iflag & ICRNL)
            c = '\n';
    } else if (c == '\n' && (tio->iflag & INLCR)) {
        c = '\r';
    }
    if (tio->lflag & ISIG) {
        int sig = is_cc(p, VINTR, c) ? SIGINT : is_cc(p, VQUIT, c) ? SIGQUIT
                  : is_cc(p, VSUSP, c)                          ? SIGTSTP
                                                                 : 0;
        if (sig) {
            tty_signal_pgrp(p, sig);
            /* Both ways: pty_flush_buffer drops what the master has not
             * taken yet, which on Linux includes the echoes of this write. */
            if (!(tio->lflag & NOFLSH)) {
                tty_flush_input(p);
                p->output.len = 0;
            }
            if (tio->lflag & ECHO)
                echo_char(p, c);
            return true;
        }
    }
    if (canon && (is_cc(p, VERASE, c) || is_cc(p, VKILL, c) ||
                  ((tio->lflag & IEXTEN) && is_cc(p, VWERASE, c)))) {
        edit_line(p, c);
        return true;
    }
    bool eof = canon && is_cc(p, VEOF, c);
    bool line_end = canon && (eof || c == '\n' || is_cc(p, VEOL, c) ||
                              ((tio->lflag & IEXTEN) && is_cc(p, VEOL2, c)));
    if (queue_room(&p->input) < 1) {
        /* A full canonical buffer with no whole line drops characters but
         * takes a line's end over the last one, so the reader sees a line. */
        if (!canon || p->canon_len > 0)
            return false;
        if (!line_end)
            return true;
        p->input.len--;
    }
    if (eof) {
        queue_put(&p->input, TTY_EOF_MARK | TTY_LINE_END);
    } else {
        if (tio->lflag & ECHO)
            c == '\n' ? echo_raw(p, c) : echo_char(p, c);
        else if (c == '\n' && canon && (tio->lflag & ECHONL))
            echo_raw(p, c);
        queue_put(&p->input, c | (line_end ? TTY_LINE_END : 0));
    }
    if (line_end || !canon)
        p->canon_len = p->input.len;
    return true;
}

size_t tty_receive(struct pty *p, const uint8_t *buf, size_t len)
{
    size_t n = 0;
    while (n < len && receive_char(p, buf[n]))
        n++;
    return n;
}

size_t tty_input_readable(const struct pty *p)
{
    if (!(p->termios.lflag & ICANON))
        return p->input.len;
    size_t n = 0; /* inq_canon: the lines' bytes, without EOF marks */
    for (size_t i = 0; i < p->canon_len; i++)
        n += !(queue_at(&p->input, i) & TTY_EOF_MARK);
    return n;
}

size_t tty_read_input(struct pty *p, uint8_t *buf, size_t len)
{
    bool canon = p->termios.lflag & ICANON;
    size_t avail = canon ? p->canon_len : p->input.len, n = 0, taken = 0;
    while (taken < avail && n < len) {
        uint16_t e = queue_at(&p->input, taken++);
        if (!(e & TTY_EOF_MARK))
            buf[n++] = (uint8_t)e;
        if (canon && (e & TTY_LINE_END))
            break;
    }
    queue_drop(&p->input, taken);
    p->canon_len = canon ? p->canon_len - taken : p->input.len;
    return n;
}

void tty_set_termios(struct pty *p, const struct ktermios *tio)
{
    bool was_canon = p->termios.lflag & ICANON;
    p->termios = *tio;
    bool canon = tio->lflag & ICANON;
    if (was_canon == canon)
        return;
    if (canon && p->input.len > 0)
        p->input.buf[(p->input.head + p->input.len - 1) % TTY_BUF] |= TTY_LINE_END;
    p->canon_len = p->input.len;
}
