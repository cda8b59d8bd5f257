/* asan.c - a heap-buffer-overflow for AddressSanitizer (built with the
 * cross compiler's -fsanitize=address and its libasan): ASan reserves its
 * shadow with MAP_NORESERVE (28 TiB and 8 GiB on arm64, 4 TiB PROT_NONE
 * between them) and must run to its report and its exit status 1. */
#include <stdio.h>
#include <stdlib.h>

int main(void)
{
    volatile char *volatile p = malloc(16);
    volatile int at = 16;
    printf("before the overflow\n");
    fflush(stdout);
    p[at] = 'b';
    printf("after the overflow\n");
    free((void *)p);
    return 0;
}
