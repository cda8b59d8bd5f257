/* SPDX-License-Identifier: GPL-2.0-or-later */
/* test-gdbstub-packet.c - the gdb stub's framing (emu/tools/gdbstub_packet.h):
 * packets and their checksums, acknowledgements and the interrupt byte,
 * overlong packets, the binary escape, hex, thread ids and GDB's signal
 * numbers. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <string.h>

#include "gdbstub_packet.h"

/* Feeds s to rx: the event of its last byte; *count the events on the way. */
static enum gdb_rx_event feed(struct gdb_rx *rx, const char *s, size_t len, unsigned *count)
{
    enum gdb_rx_event e = GDB_RX_NONE;
    *count = 0;
    for (size_t i = 0; i < len; i++) {
        e = gdb_rx_byte(rx, (uint8_t)s[i]);
        if (e != GDB_RX_NONE)
            (*count)++;
    }
    return e;
}

static void test_good_packet(void **state)
{
    (void)state;
    static struct gdb_rx rx;
    unsigned n;
    /* "qSupported": its bytes sum to 0x37 modulo 256; either case of hex */
    assert_int_equal(feed(&rx, "$qSupported#37", 14, &n), GDB_RX_PACKET);
    assert_int_equal(n, 1);
    assert_int_equal(rx.len, 10);
    assert_string_equal(rx.buf, "qSupported");
    assert_int_equal(feed(&rx, "$g#67", 5, &n), GDB_RX_PACKET);
    assert_string_equal(rx.buf, "g");
    assert_int_equal(feed(&rx, "$#00", 4, &n), GDB_RX_PACKET);
    assert_int_equal(rx.len, 0);
    assert_int_equal(feed(&rx, "$vCont;c#A8", 11, &n), GDB_RX_PACKET);
    assert_string_equal(rx.buf, "vCont;c");
}

static void test_bad_checksum(void **state)
{
    (void)state;
    static struct gdb_rx rx;
    unsigned n;
    assert_int_equal(feed(&rx, "$g#68", 5, &n), GDB_RX_BAD_CHECKSUM);
    assert_int_equal(feed(&rx, "$g#6z", 5, &n), GDB_RX_BAD_CHECKSUM);
    assert_int_equal(feed(&rx, "$g#z7", 5, &n), GDB_RX_BAD_CHECKSUM);
    /* the receiver is ready for the next packet after each */
    assert_int_equal(feed(&rx, "$g#67", 5, &n), GDB_RX_PACKET);
}

static void test_control_bytes(void **state)
{
    (void)state;
    static struct gdb_rx rx;
    assert_int_equal(gdb_rx_byte(&rx, '+'), GDB_RX_ACK);
    assert_int_equal(gdb_rx_byte(&rx, '-'), GDB_RX_NACK);
    assert_int_equal(gdb_rx_byte(&rx, 0x03), GDB_RX_INTERRUPT);
    assert_int_equal(gdb_rx_byte(&rx, 'x'), GDB_RX_NONE);
    /* inside a packet, they are data */
    unsigned n;
    assert_int_equal(feed(&rx, "$+-#58", 6, &n), GDB_RX_PACKET);
    assert_int_equal(n, 1);
    assert_string_equal(rx.buf, "+-");
    /* a '$' inside a packet starts it again */
    assert_int_equal(feed(&rx, "$abc$g#67", 9, &n), GDB_RX_PACKET);
    assert_string_equal(rx.buf, "g");
}

static void test_overlong(void **state)
{
    (void)state;
    static struct gdb_rx rx;
    static char big[GDB_PACKET_MAX + 100];
    memset(big, 'a', sizeof big);
    uint8_t sum = 0;
    for (size_t i = 0; i < sizeof big; i++)
        sum += 'a';
    enum gdb_rx_event e = gdb_rx_byte(&rx, '$');
    for (size_t i = 0; i < sizeof big; i++)
        e = gdb_rx_byte(&rx, 'a');
    assert_int_equal(e, GDB_RX_NONE);
    const char hex[] = "0123456789abcdef";
    gdb_rx_byte(&rx, '#');
    gdb_rx_byte(&rx, (uint8_t)hex[sum >> 4]);
    assert_int_equal(gdb_rx_byte(&rx, (uint8_t)hex[sum & 15]), GDB_RX_TOO_LONG);
    unsigned n;
    assert_int_equal(feed(&rx, "$g#67", 5, &n), GDB_RX_PACKET);
}

