/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * sink.c - a FILE that discards everything, for harnesses that drive
 * writers: cheaper than /dev/null (no system call per buffer).
 */
#include "config.h"

#include <stdio.h>
#include <sys/types.h>

#include "fuzz.h"

static ssize_t sink_write(void *cookie, const char *buf, size_t size)
{
    (void)cookie;
    (void)buf;
    return (ssize_t)size;
}

FILE *xu_fuzz_sink(void)
{
    static const cookie_io_functions_t io = { .write = sink_write };

    return fopencookie(NULL, "w", io);
}
