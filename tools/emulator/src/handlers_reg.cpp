// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// ACCESS_REG (0x805): the core's register table (prm/reg.h
// CXPRM_REGISTERS: id, layout, writable), answered here and in
// handlers_reg_port.cpp / handlers_reg_mng.cpp.
//
//   HOST_ENDIANNESS 0x7004  read/write: 'he' stored, read back (both op_mods
//                           answer the stored register)
//   PCAM 0x507f             read-only, cap pcam_reg; groups 0/0 only
//   MCAM 0x907f             read-only, cap mcam_reg; feature group 0,
//                           access-register groups 0..3
//   QCAM 0x4019             read-only, cap qcam_reg; groups 0/0 only
//   DTOR 0xc00e             read-only, cap dtor; Profile::regs.dtor_ms
//   PAOS, PTYS, PMTU, PPCNT handlers_reg_port.cpp
//   MGIR, MTRC_CAP, MCIA    handlers_reg_mng.cpp
//   anything else           BAD_PARAM, REG_UNKNOWN
//
// The message is 16 bytes + the register in both directions (mlx5_core:
// 32/32 HOST_ENDIANNESS, 96/96 PCAM, 88/88 MCAM, 80/80 DTOR).  Shorter is
// BAD_INP_LEN / BAD_OUTP_LEN; longer too unless regs.exact_length is off.
// Reserved bits of the input register data must be clear; a register the
// table says firmware does not write answers a write REG_READ_ONLY.
#include <cstring>

#include "emu_device.h"

#include "cxprm/prm/reg.h"
#include "layout_check.h"

