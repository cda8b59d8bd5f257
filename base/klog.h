/* SPDX-License-Identifier: GPL-2.0-or-later */
/* klog.h - the emulated kernel log: a bounded ring of printk-style messages
 * with virtual timestamps, read through syslog(2), /dev/kmsg and --dmesg. */
#ifndef ASYMU_KLOG_H
#define ASYMU_KLOG_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

/* Longest message text kept, like the kernel's 1 KiB printk record; longer
 * text is truncated. */
#define KLOG_TEXT_MAX 1024
#define KLOG_DEFAULT_CAPACITY 512

/* printk levels (KERN_*), as syslog(2) and /dev/kmsg report them. */
enum klog_level {
    KLOG_EMERG = 0,
    KLOG_ALERT = 1,
    KLOG_CRIT = 2,
    KLOG_ERR = 3,
    KLOG_WARNING = 4,
    KLOG_NOTICE = 5,
    KLOG_INFO = 6,
    KLOG_DEBUG = 7,
};

/* printk_deferred() without a KERN_ level logs at the default message level. */
#define KLOG_DEFAULT_LEVEL KLOG_WARNING

struct klog_entry {
    uint64_t seq;   /* 0 for the first message ever logged, then +1 each */
    uint64_t ts_ns; /* virtual time of the message */
    int level;
    char text[KLOG_TEXT_MAX]; /* no trailing newline */
};

/* A ring of `capacity` entries: when full, a new message overwrites the
 * oldest, and readers holding its sequence number see it gone. */
struct klog {
    struct klog_entry *ring;
    unsigned capacity;
    uint64_t next_seq;
    uint64_t last_ts_ns; /* of the newest message: timestamps never go back */
};

/* Flags for klog_read(). */
#define KLOG_LEVEL_PREFIX 1u /* "<6>" before each line, as syslog(2) READ_ALL */

/* capacity 0 means KLOG_DEFAULT_CAPACITY. Returns 0 or -ENOMEM. */
int klog_init(struct klog *log, unsigned capacity);
void klog_destroy(struct klog *log);

/* Appends one message; a trailing newline in fmt is dropped. A ts_ns earlier
 * than the previous message's (another vCPU's clock behind) is raised to it,
 * as the kernel's single log clock never goes backwards (spec 6). */
void klog_printf(struct klog *log, uint64_t ts_ns, int level, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
void klog_vprintf(struct klog *log, uint64_t ts_ns, int level, const char *fmt, va_list ap)
    __attribute__((format(printf, 4, 0)));

/* The oldest sequence number still held (== klog_next_seq when empty). */
uint64_t klog_first_seq(const struct klog *log);
/* The sequence number the next message will get. */
uint64_t klog_next_seq(const struct klog *log);
/* The entry with sequence number seq, or NULL if it was overwritten
 * (seq < klog_first_seq) or is not written yet (seq >= klog_next_seq). */
const struct klog_entry *klog_get(const struct klog *log, uint64_t seq);

/* "[    1.234567] text" (printk's 5-wide seconds, 6-digit microseconds), no
 * newline. Returns the length it needed, like snprintf. */
size_t klog_format(const struct klog_entry *e, char *buf, size_t len);
/* The /dev/kmsg record: "LEVEL,SEQ,USEC,-;text\n". Returns the needed length. */
size_t klog_format_kmsg(const struct klog_entry *e, char *buf, size_t len);
/* Every held message from from_seq on (older ones start at the oldest held),
 * one klog_format() line each ending in '\n'. Returns the needed length. */
size_t klog_read(const struct klog *log, uint64_t from_seq, unsigned flags, char *buf, size_t len);

#endif
