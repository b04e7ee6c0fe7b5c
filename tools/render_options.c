/* SPDX-License-Identifier: GPL-2.0-only */
/* render_options.c - see render_options.h. */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "render_options.h"

static const struct {
    int c;
    const char *name;
} names[] = {
    { XU_ROPT_PER_VCPU, "--per-vcpu" },
    { XU_ROPT_TITLE, "--title" },
    { XU_ROPT_SUBTITLE, "--subtitle" },
    { XU_ROPT_WIDTH, "--width" },
    { XU_ROPT_MIN_WIDTH, "--min-width" },
    { XU_ROPT_INVERTED, "--inverted" },
    { XU_ROPT_PALETTE, "--palette" },
    { XU_ROPT_WEIGHT, "--weight" },
    { XU_ROPT_STATE, "--state" },
    { XU_ROPT_NO_DEMANGLE, "--no-demangle" },
    { XU_ROPT_NO_INLINE, "--no-inline" },
    { XU_ROPT_LINES, "--lines" },
};

const char *xu_render_option_name(int c)
{
    size_t i;

    for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
        if (names[i].c == c)
            return names[i].name;
    return NULL;
}

/* A finite number, the whole argument, in (0, max]. */
static int parse_positive(const char *s, double max, double *out)
{
    char *end;
    double v;

    if (!*s)
        return -1;
    errno = 0;
    v = strtod(s, &end);
    if (errno || *end || !isfinite(v) || v <= 0 || v > max)
        return -1;
    *out = v;
    return 0;
}

int xu_render_option(int c, const char *arg, struct xu_output_options *oo,
                     char *err, size_t errlen)
{
    double v;
    int k;

    switch (c) {
    case XU_ROPT_PER_VCPU:
        oo->per_vcpu = true;
        return 1;
    case XU_ROPT_TITLE:
        oo->title = arg;
        return 1;
    case XU_ROPT_SUBTITLE:
        oo->subtitle = arg;
        return 1;
    case XU_ROPT_WIDTH:
        if (parse_positive(arg, 100000, &v) < 0 || v < 200 || v != floor(v)) {
            snprintf(err, errlen, "--width: '%s' is not a whole number of pixels from 200 "
                     "to 100000", arg);
            return -1;
        }
        oo->width = (unsigned int)v;
        return 1;
    case XU_ROPT_MIN_WIDTH:
        if (parse_positive(arg, 10000, &v) < 0) {
            snprintf(err, errlen, "--min-width: '%s' is not a positive number of pixels", arg);
            return -1;
        }
        oo->min_width = v;
        return 1;
    case XU_ROPT_INVERTED:
        oo->inverted = true;
        return 1;
    case XU_ROPT_PALETTE:
        if (strcmp(arg, "hash") == 0) {
            oo->palette = XU_PALETTE_HASH;
        } else if (strcmp(arg, "origin") == 0) {
            oo->palette = XU_PALETTE_ORIGIN;
        } else {
            snprintf(err, errlen, "--palette: '%s' is not hash or origin", arg);
            return -1;
        }
        return 1;
    case XU_ROPT_WEIGHT:
        k = xu_weight_from_name(arg);
        if (k < 0) {
            snprintf(err, errlen, "--weight: '%s' is not samples or cpu", arg);
            return -1;
        }
        oo->weight = (enum xu_weight)k;
        return 1;
    case XU_ROPT_STATE:
        k = xu_state_view_from_name(arg);
        if (k < 0) {
            snprintf(err, errlen, "--state: '%s' is not all, oncpu, offcpu or split", arg);
            return -1;
        }
        oo->states = (enum xu_state_view)k;
        return 1;
    case XU_ROPT_NO_DEMANGLE:
        oo->raw_names = true;
        return 1;
    case XU_ROPT_NO_INLINE:
        oo->no_inline = true;
        return 1;
    case XU_ROPT_LINES:
        oo->lines = true;
        return 1;
    default:
        return 0;
    }
}
