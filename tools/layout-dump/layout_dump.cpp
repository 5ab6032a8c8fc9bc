// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * cxprm-layout-dump: every field of every registered PRM layout, one per
 * line, in decimal:  <layout> <field> <bit_offset> <bit_width>
 *
 *   cxprm-layout-dump              all layouts
 *   cxprm-layout-dump NAME...      only the named layouts (exit 1 if unknown)
 *   cxprm-layout-dump --sizes      <layout> <size_bits> <nfields> per layout
 */
#include <cstdio>
#include <cstring>

#include "cxprm/prm/registry.h"

using cxprm::prm::LayoutDesc;

static void dump(const LayoutDesc *d)
{
	for (cxprm::u32 i = 0; i < d->nfields; i++)
		std::printf("%s %s %u %u\n", d->name, d->fields[i].name, d->fields[i].offset,
			    d->fields[i].width);
}

int main(int argc, char **argv)
{
	cxprm::u32 n;
	const LayoutDesc *const *all = cxprm::prm::all_layouts(&n);

	if (argc == 2 && !std::strcmp(argv[1], "--sizes")) {
		for (cxprm::u32 i = 0; i < n; i++)
			std::printf("%s %u %u\n", all[i]->name, all[i]->size_bits, all[i]->nfields);
		return 0;
	}
	if (argc == 1) {
		for (cxprm::u32 i = 0; i < n; i++)
			dump(all[i]);
		return 0;
	}
	int rc = 0;
	for (int a = 1; a < argc; a++) {
		const LayoutDesc *d = cxprm::prm::find_layout(argv[a]);
		if (!d) {
			std::fprintf(stderr, "cxprm-layout-dump: no layout %s\n", argv[a]);
			rc = 1;
			continue;
		}
		dump(d);
	}
	return rc;
}
