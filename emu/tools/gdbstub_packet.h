/* SPDX-License-Identifier: GPL-2.0-or-later */
/* gdbstub_packet.h - the GDB Remote Serial Protocol's framing
 * (gdbstub_packet.c), apart from any machine: `$data#cs` packets with their
 * checksums, acknowledgements, the interrupt byte, the binary escape of
 * `X` packets, hex and thread ids. The gdb stub (gdbstub.h) feeds the bytes
 * of its connection in and frames its replies here. */
#ifndef ASYMU_GDBSTUB_PACKET_H
#define ASYMU_GDBSTUB_PACKET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The largest packet taken or sent (qSupported's PacketSize), payload only. */
#define GDB_PACKET_MAX 0x4000

enum gdb_rx_event {
    GDB_RX_NONE,         /* the byte is part of something not complete yet */
    GDB_RX_PACKET,       /* a packet with a good checksum: rx->buf, rx->len */
    GDB_RX_BAD_CHECKSUM, /* a packet whose checksum does not match (or is not hex) */
    GDB_RX_TOO_LONG,     /* a packet longer than GDB_PACKET_MAX, dropped */
    GDB_RX_INTERRUPT,    /* 0x03 between packets: stop the target */
    GDB_RX_ACK,          /* '+' */
    GDB_RX_NACK,         /* '-': send the last packet again */
};

struct gdb_rx {
    int state;
    char buf[GDB_PACKET_MAX + 1]; /* the payload of the packet, NUL-terminated */
    size_t len;
    uint8_t sum;     /* of the payload bytes so far */
    uint8_t given;   /* the checksum the packet gives */
    bool bad_digit;  /* a checksum character that is not hex */
    bool overflow;
};

/* Takes one byte of the connection: what it completed. Bytes outside a
 * packet other than '+', '-' and 0x03 are ignored, as gdbserver does. */
enum gdb_rx_event gdb_rx_byte(struct gdb_rx *rx, uint8_t c);

/* The checksum of a payload: its bytes summed modulo 256. */
uint8_t gdb_checksum(const char *data, size_t len);
/* Frames payload as `$payload#cs` into out (at least 2 * len + 4 bytes),
 * escaping '#', '$', '}' and '*' as '}' followed by the byte xor 0x20:
 * the framed length. */
size_t gdb_frame(const char *payload, size_t len, char *out);
/* Undoes the binary escape in place: the decoded length, or -1 for a '}'
 * at the end. */
long gdb_unescape(char *data, size_t len);

/* Hex: two lowercase digits a byte; decode takes either case and gives -1
 * on anything that is not a hex digit (or an odd count). */
void gdb_hex_encode(const uint8_t *in, size_t len, char *out);
long gdb_hex_decode(const char *in, size_t nhex, uint8_t *out);
/* A hex number at *p (at least one digit, no overflow past 64 bits),
 * advancing *p past it: false when there is none or it overflows. */
bool gdb_parse_hex(const char **p, uint64_t *out);

/* A thread id: `pPID.TID`, `pPID` (TID -1), `TID` alone (PID 0), with -1
 * for all and 0 for any, in hex. */
struct gdb_thread_id {
    int pid, tid;
};
/* Parses one at *p, advancing past it: false when malformed. */
bool gdb_parse_thread_id(const char **p, struct gdb_thread_id *out);

/* GDB's signal numbers (its enum gdb_signal) for a Linux signal, and back:
 * 143 (GDB_SIGNAL_UNKNOWN) and 0 for those without one. */
int gdb_signal_from_linux(int sig);
int gdb_signal_to_linux(int gsig);

#endif
