// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// The per-command trace: what a TraceRecord says about a command (filled in
// by the Emulator's step around the transport), and its one-line text.
#include <cinttypes>
#include <cstdio>
#include <string>

#include "cxprm/prm/hca.h"
#include "cxprm/prm/opcodes.h"
#include "cxprm/prm/pages.h"
#include "cxprm/prm/transport.h"
#include "cxprm/status.h"
#include "trace.h"

namespace cxprm::emu {

namespace op = prm::op;

namespace {

// t's page count: field F of the message at p (len bytes), as a T, when the
// message holds F's layout.
template <class F, class T> void trace_pages(TraceRecord &t, const uint8_t *p, uint32_t len)
{
	using L = typename F::layout;
	if (len < L::size_bytes)
		return;
	t.has_pages = true;
	t.pages = (T)prm::get<F>(prm::CRef<L>(p));
}

} // namespace

void trace_fill_input(TraceRecord &t, const uint8_t *in, uint32_t inlen)
{
	// ENABLE/DISABLE_HCA, QUERY/MANAGE_PAGES share the function fields.
	static_assert(prm::enable_hca_in::function_id::offset == prm::query_pages_in::function_id::offset &&
		      prm::enable_hca_in::function_id::offset == prm::manage_pages_in::function_id::offset &&
		      prm::enable_hca_in::function_id::offset == prm::disable_hca_in::function_id::offset &&
		      prm::enable_hca_in::embedded_cpu_function::offset ==
			      prm::manage_pages_in::embedded_cpu_function::offset &&
		      prm::enable_hca_in::embedded_cpu_function::offset ==
			      prm::query_pages_in::embedded_cpu_function::offset);
	switch (t.opcode) {
	case op::ENABLE_HCA:
	case op::DISABLE_HCA:
	case op::QUERY_PAGES:
	case op::MANAGE_PAGES:
		if (inlen < prm::enable_hca_in::size_bytes)
			return;
		t.has_function = true;
		t.function_id = (uint16_t)prm::get<prm::enable_hca_in::function_id>(prm::CRef<prm::enable_hca_in>(in));
		t.ec = prm::get<prm::enable_hca_in::embedded_cpu_function>(prm::CRef<prm::enable_hca_in>(in));
		break;
	}
	if (t.opcode == op::MANAGE_PAGES && t.op_mod == prm::manage_pages_op::GIVE)
		trace_pages<prm::manage_pages_in::input_num_entries, int64_t>(t, in, inlen);
}

void trace_fill_output(TraceRecord &t, const uint8_t *out, uint32_t outlen)
{
	if (outlen < prm::cmd_out::size_bytes)
		return;
	prm::CRef<prm::cmd_out> o(out);
	t.executed = true;
	t.status = (uint8_t)prm::get<prm::cmd_out::status>(o);
	t.syndrome = (uint32_t)prm::get<prm::cmd_out::syndrome>(o);
	if (t.status != cmd_status::OK)
		return;
	if (t.opcode == op::MANAGE_PAGES && t.op_mod == prm::manage_pages_op::TAKE)
		trace_pages<prm::manage_pages_out::output_num_entries, int64_t>(t, out, outlen);
	else if (t.opcode == op::QUERY_PAGES)
		trace_pages<prm::query_pages_out::num_pages, int32_t>(t, out, outlen);
}

std::string trace_line(const TraceRecord &r)
{
	char b[320];
	const char *name = prm::opcode_name(r.opcode);
	int n = std::snprintf(b, sizeof(b), "seq=%" PRIu64 " t=%" PRIu64 ".%06" PRIu64 " slot=%u op=%s(0x%x) op_mod=0x%x in=%u out=%u",
			      r.seq, r.time_ns / 1000000000u, r.time_ns / 1000u % 1000000u, r.slot,
			      name ? name : "UNKNOWN", r.opcode, r.op_mod, r.inlen, r.outlen);
	std::string s(b, n > 0 ? (size_t)n : 0);
	if (r.has_function)
		std::snprintf(b, sizeof(b), " fn=%u ec=%u", r.function_id, r.ec ? 1u : 0u);
	else
		std::snprintf(b, sizeof(b), " fn=- ec=-");
	s += b;
	std::snprintf(b, sizeof(b), " delivery=0x%x", r.delivery);
	s += b;
	if (r.executed && !r.delivery)
		std::snprintf(b, sizeof(b), " status=0x%x syndrome=0x%x", r.status, r.syndrome);
	else
		std::snprintf(b, sizeof(b), " status=- syndrome=-");
	s += b;
	if (r.has_pages) {
		std::snprintf(b, sizeof(b), " pages=%" PRId64, r.pages);
		s += b;
	}
	if (!r.completed)
		s += " swallowed";
	// The doorbell taken, and from there to the answer written (ns).
	std::snprintf(b, sizeof(b), " seen=%" PRIu64 ".%09" PRIu64 " answer_ns=%" PRIu64, r.seen_ns / 1000000000u,
		      r.seen_ns % 1000000000u, r.time_ns > r.seen_ns ? r.time_ns - r.seen_ns : 0);
	s += b;
	return s;
}

} // namespace cxprm::emu
