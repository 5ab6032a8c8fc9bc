// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The C facade (capi.h): one struct cxprm_core per device holding the
 * Device and its Events (capi_core.h), and extern "C" functions over them:
 * here the ABI glue; the debugfs texts are in capi_text.cpp, the event
 * queue's entry points in capi_events.cpp, the device's bookkeeping
 * (teardown totals, the state) in Device.  No library
 * header: the object is built in host->ops->mem_alloc memory with a
 * class-specific placement operator new, so neither <new> nor a global
 * operator new is needed, hosted or freestanding.
 */
#include "capi_core.h"

#include "cxprm/commands/dct.h"
#include "cxprm/commands/esw.h"
#include "cxprm/commands/hca.h"
#include "cxprm/commands/nvmf.h"
#include "cxprm/copy_fields.h"
#include "cxprm/device.h"
#include "cxprm/events.h"
#include "cxprm/health.h"
#include "cxprm/prm/opcodes.h"
#include "cxprm/prm/transport.h"
#include "cxprm/status.h"
#include "cxprm/text.h"
#include "capi_uapi.h"

using namespace cxprm;

namespace {

using capi::queue_up;

constexpr u32 NO_EQN = ~0u;

static_assert((u32)HEALTH_FOUND_FAILED == (u32)CXPRM_CORE_HEALTH_FAILED &&
	      (u32)HEALTH_FOUND_SYNDROME == (u32)CXPRM_CORE_HEALTH_SYNDROME &&
	      (u32)HEALTH_FOUND_STALL == (u32)CXPRM_CORE_HEALTH_STALL);
static_assert((int)DeviceStatus::DOWN == CXPRM_CORE_DOWN && (int)DeviceStatus::UP == CXPRM_CORE_UP &&
	      (int)DeviceStatus::ERROR == CXPRM_CORE_ERROR && (int)DeviceStatus::GONE == CXPRM_CORE_GONE);

/* The engine's result with the opcode and op_mod the call stands for. */
void fill_result_op(cxprm_core_result *out, const CmdResult &r, u16 opcode, u16 op_mod = 0)
{
	if (!out)
		return;
	*out = r;
	out->st.opcode = opcode;
	out->op_mod = op_mod;
}

} // namespace

namespace cxprm::capi {

int dct_create_prepare(cxprm_core *c, const cxprm_dctc *ctx, u8 *in, CmdResult *r, u16 *op)
{
	cmd::DctContext k;
	uapi::uapi_to_dctc(*ctx, &k);
	*op = 0;
	/*
	 * mlx5_ib: dctc.my_addr_index is a GID entry ib_core populated.
	 * Checked before RoCE is set up: a refused DCT sends nothing.
	 */
	if (cmd::encode_create_dct(in, k, 0) ||
	    (capi::roce_port(c) && k.my_addr_index >= capi::ROCE_DEFAULT_GIDS))
		return E_INVAL;
	*op = prm::op::CREATE_DCT;
	int err = capi::roce_use(c, r, op);
	if (err)
		return err;
	*op = prm::op::CREATE_DCT;
	if (capi::roce_port(c) && capi::roce_gid_version(c, (u32)k.my_addr_index) < 0) {
		*r = {};
		return E_INVAL;
	}
	return OK;
}

} // namespace cxprm::capi

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
	if (c->dbr.init_doorbell_records(host) || capi::roce_init(c)) {
		c->~cxprm_core();
		host->ops->mem_free(host->ctx, p);
		return E_NOMEM;
	}
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
	c->ev.release_kept();
	capi::roce_release(c);
	c->dev.teardown();
	capi::roce_fini(c);
	capi::orphans_release(c);
	capi::kept_release(c);
	capi::batch_kept_release(c);
	c->dbr.destroy(); /* after every queue's memory */
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
		b.cache_line_128byte = cfg->flags & CXPRM_CORE_CFG_CACHE_LINE_128;
	}
	c->command_events = false;
	int err = c->dev.bringup(c->host, b);
	c->up = err == OK;
	return err;
}

void cxprm_core_teardown(cxprm_core *c, cxprm_core_teardown_report *rep)
{
	if (!c)
		return;
	c->up = false;
	/* Objects of closed files others named, while the EQ is there. */
	cxprm_core_orphans_destroy(c);
	/* GIDs and roce_en, after every QP and DCT (mlx5_ib goes before mlx5_core). */
	capi::roce_release(c);
	cxprm_core_events_stop(c);
	TeardownReport t = c->dev.teardown();
	cxprm_core_teardown_report r{};
	CXPRM_COPY_FIELDS(r, t, pages_given, pages_reclaimed, pages_freed, pages_stranded, cmdq_stranded,
			  err, steps, failed_step);
	/*
	 * Queues of objects whose destroy failed: after a teardown that
	 * worked the firmware holds no object (TEARDOWN_HCA, DISABLE_HCA),
	 * else they wait for the reset as the stranded pages do.
	 */
	if (t.err)
		r.cmdq_stranded += capi::kept_count(c);
	else
		capi::kept_release(c);
	if (rep)
		*rep = r;
}

