/* SPDX-License-Identifier: GPL-2.0-or-later */
/* gdbstub_cmds.c - the gdb stub's packets (gdbstub_int.h): queries, thread
 * selection, registers, memory, breakpoints, resuming, detaching and
 * killing. Every packet gets its reply here except a resume's, whose stop
 * reply comes when the machine next stops (gdbstub.c). Unknown packets get
 * the empty reply, malformed ones `E01`, bad addresses `E0e` (EFAULT) and
 * unknown threads `E03` (ESRCH), register values Linux would refuse a
 * tracer `E16` (EINVAL). */
#include "gdbstub_int.h"

#include "cpumask.h"
#include "machine.h"
#include "mm.h"
#include "procmem.h"
#include "signals.h"
#include "task.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define E_MALFORMED "E01"
#define E_NO_THREAD "E03"
#define E_FAULT "E0e"
#define E_INVALID "E16" /* EINVAL: a register value a tracer could not write */

static bool starts(const char *s, const char *prefix)
{
    return strncmp(s, prefix, strlen(prefix)) == 0;
}

static struct task *live_task(struct gdbstub *gs, int tid)
{
    struct task *t = tid > 0 ? task_find(gs->m, tid) : NULL;
    return t && t->state != TASK_DEAD && task_mm(t) && gdb_attached(gs, t->proc->pid) ? t : NULL;
}

/* The first live thread gdb debugs that id names (-1 and 0: any). */
static struct task *task_for_id(struct gdbstub *gs, struct gdb_thread_id id)
{
    if (id.tid > 0)
        return live_task(gs, id.tid) && (id.pid <= 0 || task_find(gs->m, id.tid)->proc->pid == id.pid)
                   ? live_task(gs, id.tid)
                   : NULL;
    for (struct task *t = gs->m->tasks; t; t = t->next_all)
        if (live_task(gs, t->tid) == t && (id.pid <= 0 || t->proc->pid == id.pid))
            return t;
    return NULL;
}

/* The thread Hg (or Hc) chose, else that of the last stop, else any. */
static struct task *selected(struct gdbstub *gs, int tid)
{
    struct task *t = live_task(gs, tid);
    if (!t)
        t = live_task(gs, gs->cur_tid);
    return t ? t : task_for_id(gs, (struct gdb_thread_id){-1, -1});
}

/* ---- queries ---- */

static void q_supported(struct gdbstub *gs, const char *features)
{
    gs->multiprocess = strstr(features, "multiprocess+") != NULL;
    gs->fork_events = strstr(features, "fork-events+") != NULL;
    gs->exec_events = strstr(features, "exec-events+") != NULL;
    char reply[512];
    snprintf(reply, sizeof reply,
             "PacketSize=%x;QStartNoAckMode+;multiprocess+;swbreak+;qXfer:features:read+;"
             "qXfer:threads:read+;vContSupported+;fork-events+;vfork-events+;exec-events+",
             GDB_PACKET_MAX);
    gdb_send_str(gs, reply);
}

/* `qXfer:OBJECT:read:ANNEX:OFF,LEN` of a document: `m` and a part, or `l`
 * and the last part. */
static void xfer_reply(struct gdbstub *gs, const char *doc, size_t doclen, const char *range)
{
    uint64_t off, len;
    if (!gdb_parse_hex(&range, &off) || *range++ != ',' || !gdb_parse_hex(&range, &len) ||
        *range) {
        gdb_send_str(gs, E_MALFORMED);
        return;
    }
    if (off > doclen)
        off = doclen;
    if (len > doclen - off)
        len = doclen - off;
    if (len > GDB_PACKET_MAX / 2 - 1) /* escaping may double it */
        len = GDB_PACKET_MAX / 2 - 1;
    char *reply = malloc(len + 1);
    if (!reply) {
        gdb_send_str(gs, E_MALFORMED);
        return;
    }
    reply[0] = off + len < doclen ? 'm' : 'l';
    memcpy(reply + 1, doc + off, len);
    gdb_send(gs, reply, len + 1);
    free(reply);
}

