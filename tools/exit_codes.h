/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * exit_codes.h - what xen-uniprof's exit status means.  Documented in the
 * man page (EXIT STATUS) and the README; scripts depend on these numbers,
 * so they never change meaning.
 */
#ifndef XU_EXIT_CODES_H
#define XU_EXIT_CODES_H

enum xu_exit {
    XU_EXIT_OK = 0,             /* profile written (top: ended after -n, q or a signal) */
    XU_EXIT_FAILURE = 1,        /* runtime failure: Xen call, output file (top: stdout),
                                 * no samples */
    XU_EXIT_USAGE = 2,          /* bad command line */
    XU_EXIT_NO_DOMAIN = 3,      /* no such domain (or dom0) */
    XU_EXIT_SYMBOLS = 4,        /* no usable symbol ELF */
    XU_EXIT_PRIVILEGE = 5,      /* not root in dom0, or no privcmd */
    XU_EXIT_DOMAIN_ENDED = 6,   /* the domain shut down or was destroyed; samples written
                                 * (top: the snapshots shown) */
    XU_EXIT_XEN_MISMATCH = 7,   /* the hypervisor rejects this build's interface version */
    XU_EXIT_BAD_CORE = 8,       /* stack --core: the file cannot be opened or is not a core
                                 * it can read (not an ELF core, truncated, another
                                 * architecture, no vCPU contexts) */
};

#endif
