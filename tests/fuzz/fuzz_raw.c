/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * fuzz_raw.c - the raw trace format both ways.
 *
 * The input is read as a raw trace (ours or uniprof's); what was read is
 * written back as a raw trace and read again, and the second reading must
 * hold the same number of samples: a frame the writer cannot write so that
 * the reader takes it back is a finding.
 *
 * (The `--stats` JSON has no reader: record writes it and nothing in the
 * tree parses it, so there is nothing to fuzz there.)
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "input/xu_input.h"
#include "output/xu_output.h"

/* Round trips beyond this many samples are skipped: the raw writer writes
 * one block per sample, and the harness must stay fast. */
#define ROUND_TRIP_MAX_SAMPLES 20000

static struct xu_input *read_raw(const void *data, size_t size)
{
    struct xu_input *in = NULL;
    FILE *f;

    if (size == 0)
        return NULL;
    f = fmemopen((void *)(uintptr_t)data, size, "r");
    if (!f)
        return NULL;
    if (xu_input_read(f, XU_INPUT_RAW, NULL, xu_fuzz_log(), &in) < 0)
        in = NULL;
    fclose(f);
    return in;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct xu_output_meta meta = { .domid = 3, .backend = "sim" };
    struct xu_output_options oo = { 0 };
    struct xu_output_ctx ctx = { .meta = &meta, .opts = &oo };
    struct xu_profile_totals t1, t2;
    struct xu_input *in = read_raw(data, size), *again;
    char *buf = NULL;
    size_t len = 0;
    FILE *f;
    int rc;

    if (!in)
        return 0;
    xu_profile_get_totals(in->profile, &t1);
    if (t1.samples > ROUND_TRIP_MAX_SAMPLES)
        goto out;
    ctx.profile = in->profile;
    ctx.log = xu_fuzz_log();
    ctx.names = in->has_names ? &in->names : NULL;
    f = open_memstream(&buf, &len);
    if (!f)
        goto out;
    rc = xu_output_raw.write(f, &ctx);
    fclose(f);
    if (rc == 0) {
        again = read_raw(buf, len);
        if (!again) {
            fprintf(stderr, "fuzz_raw: our own raw output was not read back\n");
            abort();
        }
        xu_profile_get_totals(again->profile, &t2);
        if (t1.samples != t2.samples) {
            fprintf(stderr, "fuzz_raw: %llu samples written, %llu read back\n",
                    (unsigned long long)t1.samples, (unsigned long long)t2.samples);
            abort();
        }
        xu_input_free(again);
    }
    free(buf);
out:
    xu_input_free(in);
    return 0;
}
