// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// The PRM metadata table (prm/opcodes.h CXPRM_OPCODES and CXPRM_CAP_TYPES):
// its rows, its lookups, and that what it says holds where it is used --
// the decoder column against the core's decoders, the layout columns
// against the core's layouts.  (Against mlx5_ifc.h: ifcgen's
// ifc_tables_crosscheck.)
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <set>
#include <string>

#include "cxprm/commands/decode.h"
#include "cxprm/errors.h"
#include "cxprm/prm/opcodes.h"
#include "cxprm/prm/registry.h"
#include "cxprm/status.h"

namespace {

using namespace cxprm;
using prm::Decoder;

TEST(OpcodeTable, LookupsAgreeWithTheRows)
{
	uint32_t n = 0;
	const prm::OpcodeInfo *t = prm::opcode_table(&n);
	ASSERT_GT(n, 200u);
	std::set<std::string> names;
	for (uint32_t i = 0; i < n; i++) {
		SCOPED_TRACE(t[i].name);
		EXPECT_EQ(prm::opcode_info(t[i].value), &t[i]);
		EXPECT_STREQ(prm::opcode_name(t[i].value), t[i].name);
		EXPECT_TRUE(names.insert(t[i].name).second) << "duplicate name";
		if (i) {
			EXPECT_GT(t[i].value, t[i - 1].value);
		}
		// The compile-time view names the same layouts ("none": "").
		const char *in = prm::opcode_layout_token(t[i].value, true);
		const char *out = prm::opcode_layout_token(t[i].value, false);
		ASSERT_NE(in, nullptr);
		ASSERT_NE(out, nullptr);
		EXPECT_EQ(std::string(in) == "none" ? "" : in, std::string(t[i].in_layout));
		EXPECT_EQ(std::string(out) == "none" ? "" : out, std::string(t[i].out_layout));
	}
	EXPECT_EQ(prm::opcode_info(0x7ff), nullptr);
	EXPECT_EQ(prm::opcode_info(0), nullptr);
	EXPECT_EQ(prm::opcode_info(0xffff), nullptr);
	EXPECT_EQ(prm::opcode_layout_token(0x7ff, true), nullptr);
}

TEST(OpcodeTable, LayoutsTheHeaderNamesDifferently)
{
	struct {
		uint16_t op;
		const char *in, *out;
	} const rows[] = {
		{prm::op::SET_FLOW_TABLE_ENTRY, "set_fte_in", "set_fte_out"},
		{prm::op::ACCESS_REG, "access_register_in", "access_register_out"},
		{prm::op::QP_2ERR, "qp_2err_in", "qp_2err_out"},
		{prm::op::SQD_RTS_QP, "sqd2rts_qp_in", "sqd2rts_qp_out"},
		{prm::op::QUERY_SF_PARTITION, "query_sf_partitions_in", "query_sf_partitions_out"},
		{prm::op::ARM_DCT_FOR_KEY_VIOLATION, "arm_dct_in", "arm_dct_out"},
		{prm::op::QUERY_GENERAL_OBJECT, "general_obj_in_cmd_hdr", "general_obj_out_cmd_hdr"},
		{prm::op::QUERY_NVMF_NAMESPACE_CONTEXT, "query_nvmf_namespace_in", "query_nvmf_namespace_out"},
		{prm::op::GEN_EQE, "gen_eqe_in", ""},
		{prm::op::SET_FLOW_TABLE_ROOT, "set_flow_table_root_in", "set_flow_table_root_out"},
	};
	for (const auto &r : rows) {
		const prm::OpcodeInfo *o = prm::opcode_info(r.op);
		ASSERT_NE(o, nullptr) << r.in;
		EXPECT_STREQ(o->in_layout, r.in);
		EXPECT_STREQ(o->out_layout, r.out);
	}
}

// The decoder column is what decode_output() does: a row that says LAYOUT
// has no core decoder (E_NOTSUP on an answer with an OK header), every
// other row has one (it decodes or finds the body short, never E_NOTSUP).
TEST(OpcodeTable, DecoderColumnMatchesTheCoreDecoders)
{
	uint32_t n = 0;
	const prm::OpcodeInfo *t = prm::opcode_table(&n);
	unsigned decoded = 0;
	for (uint32_t i = 0; i < n; i++) {
		SCOPED_TRACE(t[i].name);
		uint8_t hdr[16] = {};
		cmd::KvBuffer<64> kv;
		int rc = cmd::decode_output(t[i].value, 0, hdr, sizeof(hdr), kv);
		bool has = t[i].decoder != Decoder::LAYOUT;
		EXPECT_EQ(rc != E_NOTSUP, has) << "decode_output returned " << rc;
		EXPECT_EQ(cmd::decode_output_supported(t[i].value), has);
		if (has) {
			decoded++;
			// What a core decoder reads is a layout the core declares.
			EXPECT_NE(prm::find_layout(t[i].in_layout), nullptr) << t[i].in_layout;
			EXPECT_NE(prm::find_layout(t[i].out_layout), nullptr) << t[i].out_layout;
		}
	}
	EXPECT_GE(decoded, 20u);
	EXPECT_EQ(prm::opcode_info(prm::op::QUERY_HCA_CAP)->decoder, Decoder::CAP);
	EXPECT_EQ(prm::opcode_info(prm::op::SET_HCA_CAP)->decoder, Decoder::CAP);
	EXPECT_EQ(prm::opcode_info(prm::op::ACCESS_REG)->decoder, Decoder::REG);
}

// Scope: the QUERY_* rows are queries, ACCESS_REG by op_mod, the rest not.
TEST(OpcodeTable, ScopeColumn)
{
	uint32_t n = 0;
	const prm::OpcodeInfo *t = prm::opcode_table(&n);
	for (uint32_t i = 0; i < n; i++) {
		SCOPED_TRACE(t[i].name);
		bool query = std::strncmp(t[i].name, "QUERY_", 6) == 0;
		if (t[i].value == prm::op::ACCESS_REG) {
			EXPECT_EQ(t[i].scope, prm::Scope::R_OPMOD1);
			EXPECT_TRUE(prm::opcode_is_query(t[i].value, 1));
			EXPECT_FALSE(prm::opcode_is_query(t[i].value, 0));
			continue;
		}
		EXPECT_EQ(t[i].scope == prm::Scope::R, query);
		EXPECT_EQ(prm::opcode_is_query(t[i].value, 0), query);
		EXPECT_EQ(prm::opcode_is_query(t[i].value, 1), query);
	}
}

TEST(CapTypeTable, RowsAndLookups)
{
	uint32_t n = 0;
	const prm::CapTypeInfo *t = prm::cap_type_table(&n);
	ASSERT_GE(n, 28u);
	std::set<std::string> aliases, names;
	for (uint32_t i = 0; i < n; i++) {
		SCOPED_TRACE(t[i].name);
		EXPECT_EQ(prm::cap_type_info(t[i].value), &t[i]);
		EXPECT_STREQ(prm::cap_type_name(t[i].value), t[i].name);
		EXPECT_TRUE(aliases.insert(t[i].alias).second) << "duplicate alias";
		EXPECT_TRUE(names.insert(t[i].name).second) << "duplicate name";
		EXPECT_NE(t[i].layout[0], '\0');
		if (i) {
			EXPECT_GT(t[i].value, t[i - 1].value);
		}
	}
	EXPECT_EQ(prm::cap_type_info(0xa), nullptr); // MLX5_CAP_RESERVED
	EXPECT_STREQ(prm::cap_type_info(prm::cap::ETHERNET_OFFLOADS)->layout,
		     "per_protocol_networking_offload_caps");
	EXPECT_STREQ(prm::cap_type_info(prm::cap::TLP_EMULATION)->layout, "tlp_dev_emu_capabilities");
	EXPECT_STREQ(prm::cap_type_info(prm::cap::DEBUG_CAP)->name, "DEBUG");
	// The core decodes two types itself; their layouts are its own.
	EXPECT_NE(prm::find_layout(prm::cap_type_info(prm::cap::GENERAL)->layout), nullptr);
	EXPECT_NE(prm::find_layout(prm::cap_type_info(prm::cap::NVMF)->layout), nullptr);
}

} // namespace
