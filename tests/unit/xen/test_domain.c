/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * test_domain.c - the domain directory: the xenstore implementation over a
 * fake reader, the front end's rules and errors, and the plugin loader with
 * a fake plugin (tests/fakeplugin/xen-uniprof-xl.so).
 */
#include "config.h"

#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "xen/xu_domain.h"

/* ------------------------------------------------------------ fake store */

struct kv {
    const char *path, *value;
};

struct fake_store {
    const struct kv *kv;
    size_t n;
    int dir_errno;          /* directory() fails with this when non-zero */
    int closed;
    int reads;
};

static char *fake_read(void *ctx, const char *path, unsigned int *len)
{
    struct fake_store *s = ctx;
    size_t i;

    s->reads++;
    for (i = 0; i < s->n; i++) {
        if (strcmp(s->kv[i].path, path) == 0) {
            char *v = strdup(s->kv[i].value);
            if (v)
                *len = (unsigned int)strlen(v);
            return v;
        }
    }
    errno = ENOENT;
    return NULL;
}

/* Children of path, in one malloc'd block as xs_directory returns them. */
static char **fake_directory(void *ctx, const char *path, unsigned int *num)
{
    struct fake_store *s = ctx;
    const char *names[64];
    size_t lens[64], plen = strlen(path), n = 0, i, j, bytes = 0;
    char **out, *p;

    if (s->dir_errno) {
        errno = s->dir_errno;
        return NULL;
    }
    for (i = 0; i < s->n; i++) {
        const char *k = s->kv[i].path, *end;
        size_t len;

        if (strncmp(k, path, plen) != 0 || k[plen] != '/')
            continue;
        k += plen + 1;
        end = strchr(k, '/');
        len = end ? (size_t)(end - k) : strlen(k);
        for (j = 0; j < n; j++)
            if (lens[j] == len && strncmp(names[j], k, len) == 0)
                break;
        if (j == n && n < 64) {
            names[n] = k;
            lens[n++] = len;
            bytes += len + 1;
        }
    }
    if (n == 0) {
        errno = ENOENT;
        return NULL;
    }
    out = malloc(n * sizeof(char *) + bytes);
    assert_non_null(out);
    p = (char *)(out + n);
    for (j = 0; j < n; j++) {
        memcpy(p, names[j], lens[j]);
        p[lens[j]] = '\0';
        out[j] = p;
        p += lens[j] + 1;
    }
    *num = (unsigned int)n;
    return out;
}

static void fake_close(void *ctx)
{
    ((struct fake_store *)ctx)->closed++;
}

/* Domain-0, web1 (3, PV), pvh1 (7, PVH), a half-built 9 without a name,
 * a stray non-numeric entry, and a domain with a hostile vm path. */
static const struct kv host[] = {
    { "/local/domain/0/name", "Domain-0" },
    { "/local/domain/3/name", "web1" },
    { "/local/domain/3/vm", "/vm/11111111-2222-3333-4444-555555555555" },
    { "/vm/11111111-2222-3333-4444-555555555555/image/ostype", "linux" },
    { "/vm/11111111-2222-3333-4444-555555555555/image/kernel", "/srv/web1/vmlinux" },
    { "/local/domain/7/name", "pvh1" },
    { "/local/domain/7/vm", "/vm/77777777-2222-3333-4444-555555555555" },
    { "/libxl/7/type", "pvh" },
    { "/local/domain/9/vm", "/vm/99999999-2222-3333-4444-555555555555" },
    { "/local/domain/backend/x", "not a domain" },
    { "/local/domain/11/name", "evil" },
    { "/local/domain/11/vm", "/vm/../local/domain/3" },
};

/* ------------------------------------------------------------- captured log */

struct capture {
    struct xu_log log;
    char last[1024];            /* the last error */
    char warning[1024];         /* the last warning */
    int errors;
};

static void capture_emit(void *ctx, enum xu_log_level level, const char *msg)
{
    struct capture *c = ctx;

    if (level >= XU_LOG_ERROR) {
        c->errors++;
        snprintf(c->last, sizeof(c->last), "%s", msg);
    } else if (level == XU_LOG_WARN) {
        snprintf(c->warning, sizeof(c->warning), "%s", msg);
    }
}

