// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// An ECPF's external host PF (Fidelity III item 3, Device::enable_host_pf):
// firmware holds it in 'initializing' until the ECPF sends
// ENABLE_HCA(function 0, embedded_cpu_function 0), which Linux's eswitch
// does once its async EQ exists, and DISABLE_HCA for it at unload.  Before,
// cxprm never sent it and the host's mlx5_core would wait out its 120 s.
#include "support/harness.h"

#include <gtest/gtest.h>

#include <string>

#include "cxprm/capi.h"
#include "cxprm/prm/opcodes.h"

using namespace cxprm;

namespace {

struct Rig {
	test::Harness h;
	cxprm_core *core = nullptr;
	explicit Rig(emu::Profile p) : h(test::small_profile(std::move(p)))
	{
		h.emu.start();
		EXPECT_EQ(cxprm_core_create(h.host(), &core), 0);
		cxprm_core_config cfg = test::quick_capi_config();
		EXPECT_EQ(cxprm_core_bringup(core, &cfg), 0);
	}
	~Rig()
	{
		cxprm_core_destroy(core);
		h.emu.stop();
	}
	std::string health()
	{
		std::string s(16384, '\0');
		s.resize(cxprm_core_format(core, CXPRM_TEXT_HEALTH, s.data(), s.size(), nullptr));
		return s;
	}
	void events()
	{
		cxprm_core_events_config ec{};
		ASSERT_EQ(cxprm_core_events_start(core, &ec), 0);
	}
};

emu::Profile strict_bf3()
{
	emu::Profile p = emu::Profile::bluefield3();
	p.functions.host_pf_enabled = false; // real firmware (also the default)
	return p;
}

} // namespace

TEST(HostPf, EcpfReleasesTheHostPfOnceItsEqExistsAndTakesItBack)
{
	Rig r(strict_bf3());
	// Up, but no EQ yet: the host PF's page requests would have nowhere to go.
	EXPECT_FALSE(r.h.emu.function_enabled(0, false));
	r.events();
	EXPECT_TRUE(r.h.emu.function_enabled(0, false)) << "the old driver never sent ENABLE_HCA(0, 0)";
	EXPECT_NE(r.health().find("ENABLE_HOST_PF"), std::string::npos) << r.health();
	// Its pages come from the ECPF, on request.
	ASSERT_TRUE(r.h.emu.request_pages(5, 0, false));
	for (int i = 0; i < 2000 && r.h.emu.pages_held(0, false) != 5; i++) {
		cxprm_core_events_poll(r.core, 64);
		cxprm_core_events_service(r.core);
		std::this_thread::sleep_for(std::chrono::milliseconds(10));
	}
	EXPECT_EQ(r.h.emu.pages_held(0, false), 5u);
	// Unload: DISABLE_HCA for it before the EQ goes, then the ECPF's own.
	cxprm_core_events_stop(r.core);
	EXPECT_FALSE(r.h.emu.function_enabled(0, false));
	EXPECT_NE(r.health().find("DISABLE_HOST_PF"), std::string::npos);
	cxprm_core_teardown_report rep;
	cxprm_core_teardown(r.core, &rep);
	EXPECT_EQ(rep.err, 0) << rep.failed_step;
	EXPECT_EQ(r.h.emu.pages_held(0, false), 0u);
	EXPECT_EQ(r.h.uh.dma_live(), 0u);
}

// Lenient firmware has the host PF enabled already (its own driver): the
// ECPF's ENABLE_HCA is refused, which is recorded and not fatal; nothing is
// disabled at unload that cxprm did not enable.
TEST(HostPf, AlreadyEnabledIsNotAnError)
{
	emu::Profile p = strict_bf3();
	p.functions.host_pf_enabled = true;
	Rig r(p);
	r.events();
	EXPECT_TRUE(r.h.emu.function_enabled(0, false));
	EXPECT_EQ(r.h.emu.opcode_count(prm::op::ENABLE_HCA), 2u); // its own, the host PF's
	cxprm_core_events_stop(r.core);
	EXPECT_TRUE(r.h.emu.function_enabled(0, false)) << "the host's, not ours to disable";
	cxprm_core_teardown_report rep;
	cxprm_core_teardown(r.core, &rep);
	EXPECT_EQ(rep.err, 0) << rep.failed_step;
}

// A plain PF has no host PF: nothing is sent.
TEST(HostPf, NotOnAPlainPf)
{
	Rig r(emu::Profile::connectx7());
	r.events();
	EXPECT_EQ(r.h.emu.opcode_count(prm::op::ENABLE_HCA), 1u);
	EXPECT_EQ(r.health().find("HOST_PF"), std::string::npos);
}
