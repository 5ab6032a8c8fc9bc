// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// The ioctls' meaning (capi.h "the ioctls", core-cpp/src/ioctl.cpp) that
// the kernel shim and the CLI's fake device both call, against the
// in-process emulator: reserved fields and max > 1 refused, a firmware
// status returned in st with 0, the per-file DCT table (ownership, 64 at
// most, ENOSPC), STATS while down, the raw dump never larger than the
// buffer, and the gate of ioctls that need an HCA that came up.
#include "support/harness.h"
#include "support/objects.h"

#include <gtest/gtest.h>

#include <cstring>
#include <vector>

#include "cxprm/capi.h"
#include "cxprm/prm/opcodes.h"

using namespace cxprm;
namespace op = cxprm::prm::op;

namespace {

constexpr uint64_t MS = 1000 * 1000;
constexpr int EINVAL_ = -22, ENOENT_ = -2, ENOSPC_ = -28, ENODEV_ = -19, ENOTTY_ = -25;

struct IoctlTest : ::testing::Test {
	test::Harness h{test::small_profile()};
	cxprm_core *core = nullptr;
	cxprm_core_dcts dcts{};
	cxprm_core_objs *objs = nullptr; // what the DCTs name

	void SetUp() override
	{
		h.emu.start();
		ASSERT_EQ(cxprm_core_create(h.host(), &core), 0);
	}
	void up()
	{
		cxprm_core_config c{};
		c.cmd_timeout_ns = 2000 * MS;
		c.init_timeout_ns = 5000 * MS;
		ASSERT_EQ(cxprm_core_bringup(core, &c), 0);
	}
	// The file's PD, CQ (on the driver's EQ: events started) and SRQ.
	test::DctRefs dct_refs()
	{
		cxprm_core_events_config ec{};
		EXPECT_EQ(cxprm_core_events_start(core, &ec), 0);
		EXPECT_EQ(cxprm_core_objs_create(core, &objs), 0);
		return test::capi_dct_refs(core, objs);
	}
	void TearDown() override
	{
		uint32_t dctn;
		while (cxprm_core_dcts_pop(&dcts, &dctn))
			EXPECT_EQ(cxprm_core_dct_destroy(core, dctn, nullptr), 0);
		EXPECT_EQ(cxprm_core_objs_destroy(core, objs, nullptr), 0u);
		EXPECT_EQ(h.emu.object_counts().total(), 0u);
		cxprm_core_destroy(core);
		h.emu.stop();
		EXPECT_EQ(h.uh.dma_live(), 0u);
		EXPECT_EQ(h.uh.mem_live(), 0u);
	}
	int dct(unsigned int cmd, cxprm_dct *d) { return cxprm_core_ioc_dct(core, cmd, &dcts, d); }
};

} // namespace

TEST_F(IoctlTest, GateAndStatsWhileDown)
{
	EXPECT_EQ(cxprm_core_ioc_allowed(CXPRM_IOC_QUERY_CAPS, 0), ENODEV_);
	EXPECT_EQ(cxprm_core_ioc_allowed(CXPRM_IOC_RAW, 0), ENODEV_);
	EXPECT_EQ(cxprm_core_ioc_allowed(0x5401 /* TCGETS */, 0), ENOTTY_);
	EXPECT_EQ(cxprm_core_ioc_allowed(CXPRM_IOC_INFO, 0), 0);
	EXPECT_EQ(cxprm_core_ioc_allowed(CXPRM_IOC_SUBSCRIBE, 0), 0);
	EXPECT_EQ(cxprm_core_ioc_allowed(CXPRM_IOC_STATS, 0), 0);
	EXPECT_EQ(cxprm_core_ioc_allowed(CXPRM_IOC_QUERY_CAPS, 1), 0);
	EXPECT_TRUE(cxprm_core_ioc_is_typed(CXPRM_IOC_ESW_FUNCTIONS));
	EXPECT_TRUE(cxprm_core_ioc_is_typed(CXPRM_IOC_DCT_DESTROY));
	EXPECT_FALSE(cxprm_core_ioc_is_typed(CXPRM_IOC_STATS));
	EXPECT_FALSE(cxprm_core_ioc_is_dct(CXPRM_IOC_NVMF_NS));
	EXPECT_TRUE(cxprm_core_ioc_is_dct(CXPRM_IOC_DCT_QUERY));
	// STATS is allowed while down: nothing counted.
	std::vector<cxprm_opcode_stats> e(4);
	cxprm_stats s{};
	s.capacity = 4;
	EXPECT_EQ(cxprm_core_ioc_stats(core, &s, e.data()), 0);
	EXPECT_EQ(s.count, 0u);
	EXPECT_EQ(s.total, 0u);
	cxprm_info i{};
	ASSERT_EQ(cxprm_core_ioc_info(core, &i), 0);
	EXPECT_EQ(i.state, (uint32_t)CXPRM_STATE_DOWN);
	EXPECT_EQ(i.async_eqn, ~0u);
}

