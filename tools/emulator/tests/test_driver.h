// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// A minimal hand-rolled "driver" for the emulator's tests: it programs the
// queue, builds entries and mailbox chains through the layout layer, rings
// the doorbell and reads the answer back.  Every piece can be tampered with
// between prepare() and ring() to provoke delivery errors.
#pragma once

#include <gtest/gtest.h>

#include <chrono>
#include <cstring>
#include <functional>
#include <thread>
#include <vector>

#include "cxprm/prm/adapter.h"
#include "cxprm/prm/dct.h"
#include "cxprm/prm/eq.h"
#include "cxprm/prm/esw.h"
#include "cxprm/prm/flex.h"
#include "cxprm/prm/hca.h"
#include "cxprm/prm/hca_cap.h"
#include "cxprm/prm/issi.h"
#include "cxprm/prm/nvmf.h"
#include "cxprm/prm/opcodes.h"
#include "cxprm/prm/pages.h"
#include "cxprm/prm/transport.h"
#include "cxprm/status.h"
#include "cxprm_emu/emulator.h"
#include "fake_platform.h"
#include "cxprm/prm/hca.h"
#include "cxprm/prm/hca_cap.h"

namespace cxprm::emu::test {

using prm::cmd_if_box;
using prm::cmd_queue_entry;
using prm::CRef;
using prm::Ref;
namespace op = prm::op;
namespace st = cxprm::cmd_status;
namespace dst = cxprm::delivery_status;

// A command message under construction: bytes laid out as layout In.
struct Msg {
	std::vector<uint8_t> b;
	template <class L> Ref<L> as() { return Ref<L>(b.data()); }
};

template <class In> Msg make_in(uint16_t opcode, uint16_t op_mod = 0, size_t extra = 0)
{
	Msg m;
	m.b.assign(In::size_bytes + extra, 0);
	Ref<prm::cmd_in> h(m.b.data());
	prm::set<prm::cmd_in::opcode>(h, opcode);
	prm::set<prm::cmd_in::op_mod>(h, op_mod);
	return m;
}

struct Answer {
	bool completed = false;  // ownership came back
	uint8_t delivery = 0xff; // entry status
	std::vector<uint8_t> out; // assembled output (inline + blocks)
	uint8_t status = 0xff;
	uint32_t syndrome = 0;
	uint8_t entry[64] = {};
	std::vector<std::vector<uint8_t>> out_blocks; // raw 576-byte blocks as written back
	template <class L> CRef<L> as() const { return CRef<L>(out.data()); }
};

// Where a prepared command lives.
struct Prepared {
	unsigned slot = 0;
	uint64_t entry = 0;
	std::vector<uint64_t> in_blocks, out_blocks;
	uint32_t inlen = 0, outlen = 0;
	uint8_t token = 0;
};

class TestDriver {
public:
	TestDriver(FakePlatform &p, Emulator &emu, bool threaded = false) : p_(p), emu_(emu), threaded_(threaded) {}
	Emulator &emulator() { return emu_; }

	// Waits for 'initializing' to clear and programs the queue address.
	void init_queue()
	{
		using iseg = prm::initial_seg;
		// Threaded: bounded generously, the thread may run late on a loaded host.
		auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
		while (p_.rd(prm::dword_byte_offset<iseg::initializing>()) & prm::to_dword<iseg::initializing>(1)) {
			if (!threaded_)
				emu_.poll_once();
			else
				std::this_thread::sleep_for(std::chrono::microseconds(100));
			ASSERT_LT(std::chrono::steady_clock::now(), deadline) << "initializing never cleared";
		}
		uint32_t v = p_.rd(prm::iseg::CMDQ_ADDR_L_SZ);
		log_size_ = prm::from_dword<iseg::log_cmdq_size>(v);
		log_stride_ = prm::from_dword<iseg::log_cmdq_stride>(v);
		queue_ = p_.alloc(4096, 4096);
		p_.wr(prm::iseg::CMDQ_ADDR_H, (uint32_t)(queue_ >> 32));
		p_.wr(prm::iseg::CMDQ_ADDR_L_SZ, (uint32_t)queue_); // size/stride bits 0: firmware restores them
		// The address write raises 'initializing' again (FW_INIT): wait
		// until the emulator has taken the address and cleared it.
		while (emu_.cmdq_address() != queue_ || emu_.initializing()) {
			if (!threaded_)
				emu_.poll_once();
			else
				std::this_thread::sleep_for(std::chrono::microseconds(100));
			ASSERT_LT(std::chrono::steady_clock::now(), deadline) << "the queue address was never taken";
		}
	}

