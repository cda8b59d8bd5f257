/* SPDX-License-Identifier: GPL-2.0-or-later */
/* sysctl.c - the numeric /proc/sys files of the IPC, keys, AIO and inotify
 * limits: their table (Linux 5.15's ipc/mq_sysctl.c, ipc/ipc_sysctl.c,
 * security/keys/sysctl.c, fs/aio.c's and inotify_user.c's entries), who
 * may write them (fs/proc/proc_sysctl.c's test_perm) and how a write is
 * parsed (kernel/sysctl.c's __do_proc_dointvec and
 * __do_proc_doulongvec_minmax, as 5.15-stable has them after the
 * proc_skip_spaces() fix), with sysctl_writes_strict at its default, 1.
 * The values live in the machine (struct sysctl_limits): the code that
 * enforces each reads it there. kernel/sched_rt_{period,runtime}_us are
 * here too, for the same parsing and permissions (core.c's
 * sched_rt_handler), their values the scheduler's. */
#include "sysctl.h"

#include "aio.h"
#include "cred.h"
#include "fsnotify.h"
#include "hexdigit.h"
#include "machine.h"
#include "mqueue.h"
#include "sysv_ipc.h"
#include "scheduler.h"
#include "task.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SYSCTL_PAGE 4096 /* a write parses at most PAGE_SIZE - 1 bytes */
#define TMPBUFLEN 22     /* proc_get_long()'s buffer: 21 characters at most */
#define IPCMNI 32768     /* ipc_mni: shmmni's and msgmni's maximum, semmni's check */
/* include/linux/ipc_namespace.h */
#define MIN_MSGMAX 1
#define HARD_MSGMAX 65536
#define MIN_MSGSIZEMAX 128
#define HARD_MSGSIZEMAX (16 * 1024 * 1024)
/* security/keys/key.c's key_quota_* and gc.c's key_gc_delay */
#define KEY_MAXKEYS 200
#define KEY_MAXBYTES 20000
#define KEY_ROOT_MAXKEYS 1000000
#define KEY_ROOT_MAXBYTES 25000000
#define KEY_GC_DELAY 300

void sysctl_limits_init(struct machine *m)
{
    m->limits = (struct sysctl_limits){
        .mq_queues_max = MQ_QUEUES_MAX,
        .mq_msg_max = MQ_MSG_MAX,
        .mq_msgsize_max = MQ_MSGSIZE_MAX,
        .mq_msg_default = MQ_MSG_DEFAULT,
        .mq_msgsize_default = MQ_MSGSIZE_DEFAULT,
        .key_maxkeys = KEY_MAXKEYS,
        .key_maxbytes = KEY_MAXBYTES,
        .key_root_maxkeys = KEY_ROOT_MAXKEYS,
        .key_root_maxbytes = KEY_ROOT_MAXBYTES,
        .key_gc_delay = KEY_GC_DELAY,
        .aio_max_nr = AIO_MAX_NR,
        .inotify_max_user_instances = INOTIFY_MAX_USER_INSTANCES,
        .inotify_max_user_watches = inotify_default_watches(m),
        .inotify_max_queued_events = INOTIFY_MAX_QUEUED_EVENTS,
        .sem = {SEM_SEMMSL, SEM_SEMMNS, SEM_SEMOPM, SEM_SEMMNI},
        .msgmax = MSG_MSGMAX,
        .msgmnb = MSG_MSGMNB,
        .msgmni = MSG_MSGMNI,
        .shmmni = SHM_SHMMNI,
        .shmmax = SHM_SHMMAX,
        .shmall = SHM_SHMALL,
    };
}

/* ---- the table ---- */

enum handler {
    H_INT,    /* proc_dointvec: any int */
    H_MINMAX, /* proc_dointvec_minmax: an int within [min, max] */
    H_ULONG,  /* proc_doulongvec_minmax: an unsigned long within [min, max] */
    H_RT,     /* sched_rt_handler: proc_dointvec, then the scheduler's checks */
};

#define NONE INT64_MIN /* no bound */

struct entry {
    const char *name; /* under /proc/sys */
    enum handler handler;
    unsigned count;   /* values (kernel/sem: 4) */
    size_t off;       /* the first value's place in struct machine (H_RT: an int64_t) */
    int64_t min, max;
};

