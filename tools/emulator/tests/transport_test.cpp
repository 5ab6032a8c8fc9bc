// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// The init segment and the command transport: entries, mailbox chains,
// signatures, tokens and every delivery error, provoked by hand.
#include <atomic>
#include <thread>

#include "cmd_transport.h"
#include "test_driver.h"

namespace cxprm::emu::test {
namespace {

using iseg = prm::initial_seg;

struct TransportTest : QueueTest {
	// A command that needs an input chain: QUERY_HCA_CAP's long sibling,
	// SET_HCA_CAP (0x1010 bytes in: 8 blocks).  Sent in DISABLED state it
	// answers BAD_SYS_STATE, which is fine for transport tests.
	std::vector<uint8_t> long_input()
	{
		Msg m = make_in<prm::set_hca_cap_in>(op::SET_HCA_CAP);
		return m.b;
	}
	// SET_HCA_CAP of the general CUR image with field F at v, after
	// ENABLE_HCA.
	template <class F> Msg enable_and_set_cap(uint64_t v)
	{
		EXPECT_EQ(drv.exec(make_in<prm::enable_hca_in>(op::ENABLE_HCA), 16).status, st::OK);
		Msg m = make_in<prm::set_hca_cap_in>(op::SET_HCA_CAP);
		auto cur = emu.cap_cur(prm::cap::GENERAL);
		uint8_t *capb = prm::bytes<prm::set_hca_cap_in::capability>(m.as<prm::set_hca_cap_in>());
		std::memcpy(capb, cur.data(), cur.size());
		prm::set<F>(Ref<prm::cmd_hca_cap>(capb), v);
		return m;
	}
};

TEST_F(TransportTest, InitSegmentPublished)
{
	const Profile &pr = emu.profile();
	emu.poll_once(); // restores size/stride after the driver's address write
	EXPECT_EQ(prm::from_dword<iseg::fw_rev_major>(plat.rd(0)), pr.fw_rev.major);
	EXPECT_EQ(prm::from_dword<iseg::fw_rev_minor>(plat.rd(0)), pr.fw_rev.minor);
	uint32_t v = plat.rd(prm::iseg::CMDIF_REV);
	EXPECT_EQ(prm::from_dword<iseg::cmd_interface_rev>(v), 5u);
	EXPECT_EQ(prm::from_dword<iseg::fw_rev_subminor>(v), pr.fw_rev.subminor);
	v = plat.rd(prm::iseg::CMDQ_ADDR_L_SZ);
	EXPECT_EQ(prm::from_dword<iseg::log_cmdq_size>(v), 5u);
	EXPECT_EQ(prm::from_dword<iseg::log_cmdq_stride>(v), 6u);
	EXPECT_EQ(v & 0xfffff000u, (uint32_t)drv.queue());
	EXPECT_EQ(plat.rd(prm::iseg::CMDQ_ADDR_H), (uint32_t)(drv.queue() >> 32));
}

TEST(InitSegment, InitializingClearsAfterDelay)
{
	Rig r(quiet_with([](Profile &p) { p.init_delay_ms = 30; }), Stage::RESET);
	// A test clock: a descheduled test cannot see the delay pass early.
	uint64_t now = 0;
	r.emu.set_clock([&now] { return now; });
	auto init_bit = [&] {
		return prm::from_dword<iseg::initializing>(r.plat.rd(prm::dword_byte_offset<iseg::initializing>()));
	};
	EXPECT_EQ(init_bit(), 1u);
	r.emu.poll_once();
	EXPECT_EQ(init_bit(), 1u);
	EXPECT_TRUE(r.emu.initializing());
	// Doorbells are not looked at while initializing.
	r.plat.ring(prm::iseg::DOORBELL, 1);
	r.emu.poll_once();
	EXPECT_EQ(r.plat.rd(prm::iseg::DOORBELL), 1u);
	now = 29'999'999;
	r.emu.poll_once();
	EXPECT_EQ(init_bit(), 1u);
	now = 30'000'000;
	r.emu.poll_once();
	EXPECT_EQ(init_bit(), 0u);
	EXPECT_FALSE(r.emu.initializing());
}

TEST(InitSegment, HealthCounterTicksAndThreadClearsInitializing)
{
	Rig r(quiet_with([](Profile &p) {
		p.init_delay_ms = 10;
		p.health_tick_ms = 1;
	}), Stage::RESET);
	uint32_t off = prm::dword_byte_offset<iseg::health_counter>();
	uint32_t c0 = prm::from_dword<iseg::health_counter>(r.plat.rd(off));
	auto init_bit = [&] {
		return prm::from_dword<iseg::initializing>(r.plat.rd(prm::dword_byte_offset<iseg::initializing>()));
	};
	r.emu.start();
	// The thread's work, waited for with a bound no loaded host reaches.
	auto end = std::chrono::steady_clock::now() + std::chrono::seconds(20);
	while ((prm::from_dword<iseg::health_counter>(r.plat.rd(off)) <= c0 + 5 || init_bit()) &&
	       std::chrono::steady_clock::now() < end)
		std::this_thread::sleep_for(std::chrono::milliseconds(1));
	uint32_t c1 = prm::from_dword<iseg::health_counter>(r.plat.rd(off));
	EXPECT_GT(c1, c0 + 5);
	EXPECT_EQ(init_bit(), 0u);
	r.emu.stop();
}

TEST_F(TransportTest, GeometryBitsAreFirmwares)
{
	// The driver wrote the address with size/stride 0; one step restores them.
	emu.poll_once();
	uint32_t v = plat.rd(prm::iseg::CMDQ_ADDR_L_SZ);
	EXPECT_EQ(prm::from_dword<iseg::log_cmdq_size>(v), 5u);
	EXPECT_EQ(prm::from_dword<iseg::log_cmdq_stride>(v), 6u);
	EXPECT_EQ(v & 0xfffff000u, (uint32_t)drv.queue());
}

TEST_F(TransportTest, InlineRoundTrip)
{
	Msg m = make_in<prm::enable_hca_in>(op::ENABLE_HCA);
	Answer a = drv.exec(m, 16);
	ASSERT_TRUE(a.completed);
	EXPECT_EQ(a.delivery, 0);
	EXPECT_EQ(a.status, st::OK);
	// Checksums off: the entry is handed back unsigned (Linux never checks).
	EXPECT_FALSE(entry_signature_ok(a.entry));
	CRef<cmd_queue_entry> e(a.entry);
	EXPECT_EQ(prm::get<cmd_queue_entry::output_length>(e), 16u);
	EXPECT_EQ(emu.commands_processed(), 1u);
	EXPECT_EQ(emu.opcode_count(op::ENABLE_HCA), 1u);
	EXPECT_EQ(emu.hca_state(), HcaState::ENABLED);
}

TEST_F(TransportTest, LongOutputChainIsTokenedAndUnsignedWithChecksumsOff)
{
	ASSERT_EQ(drv.exec(make_in<prm::enable_hca_in>(op::ENABLE_HCA), 16).status, st::OK);
	Msg m = make_in<prm::query_hca_cap_in>(op::QUERY_HCA_CAP, prm::cap::op_mod(prm::cap::GENERAL, prm::cap::MAX));
	Prepared pr = drv.prepare(3, m.b, prm::query_hca_cap_out::size_bytes);
	ASSERT_EQ(pr.out_blocks.size(), 8u);
	drv.ring(3);
	ASSERT_TRUE(drv.wait(pr));
	Answer a = drv.collect(pr);
	EXPECT_EQ(a.delivery, 0);
	EXPECT_EQ(a.status, st::OK);
	EXPECT_FALSE(entry_signature_ok(a.entry));
	for (size_t i = 0; i < a.out_blocks.size(); i++) {
		const uint8_t *b = a.out_blocks[i].data();
		EXPECT_FALSE(block_signatures_ok(b)) << i;
		EXPECT_EQ(prm::get<cmd_if_box::token>(CRef<cmd_if_box>(b)), pr.token);
		EXPECT_EQ(prm::get<cmd_if_box::block_number>(CRef<cmd_if_box>(b)), i);
	}
	CRef<prm::cmd_hca_cap> cap(prm::bytes<prm::query_hca_cap_out::capability>(a.as<prm::query_hca_cap_out>()));
	EXPECT_EQ(prm::get<prm::cmd_hca_cap::cmdif_checksum>(cap), 3u);
	EXPECT_EQ(prm::get<prm::cmd_hca_cap::log_max_eq_sz>(cap), 22u);
}

TEST_F(TransportTest, LongInputChainIsAssembled)
{
	// SET_HCA_CAP: 0x1010 bytes in; the last block carries the tail of the cap.
	Msg m = enable_and_set_cap<prm::cmd_hca_cap::cache_line_128byte>(1);
	Answer a = drv.exec(m, 16);
	EXPECT_EQ(a.delivery, 0);
	EXPECT_EQ(a.status, st::OK);
	auto after = emu.cap_cur(prm::cap::GENERAL);
	EXPECT_EQ(prm::get<prm::cmd_hca_cap::cache_line_128byte>(CRef<prm::cmd_hca_cap>(after.data())), 1u);
}

// --- delivery errors ---

struct DeliveryCase {
	const char *name;
	uint8_t want;
	std::function<void(TransportTest &, Prepared &)> tamper;
	bool long_in = true;
	uint32_t outlen = 0x1010;
};

class DeliveryErrors : public TransportTest, public ::testing::WithParamInterface<DeliveryCase> {};

void retype(TransportTest &t, Prepared &p, uint8_t type)
{
	Ref<cmd_queue_entry> e(t.plat.cpu(p.entry));
	prm::set<cmd_queue_entry::type>(e, type);
	t.drv.resign_entry(p);
}

template <class F> void set_entry(TransportTest &t, Prepared &p, uint64_t v)
{
	Ref<cmd_queue_entry> e(t.plat.cpu(p.entry));
	prm::set<F>(e, v);
	t.drv.resign_entry(p);
}

template <class F> void set_block(TransportTest &t, uint64_t blk, uint64_t v)
{
	prm::set<F>(Ref<cmd_if_box>(t.plat.cpu(blk)), v);
}

// ORs bits into the dword that holds F (bits below an aligned pointer).
template <class F> void or_dword(uint8_t *base, uint32_t bits)
{
	constexpr uint32_t o = prm::dword_byte_offset<F>();
	store_be32(base + o, load_be32(base + o) | bits);
}

template <class F> void or_entry(TransportTest &t, Prepared &p, uint32_t bits)
{
	or_dword<F>(t.plat.cpu(p.entry), bits);
	t.drv.resign_entry(p);
}

TEST_P(DeliveryErrors, Reported)
{
	const DeliveryCase &c = GetParam();
	std::vector<uint8_t> in = c.long_in ? long_input() : make_in<prm::enable_hca_in>(op::ENABLE_HCA).b;
	Prepared pr = drv.prepare(1, in, c.outlen);
	c.tamper(*this, pr);
	drv.ring(1);
	ASSERT_TRUE(drv.wait(pr));
	Answer a = drv.collect(pr);
	EXPECT_EQ(a.delivery, c.want);
	EXPECT_EQ(emu.last_delivery_status(), c.want);
	EXPECT_FALSE(entry_signature_ok(a.entry)) << "checksums off: not signed";
	EXPECT_EQ(emu.opcode_count(op::SET_HCA_CAP) + emu.opcode_count(op::ENABLE_HCA), 0u) << "not executed";
	EXPECT_EQ(emu.counters().delivery_errors, 1u);
}

INSTANTIATE_TEST_SUITE_P(
	Transport, DeliveryErrors,
	::testing::Values(
		DeliveryCase{"BadType", dst::CMD_DESCR_ERR, [](TransportTest &t, Prepared &p) { retype(t, p, 6); }},
		DeliveryCase{"InputTooShort", dst::IN_LENGTH_ERR,
			     [](TransportTest &t, Prepared &p) { set_entry<cmd_queue_entry::input_length>(t, p, 4); }},
		DeliveryCase{"InputTooLong", dst::IN_LENGTH_ERR,
			     [](TransportTest &t, Prepared &p) {
				     set_entry<cmd_queue_entry::input_length>(t, p, 0x7fffffff);
			     }},
		DeliveryCase{"OutputTooShort", dst::OUT_LENGTH_ERR,
			     [](TransportTest &t, Prepared &p) { set_entry<cmd_queue_entry::output_length>(t, p, 7); }},
		DeliveryCase{"InPtrUnaligned", dst::IN_PTR_ALIGN_ERR,
			     [](TransportTest &t, Prepared &p) {
				     or_entry<cmd_queue_entry::input_mailbox_pointer_31_9>(t, p, 0x40);
			     }},
		DeliveryCase{"OutPtrUnaligned", dst::OUT_PTR_ALIGN_ERR,
			     [](TransportTest &t, Prepared &p) {
				     or_entry<cmd_queue_entry::output_mailbox_pointer_31_9>(t, p, 0x8);
			     }},
		DeliveryCase{"InNextUnaligned", dst::IN_PTR_ALIGN_ERR,
			     [](TransportTest &t, Prepared &p) {
				     or_dword<cmd_if_box::next_pointer_31_10>(t.plat.cpu(p.in_blocks[2]), 0x200);
			     }},
		DeliveryCase{"OutNextUnaligned", dst::OUT_PTR_ALIGN_ERR,
			     [](TransportTest &t, Prepared &p) {
				     or_dword<cmd_if_box::next_pointer_31_10>(t.plat.cpu(p.out_blocks[0]), 0x1);
			     }},
		DeliveryCase{"InBlockNumber", dst::BAD_BLK_NUM_ERR,
			     [](TransportTest &t, Prepared &p) {
				     set_block<cmd_if_box::block_number>(t, p.in_blocks[3], 7);
			     }},
		DeliveryCase{"OutBlockNumber", dst::BAD_BLK_NUM_ERR,
			     [](TransportTest &t, Prepared &p) {
				     set_block<cmd_if_box::block_number>(t, p.out_blocks[5], 0);
			     }},
		DeliveryCase{"InBlockToken", dst::TOK_ERR,
			     [](TransportTest &t, Prepared &p) {
				     set_block<cmd_if_box::token>(t, p.in_blocks[7], (uint8_t)(p.token + 1));
			     }},
		DeliveryCase{"OutBlockToken", dst::TOK_ERR,
			     [](TransportTest &t, Prepared &p) {
				     set_block<cmd_if_box::token>(t, p.out_blocks[1], (uint8_t)(p.token + 1));
			     }},
		DeliveryCase{"InChainTooShort", dst::IN_LENGTH_ERR,
			     [](TransportTest &t, Prepared &p) {
				     set_block<cmd_if_box::next_pointer_63_32>(t, p.in_blocks[4], 0);
				     set_block<cmd_if_box::next_pointer_31_10>(t, p.in_blocks[4], 0);
			     }},
		DeliveryCase{"OutChainTooShort", dst::OUT_LENGTH_ERR,
			     [](TransportTest &t, Prepared &p) {
				     set_entry<cmd_queue_entry::output_mailbox_pointer_63_32>(t, p, 0);
				     set_entry<cmd_queue_entry::output_mailbox_pointer_31_9>(t, p, 0);
			     }},
		DeliveryCase{"ChainLoopCaught", dst::BAD_BLK_NUM_ERR,
			     [](TransportTest &t, Prepared &p) {
				     // block 2 points back at block 0
				     uint64_t b0 = p.in_blocks[0];
				     set_block<cmd_if_box::next_pointer_63_32>(t, p.in_blocks[2], b0 >> 32);
				     set_block<cmd_if_box::next_pointer_31_10>(t, p.in_blocks[2],
									       (b0 & 0xffffffff) >> 10);
			     }},
		DeliveryCase{"UnreachableBlock", dst::FW_ERR,
			     [](TransportTest &t, Prepared &p) { t.plat.deny(p.in_blocks[6], 576); }},
		DeliveryCase{"UnreachableOutBlock", dst::FW_ERR,
			     [](TransportTest &t, Prepared &p) { t.plat.deny(p.out_blocks[2] + 100, 8); }},
		DeliveryCase{"ReservedEntryBits", dst::RES_FLD_NOT_CLR_ERR,
			     [](TransportTest &t, Prepared &p) {
				     uint8_t *e = t.plat.cpu(p.entry);
				     e[1] = 0x80; // bits 0x08.. after 'type'
				     t.drv.resign_entry(p);
			     }}),
	[](const ::testing::TestParamInfo<DeliveryCase> &i) { return std::string(i.param.name); });

TEST_F(TransportTest, BlockSignaturesCheckedWhenChecksumsOn)
{
	// Enable cmdif_checksum through SET_HCA_CAP (MAX offers 3).
	Msg m = enable_and_set_cap<prm::cmd_hca_cap::cmdif_checksum>(3);
	ASSERT_EQ(drv.exec(m, 16).status, st::OK);
	ASSERT_TRUE(emu.checksums_enabled());

	// Properly signed input blocks pass (the driver signs when checksums are on).
	Answer ok = drv.exec(m, 16);
	EXPECT_EQ(ok.delivery, 0);
	EXPECT_EQ(ok.status, st::OK);
	EXPECT_TRUE(entry_signature_ok(ok.entry)) << "checksums on: outputs signed";

	// A long output: every block signed too.
	Msg q = make_in<prm::query_hca_cap_in>(op::QUERY_HCA_CAP, prm::cap::op_mod(prm::cap::GENERAL, prm::cap::CUR));
	Answer qa = drv.exec(q, prm::query_hca_cap_out::size_bytes);
	EXPECT_TRUE(entry_signature_ok(qa.entry));
	for (auto &b : qa.out_blocks)
		EXPECT_TRUE(block_signatures_ok(b.data()));

	// A data byte changed after signing: SIGNAT_ERR.
	Prepared pr = drv.prepare(2, m.b, 16, true);
	plat.cpu(pr.in_blocks[1])[17] ^= 0x20;
	drv.ring(2);
	ASSERT_TRUE(drv.wait(pr));
	EXPECT_EQ(drv.collect(pr).delivery, dst::SIGNAT_ERR);

	// Unsigned blocks: SIGNAT_ERR as well.
	pr = drv.prepare(2, m.b, 16, false);
	drv.ring(2);
	ASSERT_TRUE(drv.wait(pr));
	EXPECT_EQ(drv.collect(pr).delivery, dst::SIGNAT_ERR);
}

TEST_F(TransportTest, BlockSignaturesIgnoredWhenChecksumsOff)
{
	ASSERT_FALSE(emu.checksums_enabled());
	Prepared pr = drv.prepare(0, long_input(), 16, false);
	plat.cpu(pr.in_blocks[0])[0x23f] ^= 0xff; // garbage block signature
	drv.ring(0);
	ASSERT_TRUE(drv.wait(pr));
	EXPECT_EQ(drv.collect(pr).delivery, 0);
}

TEST_F(TransportTest, DoorbellForSoftwareOwnedSlotIgnored)
{
	Prepared pr = drv.prepare(4, make_in<prm::enable_hca_in>(op::ENABLE_HCA).b, 16);
	Ref<cmd_queue_entry> e(plat.cpu(pr.entry));
	prm::set<cmd_queue_entry::ownership>(e, 0);
	uint8_t before[64];
	std::memcpy(before, plat.cpu(pr.entry), 64);
	drv.ring(4);
	emu.poll_once();
	EXPECT_EQ(std::memcmp(before, plat.cpu(pr.entry), 64), 0);
	EXPECT_EQ(emu.commands_processed(), 0u);
	EXPECT_EQ(emu.counters().ignored_doorbells, 1u);
	EXPECT_EQ(emu.hca_state(), HcaState::DISABLED);
}

TEST_F(TransportTest, OwnedSlotWithoutDoorbellIgnored)
{
	Prepared pr = drv.prepare(4, make_in<prm::enable_hca_in>(op::ENABLE_HCA).b, 16);
	emu.poll_once();
	EXPECT_TRUE(drv.owned_by_hw(pr));
	drv.ring(4);
	emu.poll_once();
	EXPECT_FALSE(drv.owned_by_hw(pr));
}

TEST(TransportSmallQueue, DoorbellBeyondQueueIgnored)
{
	Rig r(quiet_with([](Profile &p) { p.log_cmdq_size = 2; })); // 4 entries
	ASSERT_EQ(r.drv.nent(), 4u);
	r.drv.ring_mask(1u << 9);
	r.emu.poll_once();
	EXPECT_EQ(r.emu.counters().ignored_doorbells, 1u);
}

TEST_F(TransportTest, ManySlotsInOneDoorbell)
{
	std::vector<Prepared> prs;
	uint32_t mask = 0;
	for (unsigned s = 0; s < 31; s++) {
		prs.push_back(drv.prepare(s, make_in<prm::query_issi_in>(op::QUERY_ISSI).b, prm::query_issi_out::size_bytes));
		mask |= 1u << s;
	}
	drv.ring_mask(mask);
	emu.poll_once();
	for (auto &pr : prs) {
		Answer a = drv.collect(pr);
		EXPECT_TRUE(a.completed);
		EXPECT_EQ(a.delivery, 0);
		EXPECT_EQ(a.status, st::BAD_SYS_STATE_ERR); // still DISABLED
		EXPECT_EQ(a.syndrome, synd::WRONG_STATE);
	}
	EXPECT_EQ(emu.commands_processed(), 31u);
}

TEST(TransportThreaded, ConcurrentRingersEachOwnASlot)
{
	FakePlatform plat(64u << 20);
	Profile p = quiet();
	Emulator emu(plat, p);
	emu.start();
	TestDriver setup(plat, emu, true);
	setup.init_queue();
	ASSERT_EQ(setup.exec(make_in<prm::enable_hca_in>(op::ENABLE_HCA), 16).status, st::OK);

	constexpr int THREADS = 8, ROUNDS = 50;
	std::atomic<int> good{0};
	std::vector<std::thread> ts;
	for (int t = 0; t < THREADS; t++)
		ts.emplace_back([&, t] {
			// every thread shares the queue programmed by 'setup'
			for (int r = 0; r < ROUNDS; r++) {
				Msg m = make_in<prm::query_hca_cap_in>(op::QUERY_HCA_CAP, (uint16_t)(r & 1));
				Prepared pr;
				{
					static std::mutex alloc_mu;
					std::lock_guard<std::mutex> g(alloc_mu);
					pr = setup.prepare((unsigned)t, m.b, prm::query_hca_cap_out::size_bytes);
				}
				setup.ring((unsigned)t);
				if (!setup.wait(pr))
					continue;
				Answer a = setup.collect(pr);
				if (a.delivery == 0 && a.status == st::OK)
					good++;
			}
		});
	for (auto &t : ts)
		t.join();
	emu.stop();
	EXPECT_EQ(good.load(), THREADS * ROUNDS);
	EXPECT_EQ(emu.opcode_count(op::QUERY_HCA_CAP), (uint64_t)THREADS * ROUNDS);
}

TEST(Signatures, Helpers)
{
	uint8_t e[64] = {};
	e[5] = 0x33;
	e[63] = 0x01;
	sign_entry(e);
	EXPECT_TRUE(entry_signature_ok(e));
	e[7] ^= 1;
	EXPECT_FALSE(entry_signature_ok(e));

	std::vector<uint8_t> b(576, 0);
	b[3] = 0x42;
	b[0x238] = 0x7;
	b[0x23d] = 0x99;
	sign_block(b.data());
	EXPECT_TRUE(block_signatures_ok(b.data()));
	b[0x231] ^= 4;
	EXPECT_FALSE(block_signatures_ok(b.data()));
}

} // namespace
} // namespace cxprm::emu::test
