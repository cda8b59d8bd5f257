/* SPDX-License-Identifier: GPL-2.0-or-later */
/* hexdigit.h - the value of one hexadecimal digit, the one decoder for
 * the parsers that read them (a /proc/sys write's numbers, the gdb
 * stub's packets), as Linux's hex_to_bin() (lib/hexdump.c). */
#ifndef ASYMU_HEXDIGIT_H
#define ASYMU_HEXDIGIT_H

/* '0'-'9', 'a'-'f' or 'A'-'F': 0 to 15; any other byte: -1. */
static inline int hex_digit(unsigned char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

#endif
