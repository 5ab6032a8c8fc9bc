// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// Dispatch: the opcode table (layouts, allowed HCA states, handler) and the
// checks every command goes through before its handler, in this order:
//   1. opcode known                      -> BAD_OP        (BAD_OPCODE)
//   2. inlen >= *_in layout size         -> BAD_INP_LEN   (INLEN_TOO_SHORT)
//   3. outlen >= *_out layout size       -> BAD_OUTP_LEN  (OUTLEN_TOO_SHORT)
//   4. header reserved bits clear        -> BAD_PARAM     (HDR_RESERVED)
//   5. HCA state runs this opcode        -> BAD_SYS_STATE (WRONG_STATE)
//   6. *_in reserved bits clear          -> BAD_PARAM     (IN_RESERVED)
//      (the header's uid bits excepted, whatever the layout calls them)
//   7. a nonzero uid names no live user context -> BAD_PARAM (BAD_UID),
//      or the command is the kernel's -> BAD_PARAM (UID_NOT_PERMITTED)
//      (handlers_uctx.cpp)
//   8. the handler
#include <algorithm>
#include <cstring>

#include "emu_device.h"

#include "cxprm/prm/adapter.h"
#include "cxprm/prm/dct.h"
#include "cxprm/prm/eq.h"
#include "cxprm/prm/esw.h"
#include "cxprm/prm/hca.h"
#include "cxprm/prm/issi.h"
#include "cxprm/prm/nvmf.h"
#include "cxprm/prm/pages.h"
#include "cxprm/prm/rmp.h"
#include "cxprm/prm/vport.h"
#include "cxprm/prm/pd_cq.h"
#include "cxprm/prm/qp.h"
#include "cxprm/prm/srq.h"
#include "cxprm/prm/reg.h"
#include "cxprm/prm/transport.h"
#include "cxprm/prm/uctx.h"
#include "cxprm/status.h"
#include "layout_check.h"
#include "op_layouts.h"

