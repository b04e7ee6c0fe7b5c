/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * backend_contract.h - the tests every Xen backend must pass, run against
 * tests/helpers/fake_xen.c: errors named and mapped (privcmd missing,
 * interface-version mismatch, no such domain), domain info and guest type,
 * PV/PVH/HVM registers, offline vCPUs, pauses balanced and undone by
 * close(), frames mapped and released.  A backend's test program wraps that
 * backend's Xen library calls onto fake_xen and calls contract_run().
 */
#ifndef BACKEND_CONTRACT_H
#define BACKEND_CONTRACT_H

#include "target/xu_target.h"

/* The backend under test; set before contract_run(). */
extern const struct xu_target_ops *contract_ops;
/* Backend-specific resources still held (e.g. hypercall buffers); may be NULL. */
extern int (*contract_extra_live)(void);

/* Setup for a test: a fresh fake_xen. */
int contract_reset(void **state);
/* Assert that nothing the backend took is still held, nothing left paused. */
void contract_assert_released(void);
/* Run the contract's tests; returns the number that failed. */
int contract_run(const char *name);

#endif
