/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * test_output_formats.c - the pprof and speedscope writers without their
 * tools: pprof is gunzipped and walked with a small protobuf reader here
 * (tests/tools/pprof_go.sh has `go tool pprof` read it too); speedscope's
 * JSON is compared exactly (tests/tools/speedscope_schema.sh validates it
 * against the schema).
 */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>
#ifdef HAVE_ZLIB
#include <zlib.h>

#include "pb_reader.h"
#endif

#include "mkelf.h"
#include "output_text.h"
#include "output/xu_output.h"
#include "profile/xu_profile.h"

static const char *const names[] = { "main", "work", "leaf", "we\"ird\\name" };
static const struct xu_frame_names frame_names = { names, 4 };

static void test_speedscope_exact(void **state)
{
    static const uint64_t s1[] = { 2, 1, 0 }, s2[] = { 3, 0 };
    static const char expected[] =
        "{\"$schema\":\"https://www.speedscope.app/file-format-schema.json\",\n"
        "\"exporter\":\"xen-uniprof " PACKAGE_VERSION "\",\"name\":\"xen-uniprof profile\","
        "\"activeProfileIndex\":0,\n"
        "\"shared\":{\"frames\":[\n"
        "{\"name\":\"[incomplete]\"},\n"
        "{\"name\":\"leaf\"},\n"
        "{\"name\":\"work\"},\n"
        "{\"name\":\"main\"},\n"
        "{\"name\":\"we\\\"ird\\\\name\"}]},\n"
        "\"profiles\":[\n"
        "{\"type\":\"sampled\",\"name\":\"vCPU 0\",\"unit\":\"none\",\"startValue\":0,"
        "\"endValue\":5,\"samples\":[\n"
        "[3,2,1]],\n"
        "\"weights\":[5]},\n"
        "{\"type\":\"sampled\",\"name\":\"vCPU 2\",\"unit\":\"none\",\"startValue\":0,"
        "\"endValue\":2,\"samples\":[\n"
        "[0,3,4]],\n"
        "\"weights\":[2]}]}\n";
    struct xu_profile *p = xu_profile_new(0);
    struct xu_output_options o = { .per_vcpu = true };
    struct xu_output_ctx ctx = { .profile = p, .names = &frame_names, .opts = &o };
    size_t len;
    char *text;

    assert_non_null(p);
    assert_int_equal(xu_profile_add(p, 0, s1, 3, XU_WALK_COMPLETE, 5), 0);
    assert_int_equal(xu_profile_add(p, 2, s2, 2, XU_WALK_UNMAPPED, 2), 0);
    text = output_text(&xu_output_speedscope, &ctx, &len);
    assert_string_equal(text, expected);
    free(text);
    xu_profile_free(p);
}

#ifdef HAVE_ZLIB

/* ------------------------------------------------ pprof, decoded */

struct decoded {
    char *strings[64];
    size_t nr_strings;
    uint64_t sample_locs[8][8], sample_value[8], sample_nlocs[8];
    uint64_t sample_values[8][4], sample_nvalues[8];    /* every value, in order */
    uint64_t sample_label_key[8][4], sample_label_str[8][4], sample_nlabels[8];
    uint64_t types[4], units[4], default_type;
    size_t nr_types;
    size_t nr_samples;
    uint64_t loc_addr[16], loc_func[16], loc_mapping[16];
    size_t nr_locs;
    uint64_t func_name[16], func_system_name[16];
    size_t nr_funcs;
    uint64_t map_start, map_limit, map_file, map_build_id, map_has_functions;
    size_t nr_mappings;
    uint64_t sample_type, sample_unit, period, duration, label_key, label_str;
};

