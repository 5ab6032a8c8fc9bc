// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// The whole tool, in-process (run_cli), without a device: 'decode' on outputs
// built with the core's layouts (prm::set), and help and usage errors of
// every subcommand.  Against fake devices: cli_device_test.cpp.
#include <gtest/gtest.h>

#include "cli_run.h"
#include "fields.h"

#include "cxprm/prm/dct.h"
#include "cxprm/prm/hca_cap.h"
#include "cxprm/prm/nvmf.h"
#include "cxprm/prm/opcodes.h"

using namespace cxprm::tool;
using namespace cxprm::tool::test;
namespace prm = cxprm::prm;

namespace {

// ---- decode: outputs built with the core's layouts -------------------------

Bytes general_caps_out()
{
	Bytes out(prm::query_hca_cap_out::size_bytes, 0);
	prm::Ref<prm::query_hca_cap_out> o(out.data());
	auto cap = prm::sub<prm::query_hca_cap_out::capability, prm::cmd_hca_cap>(o);
	prm::set<prm::cmd_hca_cap::log_max_qp>(cap, 17);
	prm::set<prm::cmd_hca_cap::dct>(cap, 1);
	prm::set<prm::cmd_hca_cap::vhca_id>(cap, 0x1234);
	prm::set<prm::cmd_hca_cap::general_obj_types>(cap, 0x8000000000000001ull);
	return out;
}

TEST(Decode, GeneralCapsTextHasEveryLayoutField)
{
	Result r = cli({"decode", "--opcode", "QUERY_HCA_CAP", "--op-mod", "1", "--out", hex(general_caps_out())});
	ASSERT_EQ(r.rc, 0) << r.err;
	EXPECT_NE(r.out.find("cap_type:"), std::string::npos);
	EXPECT_NE(r.out.find("GENERAL"), std::string::npos);
	EXPECT_NE(r.out.find("log_max_qp:"), std::string::npos);
	EXPECT_NE(r.out.find(" 17\n"), std::string::npos);
	for (cxprm::u32 i = 0; i < prm::cmd_hca_cap::nfields; i++)
		EXPECT_NE(r.out.find(std::string(prm::cmd_hca_cap::fields[i].name) + ":"), std::string::npos)
			<< prm::cmd_hca_cap::fields[i].name;
}

TEST(Decode, GeneralCapsJson)
{
	Result r = cli({"decode", "-j", "--opcode", "0x100", "--op-mod", "1", "--out", hex(general_caps_out())});
	ASSERT_EQ(r.rc, 0) << r.err;
	Json j = r.json();
	EXPECT_EQ(j.get("opcode")->as_uint(), 0x100u);
	EXPECT_EQ(j.get("opcode_name")->as_str(), "QUERY_HCA_CAP");
	EXPECT_EQ(j.get("decoder")->as_str(), "core");
	EXPECT_EQ(j.get("decode_result")->as_str(), "OK");
	const Json &d = *j.get("decoded");
	EXPECT_EQ(d.get("status")->as_str(), "OK");
	EXPECT_EQ(d.get("cap_mode")->as_str(), "CUR");
	EXPECT_EQ(d.get("log_max_qp")->as_uint(), 17u);
	EXPECT_EQ(d.get("dct")->as_uint(), 1u);
	EXPECT_EQ(d.get("vhca_id")->as_uint(), 0x1234u);
	EXPECT_EQ(d.get("general_obj_types")->as_str(), "0x8000000000000001");
	// Global -j before the command is the same.
	EXPECT_EQ(cli({"-j", "decode", "--opcode", "0x100", "--op-mod", "1", "--out", hex(general_caps_out())}).out,
		  r.out);
}

TEST(Decode, BadStatusShowsNameAndSyndrome)
{
	Bytes out(prm::query_dct_out::size_bytes, 0);
	prm::Ref<prm::query_dct_out> o(out.data());
	prm::set<prm::query_dct_out::status>(o, 0x05);
	prm::set<prm::query_dct_out::syndrome>(o, 0xe304000b);
	Result r = cli({"decode", "-j", "--opcode", "QUERY_DCT", "--out", hex(out)});
	ASSERT_EQ(r.rc, 0) << r.err;
	Json d = *r.json().get("decoded");
	EXPECT_EQ(d.get("status")->as_str(), "BAD_RES_ERR");
	EXPECT_EQ(d.get("syndrome")->as_str(), "0xe304000b");
	EXPECT_EQ(d.get("pd"), nullptr); // no body with a bad status
}

TEST(Decode, QueryDctContextAndNvmfCounters)
{
	Bytes out(prm::query_dct_out::size_bytes, 0);
	auto ctx = prm::sub<prm::query_dct_out::dct_context_entry, prm::dctc>(prm::Ref<prm::query_dct_out>(out.data()));
	prm::set<prm::dctc::pd>(ctx, 7);
	prm::set<prm::dctc::mtu>(ctx, 3);
	prm::set<prm::dctc::state>(ctx, 2);
	Json d = *cli({"decode", "-j", "--opcode", "QUERY_DCT", "--out", hex(out)}).json().get("decoded");
	EXPECT_EQ(d.get("pd")->as_uint(), 7u);
	EXPECT_EQ(d.get("mtu")->as_uint(), 3u);
	EXPECT_EQ(d.get("state")->as_uint(), 2u);

	Bytes n(prm::query_nvmf_namespace_out::size_bytes, 0);
	auto c = prm::sub<prm::query_nvmf_namespace_out::ns_ctx, prm::nvmf_frontend_namespace_context>(
		prm::Ref<prm::query_nvmf_namespace_out>(n.data()));
	prm::set<prm::nvmf_frontend_namespace_context::num_read_cmd_low>(c, 42);
	prm::set<prm::nvmf_frontend_namespace_context::num_read_cmd_high>(c, 1);
	Json nd = *cli({"decode", "-j", "--opcode", "QUERY_NVMF_NAMESPACE_CONTEXT", "--out", hex(n)}).json().get("decoded");
	EXPECT_EQ(nd.get("num_read_cmd")->as_uint(), (1ull << 32) + 42);
}

TEST(Decode, InputLayoutAndFileRoundTrip)
{
	Bytes in(prm::create_dct_in::size_bytes, 0);
	prm::Ref<prm::create_dct_in> r(in.data());
	prm::set<prm::create_dct_in::opcode>(r, prm::op::CREATE_DCT);
	prm::set<prm::dctc::cqn>(prm::sub<prm::create_dct_in::dct_context_entry, prm::dctc>(r), 0x55);
	Result ri = cli({"decode", "-j", "--in", hex(in)});
	ASSERT_EQ(ri.rc, 0) << ri.err;
	EXPECT_EQ(ri.json().get("opcode_name")->as_str(), "CREATE_DCT");
	EXPECT_EQ(ri.json().get("decoded")->get("cqn")->as_uint(), 0x55u);

	Bytes dctc(prm::dctc::size_bytes, 0);
	prm::set<prm::dctc::flow_label>(prm::Ref<prm::dctc>(dctc.data()), 0xabcde);
	Result rl = cli({"decode", "-j", "--layout", "dctc", "--data", hex(dctc)});
	ASSERT_EQ(rl.rc, 0) << rl.err;
	EXPECT_EQ(rl.json().get("fields")->get("flow_label")->as_uint(), 0xabcdeu);

	// A hexdump the tool printed is valid input (@file).
	std::string path = "/tmp/cxprm-decode-" + std::to_string(getpid()) + ".hex";
	{
		std::ofstream f(path);
		Bytes out = general_caps_out();
		for (const std::string &l : hexdump(out.data(), out.size()))
			f << l << "\n";
	}
	Result rf = cli({"decode", "-j", "--opcode", "QUERY_HCA_CAP", "--op-mod", "1", "--out", "@" + path});
	std::remove(path.c_str());
	ASSERT_EQ(rf.rc, 0) << rf.err;
	EXPECT_EQ(rf.json().get("decoded")->get("log_max_qp")->as_uint(), 17u);
}

TEST(Decode, Errors)
{
	EXPECT_EQ(cli({"decode"}).rc, 1);
	EXPECT_EQ(cli({"decode", "--out", "00"}).rc, 1);                          // no --opcode
	EXPECT_EQ(cli({"decode", "--opcode", "QUERY_DCT", "--out", "0011"}).rc, 1); // too short
	Result r = cli({"decode", "--opcode", "QUERY_DCT", "--out", "zz"});
	EXPECT_EQ(r.rc, 1);
	EXPECT_NE(r.err.find("not a hex digit"), std::string::npos);
	EXPECT_EQ(cli({"decode", "--layout", "nope", "--data", "00"}).rc, 1);
	// Short body: decoded header, exit 1.
	EXPECT_EQ(cli({"decode", "--opcode", "QUERY_DCT", "--out", std::string(32, '0')}).rc, 1);
	// No decoder and no layout (a vendor opcode): header only, still exit 0.
	EXPECT_EQ(cli({"decode", "--opcode", "QUERY_XRQ_ERROR_PARAMS", "--out", std::string(32, '0')}).rc, 0);
}

// ---- decode: layouts the core lacks, from the build's mlx5_ifc.h -----------

TEST(Decode, GeneratedLayoutForAnOpcodeTheCoreLacks)
{
	// create_tir_out: status, syndrome, tirn (24 bits at bit 0x48); the same
	// in every header since 5.10.
	std::string out = "00000000" "00000000" "00000123" "00000000";
	Result r = cli({"decode", "-j", "--opcode", "CREATE_TIR", "--out", out});
	ASSERT_EQ(r.rc, 0) << r.err;
	Json j = r.json();
	EXPECT_EQ(j.get("decoder")->as_str(), "layout:create_tir_out");
	EXPECT_EQ(j.get("decoded")->get("tirn")->as_uint(), 0x123u);
	Result t = cli({"decode", "--layout", "create_tir_out", "--data", out});
	ASSERT_EQ(t.rc, 0) << t.err;
	EXPECT_NE(t.out.find("tirn:"), std::string::npos) << t.out;
	EXPECT_NE(t.out.find("291"), std::string::npos) << t.out;
	// Nested members by dotted names; the nested member itself is not
	// repeated as a hex region.
	Json n = cli({"decode", "-j", "--layout", "create_tir_in", "--data", std::string(0x110 * 2, '0')}).json();
	EXPECT_NE(n.get("fields")->get("ctx.disp_type"), nullptr);
	EXPECT_EQ(n.get("fields")->get("ctx"), nullptr);
}

// A capability type the core does not decode: the image by the type's
// layout of the metadata table (CXPRM_CAP_TYPES), after the core's keys;
// the same decoding 'raw' and 'probe' give.
TEST(Decode, EveryCapabilityTypeByItsLayout)
{
	Bytes out(prm::query_hca_cap_out::size_bytes, 0);
	out[prm::query_hca_cap_out::capability::offset / 8] = 0x80; // the image's first bit
	// per_protocol_networking_offload_caps.csum_cap is bit 0 in every header.
	Result r = cli({"decode", "-j", "--opcode", "QUERY_HCA_CAP", "--op-mod", "3", "--out", hex(out)});
	ASSERT_EQ(r.rc, 0) << r.err;
	Json j = r.json();
	EXPECT_EQ(j.get("decoder")->as_str(), "core+layout:per_protocol_networking_offload_caps");
	EXPECT_EQ(j.get("decode_result")->as_str(), "OK");
	EXPECT_EQ(j.get("decoded")->get("cap_type")->as_str(), "ETHERNET_OFFLOADS");
	EXPECT_EQ(j.get("decoded")->get("csum_cap")->as_uint(), 1u);
	// Every type whose layout the build has decodes; none falls back to
	// "no decoder".
	cxprm::u32 n = 0;
	const prm::CapTypeInfo *t = prm::cap_type_table(&n);
	for (cxprm::u32 i = 0; i < n; i++) {
		if (!any_layout(t[i].layout))
			continue; // a layout only newer (or older) headers have
		std::string op_mod = std::to_string(t[i].value << 1 | 1);
		Result d = cli({"decode", "-j", "--opcode", "QUERY_HCA_CAP", "--op-mod", op_mod, "--out", hex(out)});
		ASSERT_EQ(d.rc, 0) << t[i].name << ": " << d.err;
		EXPECT_EQ(d.json().get("decode_result")->as_str(), "OK") << t[i].name;
	}
}

// ---- help and usage ---------------------------------------------------------

TEST(Help, EverySubcommand)
{
	for (const Command *c : all_commands()) {
		std::vector<std::string> args;
		std::istringstream words(c->spec->name);
		for (std::string w; words >> w;)
			args.push_back(w);
		args.push_back("--help");
		Result r = cli(args);
		EXPECT_EQ(r.rc, 0) << c->spec->name;
		EXPECT_EQ(r.out.rfind(std::string("usage: cxprm ") + c->spec->name, 0), 0u) << r.out;
		EXPECT_NE(r.out.find("--help"), std::string::npos);
		if (c->spec->json) {
			EXPECT_NE(r.out.find("--json"), std::string::npos) << c->spec->name;
		}
	}
	EXPECT_EQ(cli({"--help"}).rc, 0);
	EXPECT_EQ(cli({"help", "raw"}).rc, 0);
	EXPECT_EQ(cli({"dct", "--help"}).rc, 0);
	EXPECT_EQ(cli({}).rc, 1);
}

TEST(Usage, ErrorsExitOneWithAMessage)
{
	struct Case {
		std::vector<std::string> args;
		const char *msg;
	} cases[] = {
		{{"frobnicate"}, "unknown command"},
		{{"dct"}, "usage: cxprm dct"},
		{{"dct", "frob", "x"}, "unknown command"},
		{{"info"}, "missing argument"},
		{{"info", "00:03.0", "extra"}, "unexpected argument"},
		{{"info", "zz:03.0"}, "is not a device"},
		{{"info", "--bogus", "00:03.0"}, "unknown option"},
		{{"caps", "00:03.0", "--type", "frob"}, "unknown capability type"},
		{{"nvmf", "ns", "00:03.0", "--xrq", "1"}, "--xrq and --nsid are required"},
		{{"nvmf", "ns", "00:03.0", "--xrq", "0x1000000", "--nsid", "1"}, "out of range"},
		{{"dct", "create", "00:03.0", "--pd", "1"}, "--pd and --cqn go together"},
		{{"dct", "create", "00:03.0", "--srqn", "3"}, "give none of them and cxprm creates its own"},
		{{"nvmf", "setup", "00:03.0", "--lba-size", "1000"}, "a power of two from 512"},
		{{"nvmf", "setup", "00:03.0", "--hold", "1"}, "--hold needs --keep-open"},
		{{"bench", "connect", "00:03.0", "--count", "0"}, "at least 1"},
		{{"bench", "connect", "00:03.0", "--batch", "61"}, "--batch"},
		{{"bench", "connect", "00:03.0", "--mode", "async"}, "--mode"},
		{{"dct", "create", "00:03.0", "--pd", "1", "--cqn", "1", "--mtu", "1000"}, "is not one of 256"},
		{{"dct", "create", "00:03.0", "--pd", "1", "--cqn", "1", "--then", "explode"}, "--then"},
		{{"dct", "create", "00:03.0", "--pd", "1", "--cqn", "1", "--hold", "1"}, "--hold needs --keep-open"},
		{{"dct", "query", "00:03.0", "nope"}, "not a number"},
		{{"raw", "00:03.0"}, "--opcode is required"},
		{{"raw", "00:03.0", "--opcode", "NOT_AN_OPCODE"}, "unknown opcode"},
		{{"raw", "00:03.0", "--opcode", "QUERY_DCT", "--set", "nofield=1"}, "has no field"},
		{{"raw", "00:03.0", "--opcode", "QUERY_DCT", "--set", "dctn=0x1000000"}, "does not fit"},
		{{"raw", "00:03.0", "--opcode", "QUERY_XRQ_ERROR_PARAMS", "--set", "x=1"}, "no input layout"},
		{{"raw", "00:03.0", "--opcode", "CREATE_TIR", "--set", "x=1"}, "has no field"}, // mlx5_ifc.h's
		{{"raw", "00:03.0", "--opcode", "QUERY_ISSI", "--in-len", "8"}, "at least 16"},
		{{"raw", "00:03.0", "--opcode", "QUERY_ISSI", "--in-full", "0100"}, "header alone"},
		{{"raw", "00:03.0", "--opcode", "QUERY_ISSI", "--in-full", "01000000000000000000000000000000"}, "does not match"},
		{{"esw", "watch", "00:03.0", "--event", "NOPE"}, "unknown event"},
		{{"esw", "watch", "00:03.0", "--timeout", "soon"}, "seconds"},
		{{"nvmf", "ns", "00:03.0", "--xrq", "1", "--xrq", "2", "--nsid", "1"}, "given twice"},
		{{"list", "-x"}, "unknown option"},
	};
	for (const Case &c : cases) {
		Result r = cli(c.args);
		std::string what = c.args[0] + (c.args.size() > 1 ? " " + c.args[1] : "");
		EXPECT_EQ(r.rc, 1) << what << ": " << r.err;
		EXPECT_NE(r.err.find(c.msg), std::string::npos) << what << ": " << r.err;
	}
}

} // namespace