TEST_F(IoctlTest, CapsReservedMaxAndFirmwareStatus)
{
	up();
	std::vector<uint8_t> buf(sizeof(cxprm_caps));
	auto *c = (cxprm_caps *)buf.data();
	c->max = 2;
	EXPECT_EQ(cxprm_core_ioc_caps(core, c), EINVAL_);
	c->max = 1;
	c->reserved0 = 1;
	EXPECT_EQ(cxprm_core_ioc_caps(core, c), EINVAL_);
	c->reserved0 = 0;
	c->reserved1 = 1;
	EXPECT_EQ(cxprm_core_ioc_caps(core, c), EINVAL_);
	c->reserved1 = 0;
	c->max = 0;
	ASSERT_EQ(cxprm_core_ioc_caps(core, c), 0);
	EXPECT_EQ(c->st.opcode, op::QUERY_HCA_CAP);
	EXPECT_EQ(c->st.status, 0);
	EXPECT_EQ(std::vector<uint8_t>(c->caps, c->caps + sizeof(c->caps)), h.emu.cap_cur(0));
	// A type the profile lacks: 0, the firmware's status in st.
	c->cap_type = 0x1a; // CRYPTO: refused by every profile (prm-notes-caps.rst)
	EXPECT_EQ(cxprm_core_ioc_caps(core, c), 0);
	EXPECT_EQ(c->st.status, 0x03);
	EXPECT_NE(c->st.syndrome, 0u);

	cxprm_info i{};
	i.flags = CXPRM_INFO_EMULATED; // the caller's flags are kept
	ASSERT_EQ(cxprm_core_ioc_info(core, &i), 0);
	EXPECT_EQ(i.state, (uint32_t)CXPRM_STATE_UP);
	EXPECT_EQ(i.flags & CXPRM_INFO_EMULATED, CXPRM_INFO_EMULATED);
	EXPECT_NE(i.cmdq_entries, 0u);
	EXPECT_NE(i.pages_given, 0u);
}

TEST_F(IoctlTest, NvmfAndEswReserved)
{
	up();
	cxprm_nvmf_ns n{};
	n.reserved = 1;
	EXPECT_EQ(cxprm_core_ioc_nvmf_ns(core, &n), EINVAL_);
	n.reserved = 0;
	n.xrqn = 0x1000000; // over 24 bits: E_RANGE is EINVAL
	EXPECT_EQ(cxprm_core_ioc_nvmf_ns(core, &n), EINVAL_);
	n.xrqn = 0x7fff;
	n.nsid = 77;
	EXPECT_EQ(cxprm_core_ioc_nvmf_ns(core, &n), 0); // unknown: status in st
	EXPECT_EQ(n.st.status, 0x05);
	EXPECT_EQ(n.st.opcode, op::QUERY_NVMF_NAMESPACE_CONTEXT);
	cxprm_esw_functions e{};
	e.reserved1 = 1;
	EXPECT_EQ(cxprm_core_ioc_esw(core, &e), EINVAL_);
	e.reserved1 = 0;
	EXPECT_EQ(cxprm_core_ioc_esw(core, &e), -95); // no ECPF eswitch manager
}