/* "cpu3 affinity 0-3": the vCPU t runs or last ran on and its affinity. */
static void thread_extra(const struct task *t, char *buf, size_t len)
{
    char list[256];
    cpulist_format(&t->se.affinity, list, sizeof list);
    snprintf(buf, len, "cpu%u affinity %s", t->se.cpu, list);
}

static void q_xfer_threads(struct gdbstub *gs, const char *range)
{
    size_t cap = 256, n = 0;
    char *doc = malloc(cap);
    for (struct task *t = gs->m->tasks; doc && t; t = t->next_all) {
        if (live_task(gs, t->tid) != t)
            continue;
        char id[48], line[512];
        gdb_format_tid(gs, t, id, sizeof id);
        /* the name as ps shows it: XML-safe bytes only */
        char name[COMM_LEN];
        size_t i = 0;
        for (; t->se.comm[i] && i < sizeof name - 1; i++) {
            char c = t->se.comm[i];
            name[i] = (c >= 0x20 && c < 0x7f && c != '<' && c != '>' && c != '&' && c != '"') ? c : '?';
        }
        name[i] = '\0';
        char extra[300];
        thread_extra(t, extra, sizeof extra);
        int w = snprintf(line, sizeof line, "<thread id=\"%s\" core=\"%u\" name=\"%s\">%s</thread>\n",
                         id, t->se.cpu, name, extra);
        if (n + (size_t)w + 32 > cap) {
            char *d = realloc(doc, cap = 2 * (n + (size_t)w + 32));
            if (!d) {
                free(doc);
                doc = NULL;
                break;
            }
            doc = d;
        }
        memcpy(doc + n, line, (size_t)w);
        n += (size_t)w;
    }
    if (!doc) {
        gdb_send_str(gs, E_MALFORMED);
        return;
    }
    const char head[] = "<?xml version=\"1.0\"?>\n<threads>\n", tail[] = "</threads>\n";
    char *full = malloc(sizeof head + n + sizeof tail);
    if (full) {
        size_t len = 0;
        memcpy(full, head, sizeof head - 1), len += sizeof head - 1;
        memcpy(full + len, doc, n), len += n;
        memcpy(full + len, tail, sizeof tail - 1), len += sizeof tail - 1;
        xfer_reply(gs, full, len, range);
    } else {
        gdb_send_str(gs, E_MALFORMED);
    }
    free(full);
    free(doc);
}

static void q_thread_info(struct gdbstub *gs)
{
    char reply[GDB_PACKET_MAX];
    size_t n = 0;
    reply[n++] = 'm';
    for (struct task *t = gs->m->tasks; t && n < sizeof reply - 64; t = t->next_all) {
        if (live_task(gs, t->tid) != t)
            continue;
        if (n > 1)
            reply[n++] = ',';
        gdb_format_tid(gs, t, reply + n, sizeof reply - n);
        n += strlen(reply + n);
    }
    gdb_send(gs, n > 1 ? reply : "l", n > 1 ? n : 1);
}

