/* SPDX-License-Identifier: GPL-2.0-or-later */
/* klog.c - the kernel log ring: append with a virtual timestamp, read back in
 * printk, syslog(2) and /dev/kmsg formats. */
#include "klog.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int klog_init(struct klog *log, unsigned capacity)
{
    if (capacity == 0)
        capacity = KLOG_DEFAULT_CAPACITY;
    log->ring = calloc(capacity, sizeof(*log->ring));
    if (!log->ring)
        return -ENOMEM;
    log->capacity = capacity;
    log->next_seq = 0;
    log->last_ts_ns = 0;
    return 0;
}

void klog_destroy(struct klog *log)
{
    free(log->ring);
    log->ring = NULL;
    log->capacity = 0;
}

void klog_vprintf(struct klog *log, uint64_t ts_ns, int level, const char *fmt, va_list ap)
{
    struct klog_entry *e = &log->ring[log->next_seq % log->capacity];
    e->seq = log->next_seq++;
    if (ts_ns > log->last_ts_ns)
        log->last_ts_ns = ts_ns;
    e->ts_ns = log->last_ts_ns;
    e->level = level;
    vsnprintf(e->text, sizeof(e->text), fmt, ap);
    size_t n = strlen(e->text);
    if (n > 0 && e->text[n - 1] == '\n')
        e->text[n - 1] = '\0';
}

void klog_printf(struct klog *log, uint64_t ts_ns, int level, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    klog_vprintf(log, ts_ns, level, fmt, ap);
    va_end(ap);
}

uint64_t klog_first_seq(const struct klog *log)
{
    return log->next_seq > log->capacity ? log->next_seq - log->capacity : 0;
}

uint64_t klog_next_seq(const struct klog *log)
{
    return log->next_seq;
}

const struct klog_entry *klog_get(const struct klog *log, uint64_t seq)
{
    if (seq < klog_first_seq(log) || seq >= log->next_seq)
        return NULL;
    return &log->ring[seq % log->capacity];
}

size_t klog_format(const struct klog_entry *e, char *buf, size_t len)
{
    uint64_t sec = e->ts_ns / 1000000000u;
    uint64_t usec = e->ts_ns % 1000000000u / 1000u;
    int n = snprintf(buf, len, "[%5" PRIu64 ".%06" PRIu64 "] %s", sec, usec, e->text);
    return n < 0 ? 0 : (size_t)n;
}

size_t klog_format_kmsg(const struct klog_entry *e, char *buf, size_t len)
{
    int n = snprintf(buf, len, "%d,%" PRIu64 ",%" PRIu64 ",-;%s\n", e->level, e->seq,
                     e->ts_ns / 1000u, e->text);
    return n < 0 ? 0 : (size_t)n;
}

size_t klog_read(const struct klog *log, uint64_t from_seq, unsigned flags, char *buf, size_t len)
{
    size_t used = 0;
    if (len > 0)
        buf[0] = '\0';
    uint64_t seq = from_seq < klog_first_seq(log) ? klog_first_seq(log) : from_seq;
    for (; seq < log->next_seq; seq++) {
        const struct klog_entry *e = klog_get(log, seq);
        char line[KLOG_TEXT_MAX + 64];
        size_t n = 0;
        if (flags & KLOG_LEVEL_PREFIX)
            n = (size_t)snprintf(line, sizeof(line), "<%d>", e->level);
        n += klog_format(e, line + n, sizeof(line) - n);
        if (n > sizeof(line) - 2)
            n = sizeof(line) - 2;
        line[n++] = '\n';
        line[n] = '\0';
        if (used < len) {
            size_t room = len - used - 1;
            size_t k = n < room ? n : room;
            memcpy(buf + used, line, k);
            buf[used + k] = '\0';
        }
        used += n;
    }
    return used;
}
