// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// The offline decoder (include/cxprm/commands/decode.h): real outputs taken
// through the engine, built outputs, hostile and short outputs, inputs, and
// the KvWriter's formatting and truncation.
// First: emulator.h names a constant SIG_BLOCK, a <signal.h> macro gtest pulls in.
#include "support/harness.h"
#include "support/command_values.h"

#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

#include "cxprm/commands/adapter.h"
#include "cxprm/commands/dct.h"
#include "cxprm/commands/decode.h"
#include "cxprm/commands/eq.h"
#include "cxprm/commands/esw.h"
#include "cxprm/commands/hca.h"
#include "cxprm/commands/issi.h"
#include "cxprm/commands/nvmf.h"
#include "cxprm/commands/pages.h"
#include "cxprm/device.h"
#include "cxprm/pages.h"
#include "cxprm/prm/registry.h"
#include "cxprm/prm/opcodes.h"
#include "cxprm/status.h"

using namespace cxprm;
using namespace cxprm::cmd;
using namespace cxprm::test;
namespace op = cxprm::prm::op;

// ------------------------------------------------------------------------
// Offline decoding
// ------------------------------------------------------------------------

TEST(Decode, RealOutputsThroughTheEngine)
{
	test::Harness h{quiet_cx7()};
	ASSERT_EQ(h.start(), OK);
	ASSERT_EQ(enable_hca(h.cmdq), OK);

	// QUERY_ISSI as raw bytes, then the generic decoder.
	uint8_t in[prm::query_issi_in::size_bytes];
	uint8_t out[prm::query_issi_out::size_bytes];
	begin_in<prm::query_issi_in>(in, op::QUERY_ISSI);
	ASSERT_EQ(h.cmdq.exec(in, sizeof(in), out, sizeof(out)), OK);
	KvBuffer<16> kv;
	ASSERT_EQ(decode_output(op::QUERY_ISSI, 0, out, sizeof(out), kv), OK);
	EXPECT_EQ(kv_get(kv, "opcode"), "QUERY_ISSI");
	EXPECT_EQ(kv_get(kv, "status"), "OK");
	EXPECT_EQ(kv_get(kv, "current_issi"), "0");
	char mask[16];
	snprintf(mask, sizeof(mask), "0x%x", h.emu.profile().issi_mask);
	EXPECT_EQ(kv_get(kv, "supported_issi_dw0"), mask);

	// QUERY_HCA_CAP general CUR: every layout field comes out.
	std::vector<uint8_t> cap_out(prm::query_hca_cap_out::size_bytes);
	uint8_t cin[prm::query_hca_cap_in::size_bytes];
	begin_in<prm::query_hca_cap_in>(cin, op::QUERY_HCA_CAP, prm::cap::op_mod(prm::cap::GENERAL, prm::cap::CUR));
	ASSERT_EQ(h.cmdq.exec(cin, sizeof(cin), cap_out.data(), (uint32_t)cap_out.size()), OK);
	KvBuffer<256> ck;
	ASSERT_EQ(decode_output(op::QUERY_HCA_CAP, prm::cap::op_mod(prm::cap::GENERAL, prm::cap::CUR),
				cap_out.data(), (uint32_t)cap_out.size(), ck), OK);
	EXPECT_EQ(ck.dropped(), 0u);
	EXPECT_EQ(kv_get(ck, "cap_type"), "GENERAL");
	EXPECT_EQ(kv_get(ck, "cap_mode"), "CUR");
	GeneralCaps cur = caps_of(h.emu.cap_cur(0));
	EXPECT_EQ(kv_get(ck, "num_ports"), std::to_string(cur.num_ports));
	EXPECT_EQ(kv_get(ck, "log_max_qp"), std::to_string(cur.log_max_qp));
	EXPECT_EQ(ck.count(), 5 + prm::cmd_hca_cap::nfields);

	// A failed command: status name and syndrome, no body.
	uint8_t din[prm::query_dct_in::size_bytes], dout[prm::query_dct_out::size_bytes];
	auto dr = begin_in<prm::query_dct_in>(din, op::QUERY_DCT);
	prm::set<prm::query_dct_in::dctn>(dr, 5);
	ASSERT_EQ(h.cmdq.exec(din, sizeof(din), dout, sizeof(dout)), E_REMOTEIO);
	KvBuffer<64> dk;
	ASSERT_EQ(decode_output(op::QUERY_DCT, 0, dout, sizeof(dout), dk), OK);
	EXPECT_EQ(kv_get(dk, "status"), "BAD_SYS_STATE_ERR");
	char synd[16];
	snprintf(synd, sizeof(synd), "0x%x", (unsigned)emu::synd::WRONG_STATE);
	EXPECT_EQ(kv_get(dk, "syndrome"), synd);
	EXPECT_EQ(dk.find("pd"), nullptr);

	ASSERT_EQ(disable_hca(h.cmdq), OK);
	h.cmdq.fini();
	EXPECT_EQ(h.uh.dma_live(), 0u);
}