static void query(struct gdbstub *gs, char *pkt)
{
    char buf[512];
    const char *p;
    if (starts(pkt, "qSupported")) {
        q_supported(gs, pkt);
    } else if (strcmp(pkt, "qAttached") == 0 || starts(pkt, "qAttached:")) {
        gdb_send_str(gs, "0"); /* asymu started it: gdb kills it when it quits */
    } else if (strcmp(pkt, "qC") == 0) {
        struct task *t = selected(gs, gs->cur_tid);
        if (!t) {
            gdb_send_str(gs, E_NO_THREAD);
            return;
        }
        strcpy(buf, "QC");
        gdb_format_tid(gs, t, buf + 2, sizeof buf - 2);
        gdb_send_str(gs, buf);
    } else if (strcmp(pkt, "qfThreadInfo") == 0) {
        q_thread_info(gs);
    } else if (strcmp(pkt, "qsThreadInfo") == 0) {
        gdb_send_str(gs, "l");
    } else if (starts(pkt, "qThreadExtraInfo,")) {
        struct gdb_thread_id id;
        p = pkt + strlen("qThreadExtraInfo,");
        struct task *t = gdb_parse_thread_id(&p, &id) && !*p ? task_for_id(gs, id) : NULL;
        if (!t) {
            gdb_send_str(gs, E_NO_THREAD);
            return;
        }
        char text[300];
        thread_extra(t, text, sizeof text);
        gdb_hex_encode((const uint8_t *)text, strlen(text), buf);
        gdb_send_str(gs, buf);
    } else if (starts(pkt, "qXfer:features:read:target.xml:")) {
        struct task *t = selected(gs, gs->g_tid);
        if (!t) {
            gdb_send_str(gs, E_NO_THREAD);
            return;
        }
        const char *xml = gdb_target_xml(t);
        xfer_reply(gs, xml, strlen(xml), pkt + strlen("qXfer:features:read:target.xml:"));
    } else if (starts(pkt, "qXfer:features:read:")) {
        gdb_send_str(gs, "E00"); /* no other annex */
    } else if (starts(pkt, "qXfer:threads:read::")) {
        q_xfer_threads(gs, pkt + strlen("qXfer:threads:read::"));
    } else if (starts(pkt, "qSymbol:")) {
        gdb_send_str(gs, "OK");
    } else {
        gdb_send_str(gs, ""); /* not supported */
    }
}

/* ---- registers and memory ---- */

static void read_registers(struct gdbstub *gs)
{
    struct task *t = selected(gs, gs->g_tid);
    if (!t) {
        gdb_send_str(gs, E_NO_THREAD);
        return;
    }
    uint8_t regs[GDB_REGS_MAX];
    char hex[2 * GDB_REGS_MAX + 1];
    size_t n = gdb_regs_read(t, regs);
    gdb_hex_encode(regs, n, hex);
    gdb_send(gs, hex, 2 * n);
}

static void write_registers(struct gdbstub *gs, const char *hex, size_t nhex)
{
    struct task *t = selected(gs, gs->g_tid);
    uint8_t regs[GDB_REGS_MAX];
    if (!t) {
        gdb_send_str(gs, E_NO_THREAD);
        return;
    }
    long n = nhex <= 2 * sizeof regs ? gdb_hex_decode(hex, nhex, regs) : -1;
    int err = n >= 0 ? gdb_regs_write(t, regs, (size_t)n) : -E2BIG;
    gdb_send_str(gs, err == 0 ? "OK" : err == -EINVAL ? E_INVALID : E_MALFORMED);
}

/* `p N` and `P N=VALUE`. */
static void one_register(struct gdbstub *gs, const char *p, bool write)
{
    struct task *t = selected(gs, gs->g_tid);
    uint64_t n;
    uint8_t val[16];
    char hex[33];
    if (!t) {
        gdb_send_str(gs, E_NO_THREAD);
        return;
    }
    if (!gdb_parse_hex(&p, &n) || n > 1000 || (write ? *p++ != '=' : *p != '\0')) {
        gdb_send_str(gs, E_MALFORMED);
        return;
    }
    if (write) {
        size_t nhex = strlen(p);
        long len = nhex <= 2 * sizeof val ? gdb_hex_decode(p, nhex, val) : -1;
        int err = len >= 0 ? gdb_reg_write(t, (unsigned)n, val, (size_t)len) : -E2BIG;
        gdb_send_str(gs, err == 0 ? "OK" : err == -EINVAL ? E_INVALID : E_MALFORMED);
        return;
    }
    int size = gdb_reg_read(t, (unsigned)n, val);
    if (size < 0) {
        gdb_send_str(gs, E_MALFORMED);
        return;
    }
    gdb_hex_encode(val, (size_t)size, hex);
    gdb_send_str(gs, hex);
}