struct fixture {
    struct fake_store store;
    struct capture cap;
    struct xu_domdir *d;
};

static int setup(void **state)
{
    static struct fixture f;
    struct xu_xs_reader r = {
        .read = fake_read, .directory = fake_directory, .close = fake_close,
    };

    memset(&f, 0, sizeof(f));
    f.store.kv = host;
    f.store.n = sizeof(host) / sizeof(host[0]);
    f.cap.log.emit = capture_emit;
    f.cap.log.ctx = &f.cap;
    f.cap.log.min_level = XU_LOG_DEBUG;
    r.ctx = &f.store;
    assert_int_equal(xu_domdir_open_reader(&f.d, &r, &f.cap.log), 0);
    *state = &f;
    return 0;
}

static int teardown(void **state)
{
    struct fixture *f = *state;

    xu_domdir_close(f->d);
    /* the reader is released exactly once */
    assert_int_equal(f->store.closed, 1);
    return 0;
}

/* ------------------------------------------------------------------ tests */

static void test_qualifier_rule(void **state)
{
    uint32_t id = 0;

    (void)state;
    assert_true(xu_domain_qualifier_is_domid("0", &id));
    assert_int_equal(id, 0);
    assert_true(xu_domain_qualifier_is_domid("0042", &id));
    assert_int_equal(id, 42);
    assert_true(xu_domain_qualifier_is_domid("32751", &id));       /* 0x7fef */
    assert_int_equal(id, 32751);
    assert_true(xu_domain_qualifier_is_domid("32752", &id));       /* reserved */
    assert_int_equal(id, UINT32_MAX);
    assert_true(xu_domain_qualifier_is_domid("99999999999999999999999", &id));
    assert_int_equal(id, UINT32_MAX);
    assert_false(xu_domain_qualifier_is_domid("", &id));
    assert_false(xu_domain_qualifier_is_domid("3a", &id));
    assert_false(xu_domain_qualifier_is_domid("-3", &id));
    assert_false(xu_domain_qualifier_is_domid("web1", &id));
}

static void test_list_sorted_and_filtered(void **state)
{
    struct fixture *f = *state;
    struct xu_domain_list l;
    char buf[256];

    assert_string_equal(xu_domdir_name(f->d), "xenstore");
    assert_false(xu_domdir_can_create(f->d));
    assert_int_equal(xu_domdir_list(f->d, &l), 0);
    assert_int_equal(l.n, 5);   /* "backend" skipped */
    assert_int_equal(l.v[0].domid, 0);
    assert_string_equal(l.v[0].name, "Domain-0");
    assert_int_equal(l.v[1].domid, 3);
    assert_string_equal(l.v[1].name, "web1");
    assert_int_equal(l.v[2].domid, 7);
    assert_int_equal(l.v[3].domid, 9);
    assert_string_equal(l.v[3].name, "");
    assert_int_equal(l.v[4].domid, 11);
    xu_domain_list_format(&l, buf, sizeof(buf));
    assert_string_equal(buf, "Domain-0 (0), web1 (3), pvh1 (7), (unnamed) (9), evil (11)");
    /* a short buffer is cut visibly */
    xu_domain_list_format(&l, buf, 20);
    assert_int_equal(strlen(buf), 19);
    assert_string_equal(buf + 16, "...");
    xu_domain_list_dispose(&l);
    assert_null(l.v);
}

static void test_resolve_name_and_id(void **state)
{
    struct fixture *f = *state;
    struct xu_domain_entry e;

    assert_int_equal(xu_domdir_resolve(f->d, "web1", &e), 0);
    assert_int_equal(e.domid, 3);
    assert_string_equal(e.name, "web1");
    assert_int_equal(xu_domdir_resolve(f->d, "7", &e), 0);
    assert_int_equal(e.domid, 7);
    assert_string_equal(e.name, "pvh1");
    assert_int_equal(xu_domdir_resolve(f->d, "009", &e), 0);
    assert_int_equal(e.domid, 9);
    assert_string_equal(e.name, "");
    assert_int_equal(f->cap.errors, 0);
}

