// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The C facade (capi.h): one struct cxprm_core per device holding the
 * Device and its Events, and extern "C" functions over them.  No library
 * header: the object is built in host->ops->mem_alloc memory with a
 * class-specific placement operator new, so neither <new> nor a global
 * operator new is needed, hosted or freestanding.
 */
#include "cxprm/capi.h"

#include "cxprm/commands/dct.h"
#include "cxprm/commands/esw.h"
#include "cxprm/commands/hca.h"
#include "cxprm/commands/nvmf.h"
#include "cxprm/device.h"
#include "cxprm/events.h"
#include "cxprm/health.h"
#include "cxprm/prm/opcodes.h"
#include "cxprm/prm/transport.h"
#include "cxprm/status.h"
#include "cxprm/text.h"
#include "capi_uapi.h"

using namespace cxprm;

struct cxprm_core {
	/* Placement form only: the memory comes from the host. */
	static void *operator new(usize, void *p) noexcept { return p; }
	static void operator delete(void *, void *) noexcept {}

	const cxprm_host *host = nullptr;
	Device dev;
	Events ev;
	bool bringup_called = false;
	bool command_events = false;
	cxprm_core_event_fn listener = nullptr;
	void *listener_ctx = nullptr;
	/* Page accounting of the last teardown (the tracker forgets it). */
	bool torn_down = false;
	cxprm_core_teardown_report last_teardown{};
	/* Trace index where the last teardown began. */
	u32 teardown_trace_from = 0;
};

