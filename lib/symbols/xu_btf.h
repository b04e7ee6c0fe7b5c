/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * xu_btf.h - the BPF Type Format a Linux kernel carries in its .BTF
 * section: the layout of its structures, read without debug packages.
 *
 * What a profile needs from it is where struct task_struct keeps the pid
 * and the comm (the task a sample interrupted), and where the per-CPU
 * pointer to the current task is: the per-CPU variable current_task
 * (to 6.1), or the member current_task of the per-CPU struct pcpu_hot
 * (from 6.2), named through kallsyms (per-CPU symbols are offsets into
 * the CPU's area, which the gs base points at).
 *
 * The format (include/uapi/linux/btf.h): a header (magic 0xeb9f, version
 * 1, the type and string sections' offsets and lengths after the header),
 * then type records, numbered from 1 in order, each a name offset, an info
 * word (kind in bits 24-28, vlen in bits 0-15, kind_flag in bit 31) and a
 * size or type, followed by what the kind adds (struct members: name,
 * type, bit offset; arrays: element type, index type, count; ...).  Kinds
 * 1 to 19 (int to enum64) are read; any other refuses the data.  The data
 * is hostile: every record and name lies within its section, the types
 * are at most XU_BTF_MAX_TYPES, and resolving a type (through typedefs,
 * qualifiers, anonymous members) is bounded by XU_BTF_MAX_HOPS.
 */
#ifndef XU_BTF_H
#define XU_BTF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "symbols/xu_kallsyms.h"

#define XU_BTF_MAX_TYPES (1u << 21)     /* Debian's 6.1 has about 120 Ki */
#define XU_BTF_MAX_HOPS 32

enum xu_btf_kind {
    XU_BTF_INT = 1, XU_BTF_PTR, XU_BTF_ARRAY, XU_BTF_STRUCT, XU_BTF_UNION, XU_BTF_ENUM,
    XU_BTF_FWD, XU_BTF_TYPEDEF, XU_BTF_VOLATILE, XU_BTF_CONST, XU_BTF_RESTRICT,
    XU_BTF_FUNC, XU_BTF_FUNC_PROTO, XU_BTF_VAR, XU_BTF_DATASEC, XU_BTF_FLOAT,
    XU_BTF_DECL_TAG, XU_BTF_TYPE_TAG, XU_BTF_ENUM64,
};

struct xu_btf;

/*
 * Index the BTF data p[0, len) (which must outlive the handle).  0, or
 * -EBADMSG (not BTF, or records that do not check out: err says which),
 * -E2BIG (more than XU_BTF_MAX_TYPES), -ENOMEM.
 */
int xu_btf_read(const uint8_t *p, size_t len, struct xu_btf **out, char *err, size_t err_size);
/* The .BTF section of the ELF image (which must outlive the handle):
 * -ENODATA without one, -ENOEXEC for what is not an ELF. */
int xu_btf_from_elf(const uint8_t *image, size_t size, struct xu_btf **out, char *err,
                    size_t err_size);
void xu_btf_free(struct xu_btf *b);

size_t xu_btf_nr_types(const struct xu_btf *b);

/* The first type of that kind and name: its id, 0 when none. */
uint32_t xu_btf_find(const struct xu_btf *b, enum xu_btf_kind kind, const char *name);

struct xu_btf_member {
    uint32_t offset;        /* bytes from the start of the outer struct */
    uint32_t size;          /* bytes, through typedefs, qualifiers and arrays */
    uint32_t type;          /* the member's type id, as declared */
};

/*
 * The member name of the struct or union type id, also inside anonymous
 * struct and union members.  0, or -ENOENT (no such member, or id is no
 * struct), -EBADMSG (a bit field, or a type that cannot be sized).
 */
int xu_btf_member(const struct xu_btf *b, uint32_t id, const char *name,
                  struct xu_btf_member *out);

/* What a profile reads of a Linux task, from BTF and kallsyms. */
struct xu_linux_task_layout {
    uint32_t pid_offset, pid_size;          /* struct task_struct */
    uint32_t comm_offset, comm_size;
    uint64_t current_task;                  /* the per-CPU offset of the task pointer */
    const char *current_from;               /* static: "current_task", "pcpu_hot.current_task" */
};

/*
 * The layout from the kernel's BTF and its kallsyms (k may be NULL: no
 * per-CPU pointer, current_from NULL).  0, or -ENOENT with err naming
 * what is missing.
 */
int xu_linux_task_layout(const struct xu_btf *b, const struct xu_kallsyms *k,
                         struct xu_linux_task_layout *out, char *err, size_t err_size);

#endif
