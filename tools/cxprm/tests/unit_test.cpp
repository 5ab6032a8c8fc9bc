// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// The tool's building blocks: JSON writer, hex in/out, argument parsing,
// runtime layout fields (held to the core's compile-time prm::get/set),
// names, the key/value view of the core's decoders.
#include <gtest/gtest.h>

#include "cli.h"
#include "decoded.h"
#include "errors.h"
#include "fields.h"
#include "hex.h"
#include "json.h"
#include "json_parse.h"
#include "names.h"

#include "cxprm/prm/dct.h"
#include "cxprm/prm/hca_cap.h"
#include "cxprm/prm/opcodes.h"
#include "cxprm/prm/registry.h"

using namespace cxprm::tool;
namespace prm = cxprm::prm;

TEST(Json, KeepsInsertionOrderAndReplacesInPlace)
{
	Json j = Json::object();
	j.set("b", 1).set("a", "x").set("c", true);
	j.set("a", 2);
	EXPECT_EQ(j.dump(false), "{\"b\": 1, \"a\": 2, \"c\": true}");
	EXPECT_EQ(j.dump(true), "{\n  \"b\": 1,\n  \"a\": 2,\n  \"c\": true\n}");
}

TEST(Json, EscapesAndAlwaysParses)
{
	std::string nasty = "q\"b\\s\n\t\x01\x7f \xc3\xa9 \xff\xfe end";
	Json j = Json::object();
	j.set(nasty, nasty);
	std::string out = j.dump();
	Json back = test::JsonParser::parse(out);
	ASSERT_EQ(back.members().size(), 1u);
	EXPECT_NE(out.find("\\u0001"), std::string::npos);
	EXPECT_NE(out.find("\\ufffd"), std::string::npos); // invalid UTF-8 replaced
	EXPECT_NE(out.find("\xc3\xa9"), std::string::npos); // valid UTF-8 kept
}

TEST(Json, NumbersNullsArrays)
{
	Json a = Json::array();
	a.push(~0ull).push((int64_t)-5).push_json(Json::null()).push_json(Json::array()).push_json(Json::object());
	EXPECT_EQ(a.dump(false), "[18446744073709551615, -5, null, [], {}]");
}

TEST(Hex, ParsesSeparatorsPrefixesComments)
{
	EXPECT_EQ(parse_hex("0x0000000a 0b,0c_0d # comment\n", "t"), (Bytes{0, 0, 0, 0x0a, 0x0b, 0x0c, 0x0d}));
	EXPECT_EQ(parse_hex("DEADbeef", "t"), (Bytes{0xde, 0xad, 0xbe, 0xef}));
	EXPECT_THROW(parse_hex("abc", "t"), UsageError);  // odd digits
	EXPECT_THROW(parse_hex("zz", "t"), UsageError);   // not hex
}

TEST(Hex, DumpReadsBackIncludingCompressedRuns)
{
	Bytes b(4112, 0);
	b[0] = 1;
	b[4096] = 0xab;
	b[4111] = 0xcd;
	std::vector<std::string> lines = hexdump(b.data(), b.size());
	EXPECT_LT(lines.size(), 10u); // zeros collapse to '*'
	EXPECT_EQ(lines[0], "0000: 01000000 00000000 00000000 00000000");
	std::string text;
	for (const auto &l : lines)
		text += l + "\n";
	EXPECT_EQ(parse_hex(text, "dump"), b);
	// Uncompressed, odd length.
	Bytes c = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19};
	text.clear();
	for (const auto &l : hexdump(c.data(), c.size(), false))
		text += l + "\n";
	EXPECT_EQ(parse_hex(text, "dump"), c);
	EXPECT_EQ(hex_lines(c.data(), c.size()).size(), 2u);
	EXPECT_EQ(to_hex(c.data(), 3), "010203");
}

// A '*' repeats the last line up to the next offset, which may not be
// beyond kMaxDumpBytes (fuzz/regressions/cli_decode/hexdump_star_*).
TEST(Hex, DumpOffsetsAreBounded)
{
	const std::string line = "00000000 11111111 22222222 33333333\n*\n";
	Bytes b = parse_hex(line + "0100000: 00\n", "dump");
	EXPECT_EQ(b.size(), kMaxDumpBytes + 1);
	EXPECT_EQ(b[kMaxDumpBytes - 1], 0x33);
	EXPECT_THROW(parse_hex(line + "0100010: 00\n", "dump"), UsageError);
	EXPECT_THROW(parse_hex(line + "7fffffff: 00\n", "dump"), UsageError);
	EXPECT_THROW(parse_hex("ffffffffffffffff: 00\n", "dump"), UsageError);
}