namespace cxprm::emu {

using prm::CRef;
using prm::Ref;
namespace rid = prm::reg_id;

namespace {

struct RegDesc {
	uint16_t id;
	uint32_t bytes;
	bool writable;
	bool (*reserved_ok)(const uint8_t *, uint32_t);
};

// One row per row of the core's table.
#define CXPRM_EMU_REG_(n, id, l, port, w) {id, prm::l::size_bytes, w, &reserved_clear<prm::l>},
constexpr RegDesc regs[] = {CXPRM_REGISTERS(CXPRM_EMU_REG_)};
#undef CXPRM_EMU_REG_

const RegDesc *find_reg(uint16_t id) { return find_row<&RegDesc::id>(regs, id); }

// PCAM / QCAM: the query names feature group 0 and access-register group
// 0, the only ones modelled.
template <class L> bool first_groups(const uint8_t *data)
{
	CRef<L> q(data);
	return !prm::get<typename L::feature_group>(q) && !prm::get<typename L::access_reg_group>(q);
}

void put_timeout(uint8_t *p, uint32_t ms)
{
	// ms when it fits in to_value's 20 bits, else seconds, else minutes.
	uint32_t mul = 0;
	while (mul < 2 && ms > 0xfffff) {
		ms /= mul == 0 ? 1000 : 60;
		mul++;
	}
	Ref<prm::default_timeout> t(p);
	prm::set<prm::default_timeout::to_multiplier>(t, mul);
	prm::set<prm::default_timeout::to_value>(t, ms > 0xfffff ? 0xfffff : ms);
}

} // namespace

Result Device::access_reg(Cmd &c)
{
	CRef<prm::access_register_in> in(c.in);
	const uint16_t id = (uint16_t)prm::get<prm::access_register_in::register_id>(in);
	if (c.op_mod != prm::access_reg_op::WRITE && c.op_mod != prm::access_reg_op::READ)
		return fail(synd::BAD_OP_MOD);
	const RegDesc *r = find_reg(id);
	if (!r)
		return fail(synd::REG_UNKNOWN);
	const uint32_t hdr = prm::access_register_in::size_bytes;
	const uint32_t need_in = hdr + r->bytes, need_out = prm::access_register_out::size_bytes + r->bytes;
	if (c.inlen < need_in || (prof_.regs.exact_length && c.inlen != need_in))
		return fail(synd::REG_INLEN);
	if (c.outlen < need_out || (prof_.regs.exact_length && c.outlen != need_out))
		return fail(synd::REG_OUTLEN);
	if (prm::get<prm::access_register_in::argument>(in) != 0)
		return fail(synd::REG_BAD_ARGUMENT);
	const bool write = c.op_mod == prm::access_reg_op::WRITE;
	if (write && !r->writable)
		return fail(synd::REG_READ_ONLY);
	const uint8_t *data = c.in + hdr;
	if (!r->reserved_ok(data, r->bytes))
		return fail(synd::REG_RESERVED);
	uint8_t *o = c.out + prm::access_register_out::size_bytes;

	switch (id) {
	case rid::HOST_ENDIANNESS: {
		using he = prm::register_host_endianness;
		if (prof_.functions.vf)
			return fail(synd::REG_VF_HOST_ENDIANNESS);
		if (write)
			host_endianness = (uint8_t)prm::get<he::he>(CRef<he>(data));
		prm::set<he::he>(Ref<he>(o), host_endianness);
		counters.host_endianness_writes += write;
		return Result::ok();
	}
	case rid::PCAM: {
		using pc = prm::pcam_reg;
		if (!cap_cur<prm::cmd_hca_cap::pcam_reg>())
			return fail(synd::REG_NOT_ADVERTISED);
		if (!first_groups<pc>(data))
			return fail(synd::REG_BAD_GROUP);
		Ref<pc> a(o);
		std::memcpy(prm::bytes<pc::port_access_reg_cap_mask>(a), prof_.regs.pcam_port_access_reg_cap_mask.data(),
			    16);
		std::memcpy(prm::bytes<pc::feature_cap_mask>(a), prof_.regs.pcam_feature_cap_mask.data(), 16);
		return Result::ok();
	}
	case rid::MCAM: {
		using mc = prm::mcam_reg;
		if (!cap_cur<prm::cmd_hca_cap::mcam_reg>())
			return fail(synd::REG_NOT_ADVERTISED);
		CRef<mc> q(data);
		uint32_t group = (uint32_t)prm::get<mc::access_reg_group>(q);
		if (prm::get<mc::feature_group>(q) || group >= prof_.regs.mcam_access_reg_cap_mask.size())
			return fail(synd::REG_BAD_GROUP);
		Ref<mc> a(o);
		prm::set<mc::access_reg_group>(a, group);
		std::memcpy(prm::bytes<mc::mng_access_reg_cap_mask>(a),
			    prof_.regs.mcam_access_reg_cap_mask[group].data(), 16);
		std::memcpy(prm::bytes<mc::mng_feature_cap_mask>(a), prof_.regs.mcam_feature_cap_mask.data(), 16);
		return Result::ok();
	}
	case rid::QCAM: // no QoS register is modelled: both masks stay zero
		if (!cap_cur<prm::cmd_hca_cap::qcam_reg>())
			return fail(synd::REG_NOT_ADVERTISED);
		return first_groups<prm::qcam_reg>(data) ? Result::ok() : fail(synd::REG_BAD_GROUP);
	case rid::DTOR: {
		using dt = prm::dtor_reg;
		// Linux reads DTOR whenever the init segment publishes
		// cmd_q_init_to (lib/tout.c tout_is_supported), so firmware that
		// publishes it answers DTOR whatever cap dtor says.
		if (!cap_cur<prm::cmd_hca_cap::dtor>() && !prof_.cmd_q_init_to_ms)
			return fail(synd::REG_NOT_ADVERTISED);
		Ref<dt> a(o);
		uint8_t *fields[] = {
			prm::bytes<dt::pcie_toggle_to>(a),     prm::bytes<dt::health_poll_to>(a),
			prm::bytes<dt::full_crdump_to>(a),     prm::bytes<dt::fw_reset_to>(a),
			prm::bytes<dt::flush_on_err_to>(a),    prm::bytes<dt::pci_sync_update_to>(a),
			prm::bytes<dt::tear_down_to>(a),       prm::bytes<dt::fsm_reactivate_to>(a),
			prm::bytes<dt::reclaim_pages_to>(a),   prm::bytes<dt::reclaim_vfs_pages_to>(a),
		};
		static_assert(sizeof(fields) / sizeof(fields[0]) == std::tuple_size_v<decltype(RegisterProfile::dtor_ms)>);
		for (size_t i = 0; i < prof_.regs.dtor_ms.size(); i++)
			put_timeout(fields[i], prof_.regs.dtor_ms[i]);
		return Result::ok();
	}
	case rid::PAOS:
	case rid::PTYS:
	case rid::PMTU:
	case rid::PPCNT:
		return reg_port(id, write, data, o);
	case rid::MGIR:
	case rid::MTRC_CAP:
	case rid::MCIA:
		return reg_mng(id, write, data, o);
	}
	return fail(synd::REG_UNKNOWN);
}

} // namespace cxprm::emu