TEST(Decode, BuiltOutputs)
{
	// QUERY_DCT: every dctc field by its layout name.
	std::vector<uint8_t> out(prm::query_dct_out::size_bytes);
	DctContext c = full_dct();
	ASSERT_EQ(encode_dctc(c, out.data() + prm::query_dct_out::dct_context_entry::offset / 8), OK);
	KvBuffer<64> kv;
	ASSERT_EQ(decode_output(op::QUERY_DCT, 0, out.data(), (uint32_t)out.size(), kv), OK);
	EXPECT_EQ(kv_get(kv, "pd"), std::to_string(c.pd));
	EXPECT_EQ(kv_get(kv, "dc_access_key"), "0x123456789abcdef");
	EXPECT_EQ(kv_get(kv, "flow_label"), std::to_string(c.flow_label));

	// NVMF counters joined from _high/_low.
	std::vector<uint8_t> n(prm::query_nvmf_namespace_out::size_bytes);
	{
		using N = prm::nvmf_frontend_namespace_context;
		auto ctx = prm::sub<prm::query_nvmf_namespace_out::ns_ctx, N>(
			prm::Ref<prm::query_nvmf_namespace_out>(n.data()));
		prm::set<N::num_read_cmd_high>(ctx, 1);
		prm::set<N::num_read_cmd_low>(ctx, 2);
		prm::set<N::current_q_depth>(ctx, 9);
	}
	KvBuffer<32> nk;
	ASSERT_EQ(decode_output(op::QUERY_NVMF_NAMESPACE_CONTEXT, 0, n.data(), (uint32_t)n.size(), nk), OK);
	EXPECT_EQ(kv_get(nk, "num_read_cmd"), std::to_string((1ull << 32) + 2));
	EXPECT_EQ(kv_get(nk, "current_q_depth"), "9");

	// QUERY_PAGES: signed count.
	uint8_t qp[prm::query_pages_out::size_bytes] = {};
	prm::set<prm::query_pages_out::num_pages>(prm::Ref<prm::query_pages_out>(qp), (uint32_t)-5);
	KvBuffer<16> pk;
	ASSERT_EQ(decode_output(op::QUERY_PAGES, 0, qp, sizeof(qp), pk), OK);
	EXPECT_EQ(kv_get(pk, "num_pages"), "-5");

	// QUERY_ESW_FUNCTIONS with two host_sf_enable words.
	std::vector<uint8_t> e(prm::query_esw_functions_out::size_bytes + 16);
	{
		auto hp = prm::sub<prm::query_esw_functions_out::host_params_context, prm::host_params_context>(
			prm::Ref<prm::query_esw_functions_out>(e.data()));
		prm::set<prm::host_params_context::host_num_of_vfs>(hp, 4);
		prm::set<prm::host_params_context::host_total_vfs>(hp, 16);
		store_be64(e.data() + prm::query_esw_functions_out::size_bytes + 8, 0x5);
	}
	KvBuffer<32> ek;
	ASSERT_EQ(decode_output(op::QUERY_ESW_FUNCTIONS, 0, e.data(), (uint32_t)e.size(), ek), OK);
	EXPECT_EQ(kv_get(ek, "host_num_of_vfs"), "4");
	EXPECT_EQ(kv_get(ek, "host_total_vfs"), "16");
	EswFunctions f{};
	uint64_t sf[3] = {1, 1, 1};
	ASSERT_EQ(decode_query_esw_functions(e.data(), (uint32_t)e.size(), &f, sf, 3), OK);
	EXPECT_EQ(sf[0], 0u);
	EXPECT_EQ(sf[1], 5u);
	EXPECT_EQ(sf[2], 0u); // not present in the output

	// QUERY_ADAPTER strings.
	std::vector<uint8_t> a(prm::query_adapter_out::size_bytes);
	{
		using pb = prm::query_adapter_param_block;
		auto b = prm::sub<prm::query_adapter_out::query_adapter_struct, pb>(
			prm::Ref<prm::query_adapter_out>(a.data()));
		prm::set<pb::ieee_vendor_id>(b, 0x2c9);
		memcpy(prm::bytes<pb::vsd_contd_psid>(b), "MT_1234567890123", 16); // no NUL
	}
	KvBuffer<16> ak;
	ASSERT_EQ(decode_output(op::QUERY_ADAPTER, 0, a.data(), (uint32_t)a.size(), ak), OK);
	EXPECT_EQ(kv_get(ak, "ieee_vendor_id"), "0x2c9");
	EXPECT_EQ(kv_get(ak, "psid"), "MT_1234567890123");

	// CREATE_DCT / CREATE_EQ answers.
	uint8_t cd[prm::create_dct_out::size_bytes] = {};
	prm::set<prm::create_dct_out::dctn>(prm::Ref<prm::create_dct_out>(cd), 0x123);
	KvBuffer<8> dk;
	ASSERT_EQ(decode_output(op::CREATE_DCT, 0, cd, sizeof(cd), dk), OK);
	EXPECT_EQ(kv_get(dk, "dctn"), "0x123");
	uint8_t ce[prm::create_eq_out::size_bytes] = {};
	prm::set<prm::create_eq_out::eq_number>(prm::Ref<prm::create_eq_out>(ce), 9);
	KvBuffer<8> qk;
	ASSERT_EQ(decode_output(op::CREATE_EQ, 0, ce, sizeof(ce), qk), OK);
	EXPECT_EQ(kv_get(qk, "eq_number"), "9");
}