	uint64_t queue() const { return queue_; }
	uint32_t nent() const { return 1u << log_size_; }
	uint8_t *entry_cpu(unsigned slot) { return p_.cpu(queue_ + ((uint64_t)slot << log_stride_)); }

	// Builds entry + chains for 'in' into 'slot' (not rung yet).
	Prepared prepare(unsigned slot, const std::vector<uint8_t> &in, uint32_t outlen, bool sign_blocks = false)
	{
		Prepared pr;
		pr.slot = slot;
		pr.entry = queue_ + ((uint64_t)slot << log_stride_);
		pr.inlen = (uint32_t)in.size();
		pr.outlen = outlen;
		pr.token = next_token();
		pr.in_blocks = make_chain(prm::mailbox_blocks(pr.inlen), pr.token, in.data(), pr.inlen, sign_blocks);
		pr.out_blocks = make_chain(prm::mailbox_blocks(outlen), pr.token, nullptr, 0, sign_blocks);

		uint8_t *e = p_.cpu(pr.entry);
		std::memset(e, 0, 64);
		Ref<cmd_queue_entry> ent(e);
		prm::set<cmd_queue_entry::type>(ent, prm::CMD_TYPE_PCIE);
		prm::set<cmd_queue_entry::input_length>(ent, pr.inlen);
		prm::set<cmd_queue_entry::output_length>(ent, outlen);
		uint64_t ip = pr.in_blocks.empty() ? 0 : pr.in_blocks[0];
		uint64_t opp = pr.out_blocks.empty() ? 0 : pr.out_blocks[0];
		prm::set<cmd_queue_entry::input_mailbox_pointer_63_32>(ent, ip >> 32);
		prm::set<cmd_queue_entry::input_mailbox_pointer_31_9>(ent, (ip & 0xffffffff) >> 9);
		prm::set<cmd_queue_entry::output_mailbox_pointer_63_32>(ent, opp >> 32);
		prm::set<cmd_queue_entry::output_mailbox_pointer_31_9>(ent, (opp & 0xffffffff) >> 9);
		std::memcpy(prm::bytes<cmd_queue_entry::command_input_inline_data>(ent), in.data(),
			    std::min<size_t>(16, in.size()));
		prm::set<cmd_queue_entry::token>(ent, pr.token);
		prm::set<cmd_queue_entry::ownership>(ent, 1);
		resign_entry(pr);
		return pr;
	}

	void resign_entry(const Prepared &pr)
	{
		uint8_t *e = p_.cpu(pr.entry);
		Ref<cmd_queue_entry> ent(e);
		prm::set<cmd_queue_entry::signature>(ent, 0);
		prm::set<cmd_queue_entry::signature>(ent, (uint8_t)~xor8(e, 64));
	}

	void ring(unsigned slot) { ring_mask(1u << slot); }
	void ring_mask(uint32_t mask)
	{
		std::atomic_thread_fence(std::memory_order_release);
		p_.ring(prm::iseg::DOORBELL, mask);
	}

	// Polls (or waits for the thread) until the slot's ownership is back,
	// or gives up after 'polls' steps / 'timeout' (generous: a loaded host).
	bool wait(const Prepared &pr, int polls = 4, std::chrono::milliseconds timeout = std::chrono::seconds(20))
	{
		auto deadline = std::chrono::steady_clock::now() + timeout;
		for (int i = 0;; i++) {
			if (!owned_by_hw(pr))
				return true;
			if (threaded_) {
				if (std::chrono::steady_clock::now() > deadline)
					return false;
				std::this_thread::sleep_for(std::chrono::microseconds(50));
			} else {
				if (i >= polls)
					return false;
				emu_.poll_once();
			}
		}
	}

	bool owned_by_hw(const Prepared &pr)
	{
		uint8_t b = __atomic_load_n(p_.cpu(pr.entry) + 63, __ATOMIC_ACQUIRE);
		return b & 1;
	}

