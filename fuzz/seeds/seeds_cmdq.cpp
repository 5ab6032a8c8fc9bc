// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// Seeds of the decoders and cmdq_output targets.
#include <array>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "hex.h"
#include "seed_bytes.h"

#include "cxprm/capi.h"
#include "cxprm/layout.h"
#include "cxprm/prm/adapter.h"
#include "cxprm/prm/dct.h"
#include "cxprm/prm/eq.h"
#include "cxprm/prm/esw.h"
#include "cxprm/prm/hca.h"
#include "cxprm/prm/hca_cap.h"
#include "cxprm/prm/issi.h"
#include "cxprm/prm/nvmf.h"
#include "cxprm/prm/opcodes.h"
#include "cxprm/prm/pages.h"
#include "cxprm/prm/registry.h"
#include "cxprm/prm/transport.h"

using namespace cxprm;
using namespace cxprm::prm;
namespace fs = std::filesystem;

namespace cxprm::seeds {

// ---- decoders: sel, opcode, op_mod, asked, sf_words, body ----

void decoder(const std::string &name, u16 opcode, u16 op_mod, const Bytes &body, u32 asked = 8,
	     u32 sf_words = 4)
{
	Bytes b;
	put8(b, 0); // raw opcode, full kv capacity
	put16(b, opcode);
	put16(b, op_mod);
	put16(b, asked);
	put8(b, sf_words);
	append(b, body);
	write("decoders", name, b);
}

void decoders()
{
	decoder("query_hca_cap_general_cur", op::QUERY_HCA_CAP, cap::op_mod(cap::GENERAL, cap::CUR), hca_cap_out(true));
	decoder("query_hca_cap_nvmf_max", op::QUERY_HCA_CAP, cap::op_mod(cap::NVMF, cap::MAX), hca_cap_out(false));
	decoder("query_hca_cap_unknown_type", op::QUERY_HCA_CAP, cap::op_mod(cap::QOS, cap::CUR), hca_cap_out(false));
	decoder("query_adapter", op::QUERY_ADAPTER, 0, adapter_out());
	decoder("query_issi", op::QUERY_ISSI, 0, issi_out());
	decoder("query_pages_negative", op::QUERY_PAGES, query_pages_op::REGULAR, pages_out(-4));
	decoder("manage_pages_take", op::MANAGE_PAGES, manage_pages_op::TAKE, take_out(3, 3), 3);
	decoder("manage_pages_take_count_beyond_bytes", op::MANAGE_PAGES, manage_pages_op::TAKE, take_out(2, 9), 16);
	decoder("manage_pages_take_more_than_asked", op::MANAGE_PAGES, manage_pages_op::TAKE, take_out(4, 4), 2);
	decoder("query_esw_functions_sf", op::QUERY_ESW_FUNCTIONS, 0, esw_out(3), 8, 5);
	decoder("query_dct", op::QUERY_DCT, 0, query_dct_out_msg());
	decoder("query_nvmf_ns", op::QUERY_NVMF_NAMESPACE_CONTEXT, 0, nvmf_out());
	decoder("bad_status", op::QUERY_ADAPTER, 0, bad_status(adapter_out(), 0x3, 0x1234abcd));
	decoder("short_header", op::QUERY_ISSI, 0, Bytes(7, 0));
	decoder("empty", op::QUERY_HCA_CAP, 1, {});
	decoder("short_body", op::QUERY_DCT, 0, Bytes(query_dct_out::size_bytes - 1, 0));
	decoder("input_create_dct", 0, 0, create_dct_in_msg());
	decoder("input_create_eq", 0, 0, create_eq_in_msg(2));
	decoder("input_manage_pages_give", 0, 0, give_in_msg(3, 3));
	decoder("input_manage_pages_give_count_beyond", 0, 0, give_in_msg(1, 1000));
	decoder("input_set_hca_cap", 0, 0, set_hca_cap_in_msg());
}

// ---- cmdq_output ----

// A configuration byte for the geometry and flags the target derives.
uint8_t cmdq_cfg(uint32_t log_size, uint32_t log_stride, uint8_t flags)
{
	for (uint32_t v = 0; v < 256; v++)
		if ((v & 0x83) == flags && (v >> 2) % 6 == log_size && 5 + (v >> 5) % 5 == log_stride)
			return (uint8_t)v;
	std::fprintf(stderr, "no cmdq configuration byte for %u/%u/%x\n", log_size, log_stride, flags);
	std::exit(1);
}

struct Cmd {
	uint8_t f = 0;
	uint16_t inlen = 16, outlen = 16;
	uint8_t status = 0, delivery = 0;
	std::vector<std::array<uint8_t, 4>> edits; // where, offset hi, lo, value
	Bytes body;
	uint8_t capture = 0;
};

void cmd_bytes(Bytes &b, const Cmd &c, bool capture)
{
	put8(b, c.f);
	put16(b, c.inlen - 8);
	put16(b, c.outlen - 16);
	if (c.f & 0x40)
		put8(b, c.status);
	if (c.f & 0x80)
		put8(b, c.delivery);
	put8(b, (uint8_t)c.edits.size());
	for (const auto &e : c.edits)
		for (uint8_t x : e)
			put8(b, x);
	put16(b, (uint16_t)c.body.size());
	append(b, c.body);
	if (capture)
		put8(b, c.capture);
}

// typed: what follows the list (the typed commands, see the target).
void cmdq_seed(const std::string &name, uint8_t cfg, const std::vector<Cmd> &cmds,
	       const Bytes &typed = {})
{
	Bytes b;
	put8(b, cfg);
	put8(b, (uint8_t)cmds.size());
	for (const Cmd &c : cmds)
		cmd_bytes(b, c, cfg & 0x80);
	append(b, typed);
	write("cmdq_output", name, b);
}

// One typed command: which, the firmware's answer, then its own fields.
void typed(Bytes &b, uint8_t which, const Bytes &answer, const Bytes &fields = {})
{
	put8(b, which);
	put16(b, (uint16_t)answer.size());
	append(b, answer);
	append(b, fields);
}

void cmdq()
{
	uint8_t base = cmdq_cfg(5, 6, 0), capture = cmdq_cfg(5, 6, 0x80);
	Cmd inline_only;
	Cmd one_block;
	one_block.inlen = 16 + 512;
	one_block.outlen = 16 + 512;
	one_block.body = adapter_out();
	Cmd boundary;
	boundary.inlen = 17;
	boundary.outlen = 529;
	Cmd caps;
	caps.inlen = query_hca_cap_in::size_bytes;
	caps.outlen = query_hca_cap_out::size_bytes;
	Bytes cap_image = hca_cap_out(true);
	caps.body = Bytes(cap_image.begin(), cap_image.begin() + 1000);
	cmdq_seed("inline", base, {inline_only});
	cmdq_seed("blocks_528_529", base, {one_block, boundary, caps});
	Cmd st = one_block;
	st.f = 0x40;
	st.status = 0x3;
	st.body = bad_status(Bytes(32, 0), 0x3, 0xdeadbeef);
	Cmd dl = inline_only;
	dl.f = 0x80;
	dl.delivery = 0x4;
	cmdq_seed("status_and_delivery", base, {st, dl, inline_only});
	Cmd tok = one_block;
	tok.edits = {{0, 0, 0x3c, 0x55}}; // entry token
	Cmd sig = one_block;
	sig.edits = {{1, 0x02, 0x3f, 0x01}}; // block 0 signature
	Cmd next = one_block;
	next.outlen = 16 + 1024;
	next.f = 0x30; // re-sign after the edit
	next.edits = {{1, 0x02, 0x36, 0x04}}; // block 0 next pointer
	Cmd olen = one_block;
	olen.f = 0x10;
	olen.edits = {{0, 0, 0x3b, 0x01}}; // output_length low byte
	Cmd bnum = one_block;
	bnum.f = 0x30;
	bnum.edits = {{1, 0x02, 0x3b, 0x01}}; // block_number
	cmdq_seed("corrupt_token_sig_next_len_blocknum", base, {tok, sig, next, olen, bnum, inline_only});
	Cmd hold = one_block;
	hold.f = 0x01;
	Cmd gone = inline_only;
	gone.f = 0x05;
	Cmd dead = inline_only;
	dead.f = 0x09;
	cmdq_seed("timeout_then_late_completion", base, {hold, inline_only, one_block});
	cmdq_seed("device_gone", base, {gone, inline_only});
	cmdq_seed("firmware_dead", base, {dead, inline_only});
	cmdq_seed("two_entries_stuck", cmdq_cfg(1, 6, 0), {hold, inline_only, one_block});
	Cmd page;
	page.f = 0x02;
	cmdq_seed("page_slot", cmdq_cfg(2, 7, 0), {page, one_block});
	Cmd cap3 = one_block;
	cap3.capture = 3;
	Cmd cap1 = one_block;
	cap1.capture = 1;
	cmdq_seed("capture", capture, {cap3, cap1, inline_only});
	cmdq_seed("no_signatures", cmdq_cfg(5, 6, 0x01), {sig, one_block});
	cmdq_seed("bad_geometry", cmdq_cfg(5, 8, 0), {});

	Bytes t;
	Bytes caps_answer = hca_cap_out(true);
	caps_answer.resize(4999 < caps_answer.size() ? 4999 : caps_answer.size());
	typed(t, 0 | 8, caps_answer);            // QUERY_HCA_CAP general CUR
	typed(t, 1, esw_out(2), {5});            // 5 words asked, 2 answered
	typed(t, 2, take_out(3, 3), {0, 3});     // TAKE 3
	typed(t, 2, take_out(2, 40), {0, 8});    // a count beyond the answer
	typed(t, 3, adapter_out());
	typed(t, 4, query_dct_out_msg(), {0, 0, 0x10, 0});
	typed(t, 5, pages_out(-2));
	typed(t, 6, nvmf_out(), {0, 0, 0, 0x80, 0, 0, 0, 1});
	cmdq_seed("typed_commands", base, {inline_only}, t);
}

} // namespace cxprm::seeds