TEST_F(IoctlTest, DctTableOwnershipAndLimit)
{
	up();
	cxprm_dct d{};
	d.ctx.reserved1[2] = 1;
	EXPECT_EQ(dct(CXPRM_IOC_DCT_CREATE, &d), EINVAL_);
	d = {};
	d.reserved = 1;
	EXPECT_EQ(dct(CXPRM_IOC_DCT_CREATE, &d), EINVAL_);
	d = {};
	d.ctx.mtu = 9; // does not fit: nothing sent
	EXPECT_EQ(dct(CXPRM_IOC_DCT_CREATE, &d), EINVAL_);
	EXPECT_EQ(dcts.n, 0u);

	test::DctRefs refs = dct_refs();
	ASSERT_TRUE(refs.ok());
	std::vector<uint32_t> made;
	for (uint32_t k = 0; k < CXPRM_CORE_FILE_MAX_DCTS; k++) {
		d = {};
		d.ctx = refs.basic<cxprm_dctc>();
		d.ctx.state = 2; // output only: ignored
		ASSERT_EQ(dct(CXPRM_IOC_DCT_CREATE, &d), 0) << k;
		ASSERT_EQ(d.st.status, 0) << k << " syndrome " << std::hex << d.st.syndrome;
		EXPECT_EQ(d.st.opcode, op::CREATE_DCT);
		EXPECT_EQ(d.ctx.pd, 0u); // ctx is not echoed
		made.push_back(d.dctn);
	}
	EXPECT_EQ(h.emu.dct_count(), CXPRM_CORE_FILE_MAX_DCTS);
	d = {};
	EXPECT_EQ(dct(CXPRM_IOC_DCT_CREATE, &d), ENOSPC_);
	EXPECT_EQ(h.emu.dct_count(), CXPRM_CORE_FILE_MAX_DCTS); // nothing sent

	// Another file: may query, may not drain or destroy.
	cxprm_core_dcts other{};
	d = {};
	d.dctn = made[3];
	ASSERT_EQ(dct(CXPRM_IOC_DCT_QUERY, &d), 0);
	EXPECT_EQ(d.ctx.pd, refs.pd);
	EXPECT_EQ(d.ctx.mtu, 5);
	EXPECT_EQ(d.ctx.state, 0);
	EXPECT_EQ(cxprm_core_ioc_dct(core, CXPRM_IOC_DCT_DRAIN, &other, &d), ENOENT_);
	EXPECT_EQ(cxprm_core_ioc_dct(core, CXPRM_IOC_DCT_DESTROY, &other, &d), ENOENT_);
	EXPECT_EQ(cxprm_core_ioc_dct(core, 0x12345, &dcts, &d), ENOTTY_);

	ASSERT_EQ(dct(CXPRM_IOC_DCT_DESTROY, &d), 0);
	EXPECT_EQ(dcts.n, CXPRM_CORE_FILE_MAX_DCTS - 1);
	EXPECT_EQ(dct(CXPRM_IOC_DCT_DESTROY, &d), ENOENT_); // no longer this file's
	// Query of a destroyed DCT: 0, BAD_RES in st.
	EXPECT_EQ(dct(CXPRM_IOC_DCT_QUERY, &d), 0);
	EXPECT_EQ(d.st.status, 0x05);
	d = {};
	EXPECT_EQ(dct(CXPRM_IOC_DCT_CREATE, &d), 0); // room again
}

TEST_F(IoctlTest, RawDumpFitsItsBuffer)
{
	up();
	std::vector<uint8_t> in(16), out(16 + 4096);
	in[0] = (uint8_t)(op::QUERY_HCA_CAP >> 8);
	in[1] = (uint8_t)op::QUERY_HCA_CAP;
	in[7] = 1; // op_mod CUR general
	cxprm_raw_cmd rc{};
	rc.inlen = (uint32_t)in.size();
	rc.outlen = (uint32_t)out.size();
	rc.flags = CXPRM_RAW_DUMP;
	rc.dump = 1; // only whether it is 0 matters
	rc.dump_len = sizeof(cxprm_raw_dump) - 1;
	cxprm_core_raw_plan plan;
	EXPECT_EQ(cxprm_core_raw_check(&rc, &plan), EINVAL_); // smaller than its header
	rc.dump_len = sizeof(cxprm_raw_dump) + 3 * CXPRM_MAILBOX_BYTES + 100;
	ASSERT_EQ(cxprm_core_raw_check(&rc, &plan), 0);
	EXPECT_EQ(plan.dump, 1u);
	EXPECT_EQ(plan.blocks_cap, 3u);
	std::vector<uint8_t> blocks(3 * CXPRM_MAILBOX_BYTES);
	cxprm_core_capture cap{};
	cap.blocks = blocks.data();
	ASSERT_EQ(cxprm_core_ioc_raw(core, &rc, in.data(), out.data(), &plan, &cap), 0);
	EXPECT_EQ(rc.st.opcode, op::QUERY_HCA_CAP);
	EXPECT_EQ(cap.hdr.out_blocks, 3u);
	EXPECT_EQ(cap.hdr.truncated, 1u);
	EXPECT_EQ(rc.dump_len, sizeof(cxprm_raw_dump) + 3 * CXPRM_MAILBOX_BYTES);
	EXPECT_EQ(std::vector<uint8_t>(out.begin() + 16, out.end()), h.emu.cap_cur(0));
}