/* "ADDR,LEN" then `end` (':' or NUL): false when malformed. */
static bool parse_range(const char **p, uint64_t *addr, uint64_t *len, char end)
{
    return gdb_parse_hex(p, addr) && *(*p)++ == ',' && gdb_parse_hex(p, len) && *(*p)++ == end;
}

static void read_memory(struct gdbstub *gs, const char *p)
{
    struct task *t = selected(gs, gs->g_tid);
    uint64_t addr, len;
    if (!parse_range(&p, &addr, &len, '\0')) {
        gdb_send_str(gs, E_MALFORMED);
        return;
    }
    if (!t) {
        gdb_send_str(gs, E_NO_THREAD);
        return;
    }
    /* A reply holds what fits in a packet: gdb asks again for the rest. */
    if (len > GDB_PACKET_MAX / 2)
        len = GDB_PACKET_MAX / 2;
    uint8_t bytes[GDB_PACKET_MAX / 2];
    char hex[GDB_PACKET_MAX + 1];
    size_t n = procmem_access(task_mm(t), addr, bytes, (size_t)len, false);
    if (!n && len) {
        gdb_send_str(gs, E_FAULT);
        return;
    }
    gdb_hex_encode(bytes, n, hex);
    gdb_send(gs, hex, 2 * n);
}

/* `M ADDR,LEN:HEX` and `X ADDR,LEN:BINARY`. */
static void write_memory(struct gdbstub *gs, char *p, size_t plen, bool binary)
{
    struct task *t = selected(gs, gs->g_tid);
    const char *q = p;
    uint64_t addr, len;
    uint8_t bytes[GDB_PACKET_MAX];
    if (!parse_range(&q, &addr, &len, ':')) {
        gdb_send_str(gs, E_MALFORMED);
        return;
    }
    size_t datalen = plen - (size_t)(q - p);
    long n = binary ? gdb_unescape((char *)q, datalen)
                    : (datalen <= 2 * sizeof bytes ? gdb_hex_decode(q, datalen, bytes) : -1);
    if (n < 0 || (uint64_t)n != len) {
        gdb_send_str(gs, E_MALFORMED);
        return;
    }
    if (binary)
        memcpy(bytes, q, (size_t)n);
    if (!t) {
        gdb_send_str(gs, E_NO_THREAD);
        return;
    }
    bool ok = procmem_access(task_mm(t), addr, bytes, (size_t)n, true) == (size_t)n;
    gdb_send_str(gs, ok ? "OK" : E_FAULT);
}

/* `Z0,ADDR,KIND` and `z0,ADDR,KIND`: software breakpoints of the process of
 * the Hg thread. Other kinds are not supported (the empty reply). */
static void breakpoint(struct gdbstub *gs, const char *p, bool insert)
{
    uint64_t addr, kind;
    if (p[0] != '0') {
        gdb_send_str(gs, "");
        return;
    }
    p++;
    if (*p++ != ',' || !gdb_parse_hex(&p, &addr) || *p++ != ',' || !gdb_parse_hex(&p, &kind)) {
        gdb_send_str(gs, E_MALFORMED);
        return;
    }
    struct task *t = selected(gs, gs->g_tid);
    if (!t) {
        gdb_send_str(gs, E_NO_THREAD);
        return;
    }
    int pid = t->proc->pid;
    struct gdb_breakpoint **pp = &gs->breakpoints;
    while (*pp && !((*pp)->pid == pid && (*pp)->addr == addr))
        pp = &(*pp)->next;
    if (insert && !*pp) {
        struct gdb_breakpoint *b = calloc(1, sizeof *b);
        if (!b) {
            gdb_send_str(gs, "E0c"); /* ENOMEM */
            return;
        }
        b->pid = pid;
        b->addr = addr;
        b->next = gs->breakpoints;
        gs->breakpoints = b;
    } else if (!insert && *pp) {
        struct gdb_breakpoint *b = *pp;
        *pp = b->next;
        free(b);
    }
    gdb_send_str(gs, "OK");
}

/* ---- running ---- */