static void decode(const uint8_t *buf, size_t len, struct decoded *d)
{
    struct pb_msg m = { buf, buf + len }, sub, s2, s3;
    uint64_t v, id;
    unsigned int f;

    memset(d, 0, sizeof(*d));
    while (m.p < m.end) {
        switch (pb_next_field(&m, &v, &sub)) {
        case 1:         /* sample_type */
            while (sub.p < sub.end) {
                f = pb_next_field(&sub, &v, &s2);
                if (f == 1)
                    d->sample_type = v;
                else if (f == 2)
                    d->sample_unit = v;
            }
            assert_true(d->nr_types < 4);
            d->types[d->nr_types] = d->sample_type;
            d->units[d->nr_types++] = d->sample_unit;
            break;
        case 2: {       /* sample */
            size_t i = d->nr_samples++;

            assert_true(i < 8);
            while (sub.p < sub.end) {
                f = pb_next_field(&sub, &v, &s2);
                if (f == 1) {
                    while (s2.p < s2.end)
                        d->sample_locs[i][d->sample_nlocs[i]++] = pb_varint(&s2);
                } else if (f == 2) {
                    /* the first value, and all of them */
                    d->sample_value[i] = pb_varint(&s2);
                    d->sample_values[i][d->sample_nvalues[i]++] = d->sample_value[i];
                    while (s2.p < s2.end) {
                        assert_true(d->sample_nvalues[i] < 4);
                        d->sample_values[i][d->sample_nvalues[i]++] = pb_varint(&s2);
                    }
                } else if (f == 3) {
                    size_t l = d->sample_nlabels[i]++;

                    assert_true(l < 4);
                    while (s2.p < s2.end) {
                        unsigned int g = pb_next_field(&s2, &v, &s3);

                        if (g == 1)
                            d->sample_label_key[i][l] = v;
                        else if (g == 2)
                            d->sample_label_str[i][l] = v;
                    }
                    /* the first label of the first sample, for the older checks */
                    if (i == 0 && l == 0) {
                        d->label_key = d->sample_label_key[0][0];
                        d->label_str = d->sample_label_str[0][0];
                    }
                }
            }
            break;
        }
        case 3:         /* mapping */
            d->nr_mappings++;
            while (sub.p < sub.end) {
                f = pb_next_field(&sub, &v, &s2);
                if (f == 2) d->map_start = v;
                if (f == 3) d->map_limit = v;
                if (f == 5) d->map_file = v;
                if (f == 6) d->map_build_id = v;
                if (f == 7) d->map_has_functions = v;
            }
            break;
        case 4:         /* location */
            id = 0;
            {
                uint64_t addr = 0, func = 0, mapping = 0;

                while (sub.p < sub.end) {
                    f = pb_next_field(&sub, &v, &s2);
                    if (f == 1) id = v;
                    if (f == 2) mapping = v;
                    if (f == 3) addr = v;
                    if (f == 4) {
                        while (s2.p < s2.end)
                            if (pb_next_field(&s2, &v, &s3) == 1)
                                func = v;
                    }
                }
                assert_true(id >= 1 && id <= 16);
                d->loc_addr[id - 1] = addr;
                d->loc_func[id - 1] = func;
                d->loc_mapping[id - 1] = mapping;
                d->nr_locs++;
            }
            break;
        case 5:         /* function */
            id = 0;
            {
                uint64_t name = 0, system_name = 0;

                while (sub.p < sub.end) {
                    f = pb_next_field(&sub, &v, &s2);
                    if (f == 1) id = v;
                    if (f == 2) name = v;
                    if (f == 3) system_name = v;
                }
                assert_true(id >= 1 && id <= 16);
                d->func_name[id - 1] = name;
                d->func_system_name[id - 1] = system_name;
                d->nr_funcs++;
            }
            break;
        case 6:         /* string_table */
            assert_true(d->nr_strings < 64);
            d->strings[d->nr_strings++] = strndup((const char *)sub.p, (size_t)(sub.end - sub.p));
            break;
        case 10:
            d->duration = v;
            break;
        case 12:
            d->period = v;
            break;
        case 14:
            d->default_type = v;
            break;
        default:
            break;
        }
    }
}

static void decoded_free(struct decoded *d)
{
    size_t i;

    for (i = 0; i < d->nr_strings; i++)
        free(d->strings[i]);
}

/* What the pprof writer writes for ctx, gunzipped and decoded into d (free
 * it with decoded_free). */
static void pprof_decode(const struct xu_output_ctx *ctx, struct decoded *d)
{
    size_t gzlen, rawlen;
    char *gz = output_text(&xu_output_pprof, ctx, &gzlen);
    uint8_t *raw = pb_gunzip(gz, gzlen, &rawlen);

    decode(raw, rawlen, d);
    free(raw);
    free(gz);
}

static const char *str(const struct decoded *d, uint64_t i)
{
    assert_true(i < d->nr_strings);
    return d->strings[i];
}

/* A live-run profile with the guest ELF: addresses, functions (a mangled
 * one readable, its symbol as the system name), a mapping with the
 * build-id, the period and duration, and [incomplete]. */
