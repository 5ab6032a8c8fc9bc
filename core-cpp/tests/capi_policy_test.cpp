// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// The C facade's policy, no device needed: which privilege a raw command
// needs by opcode and op_mod (cxprm_core_raw_scope, from the X-list's R/W
// column), the names it gives, and create's argument checks.
#include <gtest/gtest.h>

#include <cstdint>

#include "cxprm/capi.h"
#include "cxprm/prm/opcodes.h"
#include "cxprm/prm/reg.h"

using namespace cxprm;
namespace op = cxprm::prm::op;

namespace {

TEST(CapiPolicy, RawScopes)
{
	EXPECT_EQ(cxprm_core_raw_scope(op::QUERY_HCA_CAP, 0), CXPRM_RAW_SCOPE_QUERY);
	EXPECT_EQ(cxprm_core_raw_scope(op::QUERY_NVMF_NAMESPACE_CONTEXT, 0), CXPRM_RAW_SCOPE_QUERY);
	EXPECT_EQ(cxprm_core_raw_scope(op::QUERY_PAGES, 0), CXPRM_RAW_SCOPE_QUERY);
	EXPECT_EQ(cxprm_core_raw_scope(op::CREATE_DCT, 0), CXPRM_RAW_SCOPE_WRITE);
	EXPECT_EQ(cxprm_core_raw_scope(op::NOP, 0), CXPRM_RAW_SCOPE_WRITE);
	EXPECT_EQ(cxprm_core_raw_scope(op::SET_HCA_CAP, 0), CXPRM_RAW_SCOPE_WRITE);
	EXPECT_EQ(cxprm_core_raw_scope(0x7fff, 0), CXPRM_RAW_SCOPE_WRITE);
	for (uint16_t o : {op::ENABLE_HCA, op::DISABLE_HCA, op::INIT_HCA, op::TEARDOWN_HCA, op::MANAGE_PAGES,
			   op::SET_ISSI, op::CREATE_EQ, op::DESTROY_EQ, op::DEALLOC_UAR})
		for (uint16_t m : {0, 1})
			EXPECT_EQ(cxprm_core_raw_scope(o, m), CXPRM_RAW_SCOPE_FORBIDDEN) << o;
	// op_mod matters only where the X-list says so: QUERY_* are queries with
	// any op_mod, and ACCESS_REG is a query only as a READ (op_mod 1), as
	// fwctl's mlx5 scopes it; its WRITE (0) and unknown op_mods are writes.
	EXPECT_EQ(cxprm_core_raw_scope(op::QUERY_HCA_CAP, 1), CXPRM_RAW_SCOPE_QUERY);
	EXPECT_EQ(cxprm_core_raw_scope(op::CREATE_DCT, 1), CXPRM_RAW_SCOPE_WRITE);
	EXPECT_EQ(cxprm_core_raw_scope(op::ACCESS_REG, prm::access_reg_op::READ), CXPRM_RAW_SCOPE_QUERY);
	EXPECT_EQ(cxprm_core_raw_scope(op::ACCESS_REG, prm::access_reg_op::WRITE), CXPRM_RAW_SCOPE_WRITE);
	EXPECT_EQ(cxprm_core_raw_scope(op::ACCESS_REG, 2), CXPRM_RAW_SCOPE_WRITE);
	EXPECT_EQ(cxprm_core_raw_scope(op::ACCESS_REG, 0x101), CXPRM_RAW_SCOPE_WRITE);
	EXPECT_TRUE(prm::opcode_is_query(op::ACCESS_REG, 1));
	EXPECT_FALSE(prm::opcode_is_query(op::ACCESS_REG, 0));
	EXPECT_FALSE(prm::opcode_is_query(0x7fff, 1));
	uint8_t in[16] = {0x01, 0x00};
	EXPECT_EQ(cxprm_core_in_opcode(in), 0x100);
	EXPECT_EQ(cxprm_core_in_op_mod(in), 0);
	EXPECT_EQ(cxprm_core_raw_scope_in(in), CXPRM_RAW_SCOPE_QUERY);
	uint8_t reg_read[16] = {0x08, 0x05, 0, 0, 0, 0, 0x00, 0x01};
	EXPECT_EQ(cxprm_core_in_op_mod(reg_read), 1);
	EXPECT_EQ(cxprm_core_raw_scope_in(reg_read), CXPRM_RAW_SCOPE_QUERY);
	reg_read[7] = 0; // the same register written
	EXPECT_EQ(cxprm_core_raw_scope_in(reg_read), CXPRM_RAW_SCOPE_WRITE);
	EXPECT_STREQ(cxprm_core_opcode_name(0x100), "QUERY_HCA_CAP");
	EXPECT_STREQ(cxprm_core_opcode_name(0x7fff), "UNKNOWN");
	EXPECT_STREQ(cxprm_core_err_name(-110), "ETIMEDOUT");
	EXPECT_STREQ(cxprm_core_event_name(0x1c), "DCT_DRAINED");
}

TEST(CapiPolicy, CreateRejectsBadArguments)
{
	cxprm_core *c = reinterpret_cast<cxprm_core *>(1);
	EXPECT_EQ(cxprm_core_create(nullptr, &c), -22);
	EXPECT_EQ(c, nullptr);
	cxprm_core_destroy(nullptr);
}

} // namespace
