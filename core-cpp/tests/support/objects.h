// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// The objects a DCT or an NVMF namespace names, made for real: the
// emulator's object model is strict (a PD, CQ, SRQ, XRQ or backend that
// was not created is BAD_RES; issue 15), so the core's tests create what
// they name, through either front of the core:
// - CmdObjects: the typed commands on a Cmdq (commands/objects.h, nvmf.h),
//   the CQs on a UAR and an EQ of its own; destroy() undoes everything,
//   last made first (the dependency order), then frees the queue memory.
// - obj_* and capi_*_refs: the capi's object ioctls on a file's table
//   (cxprm_core_ioc_obj; a CQ needs the driver's EQ: events running);
//   cxprm_core_objs_destroy() undoes them.
// Tests of made-up numbers say so: Profile::make_lenient() or
// ObjectProfile::check_refs = false where that is their point.
#pragma once

#include "harness.h"

#include <gtest/gtest.h>

#include <memory>
#include <vector>

#include "cxprm/capi.h"
#include "cxprm/commands/eq.h"
#include "cxprm/commands/nvmf.h"
#include "cxprm/commands/objects.h"
#include "cxprm/commands/vport.h"
#include "cxprm/eq_ring.h"
#include "cxprm/queue_mem.h"
#include "cxprm/status.h"

namespace cxprm::test {

// The sizes of what both fronts make.
constexpr uint8_t OBJ_LOG_CQ = 6, OBJ_LOG_SRQ = 6, OBJ_LOG_SRQ_STRIDE = 2;
// OBJ_LOG_XRQ_STRIDE: log2 bytes (wq.log_wq_stride), 256-byte WQEs.
constexpr uint8_t OBJ_LOG_XRQ = 4, OBJ_LOG_XRQ_STRIDE = 8, OBJ_LOG_MAX_NS = 2, OBJ_LOG_EQ = 6;
constexpr uint32_t OBJ_XRQ_STAGING_PAGES = 2;

// What a DCT names.
struct DctRefs {
	uint32_t pd = 0, cqn = 0, srqn = 0;
	bool ok() const { return pd && cqn && srqn; }
	// c naming these objects (C: cmd::DctContext or the UAPI's cxprm_dctc).
	template <class C> C on(C c) const
	{
		c.pd = pd;
		c.cqn = cqn;
		c.srqn_xrqn = srqn;
		return c;
	}
	// The smallest dctc the emulator accepts on them: mtu 5, port 1.
	template <class C> C basic() const
	{
		C c{};
		set_dct_required(c, pd, cqn, srqn);
		return c;
	}
};

// What an NVMF namespace names: an XRQ with NVMF offload, a backend
// controller on it.
struct NvmfRefs {
	uint32_t xrqn = 0;
	uint16_t backend = 0;
	bool ok() const { return xrqn && backend; }
};

// m gets bytes of coherent DMA and p (any queue's params) its buffer's
// pages and doorbell record.
template <class P> int place_queue(const cxprm_host *host, QueueMem &m, usize bytes, P &p)
{
	int err = m.init(host, bytes);
	if (err != OK)
		return err;
	p.buf_bus = m.page_bus(0);
	p.buf_pages = m.npages();
	p.dbr_bus = m.dbr_bus();
	return OK;
}

class CmdObjects {
public:
	enum class Kind { PD, CQ, SRQ, XRQ, BACKEND };

	CmdObjects(const cxprm_host *host, Cmdq &q) : host_(host), q_(q) {}
	CmdObjects(const CmdObjects &) = delete;
	CmdObjects &operator=(const CmdObjects &) = delete;
	// Frees the queue memory: destroy() first, while the device is up.
	~CmdObjects() = default;