int cxprm_core_fast_unload(cxprm_core *c)
{
	return c ? c->dev.fast_unload() : E_INVAL;
}

int cxprm_core_shutdown(cxprm_core *c, cxprm_core_teardown_report *rep)
{
	if (!c)
		return E_INVAL;
	/* Linux shutdown(): mlx5_try_fast_unload before anything else. */
	int err = c->dev.fast_unload();
	cxprm_core_events_stop(c);
	cxprm_core_teardown(c, rep);
	return err;
}

cxprm_u64 cxprm_core_release_stranded(cxprm_core *c)
{
	if (!c)
		return 0;
	capi::kept_release(c);
	c->ev.release_kept();
	return c->dev.release_stranded_pages();
}

int cxprm_core_state(cxprm_core *c)
{
	if (!c)
		return CXPRM_CORE_DOWN;
	return (int)c->dev.status(c->host);
}

void cxprm_core_get_info(cxprm_core *c, cxprm_core_info *info)
{
	if (!info)
		return;
	*info = {};
	if (!c)
		return;
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
	info->comp_eqn = c->ev.comp_eqn_now();
	info->events_running = c->ev.running();
	info->command_events = c->ev.running() && c->command_events;
	HealthStatus hs = d.health().status();
	/* Kept after a teardown: a recovery's, or the failure it ended in. */
	info->failed_err = hs.failed;
	info->recoveries = hs.recoveries;
	info->recovery = hs.recovery;
	info->recovery_err = hs.recovery_err;
	info->recovery_attempts = hs.attempts;
	if (queue_up(c)) {
		Cmdq &q = d.cmdq();
		info->cmdq_entries = q.entries();
		info->cmdq_log_stride = q.log_stride();
		info->cmds_in_flight = q.in_flight();
		info->commands = q.stats_total();
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
	} else if (d.torn_down()) {
		info->pages_given = d.last_teardown().pages_given;
		info->pages_reclaimed = d.last_teardown().pages_reclaimed;
		info->pages_live = d.last_teardown().pages_stranded;
	}
}

int cxprm_core_health_poll(cxprm_core *c)
{
	if (!c || !queue_up(c) || c->dev.state() != DeviceState::UP)
		return OK;
	return c->dev.health().poll();
}

int cxprm_core_health_check(cxprm_core *c, cxprm_u32 *found)
{
	u32 news = 0;
	int err = OK;
	if (c && queue_up(c) && c->dev.state() == DeviceState::UP)
		err = c->dev.health().poll(&news);
	if (found)
		*found = news;
	return err;
}

int cxprm_core_failed(cxprm_core *c)
{
	return c ? c->dev.health().failed() : OK;
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
	uapi::copy_status(&ns->st, r, prm::op::QUERY_NVMF_NAMESPACE_CONTEXT);
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
	uapi::copy_status(&esw->st, r, prm::op::QUERY_ESW_FUNCTIONS);
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
	*dctn = 0;
	CmdResult r{};
	u16 op = 0;
	u8 in[prm::create_dct_in::size_bytes], out[cmd::out_size<prm::create_dct_out>()];
	int err = capi::dct_create_prepare(c, ctx, in, &r, &op);
	if (!err)
		err = cmd::exec(c->dev.cmdq(), in, sizeof(in), out, sizeof(out), &r);
	if (!err)
		err = cmd::decode_create_dct(out, sizeof(out), dctn, nullptr);
	if (op)
		fill_result_op(res, r, op);
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
	if (cap)
		cap->hdr = {};
	/* The engine fills the result and the capture (cmd_result.h) itself. */
	return c->dev.cmdq().exec(in, inlen, out, outlen, res, 0, cap);
}

int cxprm_core_raw_scope(cxprm_u16 opcode, cxprm_u16 op_mod)
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
	return prm::opcode_is_query(opcode, op_mod) ? CXPRM_RAW_SCOPE_QUERY : CXPRM_RAW_SCOPE_WRITE;
}

cxprm_u16 cxprm_core_in_opcode(const void *in)
{
	return (u16)prm::get<prm::cmd_in::opcode>(prm::CRef<prm::cmd_in>(in));
}

cxprm_u16 cxprm_core_in_op_mod(const void *in)
{
	return (u16)prm::get<prm::cmd_in::op_mod>(prm::CRef<prm::cmd_in>(in));
}

int cxprm_core_raw_scope_in(const void *in)
{
	return cxprm_core_raw_scope(cxprm_core_in_opcode(in), cxprm_core_in_op_mod(in));
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

const char *cxprm_core_opcode_name(cxprm_u16 opcode)
{
	return capi::opname(opcode);
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