namespace cxprm::emu {

namespace op = prm::op;
namespace st = cxprm::cmd_status;

// --- syndromes ---

uint8_t syndrome_status(uint32_t s)
{
	switch (s) {
#define CXPRM_EMU_SYND_STATUS_(n, v, status, t) \
	case v:                                  \
		return st::status;
		CXPRM_EMU_SYNDROMES(CXPRM_EMU_SYND_STATUS_)
#undef CXPRM_EMU_SYND_STATUS_
	}
	return st::INT_ERR;
}

const char *syndrome_name(uint32_t s)
{
	switch (s) {
#define CXPRM_EMU_SYND_NAME_(n, v, status, t) \
	case v:                                \
		return #n;
		CXPRM_EMU_SYNDROMES(CXPRM_EMU_SYND_NAME_)
#undef CXPRM_EMU_SYND_NAME_
	}
	return nullptr;
}

const char *syndrome_text(uint32_t s)
{
	switch (s) {
#define CXPRM_EMU_SYND_TEXT_(n, v, status, t) \
	case v:                                \
		return t;
		CXPRM_EMU_SYNDROMES(CXPRM_EMU_SYND_TEXT_)
#undef CXPRM_EMU_SYND_TEXT_
	}
	return nullptr;
}

Result fail(uint32_t syndrome) { return Result{syndrome_status(syndrome), syndrome}; }

const char *hca_state_name(HcaState s)
{
	switch (s) {
	case HcaState::DISABLED:
		return "DISABLED";
	case HcaState::ENABLED:
		return "ENABLED";
	case HcaState::INITIALIZED:
		return "INITIALIZED";
	case HcaState::TORN_DOWN:
		return "TORN_DOWN";
	}
	return "?";
}

// --- the opcode table ---

namespace {
constexpr uint8_t S(HcaState s) { return (uint8_t)(1u << (unsigned)s); }
constexpr uint8_t DIS = S(HcaState::DISABLED), EN = S(HcaState::ENABLED), INIT = S(HcaState::INITIALIZED),
		  TD = S(HcaState::TORN_DOWN);
constexpr uint8_t UP = EN | INIT | TD; // enabled in any phase
constexpr uint8_t ANY = DIS | UP;
} // namespace

struct Device::OpDesc {
	uint16_t opcode;
	uint32_t in_bytes, out_bytes;
	uint8_t states;
	Result (Device::*fn)(Cmd &);
	bool (*reserved_ok)(const uint8_t *, uint32_t);
};

namespace {
// The layouts are the metadata table's (op_layouts.h).
template <uint16_t Code> constexpr Device::OpDesc opd(uint8_t states, Result (Device::*fn)(Cmd &))
{
	using In = typename OpLayouts<Code>::In;
	using Out = typename OpLayouts<Code>::Out;
	return Device::OpDesc{Code,
			      In::size_bytes,
			      Out::size_bytes,
			      states,
			      fn,
			      &reserved_clear_any_uid<In>};
}
} // namespace

const Device::OpDesc *Device::find_op(uint16_t opcode)
{
	using namespace prm;
	static const OpDesc table[] = {
		// States checked by the handlers: the BAR's own function
		// (DISABLED / ENABLED or TORN_DOWN) or another one (B5).
		opd<op::ENABLE_HCA>(ANY, &Device::enable_hca),
		opd<op::DISABLE_HCA>(ANY, &Device::disable_hca),
		opd<op::QUERY_ISSI>(UP, &Device::query_issi),
		opd<op::SET_ISSI>(EN, &Device::set_issi),
		opd<op::QUERY_PAGES>(UP, &Device::query_pages),
		opd<op::MANAGE_PAGES>(UP, &Device::manage_pages),
		opd<op::QUERY_HCA_CAP>(UP, &Device::query_hca_cap),
		opd<op::SET_HCA_CAP>(EN, &Device::set_hca_cap),
		opd<op::INIT_HCA>(EN, &Device::init_hca),
		opd<op::TEARDOWN_HCA>(INIT, &Device::teardown_hca),
		opd<op::QUERY_ADAPTER>(UP, &Device::query_adapter),
		opd<op::SET_DRIVER_VERSION>(INIT, &Device::set_driver_version),
		opd<op::NOP>(ANY, &Device::nop),
		opd<op::ALLOC_UAR>(INIT, &Device::alloc_uar),
		opd<op::DEALLOC_UAR>(INIT, &Device::dealloc_uar),
		opd<op::CREATE_EQ>(INIT, &Device::create_eq),
		opd<op::DESTROY_EQ>(INIT, &Device::destroy_eq),
		opd<op::QUERY_EQ>(INIT, &Device::query_eq),
		opd<op::CREATE_DCT>(INIT, &Device::create_dct),
		opd<op::DESTROY_DCT>(INIT, &Device::destroy_dct),
		opd<op::DRAIN_DCT>(INIT, &Device::drain_dct),
		opd<op::QUERY_DCT>(INIT, &Device::query_dct),
		opd<op::ARM_DCT_FOR_KEY_VIOLATION>(INIT, &Device::arm_dct),
		opd<op::ALLOC_PD>(INIT, &Device::alloc_pd),
		opd<op::DEALLOC_PD>(INIT, &Device::dealloc_pd),
		opd<op::CREATE_CQ>(INIT, &Device::create_cq),
		opd<op::DESTROY_CQ>(INIT, &Device::destroy_cq),
		opd<op::QUERY_CQ>(INIT, &Device::query_cq),
		opd<op::CREATE_SRQ>(INIT, &Device::create_srq),
		opd<op::DESTROY_SRQ>(INIT, &Device::destroy_srq),
		opd<op::QUERY_SRQ>(INIT, &Device::query_srq),
		opd<op::CREATE_RMP>(INIT, &Device::create_rmp),
		opd<op::DESTROY_RMP>(INIT, &Device::destroy_srq),
		opd<op::QUERY_RMP>(INIT, &Device::query_srq),
		opd<op::CREATE_QP>(INIT, &Device::create_qp),
		opd<op::RST2INIT_QP>(INIT, &Device::qp_transition),
		opd<op::INIT2RTR_QP>(INIT, &Device::qp_transition),
		opd<op::RTR2RTS_QP>(INIT, &Device::qp_transition),
		opd<op::QP_2RST>(INIT, &Device::qp_2rst),
		opd<op::DESTROY_QP>(INIT, &Device::destroy_qp),
		opd<op::CREATE_XRQ>(INIT, &Device::create_xrq),
		opd<op::DESTROY_XRQ>(INIT, &Device::destroy_xrq),
		opd<op::CREATE_NVMF_BACKEND_CTRL>(INIT, &Device::create_nvmf_be),
		opd<op::DESTROY_NVMF_BACKEND_CTRL>(INIT, &Device::destroy_nvmf_be),
		opd<op::ACCESS_REG>(UP, &Device::access_reg),
		opd<op::QUERY_NIC_VPORT_CONTEXT>(INIT, &Device::query_nic_vport),
		opd<op::MODIFY_NIC_VPORT_CONTEXT>(INIT, &Device::modify_nic_vport),
		opd<op::SET_ROCE_ADDRESS>(INIT, &Device::set_roce_address),
		opd<op::QUERY_ESW_FUNCTIONS>(INIT, &Device::query_esw_functions),
		opd<op::ATTACH_NVMF_NAMESPACE>(INIT, &Device::attach_nvmf_ns),
		opd<op::DETACH_NVMF_NAMESPACE>(INIT, &Device::detach_nvmf_ns),
		opd<op::QUERY_NVMF_NAMESPACE_CONTEXT>(INIT, &Device::query_nvmf_ns),
		opd<op::CREATE_UCTX>(INIT, &Device::create_uctx),
		opd<op::DESTROY_UCTX>(INIT, &Device::destroy_uctx),
	};
	return find_row<&OpDesc::opcode>(table, opcode);
}

// --- the device ---

Device::Device(Platform &platform, Bar &bar, const Profile &profile)
	: ssd(profile.nvmf.ssd), p_(platform), bar_(bar), prof_(profile)
{
	caps = profile.caps;
	num_vfs = profile.esw.num_vfs;
	init_functions();
}

bool Device::checksums_enabled() const { return cap_cur<prm::cmd_hca_cap::cmdif_checksum>() != 0; }

uint32_t Device::uar_limit() const
{
	size_t n = bar_.size() > bar_map::UAR_BASE ? (bar_.size() - bar_map::UAR_BASE) / bar_map::UAR_SIZE : 0;
	return (uint32_t)(n < prof_.max_uars ? n : prof_.max_uars);
}

Result Device::dispatch(Cmd &c)
{
	const OpDesc *d = find_op(c.opcode);
	if (!d) {
		counters.unknown_opcodes++;
		return fail(synd::BAD_OPCODE);
	}
	if (c.inlen < d->in_bytes)
		return fail(synd::INLEN_TOO_SHORT);
	if (c.outlen < d->out_bytes)
		return fail(synd::OUTLEN_TOO_SHORT);
	if (!reserved_clear<prm::cmd_in>(c.in))
		return fail(synd::HDR_RESERVED);
	if (!(d->states & S(state)))
		return fail(synd::WRONG_STATE);
	if (!d->reserved_ok(c.in, d->in_bytes))
		return fail(synd::IN_RESERVED);
	if (Result r = uid_check(c); r.status)
		return r;
	return (this->*d->fn)(c);
}

void Device::execute(const uint8_t *in, uint32_t inlen, uint8_t *out, uint32_t outlen)
{
	prm::CRef<prm::cmd_in> hdr(in);
	Cmd c{in,
	      inlen,
	      out,
	      outlen,
	      (uint16_t)prm::get<prm::cmd_in::opcode>(hdr),
	      (uint16_t)prm::get<prm::cmd_in::op_mod>(hdr),
	      (uint16_t)prm::get<prm::cmd_in::uid>(hdr)};
	Result r = dispatch(c);
	if (r.status != st::OK)
		std::memset(out, 0, outlen);
	prm::Ref<prm::cmd_out> o(out);
	prm::set<prm::cmd_out::status>(o, r.status);
	prm::set<prm::cmd_out::syndrome>(o, r.syndrome);
	opcode_counts[c.opcode]++;
	counters.commands_executed++;
	last_status = r.status;
	last_syndrome = r.syndrome;
}

void Device::execute_crashed(const uint8_t *in, uint32_t inlen, uint8_t *out, uint32_t outlen)
{
	(void)inlen;
	std::memset(out, 0, outlen);
	prm::Ref<prm::cmd_out> o(out);
	prm::set<prm::cmd_out::status>(o, st::INT_ERR);
	prm::set<prm::cmd_out::syndrome>(o, synd::FW_CRASHED);
	opcode_counts[(uint16_t)prm::get<prm::cmd_in::opcode>(prm::CRef<prm::cmd_in>(in))]++;
	counters.commands_executed++;
	last_status = st::INT_ERR;
	last_syndrome = synd::FW_CRASHED;
}

bool Device::tick(uint64_t now)
{
	bool did = false;
	now_ns = now;

	// DRAINING -> DRAINED, with DCT_DRAINED to whoever listens.
	if (now >= next_drained_ns) {
		next_drained_ns = UINT64_MAX;
		for (auto &[dctn, d] : dcts) {
			if (d.state != DctState::DRAINING)
				continue;
			if (d.drained_at_ns > now) {
				next_drained_ns = std::min(next_drained_ns, d.drained_at_ns);
				continue;
			}
			d.state = DctState::DRAINED;
			uint8_t data[prm::dct_events::size_bytes] = {};
			prm::set<prm::dct_events::dct_number>(prm::Ref<prm::dct_events>(data), dctn);
			post_event(prm::event::DCT_DRAINED, 0, data);
			did = true;
		}
	}

	// NVMF namespaces see some I/O now and then, so two queries differ.
	if (prof_.nvmf.auto_io_ms && !nvmf_auto_io_paused && !namespaces.empty()) {
		uint64_t period = (uint64_t)prof_.nvmf.auto_io_ms * 1000000ull;
		if (now - last_nvmf_tick_ns >= period) {
			uint64_t n = (now - last_nvmf_tick_ns) / period;
			last_nvmf_tick_ns += n * period;
			for (auto &[key, ns] : namespaces) {
				NvmfIo io;
				io.read_cmds = 3 * n;
				io.read_blocks = 24 * n;
				io.write_cmds = 2 * n;
				io.write_blocks = 16 * n;
				io.write_inline_cmds = n;
				io.flush_cmds = n / 4 + ((key.second + ns.c.read_cmds / 3) % 4 == 0);
				simulate_nvmf_io(key.first, key.second, io);
			}
			did = true;
		}
	} else {
		last_nvmf_tick_ns = now;
	}
	return did;
}

} // namespace cxprm::emu
