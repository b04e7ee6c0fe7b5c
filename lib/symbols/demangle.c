/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * demangle.c - readable function names (see xu_demangle.h): C++ and Rust
 * through libiberty, OCaml here.
 */
#include "config.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#ifdef HAVE_LIBIBERTY
#include <setjmp.h>

#include <libiberty/demangle.h>
#endif

#include "symbols/xu_demangle.h"

bool xu_demangle_have_libiberty(void)
{
#ifdef HAVE_LIBIBERTY
    return true;
#else
    return false;
#endif
}

/* ------------------------------------------------------------ OCaml -- */

static int hex_digit(char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

static bool is_ident_char(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
           (c >= '0' && c <= '9') || c == '_';
}

/*
 * "caml" then a module name (capitalised, as OCaml's are: the runtime's C
 * functions are "caml_..." and stay as they are).  Anything but
 * identifier characters, separators and well-formed escapes means the name
 * is not ocamlopt's, and it is kept.
 */
static char *demangle_ocaml(const char *name, size_t len)
{
    const char *body = name + 4;
    size_t n = len - 4, i, o = 0;
    char *out = NULL;

    if (len <= 4 || strncmp(name, "caml", 4) != 0 || body[0] < 'A' || body[0] > 'Z')
        return NULL;
    /* the stamp that makes the name unique: "_<digits>" at the very end */
    i = n;
    while (i > 0 && body[i - 1] >= '0' && body[i - 1] <= '9')
        i--;
    if (i < n && i > 1 && body[i - 1] == '_')
        n = i - 1;
    out = malloc(n + 1);
    if (!out)
        return NULL;
    for (i = 0; i < n;) {
        if (body[i] == '_' && i + 1 < n && body[i + 1] == '_') {
            out[o++] = '.';
            i += 2;
        } else if (body[i] == '.') {
            out[o++] = '.';
            i++;
        } else if (body[i] == '$') {
            int hi = i + 2 < n ? hex_digit(body[i + 1]) : -1;
            int lo = hi >= 0 ? hex_digit(body[i + 2]) : -1;
            int c = hi * 16 + lo;

            /* operators are printable ASCII: anything else is no escape of ours */
            if (lo < 0 || c <= 0x20 || c >= 0x7f)
                goto not_ocaml;
            out[o++] = (char)c;
            i += 3;
        } else if (is_ident_char(body[i])) {
            out[o++] = body[i++];
        } else {
            goto not_ocaml;
        }
    }
    if (o == 0 || out[o - 1] == '.')
        goto not_ocaml;
    out[o] = '\0';
    return out;

not_ocaml:
    free(out);
    return NULL;
}

/* ------------------------------------------------------- C++, Rust -- */

#ifdef HAVE_LIBIBERTY
/*
 * Where libiberty's callbacks write: bounded, never reallocated.  Output
 * past the bound jumps straight out of the demangler, because a few hundred
 * bytes of substitutions ("X<S0_, S0_>" nested) expand to gigabytes that
 * would take libiberty minutes to print even into a sink that drops them.
 * The callback interfaces allocate nothing (their state is on the stack),
 * so leaving them part way leaks nothing.
 */
struct sink {
    char *buf;                  /* XU_DEMANGLE_MAX_OUT bytes */
    size_t len;
    jmp_buf too_long;
};

static void sink_put(const char *s, size_t n, void *opaque)
{
    struct sink *sk = opaque;

    if (n > XU_DEMANGLE_MAX_OUT - sk->len)
        longjmp(sk->too_long, 1);
    memcpy(sk->buf + sk->len, s, n);
    sk->len += n;
}

typedef int demangler_fn(const char *mangled, int options, demangle_callbackref cb,
                         void *opaque);

/*
 * Parameters and qualifiers, as c++filt and perf show them; not the verbose
 * form, whose Rust names carry hashes and whose std:: names are spelt out.
 * 1 with the name in sk, 0 when it is not of fn's scheme or too long.
 */
static int run_demangler(demangler_fn *fn, const char *name, struct sink *sk)
{
    sk->len = 0;
    if (setjmp(sk->too_long))
        return 0;
    return fn(name, DMGL_PARAMS | DMGL_ANSI, sink_put, sk);
}

/* Rust first: its legacy names are valid C++ names too ("...17h<hash>E"),
 * which C++ would print with the hash as a last component. */
static char *demangle_cxx(const char *name)
{
    struct sink sk = { .buf = malloc(XU_DEMANGLE_MAX_OUT) };
    char *out = NULL;
    int ok;

    if (!sk.buf)
        return NULL;
    ok = run_demangler(rust_demangle_callback, name, &sk);
    if (!ok && name[1] == 'Z')
        ok = run_demangler(cplus_demangle_v3_callback, name, &sk);
    if (ok && sk.len > 0 && (out = malloc(sk.len + 1)) != NULL) {
        memcpy(out, sk.buf, sk.len);
        out[sk.len] = '\0';
    }
    free(sk.buf);
    return out;
}
#endif

char *xu_demangle(const char *name, unsigned int flags)
{
    size_t len;

    if (!name)
        return NULL;
    len = strnlen(name, XU_DEMANGLE_MAX_IN + 1);
    if (len > XU_DEMANGLE_MAX_IN)
        return NULL;
#ifdef HAVE_LIBIBERTY
    if ((flags & XU_DEMANGLE_CXX) && len > 2 && name[0] == '_' &&
        (name[1] == 'Z' || name[1] == 'R'))
        return demangle_cxx(name);
#endif
    if (flags & XU_DEMANGLE_OCAML)
        return demangle_ocaml(name, len);
    return NULL;
}
