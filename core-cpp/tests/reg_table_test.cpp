// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
// The register table (prm/reg.h CXPRM_REGISTERS) and its lookups.
#include <gtest/gtest.h>

#include <cstring>

#include "cxprm/commands/reg.h"
#include "cxprm/prm/reg.h"

using namespace cxprm;
using namespace cxprm::prm;

TEST(RegTable, ByNameCaseInsensitiveAndById)
{
	const RegisterInfo *r = find_register("ptys");
	ASSERT_NE(r, nullptr);
	EXPECT_EQ(r, find_register("PTYS"));
	EXPECT_EQ(r, find_register(reg_id::PTYS));
	EXPECT_EQ(r->id, 0x5004u);
	EXPECT_STREQ(r->layout->name, "ptys_reg");
	EXPECT_EQ(r->layout->size_bits, 0x200u);
	EXPECT_TRUE(r->port);
	EXPECT_TRUE(r->writable);
	EXPECT_EQ(find_register("PTY"), nullptr);
	EXPECT_EQ(find_register("PTYSX"), nullptr);
	EXPECT_EQ(find_register((const char *)nullptr), nullptr);
	EXPECT_EQ(find_register(0x5002), nullptr); // PPLR: not in the table
	EXPECT_STREQ(register_name(0x7004), "HOST_ENDIANNESS");
	EXPECT_EQ(register_name(0x5002), nullptr);
	const RegisterInfo *m = find_register("Mgir");
	ASSERT_NE(m, nullptr);
	EXPECT_EQ(m->id, 0x9020u);
	EXPECT_FALSE(m->port);
	EXPECT_FALSE(m->writable);
	EXPECT_EQ(m->layout->size_bits / 8, 160u);
}

TEST(RegTable, EveryRowFitsAndPortRowsHaveLocalPort)
{
	u32 n = 0;
	const RegisterInfo *all = all_registers(&n);
	ASSERT_EQ(n, 12u);
	for (u32 i = 0; i < n; i++) {
		EXPECT_LE(all[i].layout->size_bits / 8, cmd::REG_MAX_BYTES) << all[i].name;
		EXPECT_EQ(find_register(all[i].name), &all[i]);
		bool has_port = false;
		for (u32 f = 0; f < all[i].layout->nfields; f++)
			has_port |= !std::strcmp(all[i].layout->fields[f].name, "local_port");
		if (all[i].port) {
			EXPECT_TRUE(has_port) << all[i].name;
		}
		if (i) {
			EXPECT_LT(all[i - 1].id, all[i].id);
		}
	}
}
