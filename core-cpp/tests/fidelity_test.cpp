// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// The driver against the emulator's strict fidelity defaults (audit items
// A1/B1 signatures, A2/B2 initializing after the queue address write, A10
// timeouts from the init segment, the 8-byte output floor, lost doorbells
// on a RAM BAR).  Each test fails on the behaviour before the fix.  Not
// rerun under the lenient profile: these tests pin the strict knobs
// themselves (the *_lenient suites cover the alternatives).
#include "support/harness.h"

#include <gtest/gtest.h>

#include <chrono>
#include <thread>
#include <vector>

#include "cxprm/commands/hca.h"
#include "cxprm/device.h"
#include "cxprm/prm/hca.h"
#include "cxprm/prm/hca_cap.h"
#include "cxprm/prm/issi.h"
#include "cxprm/prm/opcodes.h"
#include "cxprm/status.h"

using namespace cxprm;
namespace op = cxprm::prm::op;

namespace {

constexpr uint64_t MS = 1000 * 1000;

emu::Profile strict_profile(emu::Profile p = emu::Profile::connectx7())
{
	p = test::small_profile(std::move(p));
	return p;
}

using test::quick_config;

uint8_t xor64(const uint8_t *e)
{
	uint8_t x = 0;
	for (int i = 0; i < 64; i++)
		x ^= e[i];
	return x;
}

struct Rig {
	test::Harness h;
	Device dev;
	explicit Rig(emu::Profile p = strict_profile()) : h(std::move(p)) {}
	int up(const BringupConfig &cfg = quick_config())
	{
		h.emu.start();
		return dev.bringup(h.host(), cfg);
	}
	~Rig() { dev.teardown(); }
};

std::vector<uint8_t> query_issi_in()
{
	std::vector<uint8_t> in(prm::query_issi_in::size_bytes, 0);
	prm::set<prm::query_issi_in::opcode>(prm::Ref<prm::query_issi_in>(in.data()), op::QUERY_ISSI);
	return in;
}

std::vector<uint8_t> cap_query_in()
{
	std::vector<uint8_t> in(prm::query_hca_cap_in::size_bytes, 0);
	prm::Ref<prm::query_hca_cap_in> r(in.data());
	prm::set<prm::query_hca_cap_in::opcode>(r, op::QUERY_HCA_CAP);
	prm::set<prm::query_hca_cap_in::op_mod>(r, prm::cap::op_mod(prm::cap::GENERAL, prm::cap::CUR));
	return in;
}

// --- A1/B1 signatures ---

// Checksums off (Linux's setting): the emulator hands the entry back
// unsigned and the driver accepts it.  Before: verify_signatures defaulted
// to true and every command (from ENABLE_HCA on) failed with E_BADMSG.
TEST(Signatures, UnsignedCompletionAcceptedWithChecksumsOff)
{
	Rig r;
	ASSERT_EQ(r.up(), OK);
	EXPECT_FALSE(r.dev.checksums());
	EXPECT_FALSE(r.h.emu.checksums_enabled());

	// QUERY_HCA_CAP: its 16 inline output bytes are zero (status,
	// syndrome, reserved), so the handed-back entry XORs to 0xfe unless
	// firmware re-signed it.
	auto in = cap_query_in();
	std::vector<uint8_t> out(prm::query_hca_cap_out::size_bytes);
	CmdCapture cap{};
	CmdResult res;
	ASSERT_EQ(r.dev.cmdq().exec(in.data(), (uint32_t)in.size(), out.data(), (uint32_t)out.size(), &res, 0,
				    &cap),
		  OK);
	EXPECT_EQ(xor64(cap.hdr.entry_posted), 0xff) << "the input entry is signed always";
	EXPECT_EQ(xor64(cap.hdr.entry_completed), 0xfe);
	EXPECT_NE(xor64(cap.hdr.entry_completed), 0xff) << "firmware with checksums off does not sign";
	EXPECT_EQ(cap.hdr.entry_completed[0x3d], cap.hdr.entry_posted[0x3d]) << "signature byte left as written";
}

// The driver with signature checks forced on fails against unsigned
// completions: what the old default did to every command.
TEST(Signatures, VerifyingWithChecksumsOffIsWhatBrokeEveryCommand)
{
	Rig r;
	BringupConfig cfg = quick_config();
	cfg.cmdq.verify_signatures = true;
	EXPECT_EQ(r.up(cfg), E_BADMSG);
	EXPECT_EQ(r.dev.trace().failed_step, Step::ENABLE_HCA);
}

// request_checksum: SET_HCA_CAP cmdif_checksum = MAX (3), CUR reads it,
// the engine verifies from then on: completions are signed, and a corrupt
// signature on the entry or on an output block is caught.
TEST(Signatures, ChecksumsOnCompletionsSignedAndCorruptionCaught)
{
	Rig r;
	BringupConfig cfg = quick_config();
	cfg.request_checksum = true;
	ASSERT_EQ(r.up(cfg), OK);
	ASSERT_TRUE(r.dev.checksums());
	ASSERT_TRUE(r.h.emu.checksums_enabled());
	EXPECT_EQ(r.dev.caps_cur().cmdif_checksum, 3u);

	auto cin = cap_query_in();
	std::vector<uint8_t> cout(prm::query_hca_cap_out::size_bytes);
	CmdCapture cap{};
	ASSERT_EQ(r.dev.cmdq().exec(cin.data(), (uint32_t)cin.size(), cout.data(), (uint32_t)cout.size(), nullptr,
				    0, &cap),
		  OK);
	EXPECT_EQ(xor64(cap.hdr.entry_completed), 0xff);
	auto in = query_issi_in();
	std::vector<uint8_t> out(prm::query_issi_out::size_bytes);

	r.h.emu.faults().corrupt_output_signature = emu::Faults::ENTRY;
	r.h.emu.faults().once = true;
	EXPECT_EQ(r.dev.cmdq().exec(in.data(), (uint32_t)in.size(), out.data(), (uint32_t)out.size()), E_BADMSG);

	// QUERY_HCA_CAP's output travels in mailbox blocks.
	std::vector<uint8_t> image(cmd::CAP_IMAGE_BYTES);
	r.h.emu.faults().corrupt_output_signature = emu::Faults::BLOCKS;
	r.h.emu.faults().once = true;
	EXPECT_EQ(cmd::query_hca_cap(r.dev.cmdq(), prm::cap::GENERAL, prm::cap::CUR, image.data()), E_BADMSG);
	EXPECT_EQ(cmd::query_hca_cap(r.dev.cmdq(), prm::cap::GENERAL, prm::cap::CUR, image.data()), OK);
}

// Asked for, but the device offers none: bring-up still succeeds, off.
TEST(Signatures, ChecksumRequestWithoutMaxStaysOff)
{
	emu::Profile p = strict_profile();
	prm::set<prm::cmd_hca_cap::cmdif_checksum>(prm::Ref<prm::cmd_hca_cap>(p.cap(0).max.data()), 0);
	Rig r(std::move(p));
	BringupConfig cfg = quick_config();
	cfg.request_checksum = true;
	ASSERT_EQ(r.up(cfg), OK);
	EXPECT_FALSE(r.dev.checksums());
	EXPECT_FALSE(r.h.emu.checksums_enabled());
}

// --- A2/B2 initializing after the queue address write ---

// A host whose address write the device notices long before the next
// doorbell (as hardware does at once): after cmdq_addr_l_sz it waits until
// the emulator has noticed the write (bounded generously: a loaded host
// may run its thread late), then 40 ms pass, well past its 10 ms grace.
// Every other op is the harness host's, with its context.
struct SlowAfterAddressHost {
	cxprm_host_ops ops{};
	cxprm_host host{};

