// SPDX-License-Identifier: GPL-2.0
/*
 * emuctl's names, built from the X-lists (see emuctl_names.h): no name is
 * written here.
 */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "emuctl_names.h"
#include "cxprm/prm/opcodes.h"
#include "../daemon/control.h"

#define ARRAY_LEN(a) (sizeof(a) / sizeof((a)[0]))
#define NAME2_(n, v) { #n, v, EMUCTL_KIND_NONE },
#define NAME3_(n, v, kind) { #n, v, EMUCTL_KIND_##kind },
#define OPCODE_(n, v, rw, in, out, dec) { #n, v, EMUCTL_KIND_NONE },
#define OPCODE_N_(n, s, v, rw, in, out, dec) { s, v, EMUCTL_KIND_NONE },

static const struct emuctl_name faults[] = { CXPRM_EMUD_FAULTS(NAME3_) };
static const struct emuctl_name queries[] = { CXPRM_EMUD_QUERIES(NAME2_) };
static const struct emuctl_name counters[] = { CXPRM_EMUD_COUNTERS(NAME2_) };
static const struct emuctl_name nvmf_fields[] = { CXPRM_EMUD_NVMF_FIELDS(NAME2_) };
static const struct emuctl_name nvme_stats[] = { CXPRM_EMUD_NVME_STATS(NAME2_) };
static const struct emuctl_name hca_states[] = { CXPRM_EMUD_HCA_STATES(NAME2_) };
static const struct emuctl_name opcodes[] = { CXPRM_OPCODES(OPCODE_, OPCODE_N_) };

#define NAMES_(var, text) { text, var, ARRAY_LEN(var) }
const struct emuctl_names emuctl_faults = NAMES_(faults, "fault knob");
const struct emuctl_names emuctl_queries = NAMES_(queries, "query");
const struct emuctl_names emuctl_counters = NAMES_(counters, "counter");
const struct emuctl_names emuctl_nvmf_fields = NAMES_(nvmf_fields, "NVMF field");
const struct emuctl_names emuctl_nvme_stats = NAMES_(nvme_stats, "NVMe device statistic");
const struct emuctl_names emuctl_hca_states = NAMES_(hca_states, "HCA state");
const struct emuctl_names emuctl_opcodes = NAMES_(opcodes, "opcode");

/* PAGES_HELD matches pages-held, PAGES_HELD, pages_held. */
static int same_name(const char *ident, const char *word)
{
	for (; *ident && *word; ident++, word++) {
		char c = *word == '-' ? '_' : (char)toupper((unsigned char)*word);

		if (c != *ident)
			return 0;
	}
	return !*ident && !*word;
}

const struct emuctl_name *emuctl_lookup(const struct emuctl_names *l, const char *word)
{
	unsigned int i;

	for (i = 0; i < l->n; i++)
		if (same_name(l->tab[i].name, word))
			return &l->tab[i];
	return NULL;
}

const struct emuctl_name *emuctl_by_value(const struct emuctl_names *l, uint32_t v)
{
	unsigned int i;

	for (i = 0; i < l->n; i++)
		if (l->tab[i].v == v)
			return &l->tab[i];
	return NULL;
}

int emuctl_num(const char *s, int64_t *v)
{
	char *end;
	long long n;

	if (!s || !*s || isspace((unsigned char)*s))
		return -1;
	errno = 0;
	n = strtoll(s, &end, 0);
	if (errno || *end)
		return -1;
	*v = n;
	return 0;
}

int emuctl_value(const struct emuctl_names *l, const char *word, uint32_t *v)
{
	const struct emuctl_name *e = l ? emuctl_lookup(l, word) : NULL;
	int64_t n;

	if (e) {
		*v = e->v;
		return 0;
	}
	if (emuctl_num(word, &n) || n < INT32_MIN || n > UINT32_MAX)
		return -1;
	*v = (uint32_t)n;
	return 0;
}

void emuctl_print_names(FILE *f, const struct emuctl_names *l, const char *indent)
{
	unsigned int i, col = 0;
	const char *p;

	for (i = 0; i < l->n; i++) {
		size_t len = strlen(l->tab[i].name);

		if (col && col + 1 + len > 76) {
			fputc('\n', f);
			col = 0;
		}
		col += (unsigned int)(col ? fprintf(f, " ") : fprintf(f, "%s", indent));
		for (p = l->tab[i].name; *p; p++)
			fputc(*p == '_' ? '-' : tolower((unsigned char)*p), f);
		col += (unsigned int)len;
	}
	if (col)
		fputc('\n', f);
}
