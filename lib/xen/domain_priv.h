/* SPDX-License-Identifier: GPL-2.0-only */
/* domain_priv.h - between the domain directory's files, not for callers. */
#ifndef XU_DOMAIN_PRIV_H
#define XU_DOMAIN_PRIV_H

#include "xen/xu_domain.h"

/* xu_domdir_open_xenstore, reporting a failure to connect at err_level:
 * ERROR when xenstore is what the user gets, DEBUG when it is only the
 * plugin's optional fallback. */
int xu_domdir_open_xenstore_at(struct xu_domdir **out, enum xu_log_level err_level,
                               struct xu_log *log);

#endif