	Answer collect(const Prepared &pr)
	{
		Answer a;
		a.completed = !owned_by_hw(pr);
		std::memcpy(a.entry, p_.cpu(pr.entry), 64);
		CRef<cmd_queue_entry> ent(a.entry);
		a.delivery = (uint8_t)prm::get<cmd_queue_entry::status>(ent);
		a.out.assign(pr.outlen, 0);
		std::memcpy(a.out.data(), prm::bytes<cmd_queue_entry::command_output_inline_data>(ent),
			    std::min<uint32_t>(16, pr.outlen));
		for (size_t i = 0; i < pr.out_blocks.size(); i++) {
			const uint8_t *b = p_.cpu(pr.out_blocks[i]);
			a.out_blocks.emplace_back(b, b + 576);
			uint32_t off = 16 + (uint32_t)i * 512;
			std::memcpy(a.out.data() + off, b, std::min<uint32_t>(512, pr.outlen - off));
		}
		if (pr.outlen >= 8) {
			CRef<prm::cmd_out> o(a.out.data());
			a.status = (uint8_t)prm::get<prm::cmd_out::status>(o);
			a.syndrome = (uint32_t)prm::get<prm::cmd_out::syndrome>(o);
		}
		return a;
	}

	// prepare + ring + wait + collect.
	Answer exec(const std::vector<uint8_t> &in, uint32_t outlen, unsigned slot = 0,
		    const std::function<void(Prepared &)> &tamper = nullptr)
	{
		Prepared pr = prepare(slot, in, outlen, emu_.checksums_enabled());
		if (tamper)
			tamper(pr);
		ring(slot);
		wait(pr);
		return collect(pr);
	}
	Answer exec(const Msg &m, uint32_t outlen, unsigned slot = 0) { return exec(m.b, outlen, slot); }

	// Runs a command and expects delivery OK; returns the answer.
	template <class Out> Answer run(const Msg &m, size_t extra_out = 0)
	{
		Answer a = exec(m.b, (uint32_t)std::max<size_t>(16, Out::size_bytes + extra_out));
		EXPECT_TRUE(a.completed);
		EXPECT_EQ(a.delivery, 0);
		return a;
	}

	// The bring-up sequence up to INIT_HCA.
	void bring_up();
	// GIVE n fresh pages; returns the answer.
	Answer give_pages(uint32_t n, std::vector<uint64_t> *addrs = nullptr);

	uint8_t *block_cpu(uint64_t bus) { return p_.cpu(bus); }

	static void sign_block(uint8_t *b)
	{
		Ref<cmd_if_box> box(b);
		prm::set<cmd_if_box::ctrl_signature>(box, 0);
		prm::set<cmd_if_box::signature>(box, 0);
		prm::set<cmd_if_box::ctrl_signature>(box, (uint8_t)~xor8(b + 0x200, 0x3e));
		prm::set<cmd_if_box::signature>(box, (uint8_t)~xor8(b, 0x23f));
	}

	uint8_t next_token()
	{
		if (++token_ == 0)
			token_ = 1;
		return token_;
	}

private:
	std::vector<uint64_t> make_chain(uint32_t n, uint8_t token, const uint8_t *data, uint32_t len, bool sign)
	{
		std::vector<uint64_t> v;
		for (uint32_t i = 0; i < n; i++)
			v.push_back(p_.alloc(576, 1024));
		for (uint32_t i = 0; i < n; i++) {
			uint8_t *b = p_.cpu(v[i]);
			Ref<cmd_if_box> box(b);
			if (data) {
				uint32_t off = 16 + i * 512;
				std::memcpy(b, data + off, std::min<uint32_t>(512, len - off));
			}
			uint64_t next = i + 1 < n ? v[i + 1] : 0;
			prm::set<cmd_if_box::next_pointer_63_32>(box, next >> 32);
			prm::set<cmd_if_box::next_pointer_31_10>(box, (next & 0xffffffff) >> 10);
			prm::set<cmd_if_box::block_number>(box, i);
			prm::set<cmd_if_box::token>(box, token);
			if (sign)
				sign_block(b);
		}
		return v;
	}

