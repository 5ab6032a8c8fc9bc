// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The debugfs texts of the C facade (cxprm_core_format, capi.h): general
 * capabilities, command statistics, the command queue, the last commands,
 * the event queue, pages, the bring-up trace and health, rendered with the
 * column helpers of text.h.
 */
#include "capi_core.h"

#include "cxprm/cmd_stats.h"
#include "cxprm/cmd_stats_text.h"
#include "cxprm/commands/common.h"
#include "cxprm/commands/hca.h"
#include "cxprm/health.h"
#include "cxprm/prm/transport.h"
#include "cxprm/status.h"
#include "cxprm/text.h"

using namespace cxprm;

namespace {

using capi::queue_up;
using capi::read_iseg;

const char *state_name(int s)
{
	switch (s) {
	case CXPRM_CORE_DOWN: return "DOWN";
	case CXPRM_CORE_UP: return "UP";
	case CXPRM_CORE_ERROR: return "ERROR";
	case CXPRM_CORE_GONE: return "GONE";
	}
	return "UNKNOWN";
}

/*
 * Scratch for a table of the command queue's (bytes from the host): null,
 * and a line saying why (down, or "out of memory"), when there is none.
 */
void *queue_table_mem(cxprm_core *c, Text &t, cmd::HostMem &mem, usize bytes, const char *down)
{
	if (!queue_up(c)) {
		t.str(down);
		return nullptr;
	}
	if (mem.alloc(c->host, bytes)) {
		t.str("out of memory\n");
		return nullptr;
	}
	return mem.data();
}

/* ---- texts ---- */

void text_caps(cxprm_core *c, Text &t)
{
	const BringupTrace &tr = c->dev.trace();
	const StepRecord *mx = tr.find(Step::QUERY_CAPS_MAX);
	if (!c->dev.bringup_called() || !mx || mx->err) {
		t.str("general capabilities: not queried (device not brought up)\n");
		return;
	}
	const cmd::GeneralCaps &cur = c->dev.caps_cur(), &max = c->dev.caps_max();
	t.str("general capabilities (QUERY_HCA_CAP type 0x0), as of bring-up\n");
	col(t, "field", 40);
	col(t, "cur", 20);
	t.str("max\n");
#define CXPRM_CAPI_CAP_(name, off, width)                 \
	col(t, #name, 40);                                \
	if ((width) > 32) {                               \
		col_hex(t, cur.name, 20);                 \
		t.hex(max.name);                          \
	} else {                                          \
		col_dec(t, cur.name, 20);                 \
		t.dec(max.name);                          \
	}                                                 \
	t.str(cur.name != max.name ? "  *\n" : "\n");
	CXPRM_CMD_HCA_CAP(CXPRM_CAPI_CAP_)
#undef CXPRM_CAPI_CAP_
	t.str("(* = CUR differs from MAX)\n");
}

void text_cmd_stats(cxprm_core *c, Text &t)
{
	/* What CXPRM_IOC_STATS returns, in the table `cxprm stats` prints too. */
	cmd::HostMem mem;
	auto *s = (cxprm_opcode_stats *)queue_table_mem(c, t, mem,
							 sizeof(cxprm_opcode_stats) * CmdStats::MAX_OPCODES,
							 "command queue down: no statistics\n");
	if (!s)
		return;
	u64 total = 0;
	u32 n = cxprm_core_stats(c, s, CmdStats::MAX_OPCODES, &total);
	cmd_stats_total(t, total);
	t.str(", in flight: ").dec(c->dev.cmdq().in_flight()).chr('\n');
	cmd_stats_table(t, s, n);
}

void text_cmdq(cxprm_core *c, Text &t)
{
	if (!queue_up(c)) {
		t.str("command queue down\n");
		return;
	}
	Cmdq &q = c->dev.cmdq();
	using E = prm::cmd_queue_entry;
	t.str("command queue: ").dec(q.entries()).str(" entries of ").dec(1u << q.log_stride());
	t.str(" bytes at bus ").hex(q.queue_page().bus).str(", ").dec(q.in_flight());
	t.str(" in flight, mode ").str(c->command_events ? "events" : "polling");
	if (q.config().reserve_page_slot && q.entries() > 1)
		t.str(", slot ").dec(q.entries() - 1).str(" kept for MANAGE_PAGES");
	t.chr('\n');
	for (u32 i = 0; i < q.entries(); i++) {
		const u8 *raw = q.slot_bytes(i);
		u8 e[E::size_bytes];
		/* One copy, so the decoded fields and the dump agree. */
		for (u32 b = 0; b < E::size_bytes; b++)
			e[b] = __atomic_load_n(raw + b, __ATOMIC_RELAXED);
		prm::CRef<E> r(e);
		t.str("slot ").dec(i).str(": ");
		if (!prm::get<E::type>(r) && !prm::get<E::token>(r)) {
			t.str("never used\n");
			continue;
		}
		u8 deliv = (u8)prm::get<E::status>(r);
		const u8 *inl = prm::bytes<E::command_input_inline_data>(r);
		const u8 *outl = prm::bytes<E::command_output_inline_data>(r);
		u16 op = (u16)(inl[0] << 8 | inl[1]);
		u16 op_mod = (u16)(inl[6] << 8 | inl[7]);
		bool hw = prm::get<E::ownership>(r) & 1;
		t.str("owner ").str(hw ? "hw (in flight or stuck)" : "sw");
		t.str(", delivery ").str(delivery_status_name(deliv)).chr('(').hex(deliv, 2).chr(')');
		t.str(", token ").hex(prm::get<E::token>(r), 2);
		t.str(", type ").hex(prm::get<E::type>(r), 2);
		t.str(", signature ").hex(prm::get<E::signature>(r), 2);
		t.str(", xor ").hex(xor8(e, E::size_bytes), 2).chr('\n');
		t.str("  ");
		opcode_label(t, op);
		t.str(" op_mod ").hex(op_mod).str(", inlen ").dec(prm::get<E::input_length>(r));
		t.str(", outlen ").dec(prm::get<E::output_length>(r));
		u64 ip = prm::get<E::input_mailbox_pointer_63_32>(r) << 32 |
			 prm::get<E::input_mailbox_pointer_31_9>(r) << 9;
		u64 op_ = prm::get<E::output_mailbox_pointer_63_32>(r) << 32 |
			  prm::get<E::output_mailbox_pointer_31_9>(r) << 9;
		t.str(", in_mbox ").hex(ip).str(", out_mbox ").hex(op_);
		if (!hw && !deliv) {
			u8 st = outl[0];
			t.str(", status ").str(cmd_status_name(st)).chr('(').hex(st, 2).chr(')');
			t.str(" syndrome ").hex(load_be32(outl + 4), 8);
		}
		t.chr('\n');
		hexdump(t, e, E::size_bytes, "  ");
	}
}

void text_last_cmds(cxprm_core *c, Text &t)
{
	cmd::HostMem mem;
	auto *r = (CmdRecord *)queue_table_mem(c, t, mem, sizeof(CmdRecord) * CmdStats::RING,
					       "command queue down: no records\n");
	if (!r)
		return;
	u32 n = c->dev.cmdq().stats_last(r, CmdStats::RING);
	t.str("last ").dec(n).str(" commands, oldest first (time = host clock at completion)\n");
	for (u32 i = 0; i < n; i++) {
		const CmdRecord &x = r[i];
		t.chr('#').dec(x.seq).str(" t=").dec(x.time_ns).str("ns ");
		opcode_label(t, x.opcode);
		t.str(" op_mod ").hex(x.op_mod).str(" slot ").dec(x.slot).str(" token ").hex(x.token, 2);
		t.str(" inlen ").dec(x.inlen).str(" outlen ").dec(x.outlen);
		t.str(" -> ").str(err_name(x.err));
		if (x.delivery)
			t.str(" delivery ").str(delivery_status_name(x.delivery));
		else if (x.err == OK || x.err == E_REMOTEIO)
			t.str(" status ").str(cmd_status_name(x.status));
		if (x.syndrome)
			t.str(" syndrome ").hex(x.syndrome, 8);
		t.str(" latency ");
		usec(t, x.latency_ns);
		t.str("us\n    in  ");
		t.hexbytes(x.in, min_of<u32>(x.inlen, sizeof(x.in)));
		t.str("\n    out ");
		t.hexbytes(x.out, min_of<u32>(x.outlen, sizeof(x.out)));
		t.chr('\n');
	}
}

void text_eq(cxprm_core *c, Text &t)
{
	if (!c->ev.running()) {
		t.str("async EQ: not running\n");
		return;
	}
	const EqRing &ring = c->ev.ring();
	EventStats s = c->ev.stats();
	t.str("async EQ: eqn ").dec(c->ev.eqn()).str(", uar ").dec(c->ev.uar());
	t.str(", ").dec(ring.entries()).str(" entries (log_eq_size ").dec(ring.log_size());
	t.str("), consumer index ").dec(ring.consumer_index()).str(", phase ").dec(ring.phase());
	t.str(", EQEs consumed ").dec(ring.events()).chr('\n');
	t.str("subscribed:");
	for (u32 w = 0; w < 4; w++)
		t.chr(' ').hex(c->ev.subscribed(w), 16);
	t.chr('\n');
	t.str("  ");
	for (u32 ty = 0; ty < 256; ty++)
		if (c->ev.subscribed(ty / 64) & (1ull << (ty % 64))) {
			const char *n = prm::event_name((u8)ty);
			t.str(n ? n : "?").chr('(').hex(ty, 2).str(") ");
		}
	t.chr('\n');
	u32 comp = c->ev.comp_eqn_now();
	if (comp == Events::NO_COMP_EQ)
		t.str("completion EQ: none yet (created with the first CQ)\n");
	else
		t.str("completion EQ: eqn ").dec(comp).chr('\n');
	t.str("command completion: ").str(c->command_events ? "CMD events" : "polling").chr('\n');
	t.str("events: ").dec(s.total).str(", cmd completions ").dec(s.cmd_completions);
	t.str(", page requests ").dec(s.page_requests).str(" (pages requested ").sdec(s.pages_requested);
	t.str(", service errors ").dec(s.page_request_errors);
	t.str(", merged ").dec(s.page_requests_merged).str(", dropped ").dec(s.page_requests_dropped);
	t.str(", release_all ").dec(s.page_release_all).str(")\n");
	col(t, "type", 32);
	t.str("count\n");
	for (u32 ty = 0; ty < 64; ty++) {
		if (!s.by_type[ty])
			continue;
		usize from = t.len();
		const char *n = prm::event_name((u8)ty);
		t.str(n ? n : "?").chr('(').hex(ty, 2).chr(')');
		pad(t, from, 32);
		t.dec(s.by_type[ty]).chr('\n');
	}
}

void text_pages(cxprm_core *c, Text &t)
{
	PageTracker &p = c->dev.pages();
	if (p.initialized()) {
		PageStats s = p.stats();
		t.str("pages lent to firmware (current)\n");
		t.str("given        ").dec(s.given).chr('\n');
		t.str("reclaimed    ").dec(s.reclaimed).chr('\n');
		t.str("live         ").dec(s.live).chr('\n');
		t.str("bad_returns  ").dec(s.bad_returns).chr('\n');
		t.str("give_failed  ").dec(s.give_failed).chr('\n');
		t.str("forced_free  ").dec(s.forced_free).chr('\n');
		t.str("cant_give    ").dec(s.cant_give).chr('\n');
		t.str("chunk        ").dec(p.chunk_pages()).str(" pages per MANAGE_PAGES\n");
		/* piece_pool.h: 4 KiB firmware pages cut from the host's pages. */
		t.str("host pages   ").dec(p.system_pages()).str(" (").dec(p.pieces_per_page())
			.str(" firmware pages each)\n");
		if (c->dev.state() == DeviceState::STRANDED)
			t.str("state        STRANDED (teardown could not get them back)\n");
	} else if (!c->dev.torn_down()) {
		t.str("no pages lent (device not up)\n");
	}
	if (c->dev.torn_down()) {
		const TeardownReport &r = c->dev.last_teardown();
		t.str("at the last teardown\n");
		t.str("given        ").dec(r.pages_given).chr('\n');
		t.str("reclaimed    ").dec(r.pages_reclaimed).chr('\n');
		t.str("freed        ").dec(r.pages_freed).str(" (never returned)\n");
		t.str("stranded     ").dec(r.pages_stranded).chr('\n');
		if (r.cmdq_stranded)
			t.str("cmdq kept    ").dec(r.cmdq_stranded)
				.str(" DMA buffers of a timed-out command\n");
	}
}

void text_trace(cxprm_core *c, Text &t)
{
	const BringupTrace &tr = c->dev.trace();
	for (u32 i = 0; i < tr.n; i++) {
		const StepRecord &s = tr.rec[i];
		if (c->dev.torn_down() && i == c->dev.teardown_trace_from())
			t.str("  -- teardown --\n");
		t.str("  ");
		col(t, step_name(s.step), 22);
		col(t, err_name(s.err), 11);
		if (s.delivery)
			t.str("delivery ").str(delivery_status_name(s.delivery)).chr(' ');
		if (s.status)
			t.str("status ").str(cmd_status_name(s.status)).chr(' ');
		if (s.syndrome)
			t.str("syndrome ").hex(s.syndrome, 8).chr(' ');
		t.str("value ").sdec(s.value);
		if (s.value > 0xffff)
			t.str(" (").hex((u64)s.value).chr(')');
		t.chr('\n');
	}
	if (tr.dropped)
		t.str("  (").dec(tr.dropped).str(" records dropped)\n");
}

void text_health(cxprm_core *c, Text &t)
{
	const cxprm_host *h = c->host;
	int st = cxprm_core_state(c);
	u32 fw = read_iseg(h, prm::iseg::FW_REV), rev = read_iseg(h, prm::iseg::CMDIF_REV);
	using I = prm::initial_seg;
	t.str("state: ").str(state_name(st)).chr('\n');
	t.str("fw_rev: ").dec(prm::from_dword<I::fw_rev_major>(fw)).chr('.');
	t.dec(prm::from_dword<I::fw_rev_minor>(fw)).chr('.').dec(prm::from_dword<I::fw_rev_subminor>(rev));
	t.str(" (dwords ").hex(fw, 8).chr(' ').hex(rev, 8).str("), cmd_interface_rev ");
	t.dec(prm::from_dword<I::cmd_interface_rev>(rev)).chr('\n');
	HealthRead hr = health_read(h);
	t.str("health syndrome: ").hex(hr.synd, 2).chr(' ').str(hr.synd ? health_syndrome_name(hr.synd) : "none");
	t.str(" (").str(health_syndrome_text(hr.synd)).str("), rfr ").dec(hr.rfr);
	t.str(", health counter ").dec(hr.counter).str(", nic_interface ").dec(hr.nic_state);
	t.chr(' ').str(nic_state_name(hr.nic_state)).chr('\n');
	HealthSensor fs = health_fatal_sensor(hr);
	t.str("fatal sensor: ").str(health_sensor_name(fs)).chr('\n');
	if (queue_up(c)) {
		HealthStatus hs = c->dev.health().status();
		t.str("health poller: ").dec(hs.polls).str(" polls, counter unchanged for ");
		t.dec(hs.stalled_polls).str(" (warning at ").dec(c->dev.health().stall_polls());
		t.str("), stall warnings ").dec(hs.stall_reports).str(", syndromes without rfr ");
		t.dec(hs.synd_reports).str(", device ").str(hs.failed ? "FAILED: " : "ok");
		if (hs.failed) {
			t.str(err_name(hs.failed)).str(", commands refused ").dec(hs.refused);
			if (hs.sensor)
				t.str(", sensor ").str(health_sensor_name((HealthSensor)hs.sensor));
		}
		t.chr('\n');
	}

	u8 hb[prm::health_buffer::size_bytes];
	for (u32 i = 0; i < sizeof(hb); i += 4)
		store_be32(hb + i, read_iseg(h, prm::iseg::HEALTH + i));
	using H = prm::health_buffer;
	prm::CRef<H> b(hb);
	t.str("health buffer: valid ").dec(prm::get<H::valid>(b)).str(" rfr ").dec(prm::get<H::rfr>(b));
	t.str(" severity ").dec(prm::get<H::severity>(b)).str(" irisc ").dec(prm::get<H::irisc_index>(b));
	t.str(" synd ").hex(prm::get<H::synd>(b), 2).str(" ext_synd ").hex(prm::get<H::ext_synd>(b), 4);
	t.str(" fw_version ").hex(prm::get<H::fw_version>(b), 8).str(" hw_id ").hex(prm::get<H::hw_id>(b), 8);
	t.str(" time ").dec(prm::get<H::time>(b)).chr('\n');

	if (!c->dev.bringup_called()) {
		t.str("bring-up: not run\n");
		return;
	}
	const BringupTrace &tr = c->dev.trace();
	if (tr.failed)
		t.str("bring-up: FAILED at ").str(step_name(tr.failed_step)).str(": ").str(err_name(tr.failed_err));
	else
		t.str("bring-up: OK, ISSI ").dec(c->dev.issi());
	t.chr('\n');
	t.str("trace (step, result, firmware status, value):\n");
	text_trace(c, t);
}

} // namespace

extern "C" cxprm_size cxprm_core_format(cxprm_core *c, int which, char *buf, cxprm_size cap, int *truncated)
{
	if (truncated)
		*truncated = 0;
	if (!buf || !cap)
		return 0;
	Text t(buf, cap);
	if (!c) {
		t.str("no device\n");
	} else {
		switch (which) {
		case CXPRM_TEXT_CAPS: text_caps(c, t); break;
		case CXPRM_TEXT_CMD_STATS: text_cmd_stats(c, t); break;
		case CXPRM_TEXT_CMDQ: text_cmdq(c, t); break;
		case CXPRM_TEXT_LAST_CMDS: text_last_cmds(c, t); break;
		case CXPRM_TEXT_EQ: text_eq(c, t); break;
		case CXPRM_TEXT_PAGES: text_pages(c, t); break;
		case CXPRM_TEXT_HEALTH: text_health(c, t); break;
		default: t.str("unknown text\n"); break;
		}
	}
	if (truncated)
		*truncated = t.truncated();
	return t.len();
}
