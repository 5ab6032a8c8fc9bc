// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// The set-up the capi object tests share (objects_linux_shape_test,
// roce_cap_test, roce_test, ioctl_objects_test): an emulator of a profile,
// a core created and brought up as the driver does, a file's objects
// table, the driver's events (a CQ needs its EQ), and the way back:
// DCTs and objects closed, teardown without error, no DMA or memory left.
// A fixture derives from ::testing::Test and CapiDevice and calls the
// steps from its SetUp/TearDown, adding what it checks itself between them.
#pragma once

#include "harness.h"
#include "objects.h"

#include <gtest/gtest.h>

#include "cxprm/capi.h"

namespace cxprm::test {

struct CapiDevice {
	explicit CapiDevice(emu::Profile p) : h(std::move(p)) {}

	Harness h;
	cxprm_core *core = nullptr;
	cxprm_core_objs *objs = nullptr;
	cxprm_core_dcts dcts{};
	// What a DCT or QP names, made by make_refs().
	uint32_t pd = 0, cqn = 0, srqn = 0;

	// The emulator started, the core created and brought up, objs made
	// (ASSERT_NO_FATAL_FAILURE it).
	void bring_up()
	{
		h.emu.start();
		ASSERT_EQ(cxprm_core_create(h.host(), &core), 0);
		cxprm_core_config c = quick_capi_config();
		ASSERT_EQ(cxprm_core_bringup(core, &c), 0);
		ASSERT_EQ(cxprm_core_objs_create(core, &objs), 0);
	}
	void start_events()
	{
		cxprm_core_events_config ec{};
		ASSERT_EQ(cxprm_core_events_start(core, &ec), 0);
	}
	// A PD, a CQ and an SRQ in objs (events running).
	void make_refs()
	{
		DctRefs r = capi_dct_refs(core, objs);
		pd = r.pd;
		cqn = r.cqn;
		srqn = r.srqn;
		ASSERT_TRUE(r.ok());
	}

	// What closing the file does: its DCTs, then its objects.
	void close_objects()
	{
		uint32_t dctn;
		while (cxprm_core_dcts_pop(&dcts, &dctn))
			EXPECT_EQ(cxprm_core_dct_destroy(core, dctn, nullptr), 0);
		if (objs) {
			EXPECT_EQ(cxprm_core_objs_destroy(core, objs, nullptr), 0u);
		}
		objs = nullptr;
	}
	// The core torn down (no error), destroyed; the emulator stopped;
	// nothing of the host's DMA or memory left.
	void tear_down()
	{
		teardown_core();
		finish();
	}
	void teardown_core()
	{
		cxprm_core_teardown_report rep{};
		cxprm_core_teardown(core, &rep);
		EXPECT_EQ(rep.err, 0);
	}
	void finish()
	{
		cxprm_core_destroy(core);
		core = nullptr;
		h.emu.stop();
		EXPECT_EQ(h.uh.dma_live(), 0u);
		EXPECT_EQ(h.uh.mem_live(), 0u);
	}

	// A QP on pd, cqn and srqn (the fields a test does not set: 0).
	static cxprm_obj qp_on(uint32_t pd, uint32_t cqn, uint32_t srqn)
	{
		cxprm_obj o = obj_of(CXPRM_OBJ_QP);
		o.u.qp.pd = pd;
		o.u.qp.cqn_snd = o.u.qp.cqn_rcv = cqn;
		o.u.qp.srqn = srqn;
		o.u.qp.log_sq_size = 4;
		return o;
	}
	uint32_t make_qp() { return obj_make(core, objs, qp_on(pd, cqn, srqn)); }
	// The argument of a DCT on the refs, port 1, MTU 4096, source GID
	// my_addr_index; dct() creates it.
	cxprm_dct dct_arg(uint8_t my_addr_index = 0) const { return dct_on(pd, cqn, srqn, my_addr_index); }
	static cxprm_dct dct_on(uint32_t pd, uint32_t cqn, uint32_t srqn, uint8_t my_addr_index = 0)
	{
		cxprm_dct d{};
		d.ctx.pd = pd;
		d.ctx.cqn = cqn;
		d.ctx.srqn_xrqn = srqn;
		d.ctx.port = 1;
		d.ctx.mtu = 5;
		d.ctx.my_addr_index = my_addr_index;
		return d;
	}
	int dct(uint8_t my_addr_index, cxprm_dct *d)
	{
		*d = dct_arg(my_addr_index);
		return cxprm_core_ioc_dct(core, CXPRM_IOC_DCT_CREATE, &dcts, d);
	}
};

} // namespace cxprm::test
