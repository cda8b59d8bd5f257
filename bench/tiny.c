/* SPDX-License-Identifier: GPL-2.0-or-later */
/* tiny.c - the program spawn.c executes: a static glibc program that exits 0. */
int main(void)
{
    return 0;
}