	// A PD, a CQ and an SRQ on that PD (the first call makes the UAR and EQ).
	// RoCE as a driver sets it up before a DCT or an RC QP's INIT2RTR on
	// an Ethernet port (the emulator checks it): roce_en and GID entries
	// 0..ROCE_TEST_GIDS-1 (full_dct() names 3).
	static constexpr uint16_t ROCE_TEST_GIDS = 4;
	int enable_roce(CmdResult *res = nullptr)
	{
		int err = cmd::modify_nic_vport_roce(q_, true, res);
		for (uint16_t i = 0; err == OK && i < ROCE_TEST_GIDS; i++) {
			cmd::RoceAddr a;
			a.index = i;
			a.gid[0] = 0xfe;
			a.gid[1] = 0x80;
			a.gid[15] = (uint8_t)(i + 1);
			a.mac[5] = 1;
			err = cmd::set_roce_address(q_, a, res);
		}
		return err;
	}

	int make_dct_refs(DctRefs *out, CmdResult *res = nullptr)
	{
		*out = {};
		int err = make_base(res);
		if (err == OK)
			err = enable_roce(res);
		if (err == OK)
			err = cmd::alloc_pd(q_, &out->pd, 0, res);
		if (err != OK)
			return err;
		made_.emplace_back(Kind::PD, out->pd);
		cmd::CqParams cp;
		cp.log_cq_size = OBJ_LOG_CQ;
		cp.uar_page = uar_;
		cp.eqn = eqn_;
		err = make_queue(Kind::CQ, cp, cmd::queue_bytes(OBJ_LOG_CQ, 64), &out->cqn,
				 [&](uint32_t *n) { return cmd::create_cq(q_, cp, n, res); });
		if (err != OK)
			return err;
		cmd::SrqParams sp;
		sp.log_srq_size = OBJ_LOG_SRQ;
		sp.log_rq_stride = OBJ_LOG_SRQ_STRIDE;
		sp.pd = out->pd;
		return make_queue(Kind::SRQ, sp, cmd::queue_bytes(OBJ_LOG_SRQ, 16u << OBJ_LOG_SRQ_STRIDE), &out->srqn,
				  [&](uint32_t *n) { return cmd::create_srq(q_, sp, n, res); });
	}

	// An XRQ with NVMF offload on r's PD and CQ (room for 2^OBJ_LOG_MAX_NS
	// namespaces) and a backend controller on it, driving NVMe queue pair
	// ssd (the emulator's nvme_take_queue()).
	int make_nvmf_refs(const DctRefs &r, const emu::NvmeQueueInfo &ssd, NvmfRefs *out,
			   CmdResult *res = nullptr)
	{
		*out = {};
		cmd::XrqNvmfParams xp;
		xp.cqn = r.cqn;
		xp.pd = r.pd;
		xp.log_wq_sz = OBJ_LOG_XRQ;
		xp.log_wq_stride = OBJ_LOG_XRQ_STRIDE;
		xp.log_max_namespace = OBJ_LOG_MAX_NS;
		xp.nvme_queue_size = ssd.depth;
		auto staging = std::make_unique<QueueMem>();
		int err = staging->init(host_, OBJ_XRQ_STAGING_PAGES * QueueMem::PAGE);
		if (err != OK)
			return err;
		xp.staging_bus = staging->page_bus(0);
		xp.staging_pages = staging->npages();
		err = make_queue(Kind::XRQ, xp, cmd::queue_bytes(OBJ_LOG_XRQ, 1u << OBJ_LOG_XRQ_STRIDE), &out->xrqn,
				 [&](uint32_t *n) { return cmd::create_xrq_nvmf(q_, xp, n, res); }, std::move(staging));
		if (err != OK)
			return err;
		Made m(Kind::BACKEND, 0, out->xrqn);
		const cmd::NvmfBackendParams bp{.xrqn = out->xrqn, .cq_bus = ssd.cq_bus, .sq_bus = ssd.sq_bus,
						.cqh_db_bus = cmd::nvme_cq_head_doorbell(ssd.sqt_db_bus, ssd.db_stride),
						.sqt_db_bus = ssd.sqt_db_bus, .queue_depth = ssd.depth};
		if ((err = cmd::create_nvmf_backend_ctrl(q_, bp, &out->backend, res)) != OK)
			return err;
		m.n = out->backend;
		made_.push_back(std::move(m));
		return OK;
	}