/* gdb continues: a signal it passes to the thread stopped with one is
 * delivered, one it does not pass is discarded; a step begins. */
static void resume(struct gdbstub *gs, struct task *step, struct task *sig_task, int gdb_sig)
{
    struct task *st = live_task(gs, gs->sig_tid);
    if (st && sig_task == st && gdb_sig) {
        int sig = gdb_signal_to_linux(gdb_sig);
        if (sig) {
            struct siginfo_lite info = sig == gs->sig ? gs->sig_info
                                                      : (struct siginfo_lite){.code = 0 /* SI_USER */};
            gs->pass_tid = st->tid;
            gs->pass_sig = sig;
            signal_queue_task(st, sig, &info);
        }
    }
    gs->sig_tid = 0;
    gs->step_tid = step ? step->tid : 0;
    gs->step_moved = false;
    gs->paused = false;
}

/* `vCont;ACTION[:ID]...`: c, C SIG, s, S SIG. The machine runs as a whole
 * (all-stop); a thread named by `s` stops after one instruction. */
static void v_cont(struct gdbstub *gs, const char *p)
{
    struct task *step = NULL, *sig_task = NULL;
    int gdb_sig = 0;
    while (*p == ';') {
        p++;
        char action = *p++;
        uint64_t sig = 0;
        if (action == 'C' || action == 'S') {
            if (!gdb_parse_hex(&p, &sig) || sig > 255) {
                gdb_send_str(gs, E_MALFORMED);
                return;
            }
        } else if (action != 'c' && action != 's') {
            gdb_send_str(gs, E_MALFORMED);
            return;
        }
        struct task *t = NULL;
        if (*p == ':') {
            struct gdb_thread_id id;
            p++;
            if (!gdb_parse_thread_id(&p, &id)) {
                gdb_send_str(gs, E_MALFORMED);
                return;
            }
            t = id.tid > 0 ? task_for_id(gs, id) : NULL;
        } else if (action == 's' || action == 'S') {
            t = selected(gs, gs->c_tid);
        }
        if ((action == 's' || action == 'S') && t && !step)
            step = t;
        if (sig && !sig_task) {
            sig_task = t ? t : live_task(gs, gs->sig_tid);
            gdb_sig = (int)sig;
        }
    }
    if (*p) {
        gdb_send_str(gs, E_MALFORMED);
        return;
    }
    resume(gs, step, sig_task, gdb_sig);
}

/* `c [ADDR]`, `s [ADDR]`, `C SIG[;ADDR]`, `S SIG[;ADDR]` (a new pc is not
 * supported: E01). */
static void old_resume(struct gdbstub *gs, const char *p)
{
    char action = *p++;
    uint64_t sig = 0;
    if ((action == 'C' || action == 'S') && (!gdb_parse_hex(&p, &sig) || sig > 255)) {
        gdb_send_str(gs, E_MALFORMED);
        return;
    }
    if (*p) {
        gdb_send_str(gs, E_MALFORMED);
        return;
    }
    struct task *t = selected(gs, gs->c_tid);
    resume(gs, (action == 's' || action == 'S') ? t : NULL, live_task(gs, gs->sig_tid), (int)sig);
}

static void set_thread(struct gdbstub *gs, const char *p)
{
    char which = *p++;
    struct gdb_thread_id id;
    if ((which != 'g' && which != 'c') || !gdb_parse_thread_id(&p, &id) || *p) {
        gdb_send_str(gs, E_MALFORMED);
        return;
    }
    int tid = 0;
    if (id.tid != 0 || id.pid > 0) {
        struct task *t = task_for_id(gs, id);
        if (!t) {
            gdb_send_str(gs, E_NO_THREAD);
            return;
        }
        tid = id.tid > 0 ? t->tid : (which == 'g' ? t->tid : 0);
    }
    if (which == 'g')
        gs->g_tid = tid;
    else
        gs->c_tid = tid;
    gdb_send_str(gs, "OK");
}