	FakePlatform &p_;
	Emulator &emu_;
	bool threaded_;
	uint64_t queue_ = 0;
	uint32_t log_size_ = 0, log_stride_ = 0;
	uint8_t token_ = 0;
};

inline Answer TestDriver::give_pages(uint32_t n, std::vector<uint64_t> *addrs)
{
	using tail = prm::manage_pages_in_pas;
	Msg m = make_in<prm::manage_pages_in>(op::MANAGE_PAGES, prm::manage_pages_op::GIVE, n * 8);
	prm::set<prm::manage_pages_in::input_num_entries>(m.as<prm::manage_pages_in>(), n);
	// The BAR's own function (an ECPF names itself with ec 1).
	prm::set<prm::manage_pages_in::embedded_cpu_function>(m.as<prm::manage_pages_in>(),
							      emu_.profile().functions.embedded_cpu);
	for (uint32_t i = 0; i < n; i++) {
		uint64_t pa = p_.alloc(4096, 4096);
		prm::set_pas<tail>(m.as<prm::manage_pages_in>(), i, pa);
		if (addrs)
			addrs->push_back(pa);
	}
	return run<prm::manage_pages_out>(m);
}

inline void TestDriver::bring_up()
{
	const bool ec = emu_.profile().functions.embedded_cpu;
	Msg en = make_in<prm::enable_hca_in>(op::ENABLE_HCA);
	prm::set<prm::enable_hca_in::embedded_cpu_function>(en.as<prm::enable_hca_in>(), ec);
	Answer a = run<prm::enable_hca_out>(en);
	ASSERT_EQ(a.status, st::OK);
	a = run<prm::query_issi_out>(make_in<prm::query_issi_in>(op::QUERY_ISSI));
	ASSERT_EQ(a.status, st::OK);
	ASSERT_TRUE(prm::get<prm::query_issi_out::supported_issi_dw0>(a.as<prm::query_issi_out>()) & 2);
	Msg si = make_in<prm::set_issi_in>(op::SET_ISSI);
	prm::set<prm::set_issi_in::current_issi>(si.as<prm::set_issi_in>(), 1);
	ASSERT_EQ(run<prm::set_issi_out>(si).status, st::OK);
	for (uint16_t opm : {prm::query_pages_op::BOOT, prm::query_pages_op::INIT}) {
		Msg qm = make_in<prm::query_pages_in>(op::QUERY_PAGES, opm);
		prm::set<prm::query_pages_in::embedded_cpu_function>(qm.as<prm::query_pages_in>(), ec);
		a = run<prm::query_pages_out>(qm);
		ASSERT_EQ(a.status, st::OK);
		int32_t n = (int32_t)prm::get<prm::query_pages_out::num_pages>(a.as<prm::query_pages_out>());
		if (n > 0) {
			ASSERT_EQ(give_pages((uint32_t)n).status, st::OK);
		}
	}
	ASSERT_EQ(run<prm::init_hca_out>(make_in<prm::init_hca_in>(op::INIT_HCA)).status, st::OK);
}

} // namespace cxprm::emu::test

namespace cxprm::emu::test {

// A profile with no init delay and no automatic NVMF I/O (deterministic).
inline Profile quiet(Profile p = Profile::connectx5())
{
	p.init_delay_ms = 0;
	p.nvmf.auto_io_ms = 0;
	return p;
}

// quiet() with the changes a test makes to it.
template <class Tweak> Profile quiet_with(Tweak tweak, Profile p = quiet())
{
	tweak(p);
	return p;
}

// A device of a test's own profile, outside the fixtures (poll_once mode,
// no thread), taken as far as 'stage'.  DMA memory: dma_bytes, or 0 for
// the fixtures' sizes (32 MiB for the boot and init pages of INITIALIZED).
enum class Stage { RESET, QUEUE, INITIALIZED };
struct Rig {
	explicit Rig(Profile p, Stage stage = Stage::QUEUE, size_t dma_bytes = 0)
		: plat(dma_bytes ? dma_bytes : stage == Stage::INITIALIZED ? 32u << 20 : 16u << 20),
		  emu(plat, std::move(p)), drv(plat, emu)
	{
		if (stage != Stage::RESET)
			drv.init_queue();
		if (stage == Stage::INITIALIZED)
			drv.bring_up();
	}
	FakePlatform plat;
	Emulator emu;
	TestDriver drv;
};

// The fixtures (poll_once mode, no thread): the command queue programmed;
// a derived fixture passes its own profile and DMA size.
struct QueueTest : ::testing::Test {
	explicit QueueTest(Profile p = quiet(), size_t dma_bytes = 16u << 20)
		: plat(dma_bytes), emu(plat, std::move(p)), drv(plat, emu)
	{
	}
	FakePlatform plat;
	Emulator emu;
	TestDriver drv;
	void SetUp() override { drv.init_queue(); }
};

// ... and the HCA enabled.
struct EnabledTest : QueueTest {
	using QueueTest::QueueTest;
	void SetUp() override
	{
		QueueTest::SetUp();
		ASSERT_EQ(drv.run<prm::enable_hca_out>(make_in<prm::enable_hca_in>(op::ENABLE_HCA)).status, st::OK);
	}
};

// ... and the device INITIALIZED.
struct InitializedTest : QueueTest {
	explicit InitializedTest(Profile p = quiet()) : QueueTest(std::move(p), 32u << 20) {}
	void SetUp() override
	{
		QueueTest::SetUp();
		drv.bring_up();
		ASSERT_EQ(emu.hca_state(), HcaState::INITIALIZED);
	}
};

} // namespace cxprm::emu::test
