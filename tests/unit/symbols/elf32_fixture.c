/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * elf32_fixture.c - a small i386 kernel-like image for the 32-bit tests:
 * compiled -m32 with frame pointers and .eh_frame, linked with
 * `ld -m elf_i386` at 0xc0100000 (no libc), never run.  Its functions call
 * each other so that they keep their frames; the names are what the
 * symbol tests look up.
 */
int e32_leaf(int x);
int e32_middle(int x);
void e32_entry(void);

volatile int e32_sink;

__attribute__((noinline)) int e32_leaf(int x)
{
    e32_sink = x;
    return x * 3 + e32_sink;
}

__attribute__((noinline)) int e32_middle(int x)
{
    int r = e32_leaf(x + 1);

    e32_sink = r;
    return r + e32_leaf(r);
}

void e32_entry(void)
{
    for (;;)
        e32_sink = e32_middle(e32_sink);
}
