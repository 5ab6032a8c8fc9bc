// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* The table behind prm::all_layouts(): constant-initialized, no constructors. */
#include "cxprm/prm/registry.h"

namespace cxprm::prm {

namespace {
#define CXPRM_REG_ENTRY_(name, list) &name::desc,
constexpr const LayoutDesc *layouts[] = {CXPRM_LAYOUTS(CXPRM_REG_ENTRY_)};
#undef CXPRM_REG_ENTRY_

bool same(const char *a, const char *b)
{
	while (*a && *a == *b)
		a++, b++;
	return *a == *b;
}
} // namespace

const LayoutDesc *const *all_layouts(u32 *count)
{
	if (count)
		*count = sizeof(layouts) / sizeof(layouts[0]);
	return layouts;
}

const LayoutDesc *find_layout(const char *name)
{
	for (const LayoutDesc *d : layouts)
		if (same(d->name, name))
			return d;
	return nullptr;
}

} // namespace cxprm::prm