#define AT(field) offsetof(struct machine, field)
static const struct entry table[] = {
    {"fs/aio-max-nr", H_ULONG, 1, AT(limits.aio_max_nr), NONE, NONE},
    {"fs/aio-nr", H_ULONG, 1, AT(aio_nr), NONE, NONE},
    {"fs/inotify/max_queued_events", H_MINMAX, 1, AT(limits.inotify_max_queued_events), 0, NONE},
    {"fs/inotify/max_user_instances", H_ULONG, 1, AT(limits.inotify_max_user_instances), 0,
     INT_MAX},
    {"fs/inotify/max_user_watches", H_ULONG, 1, AT(limits.inotify_max_user_watches), 0, INT_MAX},
    {"fs/mqueue/msg_default", H_MINMAX, 1, AT(limits.mq_msg_default), MIN_MSGMAX, HARD_MSGMAX},
    {"fs/mqueue/msg_max", H_MINMAX, 1, AT(limits.mq_msg_max), MIN_MSGMAX, HARD_MSGMAX},
    {"fs/mqueue/msgsize_default", H_MINMAX, 1, AT(limits.mq_msgsize_default), MIN_MSGSIZEMAX,
     HARD_MSGSIZEMAX},
    {"fs/mqueue/msgsize_max", H_MINMAX, 1, AT(limits.mq_msgsize_max), MIN_MSGSIZEMAX,
     HARD_MSGSIZEMAX},
    {"fs/mqueue/queues_max", H_INT, 1, AT(limits.mq_queues_max), NONE, NONE},
    {"kernel/keys/gc_delay", H_MINMAX, 1, AT(limits.key_gc_delay), 0, INT_MAX},
    {"kernel/keys/maxbytes", H_MINMAX, 1, AT(limits.key_maxbytes), 1, INT_MAX},
    {"kernel/keys/maxkeys", H_MINMAX, 1, AT(limits.key_maxkeys), 1, INT_MAX},
    {"kernel/keys/root_maxbytes", H_MINMAX, 1, AT(limits.key_root_maxbytes), 1, INT_MAX},
    {"kernel/keys/root_maxkeys", H_MINMAX, 1, AT(limits.key_root_maxkeys), 1, INT_MAX},
    {"kernel/msgmax", H_MINMAX, 1, AT(limits.msgmax), 0, INT_MAX},
    {"kernel/msgmnb", H_MINMAX, 1, AT(limits.msgmnb), 0, INT_MAX},
    {"kernel/msgmni", H_MINMAX, 1, AT(limits.msgmni), 0, IPCMNI},
    {"kernel/sem", H_INT, 4, AT(limits.sem), NONE, NONE},
    {"kernel/shmall", H_ULONG, 1, AT(limits.shmall), NONE, NONE},
    {"kernel/shmmax", H_ULONG, 1, AT(limits.shmmax), NONE, NONE},
    {"kernel/sched_rt_period_us", H_RT, 1, AT(sched.rt_period_us), NONE, NONE},
    {"kernel/sched_rt_runtime_us", H_RT, 1, AT(sched.rt_runtime_us), NONE, NONE},
    {"kernel/shmmni", H_MINMAX, 1, AT(limits.shmmni), 0, IPCMNI},
};

static const struct entry *lookup(const char *name)
{
    for (size_t i = 0; i < sizeof table / sizeof *table; i++)
        if (strcmp(table[i].name, name) == 0)
            return &table[i];
    return NULL;
}

/* ---- permission ---- */

int sysctl_test_perm(const struct task *t, unsigned mode, bool write)
{
    const struct cred *c = &t->proc->cred;
    bool group0 = c->g.eff == 0; /* in_egroup_p(GLOBAL_ROOT_GID) */
    for (unsigned i = 0; !group0 && c->groups && i < c->groups->n; i++)
        group0 = c->groups->gid[i] == 0;
    if (c->u.eff == 0)
        mode >>= 6;
    else if (group0)
        mode >>= 3;
    unsigned want = write ? 2 : 4; /* MAY_WRITE, MAY_READ */
    return (want & ~mode) == 0 ? 0 : -EACCES;
}

/* ---- reading ---- */

int sysctl_read(struct task *t, const char *name, char **data, size_t *size)
{
    const struct entry *e = lookup(name);
    if (!e)
        return -ENOENT;
    FILE *out = open_memstream(data, size);
    if (!out)
        return -ENOMEM;
    const char *at = (const char *)t->machine + e->off;
    for (unsigned i = 0; i < e->count; i++) {
        if (i)
            fputc('\t', out);
        if (e->handler == H_ULONG)
            fprintf(out, "%llu", (unsigned long long)((const uint64_t *)at)[i]);
        else if (e->handler == H_RT)
            fprintf(out, "%lld", (long long)*(const int64_t *)at);
        else
            fprintf(out, "%d", ((const int *)at)[i]);
    }
    fputc('\n', out);
    if (fclose(out) != 0) {
        free(*data);
        *data = NULL;
        return -ENOMEM;
    }
    return 0;
}

/* ---- parsing a write ---- */

/* The kernel's isspace(): its ctype table also marks 0xa0. */
static bool kspace(unsigned char c)
{
    return c == ' ' || (c >= '\t' && c <= '\r') || c == 0xa0;
}

static void skip_spaces(const char **p, size_t *left)
{
    while (*left && kspace((unsigned char)**p)) {
        (*p)++;
        (*left)--;
    }
}

/* proc_get_long(): a number at *p, of the first 21 of *left bytes: '-'
 * (when more follows), then what strtoul_lenient() takes with base 0
 * ("0x1f", "017", "15"; an overflow is an error), which must end at a
 * blank, a tab, a newline or the end of the write. */