	// Everything made, last first, then the EQ and UAR; the queue memory
	// only when all went (else the device may still write it).  OK or the
	// first error (the rest is still tried).
	int destroy()
	{
		int first = OK;
		auto note = [&first](int err) {
			if (first == OK)
				first = err;
		};
		for (auto it = made_.rbegin(); it != made_.rend(); ++it)
			note(destroy_one(*it));
		if (eq_made_)
			note(cmd::destroy_eq(q_, eqn_));
		if (uar_made_)
			note(cmd::dealloc_uar(q_, uar_));
		eq_made_ = uar_made_ = false;
		if (first == OK) {
			made_.clear();
			ring_.fini();
		}
		return first;
	}

	uint32_t uar() const { return uar_; }
	uint8_t eqn() const { return eqn_; }
	// The queue memory of CQ, SRQ or XRQ n made here, else nullptr.
	const QueueMem *queue_of(Kind k, uint32_t n) const
	{
		for (const Made &m : made_)
			if (m.kind == k && m.n == n)
				return m.mem[0].get();
		return nullptr;
	}

private:
	struct Made {
		Made(Kind k, uint32_t number = 0, uint32_t on_xrqn = 0) : kind(k), n(number), xrqn(on_xrqn) {}
		Kind kind;
		uint32_t n, xrqn;
		std::unique_ptr<QueueMem> mem[2];
	};

	int make_base(CmdResult *res)
	{
		if (eq_made_)
			return OK;
		int err = uar_made_ ? OK : cmd::alloc_uar(q_, &uar_, res);
		if (err != OK)
			return err;
		uar_made_ = true;
		if ((err = ring_.init(host_, OBJ_LOG_EQ)) != OK)
			return err;
		uint64_t pas[1] = {ring_.page_bus(0)};
		cmd::EqParams ep;
		ep.log_eq_size = OBJ_LOG_EQ;
		ep.uar_page = uar_;
		ep.pas = pas;
		ep.npas = 1;
		err = cmd::create_eq(q_, ep, &eqn_, res);
		eq_made_ = err == OK;
		return err;
	}

	// A CQ, SRQ or XRQ: its memory placed in p, then create(&number).
	// second: more memory the object names (an XRQ's staging buffer).
	template <class P, class F>
	int make_queue(Kind k, P &p, u64 bytes, uint32_t *number, F create, std::unique_ptr<QueueMem> second = nullptr)
	{
		Made m(k);
		m.mem[0] = std::make_unique<QueueMem>();
		m.mem[1] = std::move(second);
		int err = place_queue(host_, *m.mem[0], bytes, p);
		if (err == OK)
			err = create(number);
		if (err != OK)
			return err;
		m.n = *number;
		made_.push_back(std::move(m));
		return OK;
	}

	int destroy_one(const Made &m)
	{
		switch (m.kind) {
		case Kind::PD:
			return cmd::dealloc_pd(q_, m.n);
		case Kind::CQ:
			return cmd::destroy_cq(q_, m.n);
		case Kind::SRQ:
			return cmd::destroy_srq(q_, m.n);
		case Kind::XRQ:
			return cmd::destroy_xrq(q_, m.n);
		case Kind::BACKEND:
			return cmd::destroy_nvmf_backend_ctrl(q_, m.xrqn, (uint16_t)m.n);
		}
		return E_INVAL;
	}