static void test_pprof_decoded(void **state)
{
    static const struct mkelf_sym syms[] = {
        { "camlMain__main_12", 0x1000, 0x40, STT_FUNC, STB_GLOBAL, 0 },
        { "work", 0x1040, 0x40, STT_FUNC, STB_GLOBAL, 0 },
    };
    static const uint64_t s1[] = { 0x1044, 0x1010 }, s2[] = { 0x1050 };
    char path[] = "/tmp/test_output_formats.XXXXXX";
    struct xu_output_meta meta = { .domid = 3, .backend = "sim", .elf_path = path,
                                   .frequency_hz = 100, .duration_s = 2.5 };
    struct xu_output_options o = { 0 };
    struct xu_output_ctx ctx = { .meta = &meta, .opts = &o };
    struct xu_profile *p = xu_profile_new(0);
    struct xu_symtab *st = NULL;
    struct xu_symbolizer *sz;
    struct decoded d;
    uint64_t *addrs;
    uint8_t *raw;
    char *gz, hex[41];
    size_t gzlen, rawlen, i;
    long n;
    int fd = mkstemp(path);

    assert_true(fd >= 0);
    close(fd);
    assert_int_equal(mkelf_write(path, 0x1000, 0x100, syms, 2, MKELF_BUILD_ID), 0);
    assert_int_equal(xu_symtab_open(path, NULL, &st), 0);
    assert_non_null(p);
    assert_int_equal(xu_profile_add(p, 1, s1, 2, XU_WALK_COMPLETE, 7), 0);
    assert_int_equal(xu_profile_add(p, 1, s2, 1, XU_WALK_BAD_FRAME, 2), 0);
    n = xu_profile_unique_addrs(p, &addrs);
    assert_true(n == 3);
    sz = xu_symbolizer_new(st, addrs, (size_t)n);
    assert_non_null(sz);
    ctx.profile = p;
    ctx.syms = sz;
    ctx.symtab = st;

    gz = output_text(&xu_output_pprof, &ctx, &gzlen);
    assert_true(gzlen > 18 && (uint8_t)gz[0] == 0x1f && (uint8_t)gz[1] == 0x8b);
    raw = pb_gunzip(gz, gzlen, &rawlen);
    decode(raw, rawlen, &d);

    assert_string_equal(str(&d, 0), "");
    /* samples/count and cpu/nanoseconds, samples the default */
    assert_int_equal(d.nr_types, 2);
    assert_string_equal(str(&d, d.types[0]), "samples");
    assert_string_equal(str(&d, d.units[0]), "count");
    assert_string_equal(str(&d, d.types[1]), "cpu");
    assert_string_equal(str(&d, d.units[1]), "nanoseconds");
    assert_string_equal(str(&d, d.default_type), "samples");
    assert_int_equal(d.period, 10000000);               /* 1e9 / 100 Hz */
    assert_int_equal(d.duration, 2500000000ULL);
    assert_int_equal(d.nr_samples, 2);
    assert_int_equal(d.sample_value[0], 7);
    assert_int_equal(d.sample_nlocs[0], 2);
    assert_int_equal(d.sample_value[1], 2);
    assert_int_equal(d.sample_nlocs[1], 2);             /* work, then [incomplete] */
    assert_string_equal(str(&d, d.label_key), "vcpu");
    assert_string_equal(str(&d, d.label_str), "1");
    assert_int_equal(d.sample_nvalues[0], 2);
    assert_int_equal(d.sample_values[0][1], 0);         /* no state read: no CPU time */
    assert_int_equal(d.sample_nlabels[0], 2);
    assert_string_equal(str(&d, d.sample_label_key[0][1]), "state");
    assert_string_equal(str(&d, d.sample_label_str[0][1]), "unknown");
    /* Leaf first: work at 0x1044, main at 0x1010. */
    assert_int_equal(d.loc_addr[d.sample_locs[0][0] - 1], 0x1044);
    assert_string_equal(str(&d, d.func_name[d.loc_func[d.sample_locs[0][0] - 1] - 1]), "work");
    assert_int_equal(d.loc_addr[d.sample_locs[0][1] - 1], 0x1010);
    assert_string_equal(str(&d, d.func_system_name[d.loc_func[d.sample_locs[0][0] - 1] - 1]),
                        "work");
    assert_string_equal(str(&d, d.func_name[d.loc_func[d.sample_locs[0][1] - 1] - 1]),
                        "Main.main");
    assert_string_equal(str(&d, d.func_system_name[d.loc_func[d.sample_locs[0][1] - 1] - 1]),
                        "camlMain__main_12");
    assert_int_equal(d.loc_mapping[d.sample_locs[0][0] - 1], 1);
    assert_string_equal(str(&d, d.func_name[d.loc_func[d.sample_locs[1][1] - 1] - 1]),
                        "[incomplete]");
    assert_int_equal(d.loc_mapping[d.sample_locs[1][1] - 1], 0);
    assert_int_equal(d.nr_locs, 4);
    assert_int_equal(d.nr_funcs, 3);
    /* One mapping: the ELF, its build-id in hex, covering the addresses. */
    assert_int_equal(d.nr_mappings, 1);
    assert_string_equal(str(&d, d.map_file), path);
    for (i = 0; i < MKELF_BUILD_ID_LEN; i++)
        snprintf(hex + 2 * i, 3, "%02x", mkelf_build_id[i]);
    assert_string_equal(str(&d, d.map_build_id), hex);
    assert_true(d.map_start <= 0x1010 && d.map_limit > 0x1050);
    assert_int_equal(d.map_has_functions, 1);

    decoded_free(&d);
    free(raw);
    free(gz);
    free(addrs);
    xu_symbolizer_free(sz);
    xu_symtab_free(st);
    xu_profile_free(p);
    unlink(path);
}