TEST(Args, LongShortInlineRepeatAndErrors)
{
	CommandSpec spec = {"t", "DEV", "", nullptr,
			    {{"num", 'n', "N", ""}, {"flag", 'f', nullptr, ""}, {"set", 's', "F=V", "", true}},
			    1, 1, true};
	Args a(spec, {"-j", "--num=0x10", "dev", "-f", "--set", "a=1", "-s", "b=2"});
	EXPECT_TRUE(a.json());
	EXPECT_TRUE(a.has("flag"));
	EXPECT_EQ(a.num("num", 0xff), 16u);
	EXPECT_EQ(a.all("set"), (std::vector<std::string>{"a=1", "b=2"}));
	EXPECT_EQ(a.pos(), (std::vector<std::string>{"dev"}));
	EXPECT_THROW(Args(spec, {"dev", "--nope"}), UsageError);
	EXPECT_THROW(Args(spec, {}), UsageError);                       // missing DEV
	EXPECT_THROW(Args(spec, {"a", "b"}), UsageError);               // extra
	EXPECT_THROW(Args(spec, {"a", "--num"}), UsageError);           // no value
	EXPECT_THROW(Args(spec, {"a", "--num", "1", "--num", "2"}), UsageError);
	EXPECT_THROW(Args(spec, {"a", "--flag=1"}), UsageError);
	EXPECT_THROW(Args(spec, {"a", "--num", "256"}).num("num", 0xff), UsageError);
	EXPECT_THROW(Args(spec, {"a", "--num", "12x"}).num("num", 0xff), UsageError);
	EXPECT_TRUE(Args(spec, {"--help"}).help()); // no DEV needed for help
	EXPECT_EQ(parse_seconds_ms("1.5", "t"), 1500);
	EXPECT_EQ(parse_seconds_ms("0.25", "t"), 250);
	EXPECT_THROW(parse_seconds_ms("x", "t"), UsageError);
}

// The runtime field accessors agree with the core's compile-time ones on
// every field of every registered layout.
TEST(Fields, MatchCompileTimeAccessorsOnEveryLayout)
{
	cxprm::u32 n;
	const prm::LayoutDesc *const *all = prm::all_layouts(&n);
	ASSERT_GT(n, 10u);
	for (cxprm::u32 k = 0; k < n; k++) {
		const prm::LayoutDesc &l = *all[k];
		Bytes buf(l.size_bits / 8, 0);
		for (cxprm::u32 i = 0; i < l.nfields; i++) {
			const prm::FieldDesc &f = l.fields[i];
			if (f.width > 64)
				continue;
			uint64_t v = f.width >= 64 ? 0x8123456789abcdefull : (0x5a5a5a5a5a5a5a5aull & ((1ull << f.width) - 1));
			std::fill(buf.begin(), buf.end(), 0xff);
			field_set(buf.data(), buf.size(), f, v);
			EXPECT_EQ(field_get(buf.data(), buf.size(), f), v) << l.name << "." << f.name;
			// Neighbouring bits untouched.
			std::fill(buf.begin(), buf.end(), 0);
			field_set(buf.data(), buf.size(), f, f.width >= 64 ? ~0ull : (1ull << f.width) - 1);
			size_t ones = 0;
			for (uint8_t b : buf)
				ones += (size_t)__builtin_popcount(b);
			EXPECT_EQ(ones, f.width) << l.name << "." << f.name;
		}
	}
	// Against prm::get on a known field.
	Bytes img(prm::cmd_hca_cap::size_bytes, 0);
	prm::set<prm::cmd_hca_cap::log_max_qp>(prm::Ref<prm::cmd_hca_cap>(img.data()), 17);
	EXPECT_EQ(field_get(img.data(), img.size(), *find_field(prm::cmd_hca_cap::desc, "log_max_qp")), 17u);
	EXPECT_THROW(field_set(img.data(), img.size(), *find_field(prm::cmd_hca_cap::desc, "log_max_qp"), 32),
		     UsageError);
	// A message that ends inside a field's dword: no access beyond it.
	Bytes one = {0x02};
	const prm::FieldDesc &state = *find_field(prm::dctc::desc, "state");
	EXPECT_EQ(field_get(one.data(), one.size(), state), 2u);
	field_set(one.data(), one.size(), state, 5);
	EXPECT_EQ(one, Bytes{0x05});
	EXPECT_EQ(decode_fields(prm::dctc::desc, one.data(), one.size()).size(), 1u);
}

