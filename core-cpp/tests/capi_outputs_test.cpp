// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// The C facade's outputs on a firmware error (status != OK: the kernel
// returns 0 and copies them out): every one is zero, whatever the buffer
// held before, so no stale kernel memory can reach userspace
// (Documentation/security.rst).
#include "support/harness.h"

#include <gtest/gtest.h>

#include <cstddef>
#include <cstring>

#include "cxprm/capi.h"

using namespace cxprm;

namespace {

constexpr uint64_t MS = 1000 * 1000;
constexpr int EREMOTEIO_ = 121;

bool all_zero(const void *p, size_t n)
{
	const uint8_t *b = static_cast<const uint8_t *>(p);
	for (size_t i = 0; i < n; i++)
		if (b[i])
			return false;
	return true;
}

emu::Profile no_esw_profile()
{
	// An ECPF eswitch manager (else the core does not ask at all, A8)
	// whose firmware lacks the eswitch functions.
	emu::Profile p = emu::Profile::bluefield3();
	p.boot_pages = p.init_pages = 8;
	p.nvmf.auto_io_ms = 0;
	p.esw.supported = false; // QUERY_ESW_FUNCTIONS answers BAD_OP
	return p;
}

struct OutputsTest : ::testing::Test {
	test::Harness h{no_esw_profile()};
	cxprm_core *core = nullptr;

	void SetUp() override
	{
		h.emu.start();
		ASSERT_EQ(cxprm_core_create(h.host(), &core), 0);
		cxprm_core_config c{};
		c.cmd_timeout_ns = 2000 * MS;
		c.init_timeout_ns = 5000 * MS;
		ASSERT_EQ(cxprm_core_bringup(core, &c), 0);
	}
	void TearDown() override
	{
		cxprm_core_destroy(core);
		h.emu.stop();
		EXPECT_EQ(h.uh.dma_live(), 0u);
		EXPECT_EQ(h.uh.mem_live(), 0u);
	}
};

} // namespace

TEST_F(OutputsTest, EswFirmwareErrorLeavesNothing)
{
	cxprm_esw_functions esw;
	cxprm_core_result r{};
	memset(&esw, 0xa5, sizeof(esw));
	EXPECT_EQ(cxprm_core_query_esw(core, &esw, CXPRM_ESW_MAX_SF_WORDS, &r), -EREMOTEIO_);
	EXPECT_NE(r.st.status, 0u);
	// st is the firmware's answer, all of it written; the rest zero.
	EXPECT_EQ(esw.st.status, r.st.status);
	EXPECT_EQ(esw.st.opcode, r.st.opcode);
	EXPECT_EQ(esw.st.latency_ns, r.st.latency_ns);
	EXPECT_TRUE(all_zero((const uint8_t *)&esw + sizeof(esw.st), sizeof(esw) - sizeof(esw.st)));
	EXPECT_TRUE(all_zero(esw.sf_enable, sizeof(esw.sf_enable))) << "sf_enable words left as they were";
}

TEST_F(OutputsTest, NvmfAndDctFirmwareErrorsLeaveNothing)
{
	cxprm_nvmf_ns ns;
	cxprm_dctc d;
	cxprm_core_result r{};
	memset(&ns, 0xa5, sizeof(ns));
	ns.xrqn = 0x7fff;
	ns.nsid = 77;
	EXPECT_EQ(cxprm_core_query_nvmf_ns(core, &ns, &r), -EREMOTEIO_);
	EXPECT_EQ(ns.st.status, r.st.status);
	EXPECT_EQ(ns.st.latency_ns, r.st.latency_ns);
	size_t counters = offsetof(cxprm_nvmf_ns, read_cmds);
	EXPECT_TRUE(all_zero((const uint8_t *)&ns + counters, sizeof(ns) - counters));
	memset(&d, 0xa5, sizeof(d));
	EXPECT_EQ(cxprm_core_dct_query(core, 0xfffff0, &d, &r), -EREMOTEIO_);
	EXPECT_TRUE(all_zero(&d, sizeof(d)));
}
