/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * xu_demangle.h - readable function names from the mangled ones of an ELF.
 *
 * Schemes understood:
 *   - C++ (Itanium ABI, "_Z..."), through libiberty: "foo::bar(int)".  The
 *     std:: abbreviations are kept ("std::string"): c++filt prints them
 *     expanded because it asks for libiberty's verbose form.
 *   - Rust legacy ("_ZN...17h<16 hex>E") and v0 ("_R..."), through
 *     libiberty, as rustfilt shows them: no hash, no crate disambiguator
 *     ("core::ptr::drop_in_place", "mycrate::foo::<[u8; 16]>").
 *   - OCaml native code, decoded here: "camlModule__function_1234" (OCaml
 *     up to 5.0) and "camlModule.function_1234" (5.1 on) become
 *     "Module.function": "__" and "." separate modules, the trailing
 *     "_<digits>" stamp is dropped, "$xx" escapes are the bytes in hex
 *     ("camlStdlib__$2a$2a_123" is "Stdlib.**").
 * Without libiberty (configure --without-libiberty, or not found) C++ and
 * Rust names stay as they are; OCaml names are still decoded.
 *
 * Names are hostile input (any bytes an ELF's string table holds): a name
 * longer than XU_DEMANGLE_MAX_IN bytes, or whose readable form would exceed
 * XU_DEMANGLE_MAX_OUT bytes, stays as it is, and so does anything that is
 * not exactly one of the forms above.  libiberty is called only through its
 * callback interfaces, which allocate nothing and let the printing be cut
 * short at the bound (a few hundred bytes of C++ substitutions can stand
 * for gigabytes of text).
 */
#ifndef XU_DEMANGLE_H
#define XU_DEMANGLE_H

#include <stdbool.h>

#define XU_DEMANGLE_MAX_IN  4096
#define XU_DEMANGLE_MAX_OUT 16384

/* Which schemes xu_demangle() tries. */
#define XU_DEMANGLE_CXX     (1u << 0)   /* C++ and Rust, "_Z" and "_R" */
#define XU_DEMANGLE_OCAML   (1u << 1)
#define XU_DEMANGLE_ALL     (XU_DEMANGLE_CXX | XU_DEMANGLE_OCAML)

/*
 * The readable form of name, in a new string the caller frees; NULL when
 * name is to be kept as it is: not mangled in a scheme of flags, damaged,
 * too long, or no memory for the result.  errno is not meaningful.
 */
char *xu_demangle(const char *name, unsigned int flags);

/* Whether C++ and Rust names can be demangled (libiberty was built in). */
bool xu_demangle_have_libiberty(void);

#endif