static void test_resolve_refuses_dom0(void **state)
{
    struct fixture *f = *state;
    struct xu_domain_entry e;

    assert_int_equal(xu_domdir_resolve(f->d, "0", &e), -EPERM);
    assert_non_null(strstr(f->cap.last, "refusing to profile dom0"));
    f->cap.last[0] = '\0';
    assert_int_equal(xu_domdir_resolve(f->d, "Domain-0", &e), -EPERM);
    assert_non_null(strstr(f->cap.last, "refusing to profile dom0"));
}

static void test_resolve_unknown_lists_domains(void **state)
{
    struct fixture *f = *state;
    struct xu_domain_entry e;

    assert_int_equal(xu_domdir_resolve(f->d, "nope", &e), -ESRCH);
    assert_non_null(strstr(f->cap.last, "no domain named 'nope'"));
    assert_non_null(strstr(f->cap.last, "web1 (3)"));
    assert_non_null(strstr(f->cap.last, "pvh1 (7)"));
    /* dom0 is not offered as a candidate */
    assert_null(strstr(f->cap.last, "Domain-0"));

    assert_int_equal(xu_domdir_resolve(f->d, "42", &e), -ESRCH);
    assert_non_null(strstr(f->cap.last, "no domain with id 42"));
    assert_int_equal(xu_domdir_resolve(f->d, "Web1", &e), -ESRCH);  /* exact, like xl */
}

static void test_resolve_invalid(void **state)
{
    struct fixture *f = *state;
    struct xu_domain_entry e;

    assert_int_equal(xu_domdir_resolve(f->d, "", &e), -EINVAL);
    assert_int_equal(xu_domdir_resolve(f->d, NULL, &e), -EINVAL);
    assert_int_equal(xu_domdir_resolve(f->d, "70000", &e), -EINVAL);
    assert_non_null(strstr(f->cap.last, "not a valid domain id"));
}

static void test_list_failure(void **state)
{
    struct fixture *f = *state;
    struct xu_domain_entry e;
    struct xu_domain_list l;

    f->store.dir_errno = EACCES;
    assert_int_equal(xu_domdir_list(f->d, &l), -EACCES);
    assert_null(l.v);
    assert_int_equal(xu_domdir_resolve(f->d, "web1", &e), -EACCES);
    assert_non_null(strstr(f->cap.last, "cannot list domains"));
}

static void test_kernel_path(void **state)
{
    struct fixture *f = *state;
    char *k = NULL;

    assert_int_equal(xu_domdir_kernel_path(f->d, 3, &k), 0);
    assert_string_equal(k, "/srv/web1/vmlinux");
    free(k);
    /* PVH: libxl writes no image/kernel for it */
    assert_int_equal(xu_domdir_kernel_path(f->d, 7, &k), -ENOENT);
    assert_null(k);
    /* vm path present but nothing under it */
    assert_int_equal(xu_domdir_kernel_path(f->d, 9, &k), -ENOENT);
    /* no such domain */
    assert_int_equal(xu_domdir_kernel_path(f->d, 42, &k), -ESRCH);
    /* a vm path that walks elsewhere is not followed */
    assert_int_equal(xu_domdir_kernel_path(f->d, 11, &k), -ENOENT);
    assert_null(k);
}

static void test_create_needs_plugin(void **state)
{
    struct fixture *f = *state;
    uint32_t id;

    assert_int_equal(xu_domdir_create_paused(f->d, "x.cfg", &id), -ENOTSUP);
    assert_non_null(strstr(f->cap.last, "xl-plugin"));
    assert_int_equal(xu_domdir_destroy(f->d, 3), -ENOTSUP);
}

/* ------------------------------------------------------------ plugin loader */