static void kill_process(struct gdbstub *gs, int pid)
{
    struct process *p = process_find(gs->m, pid);
    if (p && !p->exiting && !p->zombie)
        process_exit_group(p, SIGKILL);
}

static void detach(struct gdbstub *gs, const char *p)
{
    uint64_t pid = 0;
    if (*p == ';' && (p++, !gdb_parse_hex(&p, &pid) || pid > INT32_MAX)) {
        gdb_send_str(gs, E_MALFORMED);
        return;
    }
    if (*p) {
        gdb_send_str(gs, E_MALFORMED);
        return;
    }
    if (pid) {
        gdb_detach(gs, (int)pid);
    } else {
        while (gs->nattached)
            gdb_detach(gs, gs->attached[0]);
    }
    gdb_send_str(gs, "OK");
}

static void stop_reason(struct gdbstub *gs)
{
    if (!gs->stop_reply[0]) {
        struct task *t = selected(gs, gs->cur_tid);
        char id[48];
        if (!t) {
            gdb_send_str(gs, "W00");
            return;
        }
        gdb_format_tid(gs, t, id, sizeof id);
        snprintf(gs->stop_reply, sizeof gs->stop_reply, "T05thread:%s;", id);
        gs->cur_tid = t->tid;
    }
    gdb_send_str(gs, gs->stop_reply);
}

void gdb_handle_packet(struct gdbstub *gs, char *pkt, size_t len)
{
    const char *args = pkt + 1;
    if (len == 0) {
        gdb_send_str(gs, "");
        return;
    }
    switch (pkt[0]) {
    case '?':
        stop_reason(gs);
        return;
    case 'q':
        query(gs, pkt);
        return;
    case 'Q':
        if (strcmp(pkt, "QStartNoAckMode") == 0) {
            gdb_send_str(gs, "OK");
            gs->no_ack = true; /* after this OK, which is still acknowledged */
        } else {
            gdb_send_str(gs, "");
        }
        return;
    case 'H':
        set_thread(gs, args);
        return;
    case 'T': {
        struct gdb_thread_id id;
        bool ok = gdb_parse_thread_id(&args, &id) && !*args && task_for_id(gs, id);
        gdb_send_str(gs, ok ? "OK" : E_NO_THREAD);
        return;
    }
    case 'g':
        read_registers(gs);
        return;
    case 'G':
        write_registers(gs, args, len - 1);
        return;
    case 'p':
    case 'P':
        one_register(gs, args, pkt[0] == 'P');
        return;
    case 'm':
        read_memory(gs, args);
        return;
    case 'M':
    case 'X':
        write_memory(gs, pkt + 1, len - 1, pkt[0] == 'X');
        return;
    case 'Z':
    case 'z':
        breakpoint(gs, args, pkt[0] == 'Z');
        return;
    case 'c':
    case 'C':
    case 's':
    case 'S':
        old_resume(gs, pkt);
        return;
    case 'D':
        detach(gs, args);
        return;
    case 'k':
        for (struct task *t = gs->m->tasks; t; t = t->next_all)
            kill_process(gs, t->proc->pid);
        gdb_forget_client(gs); /* no reply: the connection ends */
        return;
    case 'v':
        if (strcmp(pkt, "vCont?") == 0) {
            gdb_send_str(gs, "vCont;c;C;s;S");
        } else if (starts(pkt, "vCont;") || strcmp(pkt, "vCont") == 0) {
            v_cont(gs, pkt + 5);
        } else if (starts(pkt, "vKill;")) {
            uint64_t pid;
            args = pkt + 6;
            if (!gdb_parse_hex(&args, &pid) || *args || pid > INT32_MAX) {
                gdb_send_str(gs, E_MALFORMED);
                return;
            }
            kill_process(gs, (int)pid);
            gdb_detach(gs, (int)pid);
            gdb_send_str(gs, "OK");
        } else {
            gdb_send_str(gs, ""); /* vMustReplyEmpty and the unsupported */
        }
        return;
    default:
        gdb_send_str(gs, "");
        return;
    }
}