TEST(Fields, LayoutsByOpcode)
{
	EXPECT_STREQ(layout_for_opcode(prm::op::QUERY_HCA_CAP, true)->name, "query_hca_cap_in");
	EXPECT_STREQ(layout_for_opcode(prm::op::QUERY_DCT, false)->name, "query_dct_out");
	EXPECT_STREQ(layout_for_opcode(prm::op::QUERY_NVMF_NAMESPACE_CONTEXT, true)->name, "query_nvmf_namespace_in");
	EXPECT_STREQ(layout_for_opcode(prm::op::ARM_DCT_FOR_KEY_VIOLATION, true)->name, "arm_dct_in");
	// The core's layout first; one it lacks from the build's mlx5_ifc.h.
	EXPECT_FALSE(is_generated(*layout_for_opcode(prm::op::QUERY_HCA_CAP, true)));
	const prm::LayoutDesc *tir = layout_for_opcode(prm::op::CREATE_TIR, true);
	ASSERT_NE(tir, nullptr);
	EXPECT_STREQ(tir->name, "create_tir_in");
	EXPECT_TRUE(is_generated(*tir));
	EXPECT_EQ(layout_for_opcode(prm::op::QUERY_XRQ_ERROR_PARAMS, true), nullptr); // vendor, in neither
	EXPECT_EQ(layout_for_opcode(0x7777, true), nullptr);
	// Names the header spells its own way come from the metadata table.
	EXPECT_STREQ(layout_for_opcode(prm::op::SET_FLOW_TABLE_ENTRY, true)->name, "set_fte_in");
	EXPECT_STREQ(layout_for_opcode(prm::op::QP_2ERR, false)->name, "qp_2err_out");
	EXPECT_STREQ(layout_for_opcode(prm::op::SQD_RTS_QP, true)->name, "sqd2rts_qp_in");
	EXPECT_STREQ(layout_for_opcode(prm::op::QUERY_SF_PARTITION, false)->name, "query_sf_partitions_out");
	EXPECT_STREQ(layout_for_opcode(prm::op::DESTROY_GENERAL_OBJECT, true)->name, "general_obj_in_cmd_hdr");
	EXPECT_STREQ(layout_for_opcode(prm::op::ACCESS_REG, true)->name, "access_register_in");
	EXPECT_STREQ(layout_for_opcode(prm::op::GEN_EQE, true)->name, "gen_eqe_in");
	EXPECT_EQ(layout_for_opcode(prm::op::GEN_EQE, false), nullptr); // the header has none
}

TEST(Names, ParseAndLabel)
{
	using Parsed = std::pair<const char *, int>;
	for (auto [s, v] : {Parsed{"QUERY_HCA_CAP", 0x100}, Parsed{"query_hca_cap", 0x100},
			    Parsed{"MLX5_CMD_OP_QUERY_DCT", 0x713}, Parsed{"2ERR_QP", 0x507}, Parsed{"0x80d", 0x80d}})
		EXPECT_EQ(parse_opcode(s, "t"), v) << s;
	EXPECT_THROW(parse_opcode("QUERY_NOTHING", "t"), UsageError);
	EXPECT_EQ(opcode_label(0x100), "QUERY_HCA_CAP");
	EXPECT_EQ(opcode_label(0x7777), "0x7777");
	for (auto [s, v] : {Parsed{"general", 0}, Parsed{"eth", 1}, Parsed{"ETHERNET_OFFLOADS", 1}, Parsed{"nvmf", 0xe},
			    Parsed{"0x20", 0x20}, Parsed{"DEBUG", 0xd}, Parsed{"debug", 0xd}, Parsed{"crypto", 0x1a},
			    Parsed{"ADV_VIRT", 0x26}, Parsed{"tlp_emulation", 0x2a}})
		EXPECT_EQ(parse_cap_type(s, "t"), v) << s;
	EXPECT_THROW(parse_cap_type("bogus", "t"), UsageError);
	// The aliases are the metadata table's, every one of them.
	uint32_t ncap = 0;
	const prm::CapTypeInfo *caps = prm::cap_type_table(&ncap);
	std::string aliases = cap_type_aliases();
	for (uint32_t i = 0; i < ncap; i++)
		EXPECT_NE(aliases.find(caps[i].alias), std::string::npos) << caps[i].alias;
	EXPECT_EQ(opcode_names().size(), [] { uint32_t n = 0; prm::opcode_table(&n); return (size_t)n; }());
	EXPECT_EQ(parse_event("esw_functions_changed", "t"), 0x0e);
	EXPECT_EQ(event_label(0x1c), "DCT_DRAINED");
	EXPECT_EQ(errno_name(ENOENT), "ENOENT");
	EXPECT_EQ(errno_name(EREMOTEIO), "EREMOTEIO");
	EXPECT_EQ(mtu_code(4096), 5);
	EXPECT_EQ(mtu_code(1000), 0);
	EXPECT_EQ(mtu_bytes(1), 256u);
}

TEST(Decoded, RepeatedKeysBecomeArraysNumbersStayNumbers)
{
	Decoded d;
	d.kv = {{"opcode", "QUERY_ESW_FUNCTIONS"}, {"n", "12"}, {"neg", "-3"}, {"h", "0x1f"},
		{"host_sf_enable", "0x1"}, {"x", "a"}, {"x", "b"}};
	Json j = decoded_json(d);
	EXPECT_EQ(j.dump(false), "{\"opcode\": \"QUERY_ESW_FUNCTIONS\", \"n\": 12, \"neg\": -3, \"h\": \"0x1f\", "
				 "\"host_sf_enable\": [\"0x1\"], \"x\": [\"a\", \"b\"]}");
}