#ifdef XU_TEST_FAKE_PLUGIN_DIR
static void test_plugin_missing(void **state)
{
    struct fixture *f = *state;
    struct xu_domdir *d = (struct xu_domdir *)1;

    assert_int_equal(xu_domdir_open_plugin(&d, "/nonexistent-dir", &f->cap.log), -ENOENT);
    assert_null(d);
}

static void test_plugin_abi_mismatch(void **state)
{
    struct fixture *f = *state;
    struct xu_domdir *d;

    setenv("FAKE_XL_ABI", "99", 1);
    assert_int_equal(xu_domdir_open_plugin(&d, XU_TEST_FAKE_PLUGIN_DIR, &f->cap.log), -ENOEXEC);
    unsetenv("FAKE_XL_ABI");
    assert_null(d);
    setenv("FAKE_XL_OPEN_FAIL", "1", 1);
    assert_int_equal(xu_domdir_open_plugin(&d, XU_TEST_FAKE_PLUGIN_DIR, &f->cap.log), -EACCES);
    unsetenv("FAKE_XL_OPEN_FAIL");
    assert_null(d);
}

static void test_plugin_answers(void **state)
{
    struct fixture *f = *state;
    struct xu_domdir *d;
    struct xu_domain_entry e;
    uint32_t id = 0;
    char *k = NULL;

    assert_int_equal(xu_domdir_open_plugin(&d, XU_TEST_FAKE_PLUGIN_DIR, &f->cap.log), 0);
    assert_string_equal(xu_domdir_name(d), "libxl");
    assert_true(xu_domdir_can_create(d));
    /* the plugin's lookup() is used: it knows an alias the list does not */
    assert_int_equal(xu_domdir_resolve(d, "web1-alias", &e), 0);
    assert_int_equal(e.domid, 3);
    assert_string_equal(e.name, "web1");
    assert_int_equal(xu_domdir_resolve(d, "Domain-0", &e), -EPERM);
    assert_int_equal(xu_domdir_resolve(d, "ghost", &e), -ESRCH);
    assert_non_null(strstr(f->cap.last, "unikraft (5)"));
    assert_int_equal(xu_domdir_kernel_path(d, 3, &k), 0);
    assert_string_equal(k, "/srv/web1/vmlinux");
    free(k);
    /* unknown to the plugin, and no fallback here */
    assert_int_equal(xu_domdir_kernel_path(d, 5, &k), -ENOENT);
    assert_int_equal(xu_domdir_create_paused(d, "good.cfg", &id), 0);
    assert_int_equal(id, 42);
    assert_int_equal(xu_domdir_destroy(d, 42), 0);
    assert_int_equal(xu_domdir_destroy(d, 43), -ESRCH);
    xu_domdir_close(d);
}

static void test_plugin_with_xenstore_fallback(void **state)
{
    struct fixture *f = *state;
    struct xu_domdir *d;
    char *k = NULL;
    struct kv unikraft[] = {
        { "/local/domain/5/name", "unikraft" },
        { "/local/domain/5/vm", "/vm/5" },
        { "/vm/5/image/kernel", "/srv/uk/app_xen-x86_64" },
    };
    static struct fake_store store;
    struct xu_xs_reader r = {
        .read = fake_read, .directory = fake_directory, .close = fake_close, .ctx = &store,
    };

    memset(&store, 0, sizeof(store));
    store.kv = unikraft;
    store.n = 3;
    assert_int_equal(xu_domdir_open_plugin(&d, XU_TEST_FAKE_PLUGIN_DIR, &f->cap.log), 0);
    assert_int_equal(xu_domdir_open_reader(&d->fallback, &r, &f->cap.log), 0);
    assert_int_equal(xu_domdir_kernel_path(d, 5, &k), 0);
    assert_string_equal(k, "/srv/uk/app_xen-x86_64");
    free(k);
    /* the plugin's answer wins when it has one: xenstore is not asked */
    store.reads = 0;
    assert_int_equal(xu_domdir_kernel_path(d, 3, &k), 0);
    assert_string_equal(k, "/srv/web1/vmlinux");
    assert_int_equal(store.reads, 0);
    free(k);
    xu_domdir_close(d);
    assert_int_equal(store.closed, 1);
}