/* States and CPU time: the second sample type, the state label, the state
 * root when split, cpu the default type with --weight=cpu, and samples the
 * state view leaves out not written. */
static void test_pprof_states(void **state)
{
    static const uint64_t s1[] = { 0x1044, 0x1010 }, s2[] = { 0x1050 };
    struct xu_output_meta meta = { .domid = 3, .backend = "sim", .frequency_hz = 100 };
    struct xu_output_options o = { .weight = XU_WEIGHT_CPU, .states = XU_STATES_SPLIT };
    struct xu_output_ctx ctx = { .meta = &meta, .opts = &o };
    struct xu_profile *p = xu_profile_new(0);
    struct decoded d;

    (void)state;
    assert_non_null(p);
    assert_int_equal(xu_profile_add_state(p, 0, XU_VSTATE_RUNNING, s1, 2, XU_WALK_COMPLETE,
                                          3, 5000), 0);
    assert_int_equal(xu_profile_add_state(p, 1, XU_VSTATE_BLOCKED, s2, 1, XU_WALK_COMPLETE,
                                          2, 40), 0);
    ctx.profile = p;
    pprof_decode(&ctx, &d);
    assert_string_equal(str(&d, d.default_type), "cpu");
    assert_int_equal(d.nr_samples, 2);
    assert_int_equal(d.sample_nvalues[0], 2);
    assert_int_equal(d.sample_values[0][0], 3);
    assert_int_equal(d.sample_values[0][1], 5000);
    assert_int_equal(d.sample_values[1][0], 2);
    assert_int_equal(d.sample_values[1][1], 40);
    assert_string_equal(str(&d, d.sample_label_key[0][1]), "state");
    assert_string_equal(str(&d, d.sample_label_str[0][1]), "running");
    assert_string_equal(str(&d, d.sample_label_str[1][1]), "blocked");
    /* leaf first: the state root is the last location */
    assert_int_equal(d.sample_nlocs[0], 3);
    assert_string_equal(str(&d, d.func_name[d.loc_func[d.sample_locs[0][2] - 1] - 1]),
                        "[running]");
    assert_string_equal(str(&d, d.func_name[d.loc_func[d.sample_locs[1][1] - 1] - 1]),
                        "[blocked]");
    decoded_free(&d);

    /* on-CPU only: the blocked samples are gone */
    o.states = XU_STATES_ONCPU;
    o.weight = XU_WEIGHT_SAMPLES;
    pprof_decode(&ctx, &d);
    assert_string_equal(str(&d, d.default_type), "samples");
    assert_int_equal(d.nr_samples, 1);
    assert_int_equal(d.sample_nlocs[0], 2);
    decoded_free(&d);
    xu_profile_free(p);
}

#endif /* HAVE_ZLIB */

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_speedscope_exact),
#ifdef HAVE_ZLIB
        cmocka_unit_test(test_pprof_decoded),
        cmocka_unit_test(test_pprof_states),
#endif
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