TEST(Decode, HostileAndShortOutputs)
{
	// MANAGE_PAGES TAKE claiming more entries than the output holds.
	std::vector<uint8_t> m(prm::manage_pages_out_pas::bytes_for(2));
	prm::Ref<prm::manage_pages_out> mr(m.data());
	prm::set<prm::manage_pages_out::output_num_entries>(mr, 3);
	KvBuffer<16> kv;
	EXPECT_EQ(decode_output(op::MANAGE_PAGES, prm::manage_pages_op::TAKE, m.data(), (uint32_t)m.size(), kv),
		  E_PROTO);
	uint64_t pas[4];
	uint32_t got = 9;
	EXPECT_EQ(decode_manage_pages_take(m.data(), (uint32_t)m.size(), 4, pas, &got), E_PROTO);
	EXPECT_EQ(got, 0u);
	// More than asked, even if it fits.
	prm::set<prm::manage_pages_out::output_num_entries>(mr, 2);
	EXPECT_EQ(decode_manage_pages_take(m.data(), (uint32_t)m.size(), 1, pas, &got), E_PROTO);
	store_be64(m.data() + prm::manage_pages_out::size_bytes, 0x1234'5000ull);
	store_be64(m.data() + prm::manage_pages_out::size_bytes + 8, 0x1234'6000ull);
	ASSERT_EQ(decode_manage_pages_take(m.data(), (uint32_t)m.size(), 2, pas, &got), OK);
	EXPECT_EQ(got, 2u);
	EXPECT_EQ(pas[1], 0x1234'6000ull);

	uint8_t small[8] = {};
	KvBuffer<4> sk;
	EXPECT_EQ(decode_output(op::QUERY_ISSI, 0, small, sizeof(small), sk), E_INVAL);
	uint8_t hdr[16] = {};
	KvBuffer<4> hk;
	EXPECT_EQ(decode_output(op::QUERY_ISSI, 0, hdr, sizeof(hdr), hk), E_INVAL); // body missing
	EXPECT_EQ(decode_output(0x7ff, 0, hdr, sizeof(hdr), hk), E_NOTSUP);
	EXPECT_FALSE(decode_output_supported(0x7ff));
	EXPECT_TRUE(decode_output_supported(op::QUERY_DCT));
	EXPECT_TRUE(decode_output_supported(op::DESTROY_DCT));

	// A writer too small counts what it dropped.
	std::vector<uint8_t> cap(prm::query_hca_cap_out::size_bytes);
	KvBuffer<8> tiny;
	EXPECT_EQ(decode_output(op::QUERY_HCA_CAP, 0, cap.data(), (uint32_t)cap.size(), tiny), OK);
	EXPECT_EQ(tiny.count(), 8u);
	EXPECT_GT(tiny.dropped(), 0u);
}

TEST(Decode, Inputs)
{
	uint8_t in[prm::create_dct_in::size_bytes];
	auto r = begin_in<prm::create_dct_in>(in, op::CREATE_DCT);
	DctContext c = full_dct();
	ASSERT_EQ(encode_dctc(c, prm::bytes<prm::create_dct_in::dct_context_entry>(r)), OK);
	KvBuffer<64> kv;
	ASSERT_EQ(decode_input(in, sizeof(in), kv), OK);
	EXPECT_EQ(kv_get(kv, "opcode"), "CREATE_DCT");
	EXPECT_EQ(kv_get(kv, "cqn"), std::to_string(c.cqn));

	std::vector<uint8_t> eq(prm::create_eq_in_pas::bytes_for(2));
	auto er = begin_in<prm::create_eq_in>(eq.data(), op::CREATE_EQ);
	prm::set<prm::eqc::log_eq_size>(prm::sub<prm::create_eq_in::eq_context_entry, prm::eqc>(er), 7);
	store_be64(prm::bytes<prm::create_eq_in::event_bitmask>(er), 1ull << prm::event::PAGE_REQUEST);
	KvBuffer<32> ek;
	ASSERT_EQ(decode_input(eq.data(), (uint32_t)eq.size(), ek), OK);
	EXPECT_EQ(kv_get(ek, "log_eq_size"), "7");
	EXPECT_EQ(kv_get(ek, "event_bitmask"), "0x800");
	EXPECT_EQ(kv_get(ek, "npas"), "2");
}

TEST(Kv, FormattingAndTruncation)
{
	KvBuffer<3> kv;
	kv.dec("a", 12345);
	kv.sdec("b", -7);
	uint8_t bytes[100];
	memset(bytes, 'x', sizeof(bytes));
	kv.str("c", bytes, sizeof(bytes));
	kv.hex("d", 1); // dropped
	EXPECT_EQ(kv.count(), 3u);
	EXPECT_EQ(kv.dropped(), 1u);
	EXPECT_EQ(kv_get(kv, "a"), "12345");
	EXPECT_EQ(kv_get(kv, "b"), "-7");
	std::string c = kv_get(kv, "c");
	EXPECT_EQ(c.size(), Kv::VAL_MAX - 1);
	EXPECT_EQ(c.substr(c.size() - 3), "...");
	uint8_t odd[] = {'o', 0x01, 'k', 0};
	KvBuffer<2> k2;
	k2.str("s", odd, sizeof(odd));
	k2.hexbytes("h", odd, 3);
	EXPECT_EQ(kv_get(k2, "s"), "o.k");
	EXPECT_EQ(kv_get(k2, "h"), "6f016b");
}