/* A directory that cannot list (a libxl of another Xen release) gives way
 * to its xenstore fallback for the name, with a warning. */
static void test_list_failure_uses_fallback(void **state)
{
    struct fixture *f = *state;
    struct xu_domain_entry e;
    struct kv unikraft[] = { { "/local/domain/5/name", "unikraft" } };
    static struct fake_store store;
    struct xu_xs_reader r = {
        .read = fake_read, .directory = fake_directory, .close = fake_close, .ctx = &store,
    };

    memset(&store, 0, sizeof(store));
    store.kv = unikraft;
    store.n = 1;
    assert_int_equal(xu_domdir_open_reader(&f->d->fallback, &r, &f->cap.log), 0);
    f->store.dir_errno = EACCES;
    assert_int_equal(xu_domdir_resolve(f->d, "unikraft", &e), 0);
    assert_int_equal(e.domid, 5);
    assert_non_null(strstr(f->cap.warning, "cannot list domains"));
    assert_non_null(strstr(f->cap.warning, "names from xenstore"));
    /* the fallback's own failure is the answer then */
    store.dir_errno = EIO;
    assert_int_equal(xu_domdir_resolve(f->d, "unikraft", &e), -EIO);
    assert_non_null(strstr(f->cap.last, "cannot list domains"));
}

static void test_open_prefers_plugin(void **state)
{
    struct fixture *f = *state;
    struct xu_domdir *d = NULL;
    int rc;

    setenv("XEN_UNIPROF_PLUGIN_DIR", XU_TEST_FAKE_PLUGIN_DIR, 1);
    assert_string_equal(xu_domdir_plugin_dir(), XU_TEST_FAKE_PLUGIN_DIR);
    /* NEED_PLUGIN with a plugin that loads: the plugin answers (the
     * xenstore fallback is optional and absent without Xen) */
    rc = xu_domdir_open(&d, XU_DOMDIR_NEED_PLUGIN, &f->cap.log);
    assert_int_equal(rc, 0);
    assert_string_equal(xu_domdir_name(d), "libxl");
    xu_domdir_close(d);
    /* NEED_PLUGIN with none: an error, not a silent xenstore */
    setenv("XEN_UNIPROF_PLUGIN_DIR", "/nonexistent-dir", 1);
    assert_int_equal(xu_domdir_open(&d, XU_DOMDIR_NEED_PLUGIN, &f->cap.log), -ENOENT);
    assert_null(d);
    unsetenv("XEN_UNIPROF_PLUGIN_DIR");
    assert_string_equal(xu_domdir_plugin_dir(), XU_PKGLIBDIR);
}
#endif

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_qualifier_rule),
        cmocka_unit_test_setup_teardown(test_list_sorted_and_filtered, setup, teardown),
        cmocka_unit_test_setup_teardown(test_resolve_name_and_id, setup, teardown),
        cmocka_unit_test_setup_teardown(test_resolve_refuses_dom0, setup, teardown),
        cmocka_unit_test_setup_teardown(test_resolve_unknown_lists_domains, setup, teardown),
        cmocka_unit_test_setup_teardown(test_resolve_invalid, setup, teardown),
        cmocka_unit_test_setup_teardown(test_list_failure, setup, teardown),
        cmocka_unit_test_setup_teardown(test_kernel_path, setup, teardown),
        cmocka_unit_test_setup_teardown(test_create_needs_plugin, setup, teardown),
#ifdef XU_TEST_FAKE_PLUGIN_DIR
        cmocka_unit_test_setup_teardown(test_plugin_missing, setup, teardown),
        cmocka_unit_test_setup_teardown(test_plugin_abi_mismatch, setup, teardown),
        cmocka_unit_test_setup_teardown(test_plugin_answers, setup, teardown),
        cmocka_unit_test_setup_teardown(test_plugin_with_xenstore_fallback, setup, teardown),
        cmocka_unit_test_setup_teardown(test_list_failure_uses_fallback, setup, teardown),
        cmocka_unit_test_setup_teardown(test_open_prefers_plugin, setup, teardown),
#endif
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