namespace {

constexpr u32 NO_EQN = ~0u;

/* The queue's lock exists only while it is up: stats need it. */
bool queue_up(cxprm_core *c)
{
	return c->dev.cmdq().queue_page().cpu != nullptr;
}

void fill_result(cxprm_core_result *out, const CmdResult &r, const void *in)
{
	if (!out)
		return;
	uapi::copy_result(out, r);
	if (in) {
		prm::CRef<prm::cmd_in> h(in);
		out->st.opcode = (u16)prm::get<prm::cmd_in::opcode>(h);
		out->op_mod = (u16)prm::get<prm::cmd_in::op_mod>(h);
	}
}

void fill_result_op(cxprm_core_result *out, const CmdResult &r, u16 opcode, u16 op_mod = 0)
{
	if (!out)
		return;
	fill_result(out, r, nullptr);
	out->st.opcode = opcode;
	out->op_mod = op_mod;
}

void fill_status(cxprm_cmd_status *st, const CmdResult &r, u16 opcode)
{
	cxprm_core_result res;
	fill_result_op(&res, r, opcode);
	*st = res.st;
}

u32 read_iseg(const cxprm_host *h, u32 off)
{
	return h->ops->ioread32be(h->ctx, off);
}

/* ---- text helpers ---- */

/* Spaces up to 'width' columns from 'from'; at least one after the text. */
void pad(Text &t, usize from, u32 width)
{
	do {
		t.chr(' ');
	} while (t.len() - from < width && !t.truncated());
}

void col(Text &t, const char *s, u32 width)
{
	usize from = t.len();
	t.str(s);
	pad(t, from, width);
}

void col_dec(Text &t, u64 v, u32 width)
{
	usize from = t.len();
	t.dec(v);
	pad(t, from, width);
}

void col_hex(Text &t, u64 v, u32 width, u32 digits = 0)
{
	usize from = t.len();
	t.hex(v, digits);
	pad(t, from, width);
}

/* ns as microseconds with three decimals: 12.345 */
void usec(Text &t, u64 ns)
{
	t.dec(ns / 1000).chr('.');
	u32 frac = (u32)(ns % 1000);
	t.chr((char)('0' + frac / 100)).chr((char)('0' + frac / 10 % 10)).chr((char)('0' + frac % 10));
}

void col_usec(Text &t, u64 ns, u32 width)
{
	usize from = t.len();
	usec(t, ns);
	pad(t, from, width);
}

const char *opname(u16 op)
{
	const char *n = prm::opcode_name(op);
	return n ? n : "UNKNOWN";
}

/* "QUERY_HCA_CAP(0x100)" */
void op_label(Text &t, u16 op)
{
	t.str(opname(op)).chr('(').hex(op, 3).chr(')');
}

void col_op(Text &t, u16 op, u32 width)
{
	usize from = t.len();
	op_label(t, op);
	pad(t, from, width);
}

/* 16 bytes per line: "  0000: 00 11 ..." */
void hexdump(Text &t, const u8 *p, u32 n, const char *indent)
{
	for (u32 off = 0; off < n; off += 16) {
		t.str(indent);
		u32 v = off;
		for (int s = 12; s >= 0; s -= 4)
			t.chr("0123456789abcdef"[(v >> s) & 0xf]);
		t.str(": ");
		t.hexbytes(p + off, min_of<u32>(16, n - off));
		t.chr('\n');
	}
}

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

/* ---- texts ---- */

void text_caps(cxprm_core *c, Text &t)
{
	const BringupTrace &tr = c->dev.trace();
	const StepRecord *mx = tr.find(Step::QUERY_CAPS_MAX);
	if (!c->bringup_called || !mx || mx->err) {
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
	if (!queue_up(c)) {
		t.str("command queue down: no statistics\n");
		return;
	}
	cmd::HostMem mem;
	if (mem.alloc(c->host, sizeof(OpcodeStats) * CmdStats::MAX_OPCODES)) {
		t.str("out of memory\n");
		return;
	}
	OpcodeStats *s = (OpcodeStats *)mem.data();
	Cmdq &q = c->dev.cmdq();
	u32 n = q.stats_opcodes(s, CmdStats::MAX_OPCODES);
	t.str("commands completed: ").dec(q.stats_total()).str(", in flight: ").dec(q.in_flight());
	t.chr('\n');
	col(t, "opcode", 40);
	col(t, "count", 10);
	col(t, "errors", 8);
	col(t, "last_err", 11);
	col(t, "last_status", 19);
	col(t, "last_delivery", 20);
	col(t, "last_syndrome", 14);
	col(t, "min_us", 12);
	col(t, "avg_us", 12);
	t.str("max_us\n");
	for (u32 i = 0; i < n; i++) {
		const OpcodeStats &o = s[i];
		col_op(t, o.opcode, 40);
		col_dec(t, o.count, 10);
		col_dec(t, o.errors, 8);
		if (o.errors) {
			col(t, err_name(o.last_err), 11);
			col(t, o.last_delivery ? "-" : cmd_status_name(o.last_status), 19);
			col(t, delivery_status_name(o.last_delivery), 20);
			col_hex(t, o.last_syndrome, 14, 8);
		} else {
			col(t, "-", 11);
			col(t, "-", 19);
			col(t, "-", 20);
			col(t, "-", 14);
		}
		col_usec(t, o.count ? o.lat_min_ns : 0, 12);
		col_usec(t, o.count ? o.lat_sum_ns / o.count : 0, 12);
		usec(t, o.lat_max_ns);
		t.chr('\n');
	}
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
		op_label(t, op);
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
	if (!queue_up(c)) {
		t.str("command queue down: no records\n");
		return;
	}
	cmd::HostMem mem;
	if (mem.alloc(c->host, sizeof(CmdRecord) * CmdStats::RING)) {
		t.str("out of memory\n");
		return;
	}
	CmdRecord *r = (CmdRecord *)mem.data();
	u32 n = c->dev.cmdq().stats_last(r, CmdStats::RING);
	t.str("last ").dec(n).str(" commands, oldest first (time = host clock at completion)\n");
	for (u32 i = 0; i < n; i++) {
		const CmdRecord &x = r[i];
		t.chr('#').dec(x.seq).str(" t=").dec(x.time_ns).str("ns ");
		op_label(t, x.opcode);
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
		if (c->dev.state() == DeviceState::STRANDED)
			t.str("state        STRANDED (teardown could not get them back)\n");
	} else if (!c->torn_down) {
		t.str("no pages lent (device not up)\n");
	}
	if (c->torn_down) {
		const cxprm_core_teardown_report &r = c->last_teardown;
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
		if (c->torn_down && i == c->teardown_trace_from)
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
		HealthStatus hs = c->dev.cmdq().health();
		t.str("health poller: ").dec(hs.polls).str(" polls, counter unchanged for ");
		t.dec(hs.stalled_polls).str(" (warning at ").dec(c->dev.cmdq().config().health_stall_polls);
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

	if (!c->bringup_called) {
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

extern "C" {

int cxprm_core_create(const cxprm_host *host, cxprm_core **out)
{
	if (!out)
		return E_INVAL;
	*out = nullptr;
	if (!host || !host->ops || !host->ops->mem_alloc || !host->ops->mem_free)
		return E_INVAL;
	void *p = host->ops->mem_alloc(host->ctx, sizeof(cxprm_core));
	if (!p)
		return E_NOMEM;
	cxprm_core *c = new (p) cxprm_core;
	c->host = host;
	*out = c;
	return OK;
}

void cxprm_core_destroy(cxprm_core *c)
{
	if (!c)
		return;
	const cxprm_host *h = c->host;
	/* Both are no-ops when already done. */
	c->ev.stop();
	c->dev.teardown();
	c->~cxprm_core();
	h->ops->mem_free(h->ctx, c);
}

int cxprm_core_bringup(cxprm_core *c, const cxprm_core_config *cfg)
{
	if (!c)
		return E_INVAL;
	BringupConfig b;
	b.cmd_timeout_from_device = true; /* unless configured (below) */
	if (cfg) {
		if (cfg->cmd_timeout_ns) {
			b.cmdq.timeout_ns = cfg->cmd_timeout_ns;
			b.cmdq.slot_wait_ns = cfg->cmd_timeout_ns;
			b.cmd_timeout_from_device = false;
		}
		b.request_checksum = cfg->flags & CXPRM_CORE_CFG_CHECKSUM;
		if (cfg->init_timeout_ns)
			b.init_timeout_ns = cfg->init_timeout_ns;
		if (cfg->reclaim_timeout_ns)
			b.reclaim_timeout_ns = cfg->reclaim_timeout_ns;
		if (cfg->max_msg_bytes)
			b.cmdq.max_msg_bytes = cfg->max_msg_bytes;
		b.pages_per_command = cfg->pages_per_command;
		if (cfg->health_stall_polls)
			b.cmdq.health_stall_polls = cfg->health_stall_polls;
		b.is_vf = cfg->flags & CXPRM_CORE_CFG_VF;
	}
	c->bringup_called = true;
	c->torn_down = false;
	c->last_teardown = {};
	c->teardown_trace_from = 0;
	c->command_events = false;
	return c->dev.bringup(c->host, b);
}

void cxprm_core_teardown(cxprm_core *c, cxprm_core_teardown_report *rep)
{
	if (!c)
		return;
	cxprm_core_events_stop(c);
	PageStats before = c->dev.pages().stats();
	const BringupTrace &tr = c->dev.trace();
	u32 from = tr.n;
	bool was_up = c->dev.state() == DeviceState::UP;
	c->dev.teardown();

	cxprm_core_teardown_report r{};
	r.failed_step = "";
	r.pages_given = before.given;
	r.pages_reclaimed = before.reclaimed;
	r.pages_freed = before.forced_free;
	for (u32 i = from; i < tr.n; i++) {
		const StepRecord &s = tr.rec[i];
		if (s.step == Step::RECLAIM_PAGES && s.value > 0)
			r.pages_reclaimed += (u64)s.value;
		if (s.step == Step::FREE_STRANDED_PAGES && s.err == OK && s.value > 0)
			r.pages_freed += (u64)s.value;
		/* A failed graceful teardown that force fixed still counts. */
		if (s.err && !r.err && s.step != Step::QUERY_RECLAIM_PAGES) {
			r.err = s.err;
			r.failed_step = step_name(s.step);
		}
	}
	r.pages_stranded = c->dev.stranded_pages();
	r.cmdq_stranded = c->dev.stranded_cmdq_buffers();
	r.steps = tr.n - from;
	if (was_up || !c->torn_down) {
		c->last_teardown = r;
		c->teardown_trace_from = from;
		c->torn_down = true;
	}
	if (rep)
		*rep = r;
}

cxprm_u64 cxprm_core_release_stranded(cxprm_core *c)
{
	if (!c)
		return 0;
	u64 n = c->dev.release_stranded_pages();
	c->last_teardown.pages_freed += n;
	c->last_teardown.pages_stranded = c->dev.stranded_pages();
	c->last_teardown.cmdq_stranded = c->dev.stranded_cmdq_buffers();
	return n;
}

int cxprm_core_state(cxprm_core *c)
{
	const cxprm_host *h = c->host;
	if (read_iseg(h, prm::iseg::FW_REV) == 0xffffffffu)
		return CXPRM_CORE_GONE;
	bool sick = health_fatal_sensor(health_read(h)) != HealthSensor::NONE;
	switch (c->dev.state()) {
	case DeviceState::UP:
		if (queue_up(c) && c->dev.cmdq().failed())
			return c->dev.cmdq().failed() == E_NODEV ? CXPRM_CORE_GONE : CXPRM_CORE_ERROR;
		return sick ? CXPRM_CORE_ERROR : CXPRM_CORE_UP;
	case DeviceState::STRANDED:
		return CXPRM_CORE_ERROR;
	case DeviceState::OFF:
		break;
	}
	if (c->bringup_called && !c->torn_down && c->dev.trace().failed)
		return CXPRM_CORE_ERROR;
	return CXPRM_CORE_DOWN;
}

void cxprm_core_get_info(cxprm_core *c, cxprm_core_info *info)
{
	*info = {};
	Device &d = c->dev;
	FwVersion fw = d.fw_version();
	info->fw_major = fw.major;
	info->fw_minor = fw.minor;
	info->fw_subminor = fw.subminor;
	info->cmdif_rev = fw.cmdif_rev;
	info->state = (u32)cxprm_core_state(c);
	info->issi = d.issi();
	HealthRead hr = health_read(c->host);
	if (hr.fw_rev != 0xffffffffu) {
		info->health_syndrome = hr.synd;
		info->health_counter = hr.counter;
		info->health_rfr = hr.rfr;
		info->nic_interface = hr.nic_state;
		info->health_sensor = (u32)health_fatal_sensor(hr);
	}
	info->async_eqn = c->ev.running() ? c->ev.eqn() : NO_EQN;
	info->events_running = c->ev.running();
	info->command_events = c->ev.running() && c->command_events;
	if (queue_up(c)) {
		Cmdq &q = d.cmdq();
		info->cmdq_entries = q.entries();
		info->cmdq_log_stride = q.log_stride();
		info->cmds_in_flight = q.in_flight();
		info->commands = q.stats_total();
		HealthStatus hs = q.health();
		info->failed_err = hs.failed;
		info->health_stalled_polls = hs.stalled_polls;
		info->health_polls = hs.polls;
		info->cmds_refused = hs.refused;
		if (hs.sensor)
			info->health_sensor = hs.sensor;
		info->health_stall_reports = hs.stall_reports;
		info->health_synd_reports = hs.synd_reports;
		info->cmd_timeout_ns = q.config().timeout_ns;
		info->cmd_checksum = d.checksums();
	}
	info->ecpf = d.ecpf();
	info->page_functions = d.pages().functions(nullptr, 0);
	if (d.pages().initialized()) {
		PageStats s = d.pages().stats();
		info->pages_given = s.given;
		info->pages_reclaimed = s.reclaimed;
		info->pages_live = s.live;
	} else if (c->torn_down) {
		info->pages_given = c->last_teardown.pages_given;
		info->pages_reclaimed = c->last_teardown.pages_reclaimed;
		info->pages_live = c->last_teardown.pages_stranded;
	}
}

int cxprm_core_health_poll(cxprm_core *c)
{
	if (!c || !queue_up(c) || c->dev.state() != DeviceState::UP)
		return OK;
	return c->dev.cmdq().health_poll();
}

int cxprm_core_failed(cxprm_core *c)
{
	return c ? c->dev.cmdq().failed() : OK;
}

int cxprm_core_query_caps(cxprm_core *c, cxprm_u16 cap_type, int max, cxprm_u8 *image,
			  cxprm_core_result *res)
{
	if (!c || !image)
		return E_INVAL;
	CmdResult r{};
	prm::cap::Mode mode = max ? prm::cap::MAX : prm::cap::CUR;
	int err = cmd::query_hca_cap(c->dev.cmdq(), cap_type, mode, image, &r);
	fill_result_op(res, r, prm::op::QUERY_HCA_CAP, (u16)(cap_type << 1 | mode));
	return err;
}

int cxprm_core_query_nvmf_ns(cxprm_core *c, cxprm_nvmf_ns *ns, cxprm_core_result *res)
{
	if (!c || !ns)
		return E_INVAL;
	CmdResult r{};
	cmd::NvmfNsCounters k{};
	u32 xrqn = ns->xrqn, nsid = ns->nsid;
	int err = cmd::query_nvmf_namespace(c->dev.cmdq(), xrqn, nsid, &k, &r);
	fill_result_op(res, r, prm::op::QUERY_NVMF_NAMESPACE_CONTEXT);
	/* Every output zero on failure: no stale bytes reach userspace. */
	*ns = {};
	ns->xrqn = xrqn;
	ns->nsid = nsid;
	if (!err)
		uapi::copy_nvmf_ns(ns, k);
	fill_status(&ns->st, r, prm::op::QUERY_NVMF_NAMESPACE_CONTEXT);
	return err == E_RANGE ? E_INVAL : err;
}

int cxprm_core_is_ecpf_esw_manager(cxprm_core *c)
{
	return c && c->dev.ecpf() && c->dev.caps_cur().eswitch_manager;
}

int cxprm_core_query_esw(cxprm_core *c, cxprm_esw_functions *esw, cxprm_u32 sf_words,
			 cxprm_core_result *res)
{
	if (!c || !esw || sf_words > CXPRM_ESW_MAX_SF_WORDS)
		return E_INVAL;
	/* Zero on every path: a firmware error leaves nothing decoded. */
	*esw = {};
	/*
	 * Linux asks only as an ECPF eswitch manager (eswitch.c
	 * mlx5_esw_query_functions behind mlx5_esw_is_funcs_handler).
	 */
	if (!cxprm_core_is_ecpf_esw_manager(c))
		return E_NOTSUP;
	CmdResult r{};
	cmd::EswFunctions f{};
	u64 sf[CXPRM_ESW_MAX_SF_WORDS] = {};
	int err = cmd::query_esw_functions(c->dev.cmdq(), &f, sf, sf_words, &r);
	fill_result_op(res, r, prm::op::QUERY_ESW_FUNCTIONS);
	fill_status(&esw->st, r, prm::op::QUERY_ESW_FUNCTIONS);
	if (err)
		return err;
	uapi::copy_esw(esw, f, sf);
	return OK;
}

int cxprm_core_dct_create(cxprm_core *c, const cxprm_dctc *ctx, cxprm_u32 *dctn,
			  cxprm_core_result *res)
{
	if (!c || !ctx || !dctn)
		return E_INVAL;
	cmd::DctContext k;
	uapi::uapi_to_dctc(*ctx, &k);
	CmdResult r{};
	*dctn = 0;
	int err = cmd::create_dct(c->dev.cmdq(), k, dctn, nullptr, 0, &r);
	fill_result_op(res, r, prm::op::CREATE_DCT);
	return err == E_RANGE ? E_INVAL : err;
}

int cxprm_core_dct_query(cxprm_core *c, cxprm_u32 dctn, cxprm_dctc *ctx,
			 cxprm_core_result *res)
{
	if (!c || !ctx)
		return E_INVAL;
	cmd::DctContext k{};
	CmdResult r{};
	int err = cmd::query_dct(c->dev.cmdq(), dctn, &k, &r);
	fill_result_op(res, r, prm::op::QUERY_DCT);
	if (err) {
		*ctx = {};
		return err == E_RANGE ? E_INVAL : err;
	}
	uapi::dctc_to_uapi(k, ctx);
	return OK;
}

int cxprm_core_dct_drain(cxprm_core *c, cxprm_u32 dctn, cxprm_core_result *res)
{
	if (!c)
		return E_INVAL;
	CmdResult r{};
	int err = cmd::drain_dct(c->dev.cmdq(), dctn, 0, &r);
	fill_result_op(res, r, prm::op::DRAIN_DCT);
	return err == E_RANGE ? E_INVAL : err;
}

int cxprm_core_dct_destroy(cxprm_core *c, cxprm_u32 dctn, cxprm_core_result *res)
{
	if (!c)
		return E_INVAL;
	CmdResult r{};
	u16 op = prm::op::DESTROY_DCT;
	/* Drain, wait for DRAINED, destroy: the same for ioctl, close, remove. */
	int err = cmd::destroy_dct_drained(c->dev.cmdq(), dctn, cmd::DCT_DRAIN_TIMEOUT_NS, &r, &op);
	fill_result_op(res, r, op);
	return err == E_RANGE ? E_INVAL : err;
}

int cxprm_core_raw(cxprm_core *c, const void *in, cxprm_u32 inlen, void *out,
		   cxprm_u32 outlen, cxprm_core_result *res, cxprm_core_capture *cap)
{
	if (res)
		*res = {};
	if (!c || !in || !out || inlen < prm::INLINE_BYTES || outlen < prm::INLINE_BYTES)
		return E_INVAL;
	CmdResult r{};
	int err;
	if (cap) {
		CmdCapture k;
		k.blocks = cap->blocks;
		k.blocks_cap = cap->blocks ? cap->blocks_cap : 0;
		mem_zero(k.entry_posted, sizeof(k.entry_posted));
		mem_zero(k.entry_completed, sizeof(k.entry_completed));
		err = c->dev.cmdq().exec(in, inlen, out, outlen, &r, 0, &k);
		uapi::copy_dump(&cap->hdr, k, r);
	} else {
		err = c->dev.cmdq().exec(in, inlen, out, outlen, &r);
	}
	fill_result(res, r, in);
	return err;
}

int cxprm_core_raw_scope(cxprm_u16 opcode)
{
	namespace op = prm::op;
	switch (opcode) {
	/* The driver's own state: life cycle, pages, ISSI, its EQ and UAR. */
	case op::ENABLE_HCA:
	case op::DISABLE_HCA:
	case op::INIT_HCA:
	case op::TEARDOWN_HCA:
	case op::MANAGE_PAGES:
	case op::SET_ISSI:
	case op::CREATE_EQ:
	case op::DESTROY_EQ:
	case op::DEALLOC_UAR:
		return CXPRM_RAW_SCOPE_FORBIDDEN;
	default:
		break;
	}
	return prm::opcode_is_query(opcode) ? CXPRM_RAW_SCOPE_QUERY : CXPRM_RAW_SCOPE_WRITE;
}

cxprm_u16 cxprm_core_in_opcode(const void *in)
{
	const u8 *b = (const u8 *)in;
	return (u16)(b[0] << 8 | b[1]);
}

cxprm_u32 cxprm_core_stats(cxprm_core *c, cxprm_opcode_stats *out, cxprm_u32 max,
			   cxprm_u64 *total)
{
	if (total)
		*total = 0;
	if (!c || !queue_up(c))
		return 0;
	Cmdq &q = c->dev.cmdq();
	if (total)
		*total = q.stats_total();
	if (!out || !max)
		return 0;
	cmd::HostMem mem;
	if (mem.alloc(c->host, sizeof(OpcodeStats) * CmdStats::MAX_OPCODES))
		return 0;
	OpcodeStats *s = (OpcodeStats *)mem.data();
	u32 n = q.stats_opcodes(s, min_of<u32>(max, CmdStats::MAX_OPCODES));
	for (u32 i = 0; i < n; i++)
		uapi::copy_opstats(&out[i], s[i]);
	return n;
}

cxprm_u32 cxprm_core_last_cmds(cxprm_core *c, cxprm_core_cmd_record *out, cxprm_u32 max)
{
	if (!c || !out || !max || !queue_up(c))
		return 0;
	cmd::HostMem mem;
	if (mem.alloc(c->host, sizeof(CmdRecord) * CmdStats::RING))
		return 0;
	CmdRecord *r = (CmdRecord *)mem.data();
	u32 n = c->dev.cmdq().stats_last(r, min_of<u32>(max, CmdStats::RING));
	for (u32 i = 0; i < n; i++)
		uapi::copy_record(&out[i], r[i]);
	return n;
}

} // extern "C"

namespace {

void core_listener(void *ctx, const EqEvent &ev)
{
	cxprm_core *c = (cxprm_core *)ctx;
	if (c->listener)
		c->listener(c->listener_ctx, ev.type, ev.sub_type, ev.data);
}

} // namespace

extern "C" {

int cxprm_core_events_start(cxprm_core *c, const cxprm_core_events_config *cfg)
{
	if (!c || !cfg)
		return E_INVAL;
	if (c->ev.running())
		return E_BUSY;
	EventsConfig e;
	if (cfg->log_eq_size)
		e.log_eq_size = cfg->log_eq_size;
	e.intr = cfg->intr;
	e.command_events = cfg->command_events != 0;
	for (u32 i = 0; i < 4; i++)
		e.extra_mask[i] = cfg->extra_mask[i];
	c->listener = cfg->listener;
	c->listener_ctx = cfg->listener_ctx;
	e.listener = core_listener;
	e.listener_ctx = c;
	int err = c->ev.start(c->dev, e);
	c->command_events = !err && e.command_events;
	return err;
}

void cxprm_core_events_stop(cxprm_core *c)
{
	if (!c)
		return;
	c->ev.stop();
	c->command_events = false;
}

cxprm_u32 cxprm_core_events_poll(cxprm_core *c, cxprm_u32 budget)
{
	return c && c->ev.running() ? c->ev.poll(budget) : 0;
}

int cxprm_core_events_service(cxprm_core *c)
{
	return c && c->ev.running() ? c->ev.service() : OK;
}

int cxprm_core_events_pending(cxprm_core *c)
{
	return c && c->ev.running() && c->ev.pending();
}

void cxprm_core_events_stats(cxprm_core *c, cxprm_core_event_stats *st)
{
	*st = {};
	if (!c || !c->ev.running())
		return;
	uapi::copy_event_stats(st, c->ev.stats());
	for (u32 i = 0; i < 4; i++)
		st->subscribed[i] = c->ev.subscribed(i);
	st->running = 1;
	st->eqn = c->ev.eqn();
	st->uar = c->ev.uar();
	st->log_size = c->ev.ring().log_size();
	st->consumer_index = c->ev.ring().consumer_index();
	st->phase = c->ev.ring().phase();
}

cxprm_size cxprm_core_format(cxprm_core *c, int which, char *buf, cxprm_size cap, int *truncated)
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

const char *cxprm_core_opcode_name(cxprm_u16 opcode)
{
	return opname(opcode);
}

const char *cxprm_core_err_name(int err)
{
	return err_name(err);
}

const char *cxprm_core_status_name(cxprm_u8 status)
{
	return cmd_status_name(status);
}

const char *cxprm_core_event_name(cxprm_u8 type)
{
	const char *n = prm::event_name(type);
	return n ? n : "UNKNOWN";
}

} // extern "C"