	SlowAfterAddressHost(const cxprm_host *h, const emu::Emulator &e)
	{
		device() = &e;
		inner() = h->ops;
		ops = *h->ops;
		ops.iowrite32be = write;
		host.ops = &ops;
		host.ctx = h->ctx;
	}
	static const cxprm_host_ops *&inner()
	{
		static const cxprm_host_ops *o;
		return o;
	}
	static const emu::Emulator *&device()
	{
		static const emu::Emulator *e;
		return e;
	}
	static uint32_t &addr_h()
	{
		static uint32_t v;
		return v;
	}
	static void write(void *ctx, cxprm_u32 off, cxprm_u32 v)
	{
		inner()->iowrite32be(ctx, off, v);
		if (off == prm::iseg::CMDQ_ADDR_H)
			addr_h() = v;
		if (off != prm::iseg::CMDQ_ADDR_L_SZ)
			return;
		uint64_t addr = (uint64_t)addr_h() << 32 | (v & 0xfffff000u);
		auto end = std::chrono::steady_clock::now() + std::chrono::seconds(20);
		while (device()->cmdq_address() != addr && std::chrono::steady_clock::now() < end)
			std::this_thread::sleep_for(std::chrono::microseconds(100));
		std::this_thread::sleep_for(std::chrono::milliseconds(40));
	}
};

// The driver waits for 'initializing' to clear again before its first
// doorbell.  Before: ENABLE_HCA was rung at once, the emulator (like
// firmware still setting the queue up) dropped it, and bring-up timed out.
emu::Profile slow_cmdq_init()
{
	emu::Profile p = strict_profile();
	p.cmdq_init_delay_ms = 500; // the doorbell 40 ms in: dropped however late the thread sees it
	return p;
}

TEST(CmdqInit, DriverWaitsForInitializingAfterTheAddressWrite)
{
	Rig r(slow_cmdq_init());
	SlowAfterAddressHost fh(r.h.host(), r.h.emu);
	r.h.emu.start();
	ASSERT_EQ(r.dev.bringup(&fh.host, quick_config()), OK);
	EXPECT_EQ(r.h.emu.counters().early_doorbells, 0u);
	const StepRecord *w = r.dev.trace().find(Step::WAIT_CMDQ_INIT);
	ASSERT_NE(w, nullptr);
	EXPECT_EQ(w->err, OK);
	EXPECT_GT(w->value, 0) << "initializing was seen set and waited for";
	r.dev.teardown();
	EXPECT_EQ(r.h.emu.hca_state(), emu::HcaState::DISABLED);
}

// What the old driver did: the doorbell right after the address write.
TEST(CmdqInit, DoorbellWhileInitializingIsNotServed)
{
	test::Harness h(slow_cmdq_init());
	SlowAfterAddressHost fh(h.host(), h.emu);
	ASSERT_TRUE(h.start_device());
	CmdqConfig c;
	c.timeout_ns = 300 * MS;
	ASSERT_EQ(h.cmdq.init(&fh.host, c), OK);
	std::vector<uint8_t> in(prm::enable_hca_in::size_bytes), out(prm::enable_hca_out::size_bytes);
	prm::set<prm::enable_hca_in::opcode>(prm::Ref<prm::enable_hca_in>(in.data()), op::ENABLE_HCA);
	EXPECT_EQ(h.cmdq.exec(in.data(), (uint32_t)in.size(), out.data(), (uint32_t)out.size()), E_TIMEDOUT);
	EXPECT_EQ(h.emu.counters().early_doorbells, 1u);
	EXPECT_EQ(h.emu.hca_state(), emu::HcaState::DISABLED) << "never ran";
	h.cmdq.fini();
}

// cmd_q_init_to bounds the wait: the device says 50 ms, takes 10 s (far
// beyond what a loaded host adds to the bring-up's first steps).
TEST(CmdqInit, WaitBoundedByTheDevicesCmdQInitTo)
{
	emu::Profile p = strict_profile();
	p.cmdq_init_delay_ms = 10000;
	p.cmd_q_init_to_ms = 50;
	Rig r(std::move(p));
	SlowAfterAddressHost fh(r.h.host(), r.h.emu);
	r.h.emu.start();
	auto t0 = std::chrono::steady_clock::now();
	EXPECT_EQ(r.dev.bringup(&fh.host, quick_config()), E_TIMEDOUT);
	EXPECT_LT(std::chrono::steady_clock::now() - t0, std::chrono::seconds(5));
	EXPECT_EQ(r.dev.trace().failed_step, Step::WAIT_CMDQ_INIT);
	EXPECT_EQ(r.dev.state(), DeviceState::OFF);
	EXPECT_EQ(r.h.uh.dma_live(), 0u);
}

// Not published: Linux's FW_INIT default (2 s) covers a 200 ms setup.
TEST(CmdqInit, DefaultWaitWhenNotPublished)
{
	emu::Profile p = strict_profile();
	p.cmdq_init_delay_ms = 200;
	p.cmd_q_init_to_ms = 0;
	p.cmd_exec_to_ms = 0;
	Rig r(std::move(p));
	SlowAfterAddressHost fh(r.h.host(), r.h.emu);
	r.h.emu.start();
	ASSERT_EQ(r.dev.bringup(&fh.host, quick_config()), OK);
	EXPECT_GE(r.dev.trace().find(Step::WAIT_CMDQ_INIT)->value, (int64_t)100 * (int64_t)MS);
	r.dev.teardown(); // while fh lives
}

// --- A10: the command timeout from cmd_exec_to ---

TEST(Timeouts, CommandTimeoutFromCmdExecTo)
{
	emu::Profile p = strict_profile();
	p.cmd_exec_to_ms = 250;
	Rig r(std::move(p));
	BringupConfig cfg = quick_config();
	cfg.cmd_timeout_from_device = true;
	ASSERT_EQ(r.up(cfg), OK);
	EXPECT_EQ(r.dev.cmdq().config().timeout_ns, 250 * MS);

	r.h.emu.faults().never_complete = true;
	r.h.emu.faults().once = true;
	auto in = query_issi_in();
	std::vector<uint8_t> out(prm::query_issi_out::size_bytes);
	auto t0 = std::chrono::steady_clock::now();
	EXPECT_EQ(r.dev.cmdq().exec(in.data(), (uint32_t)in.size(), out.data(), (uint32_t)out.size()), E_TIMEDOUT);
	auto dt = std::chrono::steady_clock::now() - t0;
	EXPECT_GE(dt, std::chrono::milliseconds(240));
	EXPECT_LT(dt, std::chrono::milliseconds(1500));
}

// Seconds encoding (3000 s) and the 600 s bound; a configured timeout wins.
TEST(Timeouts, EncodingsAndBounds)
{
	emu::Profile p = strict_profile();
	p.cmd_exec_to_ms = 3000 * 1000;
	{
		Rig r(p);
		BringupConfig cfg = quick_config();
		cfg.cmd_timeout_from_device = true;
		ASSERT_EQ(r.up(cfg), OK);
		EXPECT_EQ(r.h.uh.ioread32be(prm::iseg::CMD_EXEC_TO), 1u << 29 | 3000u);
		EXPECT_EQ(r.dev.cmdq().config().timeout_ns, 600ull * 1000 * MS);
	}
	{
		Rig r(p);
		ASSERT_EQ(r.up(), OK); // cmd_timeout_from_device false: quick_config's 2 s
		EXPECT_EQ(r.dev.cmdq().config().timeout_ns, 2000 * MS);
	}
}

// --- the output-length floor ---

// ENABLE_HCA's output is 12 bytes and mlx5_core sends 12.  Before: the
// emulator required 16 and answered OUT_LENGTH_ERR.
TEST(Transport, TwelveByteOutputAccepted)
{
	test::Harness h(strict_profile());
	CmdqConfig c;
	c.timeout_ns = 2000 * MS;
	ASSERT_EQ(h.start(c), OK);
	std::vector<uint8_t> in(prm::enable_hca_in::size_bytes), out(12);
	prm::set<prm::enable_hca_in::opcode>(prm::Ref<prm::enable_hca_in>(in.data()), op::ENABLE_HCA);
	CmdResult res;
	EXPECT_EQ(h.cmdq.exec(in.data(), (uint32_t)in.size(), out.data(), 12, &res), OK);
	EXPECT_EQ(res.st.delivery, 0);
	EXPECT_EQ(h.emu.hca_state(), emu::HcaState::ENABLED);
}

} // namespace