	const cxprm_host *host_;
	Cmdq &q_;
	std::vector<Made> made_;
	EqRing ring_;
	uint32_t uar_ = 0;
	uint8_t eqn_ = 0;
	bool uar_made_ = false, eq_made_ = false;
};

// --- the capi's object ioctls ------------------------------------------------

// The ConnectX-7 the object tests run on: few boot/init pages, no
// automatic NVMF I/O (deterministic counters), strict knobs.
inline emu::Profile objects_cx7()
{
	auto p = emu::Profile::connectx7();
	p.boot_pages = 16;
	p.init_pages = 16;
	p.nvmf.auto_io_ms = 0;
	return p;
}

inline cxprm_obj obj_of(uint32_t type, uint32_t id = 0, uint32_t parent = 0)
{
	cxprm_obj o{};
	o.type = type;
	o.id = id;
	o.parent = parent;
	return o;
}
inline cxprm_obj obj_cq(uint8_t log = OBJ_LOG_CQ)
{
	cxprm_obj o = obj_of(CXPRM_OBJ_CQ);
	o.u.cq.log_size = log;
	return o;
}
inline cxprm_obj obj_srq(uint32_t pd, uint8_t log = OBJ_LOG_SRQ)
{
	cxprm_obj o = obj_of(CXPRM_OBJ_SRQ);
	o.u.srq.pd = pd;
	o.u.srq.log_size = log;
	o.u.srq.log_stride = OBJ_LOG_SRQ_STRIDE;
	return o;
}
inline cxprm_obj obj_xrq(uint32_t pd, uint32_t cqn)
{
	cxprm_obj o = obj_of(CXPRM_OBJ_XRQ);
	o.u.xrq.pd = pd;
	o.u.xrq.cqn = cqn;
	o.u.xrq.log_size = OBJ_LOG_XRQ;
	o.u.xrq.log_stride = OBJ_LOG_XRQ_STRIDE;
	o.u.xrq.log_max_namespace = OBJ_LOG_MAX_NS;
	o.u.xrq.ioccsz = 4;
	o.u.xrq.nvme_queue_size = emu::NvmeSsdProfile{}.queue_depth;
	return o;
}
// A backend controller on NVMe queue pair q (Emulator::nvme_take_queue).
inline cxprm_obj obj_backend(uint32_t xrqn, const emu::NvmeQueueInfo &q)
{
	cxprm_obj o = obj_of(CXPRM_OBJ_NVMF_BACKEND, 0, xrqn);
	o.u.backend.sq_bus = q.sq_bus;
	o.u.backend.cq_bus = q.cq_bus;
	o.u.backend.sqt_db_bus = q.sqt_db_bus;
	o.u.backend.db_stride = q.db_stride;
	o.u.backend.queue_depth = q.depth;
	o.u.backend.log_cmd_timeout_us = 10;
	return o;
}

// Creates o in the file's table t: its number, or 0 after a failure
// (reported to gtest).
inline uint32_t obj_make(cxprm_core *core, cxprm_core_objs *t, cxprm_obj o)
{
	int err = cxprm_core_ioc_obj(core, CXPRM_IOC_OBJ_CREATE, t, &o);
	EXPECT_EQ(err, 0);
	EXPECT_EQ(o.st.status, 0) << std::hex << o.st.syndrome;
	return err || o.st.status ? 0 : o.id;
}

// A PD, a CQ (on the driver's EQ: events running) and an SRQ in t.
inline DctRefs capi_dct_refs(cxprm_core *core, cxprm_core_objs *t)
{
	DctRefs r;
	r.pd = obj_make(core, t, obj_of(CXPRM_OBJ_PD));
	r.cqn = obj_make(core, t, obj_cq());
	r.srqn = obj_make(core, t, obj_srq(r.pd));
	return r;
}

// An XRQ with NVMF offload on r's PD and CQ and a backend controller on
// the emulated SSD's queue pair 1, in t.
inline NvmfRefs capi_nvmf_refs(cxprm_core *core, cxprm_core_objs *t, const DctRefs &r, emu::Emulator &emu)
{
	NvmfRefs x;
	emu::NvmeQueueInfo q;
	EXPECT_TRUE(emu.nvme_take_queue(1, &q));
	x.xrqn = obj_make(core, t, obj_xrq(r.pd, r.cqn));
	x.backend = (uint16_t)obj_make(core, t, obj_backend(x.xrqn, q));
	return x;
}

} // namespace cxprm::test
