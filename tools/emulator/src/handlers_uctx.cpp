// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// User contexts: CREATE_UCTX / DESTROY_UCTX, the rules for the uid every
// command header carries (bits 0x10..0x1f of dword 0) and object ownership
// (Documentation/prm-notes-uctx.rst).  Known (Linux 7.3 fwctl/mlx5 main.c
// mlx5ctl_alloc_uid / mlx5ctl_fw_rpc, mlx5_ib devx.c): the kernel (uid 0)
// creates a context and gets its uid; the uid then goes into the header of
// every command of that user, whatever its layout calls those bits.  The
// rest is the strictest plausible reading, with ObjectProfile's knobs:
//   - CREATE_UCTX from uid 0 only; uctx.cap within cap uctx_cap
//     (UCTX_BAD_CAP); at most 2^log_max_uctx (UCTX_EXHAUSTED); uids from 1,
//     the lowest free.
//   - DESTROY_UCTX (destroy_uctx_in.uid, dword 2) of no live context:
//     UCTX_UNKNOWN; of one owning objects: UCTX_IN_USE
//     (uctx_destroy_requires_empty; lenient: its objects stay).
//   - a nonzero header uid names a live context (BAD_UID), and may not run
//     the kernel's commands (UID_NOT_PERMITTED, uid_check below).
//   - objects belong to the uid that created them (owned()).
#include "emu_device.h"

#include "cxprm/prm/hca.h"
#include "cxprm/prm/hca_cap.h"
#include "cxprm/prm/uctx.h"

namespace cxprm::emu {

namespace op = prm::op;
using prm::CRef;
using prm::Ref;

namespace {
constexpr uint16_t SHARED_RESOURCE_UID = 0xffff; // CREATE_EQ's (handlers_eq.cpp)

// Commands only the kernel runs: bring-up and teardown, pages, EQs, UARs,
// user contexts, the function's vport and GID table.
bool kernel_only(uint16_t opcode)
{
	switch (opcode) {
	case op::ENABLE_HCA:
	case op::DISABLE_HCA:
	case op::SET_ISSI:
	case op::INIT_HCA:
	case op::TEARDOWN_HCA:
	case op::MANAGE_PAGES:
	case op::CREATE_EQ:
	case op::DESTROY_EQ:
	case op::ALLOC_UAR:
	case op::DEALLOC_UAR:
	case op::SET_DRIVER_VERSION:
	case op::CREATE_UCTX:
	case op::DESTROY_UCTX:
	case op::MODIFY_NIC_VPORT_CONTEXT:
	case op::SET_ROCE_ADDRESS:
		return true;
	}
	return false;
}
} // namespace

Result Device::uid_check(const Cmd &c) const
{
	if (c.uid == 0)
		return Result::ok();
	auto it = uctxs.find(c.uid);
	if (it == uctxs.end()) {
		// CREATE_EQ keeps its own rule for a uid that names no context
		// (SHARED_RESOURCE_UID taken, anything else EQ_BAD_UID).
		if (c.opcode == op::CREATE_EQ)
			return Result::ok();
		return fail(synd::BAD_UID);
	}
	if (c.opcode == op::CREATE_EQ && c.uid == SHARED_RESOURCE_UID)
		return Result::ok();
	bool tools = it->second.cap & prm::uctx_cap::TOOLS_RESOURCES;
	if (kernel_only(c.opcode))
		return fail(synd::UID_NOT_PERMITTED);
	switch (c.opcode) {
	case op::SET_HCA_CAP:
		// fwctl/mlx5: "FW limits SET_HCA_CAP on the tools UID to only
		// the other function mode".
		if (!tools || !prm::get<prm::set_hca_cap_in::other_function>(CRef<prm::set_hca_cap_in>(c.in)))
			return fail(synd::UID_NOT_PERMITTED);
		break;
	case op::ACCESS_REG:
		// Reads and writes alike (strict): registers are the tools'.
		if (!tools)
			return fail(synd::UID_NOT_PERMITTED);
		break;
	}
	return Result::ok();
}

Result Device::create_uctx(Cmd &c)
{
	CRef<prm::uctx> u = prm::sub<prm::create_uctx_in::uctx, prm::uctx>(CRef<prm::create_uctx_in>(c.in));
	uint32_t cap = (uint32_t)prm::get<prm::uctx::cap>(u);
	if (cap & ~(uint32_t)cap_cur<prm::cmd_hca_cap::uctx_cap>())
		return fail(synd::UCTX_BAD_CAP);
	uint64_t max = 1ull << cap_cur<prm::cmd_hca_cap::log_max_uctx>();
	if (uctxs.size() >= max)
		return fail(synd::UCTX_EXHAUSTED);
	uint16_t uid = 1;
	while (uctxs.count(uid))
		uid++;
	if (uid == SHARED_RESOURCE_UID)
		return fail(synd::UCTX_EXHAUSTED);
	uctxs[uid].cap = cap;
	prm::set<prm::create_uctx_out::uid>(Ref<prm::create_uctx_out>(c.out), uid);
	return Result::ok();
}

Result Device::destroy_uctx(Cmd &c)
{
	uint16_t uid = (uint16_t)prm::get<prm::destroy_uctx_in::uid>(CRef<prm::destroy_uctx_in>(c.in));
	auto it = uctxs.find(uid);
	if (uid == 0 || it == uctxs.end())
		return fail(synd::UCTX_UNKNOWN);
	if (prof_.objects.uctx_destroy_requires_empty)
		for (const auto &[key, owner] : owners)
			if (owner == uid)
				return fail(synd::UCTX_IN_USE);
	uctxs.erase(it);
	return Result::ok();
}

uint16_t Device::owner_of(Obj kind, uint64_t n) const
{
	auto it = owners.find({kind, n});
	return it == owners.end() ? 0 : it->second;
}

void Device::own(Obj kind, uint64_t n, uint16_t uid)
{
	if (uid)
		owners[{kind, n}] = uid;
	else
		owners.erase({kind, n});
}

void Device::disown(Obj kind, uint64_t n)
{
	owners.erase({kind, n});
	// A provisioned object, once destroyed, is no longer provisioned.
	static constexpr struct {
		Obj kind;
		uint32_t Provisioned::*number;
	} provisioned[] = {
		{Obj::PD, &Provisioned::pd},
		{Obj::CQ, &Provisioned::cqn},
		{Obj::XRQ, &Provisioned::xrqn},
		{Obj::DCT, &Provisioned::dctn},
	};
	for (const auto &p : provisioned)
		if (p.kind == kind && prov.*p.number == n)
			prov.*p.number = 0;
	if (kind == Obj::NVMF_BE && prov.backend_ctrl && be_key(prov.xrqn, prov.backend_ctrl) == n)
		prov.backend_ctrl = 0;
}

Result Device::known_owned(const Cmd &c, bool known, uint32_t unknown, Obj kind, uint64_t n, bool query) const
{
	if (!known)
		return fail(unknown);
	return owned(c, kind, n, query);
}

Result Device::owned(const Cmd &c, Obj kind, uint64_t n, bool query) const
{
	uint16_t owner = owner_of(kind, n);
	if (owner == c.uid)
		return Result::ok();
	if (c.uid == 0 && prof_.objects.uid0_acts_on_any)
		return Result::ok();
	if (query && c.uid != 0) {
		auto it = uctxs.find(c.uid);
		if (it != uctxs.end() && (it->second.cap & prm::uctx_cap::TOOLS_RESOURCES))
			return Result::ok();
	}
	return fail(synd::OBJ_NOT_OWNED);
}

} // namespace cxprm::emu
