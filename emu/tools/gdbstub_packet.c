/* SPDX-License-Identifier: GPL-2.0-or-later */
/* gdbstub_packet.c - the Remote Serial Protocol's framing (gdbstub_packet.h):
 * a byte-at-a-time receiver, framing with the binary escape, hex, thread
 * ids and GDB's signal numbers. Nothing here knows the machine. */
#include "gdbstub_packet.h"

#include "hexdigit.h"

#include <string.h>

enum { RX_IDLE, RX_DATA, RX_CSUM1, RX_CSUM2 };

enum gdb_rx_event gdb_rx_byte(struct gdb_rx *rx, uint8_t c)
{
    switch (rx->state) {
    case RX_IDLE:
        if (c == '$') {
            rx->state = RX_DATA;
            rx->len = 0;
            rx->sum = 0;
            rx->overflow = false;
            rx->bad_digit = false;
            return GDB_RX_NONE;
        }
        return c == '+' ? GDB_RX_ACK : c == '-' ? GDB_RX_NACK : c == 0x03 ? GDB_RX_INTERRUPT
                                                                          : GDB_RX_NONE;
    case RX_DATA:
        if (c == '#') {
            rx->state = RX_CSUM1;
            return GDB_RX_NONE;
        }
        if (c == '$') { /* a new start: the packet before it was cut off */
            rx->len = 0;
            rx->sum = 0;
            rx->overflow = false;
            return GDB_RX_NONE;
        }
        rx->sum += c;
        if (rx->len < GDB_PACKET_MAX)
            rx->buf[rx->len++] = (char)c;
        else
            rx->overflow = true;
        return GDB_RX_NONE;
    case RX_CSUM1:
        rx->bad_digit = hex_digit(c) < 0;
        rx->given = rx->bad_digit ? 0 : (uint8_t)(hex_digit(c) << 4);
        rx->state = RX_CSUM2;
        return GDB_RX_NONE;
    default:
        rx->state = RX_IDLE;
        rx->buf[rx->len] = '\0';
        if (rx->bad_digit || hex_digit(c) < 0 || (uint8_t)(rx->given | hex_digit(c)) != rx->sum)
            return GDB_RX_BAD_CHECKSUM;
        return rx->overflow ? GDB_RX_TOO_LONG : GDB_RX_PACKET;
    }
}

uint8_t gdb_checksum(const char *data, size_t len)
{
    uint8_t sum = 0;
    for (size_t i = 0; i < len; i++)
        sum += (uint8_t)data[i];
    return sum;
}

static const char hexchars[] = "0123456789abcdef";

size_t gdb_frame(const char *payload, size_t len, char *out)
{
    size_t n = 0;
    out[n++] = '$';
    for (size_t i = 0; i < len; i++) {
        char c = payload[i];
        if (c == '#' || c == '$' || c == '}' || c == '*') {
            out[n++] = '}';
            c ^= 0x20;
        }
        out[n++] = c;
    }
    uint8_t sum = gdb_checksum(out + 1, n - 1);
    out[n++] = '#';
    out[n++] = hexchars[sum >> 4];
    out[n++] = hexchars[sum & 15];
    return n;
}

long gdb_unescape(char *data, size_t len)
{
    size_t out = 0;
    for (size_t i = 0; i < len; i++) {
        if (data[i] == '}') {
            if (++i == len)
                return -1;
            data[out++] = (char)(data[i] ^ 0x20);
        } else {
            data[out++] = data[i];
        }
    }
    return (long)out;
}

void gdb_hex_encode(const uint8_t *in, size_t len, char *out)
{
    for (size_t i = 0; i < len; i++) {
        out[2 * i] = hexchars[in[i] >> 4];
        out[2 * i + 1] = hexchars[in[i] & 15];
    }
    out[2 * len] = '\0';
}

long gdb_hex_decode(const char *in, size_t nhex, uint8_t *out)
{
    if (nhex % 2)
        return -1;
    for (size_t i = 0; i < nhex / 2; i++) {
        int hi = hex_digit((uint8_t)in[2 * i]), lo = hex_digit((uint8_t)in[2 * i + 1]);
        if (hi < 0 || lo < 0)
            return -1;
        out[i] = (uint8_t)(hi << 4 | lo);
    }
    return (long)(nhex / 2);
}

bool gdb_parse_hex(const char **p, uint64_t *out)
{
    const char *s = *p;
    uint64_t v = 0;
    int d;
    if (hex_digit((uint8_t)*s) < 0)
        return false;
    while ((d = hex_digit((uint8_t)*s)) >= 0) {
        if (v >> 60)
            return false;
        v = v << 4 | (uint64_t)d;
        s++;
    }
    *p = s;
    *out = v;
    return true;
}

/* One id number: "-1", or hex up to INT32_MAX. */
static bool parse_id(const char **p, int *out)
{
    uint64_t v;
    if ((*p)[0] == '-' && (*p)[1] == '1') {
        *p += 2;
        *out = -1;
        return true;
    }
    if (!gdb_parse_hex(p, &v) || v > INT32_MAX)
        return false;
    *out = (int)v;
    return true;
}

bool gdb_parse_thread_id(const char **p, struct gdb_thread_id *out)
{
    const char *s = *p;
    struct gdb_thread_id id = {0, 0};
    if (*s == 'p') {
        s++;
        if (!parse_id(&s, &id.pid))
            return false;
        id.tid = -1;
        if (*s == '.') {
            s++;
            if (!parse_id(&s, &id.tid))
                return false;
        }
    } else if (!parse_id(&s, &id.tid)) {
        return false;
    }
    *p = s;
    *out = id;
    return true;
}

/* Linux's standard signals in GDB's numbering (0 where it has none:
 * SIGSTKFLT); real-time signals follow a rule of their own. */
static const unsigned char gdb_of_linux[32] = {
    0,  1,  2,  3,  4,  5,  6,  10, 8,  9,  30, 11, 31, 13, 14, 15,
    0,  20, 19, 17, 18, 21, 22, 16, 24, 25, 26, 27, 28, 23, 32, 12,
};

#define GDB_SIGNAL_UNKNOWN 143

int gdb_signal_from_linux(int sig)
{
    if (sig <= 0 || sig > 64)
        return sig == 0 ? 0 : GDB_SIGNAL_UNKNOWN;
    if (sig < 32)
        return gdb_of_linux[sig] ? gdb_of_linux[sig] : GDB_SIGNAL_UNKNOWN;
    if (sig == 32)
        return 77; /* GDB_SIGNAL_REALTIME_32 */
    if (sig == 64)
        return 78; /* GDB_SIGNAL_REALTIME_64 */
    return 45 + (sig - 33); /* GDB_SIGNAL_REALTIME_33.. */
}

int gdb_signal_to_linux(int gsig)
{
    for (int sig = 1; sig <= 64; sig++)
        if (gdb_signal_from_linux(sig) == gsig)
            return sig;
    return 0;
}
