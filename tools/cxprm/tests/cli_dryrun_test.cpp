// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// raw --dry-run: the queue entry and mailbox blocks of a command, laid out
// by the core's encoder with no device.  The expected bytes are built here
// by hand from the PRM's byte positions (not with the core's layouts), so
// the encoder is checked, not repeated.
#include <gtest/gtest.h>

#include "cli_run.h"

using namespace cxprm::tool;
using namespace cxprm::tool::test;

namespace {

void be32(Bytes &b, size_t off, uint32_t v)
{
	for (int i = 0; i < 4; i++)
		b[off + i] = (uint8_t)(v >> (24 - 8 * i));
}

// The entry as the driver posts it: type 7, lengths, the first 16 input
// bytes, mailbox pointers (the dry run's made-up 0x10000000 / 0x20000000),
// token 1, signature making the 64 bytes XOR to 0xff, owner byte 1.
Bytes want_entry(const Bytes &in, uint32_t outlen, bool in_box, bool out_box)
{
	Bytes e(64, 0);
	e[0] = 0x07;
	be32(e, 4, (uint32_t)in.size());
	be32(e, 12, in_box ? 0x10000000 : 0);
	std::copy(in.begin(), in.begin() + (long)std::min<size_t>(16, in.size()), e.begin() + 16);
	be32(e, 52, out_box ? 0x20000000 : 0);
	be32(e, 56, outlen);
	e[60] = 0x01;
	e[63] = 0x01;
	uint8_t x = 0;
	for (uint8_t b : e)
		x ^= b;
	e[61] = (uint8_t)~x;
	return e;
}

// Block i of a chain at 'base': 512 data bytes, next pointer, block
// number, token 1, unsigned.
Bytes want_block(const Bytes &msg, uint32_t i, uint32_t nblocks, uint32_t base)
{
	Bytes b(576, 0);
	for (size_t k = 0; k < 512; k++) {
		size_t off = 16 + (size_t)i * 512 + k;
		b[k] = off < msg.size() ? msg[off] : 0;
	}
	be32(b, 564, i + 1 < nblocks ? base + (i + 1) * 1024 : 0);
	be32(b, 568, i);
	b[573] = 0x01;
	return b;
}

std::string joined(const Json &lines)
{
	std::string s;
	for (const Json &l : lines.items())
		s += l.as_str();
	return s;
}

void expect_block(const Json &j, const Bytes &want)
{
	EXPECT_EQ(joined(*j.get("data")), to_hex(want.data(), 512));
	EXPECT_EQ(j.get("control_hex")->as_str(), to_hex(want.data() + 512, 64));
}

TEST(DryRun, SmallInputNoDeviceByteExact)
{
	// No DEV at all, and a DEV that does not exist: nothing is opened.
	for (std::vector<std::string> dev : {std::vector<std::string>{}, std::vector<std::string>{"00:1f.7"}}) {
		std::vector<std::string> a = {"raw"};
		a.insert(a.end(), dev.begin(), dev.end());
		for (const char *w : {"--opcode", "QUERY_ISSI", "--out-len", "112", "--dry-run", "-j"})
			a.push_back(w);
		Result r = cli(a);
		ASSERT_EQ(r.rc, 0) << r.err;
		Json j = r.json();
		EXPECT_TRUE(j.get("dry_run")->kind() == Json::Kind::BOOL);
		EXPECT_EQ(j.get("inlen")->as_uint(), 16u);
		const Json &w = *j.get("wire");
		EXPECT_EQ(w.get("in_blocks")->as_uint(), 0u);
		EXPECT_EQ(w.get("out_blocks")->as_uint(), 1u);
		Bytes in = {0x01, 0x0a, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0};
		EXPECT_EQ(w.get("entry")->get("hex")->as_str(), to_hex(want_entry(in, 112, false, true).data(), 64));
		ASSERT_EQ(w.get("output_mailboxes")->size(), 1u);
		expect_block(w.get("output_mailboxes")->items()[0], want_block({}, 0, 1, 0x20000000));
	}
}

TEST(DryRun, TwoInputMailboxesByteExact)
{
	// 16 inline + 512 + 100 bytes: two input blocks, chained.
	Bytes in(16 + 512 + 100);
	for (size_t i = 0; i < in.size(); i++)
		in[i] = (uint8_t)(i * 7 + 3);
	in[0] = 0x07; // CREATE_DCT 0x710, op_mod 0
	in[1] = 0x10;
	for (int k = 2; k < 8; k++)
		in[k] = 0;
	Result r = cli({"raw", "--in-full", hex(in), "--out-len", "16", "--dry-run", "-j"});
	ASSERT_EQ(r.rc, 0) << r.err;
	Json j = r.json();
	const Json &w = *j.get("wire");
	EXPECT_EQ(w.get("entry")->get("hex")->as_str(), to_hex(want_entry(in, 16, true, false).data(), 64));
	ASSERT_EQ(w.get("input_mailboxes")->size(), 2u);
	EXPECT_EQ(w.get("output_mailboxes")->size(), 0u);
	for (uint32_t i = 0; i < 2; i++)
		expect_block(w.get("input_mailboxes")->items()[i], want_block(in, i, 2, 0x10000000));

	// Text: the same entry, both blocks, the made-up addresses said.
	Result t = cli({"raw", "--in-full", hex(in), "--out-len", "16", "--dry-run"});
	ASSERT_EQ(t.rc, 0) << t.err;
	EXPECT_NE(t.out.find("nothing sent, no device opened"), std::string::npos) << t.out;
	EXPECT_NE(t.out.find("made-up bus addresses"), std::string::npos);
	EXPECT_NE(t.out.find("input block 1: next_pointer_63_32=0x0 next_pointer_31_10=0x0 block_number=0x1 token=0x1"),
		  std::string::npos)
		<< t.out;
	EXPECT_NE(t.out.find("ownership: 0x1"), std::string::npos);
	// A write opcode needs no privilege to be shown; --dump needs a device.
	EXPECT_EQ(cli({"raw", "--opcode", "CREATE_DCT", "--dry-run", "--dump"}).rc, 1);
	EXPECT_EQ(cli({"raw", "--opcode", "QUERY_ISSI"}).rc, 1); // DEV required without --dry-run
}

TEST(DryRun, ChecksumSignsTheBlocks)
{
	Result r = cli({"raw", "--opcode", "QUERY_ISSI", "--in-len", "600", "--dry-run", "--checksum", "-j"});
	ASSERT_EQ(r.rc, 0) << r.err;
	Json j = r.json();
	const Json &w = *j.get("wire");
	EXPECT_TRUE(w.get("mailbox_signatures")->dump() == "true");
	for (const Json &b : w.get("input_mailboxes")->items()) {
		Bytes blk;
		std::string h = joined(*b.get("data")) + b.get("control_hex")->as_str();
		for (size_t i = 0; i < h.size(); i += 2)
			blk.push_back((uint8_t)std::stoul(h.substr(i, 2), nullptr, 16));
		uint8_t all = 0, ctl = 0;
		for (size_t i = 0; i < blk.size(); i++) {
			all ^= blk[i];
			if (i >= 512 && i < 575)
				ctl ^= blk[i];
		}
		EXPECT_EQ(all, 0xff);
		EXPECT_EQ(ctl, 0xff);
	}
}

} // namespace
