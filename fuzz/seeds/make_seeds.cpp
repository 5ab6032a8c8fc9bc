// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// Writes the seed corpus of every fuzz target (fuzz/corpus/<target>/):
// small valid inputs built with the core's layouts (prm::set on real
// command outputs, inputs, event payloads, ioctl requests), plus edge
// cases (boundary lengths, counts beyond the bytes, refused requests,
// faults).  Each file is the input format its target reads (see the
// comment at the top of fuzz/targets/<target>.cpp).
//
//   fuzz_make_seeds DIR     (tools/fuzz/run.sh --seeds: DIR = fuzz/corpus)
#include <array>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "hex.h"

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
using Bytes = std::vector<uint8_t>;
namespace fs = std::filesystem;

namespace {

fs::path g_root;

void put8(Bytes &b, uint32_t v) { b.push_back((uint8_t)v); }
void put16(Bytes &b, uint32_t v) { put8(b, v >> 8), put8(b, v); }
void put32(Bytes &b, uint32_t v) { put16(b, v >> 16), put16(b, v); }
void put64(Bytes &b, uint64_t v) { put32(b, (uint32_t)(v >> 32)), put32(b, (uint32_t)v); }
void append(Bytes &b, const Bytes &x) { b.insert(b.end(), x.begin(), x.end()); }

void write(const char *target, const std::string &name, const Bytes &b)
{
	fs::path dir = g_root / target;
	fs::create_directories(dir);
	std::ofstream f(dir / name, std::ios::binary);
	f.write((const char *)b.data(), (std::streamsize)b.size());
}

template <class L> Bytes msg(u32 len = L::size_bytes) { return Bytes(len, 0); }
template <class L> Ref<L> ref(Bytes &b) { return Ref<L>(b.data()); }

// ---- typed outputs and inputs, as firmware / the core writes them ----

Bytes hca_cap_out(bool general)
{
	Bytes b = msg<query_hca_cap_out>();
	if (general) {
		auto c = sub<query_hca_cap_out::capability, cmd_hca_cap>(ref<query_hca_cap_out>(b));
		set<cmd_hca_cap::log_max_qp_sz>(c, 15);
		set<cmd_hca_cap::eswitch_manager>(c, 1);
		set<cmd_hca_cap::dct>(c, 1);
	}
	return b;
}

Bytes adapter_out()
{
	Bytes b = msg<query_adapter_out>();
	auto a = sub<query_adapter_out::query_adapter_struct, query_adapter_param_block>(
		ref<query_adapter_out>(b));
	set<query_adapter_param_block::ieee_vendor_id>(a, 0x02c9);
	std::memcpy(bytes<query_adapter_param_block::vsd>(a), "cxprm emulated", 14);
	std::memcpy(bytes<query_adapter_param_block::vsd_contd_psid>(a), "MT_0000000838XXXX", 16);
	return b;
}

Bytes issi_out()
{
	Bytes b = msg<query_issi_out>();
	set<query_issi_out::current_issi>(ref<query_issi_out>(b), 1);
	set<query_issi_out::supported_issi_dw0>(ref<query_issi_out>(b), 3);
	return b;
}

Bytes pages_out(int32_t n)
{
	Bytes b = msg<query_pages_out>();
	set<query_pages_out::num_pages>(ref<query_pages_out>(b), (uint32_t)n);
	return b;
}

Bytes take_out(uint32_t n, uint32_t claimed)
{
	Bytes b = msg<manage_pages_out>(manage_pages_out_pas::bytes_for(n));
	auto r = ref<manage_pages_out>(b);
	set<manage_pages_out::output_num_entries>(r, claimed);
	for (uint32_t i = 0; i < n; i++)
		set_pas<manage_pages_out_pas>(r, i, 0x1'2340'0000ull + 0x1000ull * i);
	return b;
}

Bytes esw_out(uint32_t words)
{
	using sf = query_esw_functions_out_host_sf_enable;
	Bytes b = msg<query_esw_functions_out>(sf::bytes_for(words));
	auto r = ref<query_esw_functions_out>(b);
	auto h = sub<query_esw_functions_out::host_params_context, host_params_context>(r);
	set<host_params_context::host_num_of_vfs>(h, 4);
	set<host_params_context::host_total_vfs>(h, 16);
	for (uint32_t i = 0; i < words; i++)
		store_be64(tail_entry<sf>(r, i), 0x8000000000000001ull >> i);
	return b;
}

Bytes dctc_bytes(Ref<dctc> c)
{
	set<dctc::pd>(c, 1);
	set<dctc::cqn>(c, 2);
	set<dctc::srqn_xrqn>(c, 3);
	set<dctc::dc_access_key>(c, 0xc0ffee);
	set<dctc::mtu>(c, 5);
	set<dctc::port>(c, 1);
	set<dctc::rre>(c, 1);
	set<dctc::rwe>(c, 1);
	return {};
}

Bytes query_dct_out_msg()
{
	Bytes b = msg<query_dct_out>();
	dctc_bytes(sub<query_dct_out::dct_context_entry, dctc>(ref<query_dct_out>(b)));
	return b;
}

Bytes create_dct_in_msg()
{
	Bytes b = msg<create_dct_in>();
	set<create_dct_in::opcode>(ref<create_dct_in>(b), op::CREATE_DCT);
	dctc_bytes(sub<create_dct_in::dct_context_entry, dctc>(ref<create_dct_in>(b)));
	return b;
}

Bytes create_eq_in_msg(uint32_t npas)
{
	Bytes b = msg<create_eq_in>(create_eq_in_pas::bytes_for(npas));
	auto r = ref<create_eq_in>(b);
	set<create_eq_in::opcode>(r, op::CREATE_EQ);
	auto c = sub<create_eq_in::eq_context_entry, eqc>(r);
	set<eqc::log_eq_size>(c, 8);
	set<eqc::uar_page>(c, 32);
	store_be64(bytes<create_eq_in::event_bitmask>(r), 1ull << event::PAGE_REQUEST | 1ull << event::CMD);
	for (uint32_t i = 0; i < npas; i++)
		set_pas<create_eq_in_pas>(r, i, 0x1'0000'0000ull + 0x1000ull * i);
	return b;
}

Bytes give_in_msg(uint32_t n, uint32_t claimed)
{
	Bytes b = msg<manage_pages_in>(manage_pages_in_pas::bytes_for(n));
	auto r = ref<manage_pages_in>(b);
	set<manage_pages_in::opcode>(r, op::MANAGE_PAGES);
	set<manage_pages_in::op_mod>(r, manage_pages_op::GIVE);
	set<manage_pages_in::input_num_entries>(r, claimed);
	for (uint32_t i = 0; i < n; i++)
		set_pas<manage_pages_in_pas>(r, i, 0x2'0000'0000ull + 0x1000ull * i);
	return b;
}

Bytes set_hca_cap_in_msg()
{
	Bytes b = msg<set_hca_cap_in>();
	set<set_hca_cap_in::opcode>(ref<set_hca_cap_in>(b), op::SET_HCA_CAP);
	return b;
}

Bytes nvmf_out()
{
	Bytes b = msg<query_nvmf_namespace_out>();
	using N = nvmf_frontend_namespace_context;
	auto n = sub<query_nvmf_namespace_out::ns_ctx, N>(ref<query_nvmf_namespace_out>(b));
	set<N::num_read_cmd_low>(n, 1200);
	set<N::current_q_depth>(n, 128);
	return b;
}

Bytes bad_status(Bytes b, uint8_t status, uint32_t syndrome)
{
	set<cmd_out::status>(Ref<cmd_out>(b.data()), status);
	set<cmd_out::syndrome>(Ref<cmd_out>(b.data()), syndrome);
	return b;
}

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

// ---- eq_events: cfg, then operations ----

void eq_seed(const std::string &name, uint8_t cfg, const Bytes &ops)
{
	Bytes b;
	put8(b, cfg);
	append(b, ops);
	write("eq_events", name, b);
}

void op_event(Bytes &b, uint8_t type, const Bytes &data28)
{
	put8(b, 0);
	put8(b, type);
	put8(b, 0);
	Bytes d = data28;
	d.resize(28);
	append(b, d);
}

void op_pages(Bytes &b, int16_t n)
{
	put8(b, 1);
	put16(b, (uint16_t)n);
	put8(b, 0);
}

void op_poll(Bytes &b, uint8_t budget) { put8(b, 3), put8(b, budget); }

void eq()
{
	const uint8_t LOG8 = 7 << 1; // log_eq_size 8
	Bytes esw(28, 0);
	esw[3] = 1;
	Bytes dct(28, 0);
	dct[25] = 0x10; // dct_number 0x1000
	Bytes a;
	op_event(a, event::ESW_FUNCTIONS_CHANGED, esw);
	op_event(a, event::DCT_DRAINED, dct);
	op_poll(a, 16);
	put8(a, 7);
	eq_seed("esw_and_dct_events", LOG8, a);

	Bytes p;
	op_pages(p, 5);
	op_poll(p, 8);
	put8(p, 4); // service: give 5
	op_pages(p, -3);
	op_poll(p, 8);
	put8(p, 4); // service: take 3 back
	put8(p, 6), put16(p, 4000), put8(p, CXPRM_TEXT_EQ);
	eq_seed("page_requests", LOG8, p);

	Bytes c;
	for (int i = 0; i < 4; i++)
		put8(c, 5); // commands completed by CMD events
	op_poll(c, 255);
	put8(c, 6), put16(c, 100), put8(c, CXPRM_TEXT_CMDQ); // truncated text
	eq_seed("command_events", 1 | LOG8, c);

	Bytes w;
	for (int i = 0; i < 9; i++) { // 2-entry ring: wraps, phase flips
		op_event(w, (uint8_t)(i & 1 ? event::PAGE_REQUEST : 0x03), {});
		op_poll(w, 1);
	}
	put8(w, 7);
	eq_seed("wrap_two_entries", 0, w);

	Bytes g;
	put8(g, 2), put16(g, 0);
	Bytes junk(64, 0xff);
	append(g, junk);
	op_poll(g, 4);
	put8(g, 2), put16(g, 1);
	junk.assign(64, 0);
	junk[1] = event::CMD;
	junk[0x20] = 0xff;
	append(g, junk);
	op_poll(g, 4);
	eq_seed("raw_entries", 2 << 1, g);

	Bytes dies;
	op_pages(dies, 7);
	op_poll(dies, 8);
	put8(dies, 4); // pages given ...
	put8(dies, 0xff), put8(dies, 0); // ... then the firmware dies: they strand
	eq_seed("firmware_dies_pages_strand", LOG8, dies);
	Bytes gone;
	op_pages(gone, 3);
	op_poll(gone, 8);
	put8(gone, 4);
	put8(gone, 0xff), put8(gone, 1); // the device goes away
	eq_seed("device_gone_with_pages", LOG8, gone);
	Bytes lies;
	op_pages(lies, 6);
	op_poll(lies, 8);
	put8(lies, 4); // GIVE 6
	op_pages(lies, -4);
	op_poll(lies, 8);
	put8(lies, 4); // TAKE 4: the answer is doctored from here on
	put8(lies, 2); // two addresses replaced ...
	put8(lies, 0), put16(lies, 0x0001);
	put8(lies, 1), put16(lies, 0x0001); // ... with one never given, twice
	put8(lies, 1), put16(lies, 0x0100); // and a count beyond the answer
	eq_seed("firmware_lies_about_pages", LOG8 | 0x40, lies);

	Bytes t;
	for (int i = 0; i < CXPRM_TEXT_COUNT; i++)
		put8(t, 6), put16(t, 19999), put8(t, (uint8_t)i);
	put8(t, 6), put16(t, 1), put8(t, CXPRM_TEXT_HEALTH);
	eq_seed("texts", LOG8 | 0x80, t);
}

// ---- ioctl_request ----

void ioctl_seed(const std::string &name, const Bytes &b) { write("ioctl_request", name, b); }

Bytes raw_req(uint32_t inlen, uint32_t outlen, uint32_t flags, uint32_t dump_len, bool dump_ptr,
	      u16 opcode)
{
	Bytes b;
	put8(b, 0);
	uint8_t shape = 0x01 | 0x02 | 0x04 | 0x10 | (dump_ptr ? 0 : 0x20);
	put8(b, shape);
	put32(b, inlen);
	put32(b, outlen);
	put32(b, flags);
	put32(b, dump_len);
	put16(b, opcode); // the input: opcode first
	return b;
}

void ioctl()
{
	const u32 HDR = sizeof(struct cxprm_raw_dump), BLK = CXPRM_MAILBOX_BYTES;
	ioctl_seed("raw_query_adapter", raw_req(16, 0x110, 0, 0, false, op::QUERY_ADAPTER));
	ioctl_seed("raw_dump_all_blocks", raw_req(16 + 512, 16 + 1024, 1, HDR + 3 * BLK, true, op::QUERY_HCA_CAP));
	ioctl_seed("raw_dump_header_only", raw_req(16 + 512, 16 + 512, 1, HDR, true, op::QUERY_ISSI));
	ioctl_seed("raw_dump_one_short", raw_req(16 + 512, 16 + 1024, 1, HDR + 3 * BLK - 1, true, op::QUERY_PAGES));
	ioctl_seed("raw_dump_len_below_header", raw_req(16, 16, 1, HDR - 1, true, op::QUERY_ISSI));
	ioctl_seed("raw_dump_flag_no_pointer", raw_req(16, 16, 1, 0, false, op::QUERY_ISSI));
	ioctl_seed("raw_inlen_15", raw_req(15, 16, 0, 0, false, op::QUERY_ISSI));
	ioctl_seed("raw_max_lengths", raw_req(CXPRM_RAW_MAX, CXPRM_RAW_MAX, 0, 0, false, op::QUERY_ESW_FUNCTIONS));
	ioctl_seed("raw_over_max", raw_req(16, CXPRM_RAW_MAX + 1, 0, 0, false, op::QUERY_ISSI));
	ioctl_seed("raw_unknown_flag", raw_req(16, 16, 2, 0, false, op::QUERY_ISSI));
	ioctl_seed("raw_forbidden_manage_pages", raw_req(16, 16, 0, 0, false, op::MANAGE_PAGES));
	ioctl_seed("raw_write_create_dct", raw_req(create_dct_in::size_bytes, 16, 0, 0, false, op::CREATE_DCT));

	// DCT: how (wide values), then each field, then a DCT number.
	Bytes d;
	put8(d, 1);
	put8(d, 1 | 2);
	const uint64_t ok[] = {1, 2, 3, 0, 0xc0ffee, 0, 0, 5, 1, 64, 0, 12, 0, 1, 1, 0, 0, 0, 0, 0, 0, 0};
	for (uint64_t v : ok)
		put64(d, v);
	put32(d, 0x1000);
	ioctl_seed("dct_create_typical", d);
	Bytes bad = d;
	bad[2 + 7 * 8 + 7] = 8; // mtu 8: 3 bits
	ioctl_seed("dct_create_mtu_too_wide", bad);
	Bytes big = d;
	big[big.size() - 4] = 0x01; // dctn 0x01001000: beyond 24 bits
	ioctl_seed("dct_number_beyond_24_bits", big);

	Bytes o;
	put8(o, 2);
	put16(o, cap::ESWITCH);
	put8(o, 1);
	put32(o, 0x80), put32(o, 1);
	put8(o, 16);
	ioctl_seed("caps_nvmf_esw", o);
	Bytes r;
	put8(r, 2);
	put16(r, 0x8000);
	put8(r, 0);
	put32(r, 0x1000000), put32(r, 1);
	put8(r, 0);
	ioctl_seed("caps_type_too_wide_xrqn_too_wide", r);
}

// ---- cli_decode: mode, vary, then per mode ----

void cli_seed(const std::string &name, const Bytes &b) { write("cli_decode", name, b); }

void cli()
{
	u32 n;
	const LayoutDesc *const *all = all_layouts(&n);
	auto layout_index = [&](const char *want) {
		for (u32 i = 0; i < n; i++)
			if (!std::strcmp(all[i]->name, want))
				return (uint8_t)i;
		return (uint8_t)0;
	};
	auto out_mode = [&](uint8_t mode, u16 opcode, u16 op_mod, const Bytes &body) {
		Bytes b;
		put8(b, mode);
		put8(b, 2); // opcode as a number, op_mod as a number
		put16(b, opcode);
		put16(b, op_mod);
		append(b, body);
		return b;
	};
	cli_seed("out_query_hca_cap_json", out_mode(0x40, op::QUERY_HCA_CAP, 1, hca_cap_out(true)));
	cli_seed("out_query_adapter_hex", out_mode(0x20, op::QUERY_ADAPTER, 0, adapter_out()));
	cli_seed("out_manage_pages_take", out_mode(0x40, op::MANAGE_PAGES, manage_pages_op::TAKE, take_out(3, 3)));
	cli_seed("out_layout_fallback", out_mode(0x40, op::QUERY_EQ, 0, Bytes(query_eq_out::size_bytes, 0x11)));
	cli_seed("out_too_short", out_mode(0, op::QUERY_ISSI, 0, Bytes(5, 0)));

	// --out as hexdump text, "*" repeats included.
	Bytes dump_text;
	put8(dump_text, 0x10 | 0x40);
	put8(dump_text, 2);
	put16(dump_text, op::QUERY_ESW_FUNCTIONS);
	put16(dump_text, 0);
	Bytes esw = esw_out(2);
	std::string text = "# saved by cxprm raw --dump\n";
	for (const std::string &l : tool::hexdump(esw.data(), esw.size()))
		text += l + "\n";
	append(dump_text, Bytes(text.begin(), text.end()));
	cli_seed("out_hexdump_text", dump_text);
	Bytes messy;
	put8(messy, 0x10 | 0x01);
	put8(messy, 0);
	std::string t2 = "0x00,00_00 00 # comment\n0000000a 00000000\n  00 11 22 33 44 55 66 77\n";
	append(messy, Bytes(t2.begin(), t2.end()));
	cli_seed("in_messy_hex_text", messy);
	Bytes starred;
	put8(starred, 0x10 | 0x02);
	put8(starred, 0);
	put8(starred, layout_index("dctc"));
	std::string t3 = "0000: 00000001 00000002 00000003 00000004\n*\n0030: 00000000 00000000 00000000 00000005\n";
	append(starred, Bytes(t3.begin(), t3.end()));
	cli_seed("layout_dctc_starred_dump", starred);

	Bytes in_dct;
	put8(in_dct, 0x41);
	put8(in_dct, 0);
	append(in_dct, create_dct_in_msg());
	cli_seed("in_create_dct_json", in_dct);
	Bytes in_eq;
	put8(in_eq, 0x01);
	put8(in_eq, 0);
	append(in_eq, create_eq_in_msg(1));
	cli_seed("in_create_eq", in_eq);
	Bytes lay;
	put8(lay, 0x42);
	put8(lay, 0);
	put8(lay, layout_index("cmd_queue_entry"));
	append(lay, Bytes(64, 0xa5));
	cli_seed("layout_cmd_queue_entry_json", lay);
	Bytes name;
	put8(name, 0x00);
	put8(name, 1); // opcode as text
	std::string nm = "query_hca_cap";
	put8(name, (uint8_t)nm.size());
	append(name, Bytes(nm.begin(), nm.end()));
	append(name, hca_cap_out(false));
	cli_seed("out_opcode_by_name", name);
}

} // namespace

int main(int argc, char **argv)
{
	if (argc != 2) {
		std::fprintf(stderr, "usage: %s CORPUS_DIR\n", argv[0]);
		return 1;
	}
	g_root = argv[1];
	decoders();
	cmdq();
	eq();
	ioctl();
	cli();
	return 0;
}
