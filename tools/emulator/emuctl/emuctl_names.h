/* SPDX-License-Identifier: GPL-2.0 */
/*
 * emuctl's names for the control page's numbers, each list built from its
 * one definition: the X-lists of tools/emulator/daemon/control.h (fault
 * knobs, queries, counters, NVMF fields, HCA states) and the PRM opcodes of
 * core-cpp/include/cxprm/prm/opcodes.h.  A command-line name is the
 * identifier in lower case with '-' for '_' (PAGES_HELD: pages-held);
 * either spelling is accepted.
 */
#ifndef CXPRM_EMUCTL_NAMES_H
#define CXPRM_EMUCTL_NAMES_H

#include <stdint.h>
#include <stdio.h>

/* How a fault knob reads its value (the kind column of CXPRM_EMUD_FAULTS). */
enum emuctl_kind {
	EMUCTL_KIND_NONE,
	EMUCTL_KIND_BOOL,	/* on|off (1|0, yes|no, true|false), default on */
	EMUCTL_KIND_TARGET,	/* entry|blocks|both|off, default entry */
	EMUCTL_KIND_NUM,	/* a number, required */
	EMUCTL_KIND_SYNDROME,	/* a number, default 0x10 */
	EMUCTL_KIND_OPCODE,	/* an opcode name or number, or any; required */
	EMUCTL_KIND_CRASH,	/* [int-err|off] */
};

struct emuctl_name {
	const char *name;	/* the identifier: PAGES_HELD, ENABLE_HCA */
	uint32_t v;
	enum emuctl_kind kind;
};

struct emuctl_names {
	const char *what;	/* "fault knob", "query", ... for messages */
	const struct emuctl_name *tab;
	unsigned int n;
};

extern const struct emuctl_names emuctl_faults, emuctl_queries, emuctl_counters,
	emuctl_nvmf_fields, emuctl_nvme_stats, emuctl_hca_states, emuctl_opcodes;

/* The entry called 'word' (either spelling), or NULL. */
const struct emuctl_name *emuctl_lookup(const struct emuctl_names *l, const char *word);

/* The entry of value v, or NULL. */
const struct emuctl_name *emuctl_by_value(const struct emuctl_names *l, uint32_t v);

/* Parses a number (decimal, 0x hex, a leading '-'): 0, or -1. */
int emuctl_num(const char *s, int64_t *v);

/*
 * 'word' as a name of l, else as a number that fits 32 bits (signed or
 * not): 0, or -1.
 */
int emuctl_value(const struct emuctl_names *l, const char *word, uint32_t *v);

/* Writes the command-line names of l, wrapped, each line indented. */
void emuctl_print_names(FILE *f, const struct emuctl_names *l, const char *indent);

#endif /* CXPRM_EMUCTL_NAMES_H */