static int get_long(const char **p, size_t *left, uint64_t *val, bool *neg)
{
    char tmp[TMPBUFLEN];
    size_t len = *left < TMPBUFLEN - 1 ? *left : TMPBUFLEN - 1;
    memcpy(tmp, *p, len);
    tmp[len] = '\0';
    const char *s = tmp;
    *neg = *s == '-' && *left > 1;
    if (*neg)
        s++;
    if (*s < '0' || *s > '9')
        return -EINVAL;
    unsigned base = 10; /* _parse_integer_fixup_radix() */
    if (s[0] == '0') {
        base = (s[1] == 'x' || s[1] == 'X') && hex_digit(s[2]) >= 0 ? 16 : 8;
        if (base == 16)
            s += 2;
    }
    uint64_t v = 0;
    bool overflow = false;
    for (int d; (d = hex_digit(*s)) >= 0 && d < (int)base; s++) { /* _parse_integer() */
        if (v > (UINT64_MAX - (uint64_t)d) / base)
            overflow = true;
        v = v * base + (uint64_t)d;
    }
    if (overflow)
        return -EINVAL;
    len = (size_t)(s - tmp);
    if (len == TMPBUFLEN - 1) /* too long to know where the number ends */
        return -EINVAL;
    if (len < *left && *s != ' ' && *s != '\t' && *s != '\n')
        return -EINVAL;
    *val = v;
    *p += len;
    *left -= len;
    return 0;
}

/* One value into slot i: do_proc_dointvec_conv() (with the minmax check
 * of do_proc_dointvec_minmax_conv(), before anything is stored), or the
 * unsigned long one, which skips a negative value without a word. */
static int store(const struct entry *e, void *at, unsigned i, uint64_t v, bool neg)
{
    if (e->handler == H_ULONG) {
        if (neg)
            return 0;
        if ((e->min != NONE && v < (uint64_t)e->min) || (e->max != NONE && v > (uint64_t)e->max))
            return -EINVAL;
        ((uint64_t *)at)[i] = v;
        return 0;
    }
    if (v > (uint64_t)INT_MAX + neg)
        return -EINVAL;
    int64_t x = neg ? -(int64_t)v : (int64_t)v;
    if (e->handler == H_MINMAX && ((e->min != NONE && x < e->min) || (e->max != NONE && x > e->max)))
        return -EINVAL;
    ((int *)at)[i] = (int)x;
    return 0;
}

/* The handler's write: the values in order (a vector keeps those before a
 * bad one, and the write fails); what follows the last value, blanks
 * skipped, is left unwritten (a short count). */
static int64_t parse_write(const struct entry *e, void *at, const char *data, size_t len)
{
    size_t left = len < SYSCTL_PAGE - 1 ? len : SYSCTL_PAGE - 1;
    const char *p = data;
    bool first = true;
    int err = 0;
    for (unsigned i = 0; left && i < e->count; i++, first = false) {
        skip_spaces(&p, &left);
        if (!left)
            break;
        uint64_t v;
        bool neg;
        if ((err = get_long(&p, &left, &v, &neg)) < 0 || (err = store(e, at, i, v, neg)) < 0)
            break;
    }
    if (!err)
        skip_spaces(&p, &left);
    if (first)
        return err ? err : -EINVAL;
    return err ? err : (int64_t)(len - left);
}

int64_t sysctl_write(struct task *t, const char *name, const char *data, size_t len, uint64_t pos)
{
    const struct entry *e = lookup(name);
    if (!e)
        return -ENOENT;
    if (len == 0)
        return 0;
    if (pos)
        return (int64_t)len; /* proc_first_pos_non_zero_ignore(): ignored */
    struct sysctl_limits *l = &t->machine->limits;
    void *at = (char *)t->machine + e->off;
    if (e->handler == H_RT) {
        /* sched_rt_handler(): the number, then sched_dl_set_global()'s
         * checks (EINVAL, EBUSY), which keep the old values on failure */
        bool period = e->off == AT(sched.rt_period_us);
        int value = (int)*(const int64_t *)at;
        const struct entry as_int = {e->name, H_INT, 1, 0, NONE, NONE};
        int64_t r = parse_write(&as_int, &value, data, len);
        int err = r < 0 ? 0 : sched_dl_set_global(&t->machine->sched, period, value);
        return err < 0 ? err : r;
    }
    int semmni = l->sem[3];
    int64_t r = parse_write(e, at, data, len);
    /* proc_ipc_sem_dointvec(): semmni in [0, IPCMNI] (sem_check_semmni),
     * else ERANGE; a failed write leaves semmni as it was */
    if (e->off == AT(limits.sem)) {
        if (r >= 0 && (l->sem[3] < 0 || l->sem[3] > IPCMNI))
            r = -ERANGE;
        if (r < 0)
            l->sem[3] = semmni;
    }
    return r;
}