static void test_frame_and_escape(void **state)
{
    (void)state;
    char out[64];
    size_t n = gdb_frame("OK", 2, out);
    assert_int_equal(n, 6);
    assert_memory_equal(out, "$OK#9a", 6);
    /* '#', '$', '}' and '*' are escaped; the checksum is of what is sent */
    n = gdb_frame("a#b$c}d*", 8, out);
    out[n] = '\0';
    assert_string_equal(out, "$a}\x03" "b}\x04" "c}]d}\x0a#ec");
    assert_int_equal(gdb_checksum(out + 1, n - 4), 0xec);
    char data[] = "a}\x03" "b}]";
    assert_int_equal(gdb_unescape(data, 6), 4);
    assert_memory_equal(data, "a#b}", 4);
    char cut[] = "ab}";
    assert_int_equal(gdb_unescape(cut, 3), -1);
}

static void test_hex(void **state)
{
    (void)state;
    char hex[16];
    const uint8_t bytes[] = {0x00, 0x7f, 0xab, 0xff};
    gdb_hex_encode(bytes, 4, hex);
    assert_string_equal(hex, "007fabff");
    uint8_t back[4];
    assert_int_equal(gdb_hex_decode("007FabfF", 8, back), 4);
    assert_memory_equal(back, bytes, 4);
    assert_int_equal(gdb_hex_decode("0g", 2, back), -1);
    assert_int_equal(gdb_hex_decode("abc", 3, back), -1);

    uint64_t v;
    const char *p = "ffffffffffffffff,1";
    assert_true(gdb_parse_hex(&p, &v));
    assert_true(v == UINT64_MAX);
    assert_string_equal(p, ",1");
    p = "10000000000000000"; /* 2^64 */
    assert_false(gdb_parse_hex(&p, &v));
    p = ",5";
    assert_false(gdb_parse_hex(&p, &v));
}

static void test_thread_ids(void **state)
{
    (void)state;
    struct gdb_thread_id id;
    const char *p = "p1a.1b;";
    assert_true(gdb_parse_thread_id(&p, &id));
    assert_int_equal(id.pid, 0x1a);
    assert_int_equal(id.tid, 0x1b);
    assert_string_equal(p, ";");
    p = "p-1.-1";
    assert_true(gdb_parse_thread_id(&p, &id));
    assert_int_equal(id.pid, -1);
    assert_int_equal(id.tid, -1);
    p = "p5";
    assert_true(gdb_parse_thread_id(&p, &id));
    assert_int_equal(id.pid, 5);
    assert_int_equal(id.tid, -1);
    p = "0";
    assert_true(gdb_parse_thread_id(&p, &id));
    assert_int_equal(id.pid, 0);
    assert_int_equal(id.tid, 0);
    p = "p.1";
    assert_false(gdb_parse_thread_id(&p, &id));
    p = "p1.ffffffff"; /* beyond any tid */
    assert_false(gdb_parse_thread_id(&p, &id));
    p = "";
    assert_false(gdb_parse_thread_id(&p, &id));
}

static void test_signals(void **state)
{
    (void)state;
    assert_int_equal(gdb_signal_from_linux(5), 5);    /* SIGTRAP */
    assert_int_equal(gdb_signal_from_linux(11), 11);  /* SIGSEGV */
    assert_int_equal(gdb_signal_from_linux(7), 10);   /* SIGBUS */
    assert_int_equal(gdb_signal_from_linux(10), 30);  /* SIGUSR1 */
    assert_int_equal(gdb_signal_from_linux(12), 31);  /* SIGUSR2 */
    assert_int_equal(gdb_signal_from_linux(17), 20);  /* SIGCHLD */
    assert_int_equal(gdb_signal_from_linux(19), 17);  /* SIGSTOP */
    assert_int_equal(gdb_signal_from_linux(31), 12);  /* SIGSYS */
    assert_int_equal(gdb_signal_from_linux(16), 143); /* SIGSTKFLT: unknown */
    assert_int_equal(gdb_signal_from_linux(32), 77);
    assert_int_equal(gdb_signal_from_linux(33), 45);
    assert_int_equal(gdb_signal_from_linux(63), 75);
    assert_int_equal(gdb_signal_from_linux(64), 78);
    for (int sig = 1; sig <= 64; sig++)
        if (sig != 16)
            assert_int_equal(gdb_signal_to_linux(gdb_signal_from_linux(sig)), sig);
    assert_int_equal(gdb_signal_to_linux(0), 0);
    assert_int_equal(gdb_signal_to_linux(7 /* GDB_SIGNAL_EMT */), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_good_packet),    cmocka_unit_test(test_bad_checksum),
        cmocka_unit_test(test_control_bytes),  cmocka_unit_test(test_overlong),
        cmocka_unit_test(test_frame_and_escape), cmocka_unit_test(test_hex),
        cmocka_unit_test(test_thread_ids),     cmocka_unit_test(test_signals),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
