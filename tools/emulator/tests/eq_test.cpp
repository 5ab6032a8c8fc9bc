// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// UARs, EQs, event delivery with the owner/phase rule, EQ doorbells.
#include "test_driver.h"

namespace cxprm::emu::test {
namespace {

using prm::eqc;
using prm::eqe;

struct EqRing {
	uint8_t eqn = 0;
	uint32_t uar = 0;
	uint8_t log_size = 0;
	uint64_t base = 0;
	uint32_t ci = 0; // driver's consumer index
};

struct EqTest : InitializedTest {
	uint32_t alloc_uar()
	{
		Answer a = drv.run<prm::alloc_uar_out>(make_in<prm::alloc_uar_in>(op::ALLOC_UAR));
		EXPECT_EQ(a.status, st::OK);
		return (uint32_t)prm::get<prm::alloc_uar_out::uar>(a.as<prm::alloc_uar_out>());
	}

	// CREATE_EQ message for a ring at 'base' (4 KiB pages, one pas each).
	Msg create_msg(uint64_t base, uint8_t log_size, uint32_t uar, uint64_t mask0, uint16_t intr = 3)
	{
		uint32_t npas = std::max<uint32_t>(1, (64u << log_size) / 4096);
		Msg m = make_in<prm::create_eq_in>(op::CREATE_EQ, 0, npas * 8);
		Ref<prm::create_eq_in> in = m.as<prm::create_eq_in>();
		Ref<eqc> ctx = prm::sub<prm::create_eq_in::eq_context_entry, eqc>(in);
		prm::set<eqc::log_eq_size>(ctx, log_size);
		prm::set<eqc::uar_page>(ctx, uar);
		prm::set<eqc::intr>(ctx, intr);
		prm::set<eqc::log_page_size>(ctx, 0);
		store_be64(prm::bytes<prm::create_eq_in::event_bitmask>(in), mask0);
		for (uint32_t i = 0; i < npas; i++)
			prm::set_pas<prm::create_eq_in_pas>(in, i, base + i * 4096ull);
		return m;
	}

	// An EQ on UAR 'uar' (< 0: a new one).
	EqRing create(uint8_t log_size, uint64_t mask0, uint16_t intr = 3, int64_t uar = -1)
	{
		EqRing r;
		r.log_size = log_size;
		r.uar = uar < 0 ? alloc_uar() : (uint32_t)uar;
		size_t bytes = std::max<size_t>(4096, 64u << log_size);
		r.base = plat.alloc(bytes, 4096);
		for (uint32_t i = 0; i < (1u << log_size); i++)
			plat.cpu(r.base + i * 64)[63] = 1; // MLX5_EQE_OWNER_INIT_VAL
		Answer a = drv.run<prm::create_eq_out>(create_msg(r.base, log_size, r.uar, mask0, intr));
		EXPECT_EQ(a.status, st::OK);
		r.eqn = (uint8_t)prm::get<prm::create_eq_out::eq_number>(a.as<prm::create_eq_out>());
		return r;
	}

	// The driver's next_eqe_sw(): the entry at ci if it is valid.
	const uint8_t *next_eqe(EqRing &r)
	{
		uint8_t *e = plat.cpu(r.base + (uint64_t)(r.ci & ((1u << r.log_size) - 1)) * 64);
		// The owner byte with an acquire load (the device writes it last).
		uint8_t last = __atomic_load_n(e + prm::eqe::owner::offset / 8, __ATOMIC_ACQUIRE);
		uint8_t owner = (uint8_t)prm::from_dword<eqe::owner>(last);
		return ((owner ^ (r.ci >> r.log_size)) & 1) == 0 ? e : nullptr;
	}

	static Msg destroy_msg(uint8_t eqn)
	{
		Msg d = make_in<prm::destroy_eq_in>(op::DESTROY_EQ);
		prm::set<prm::destroy_eq_in::eq_number>(d.as<prm::destroy_eq_in>(), eqn);
		return d;
	}

	void doorbell(EqRing &r, bool arm)
	{
		uint32_t off = r.uar * bar_map::UAR_SIZE +
			       (arm ? bar_map::UAR_EQ_DB_ARM : bar_map::UAR_EQ_DB_NOARM);
		plat.wr(off, (r.ci & 0xffffff) | (uint32_t)r.eqn << 24);
	}

	static uint64_t bit(uint8_t type) { return 1ull << type; }
};

TEST_F(EqTest, CmdCompletionEvent)
{
	EqRing r = create(2, bit(prm::event::CMD), 7);
	EXPECT_EQ(next_eqe(r), nullptr) << "CREATE_EQ's own completion is not posted to the new EQ";
	doorbell(r, true); // armed, as a driver does after CREATE_EQ (strict_eq_arm)
	emu.poll_once();
	plat.clear_irqs();

	Prepared pr = drv.prepare(5, make_in<prm::nop_in>(op::NOP).b, 16);
	drv.ring(5);
	ASSERT_TRUE(drv.wait(pr));
	const uint8_t *e = next_eqe(r);
	ASSERT_NE(e, nullptr);
	CRef<eqe> ev(e);
	EXPECT_EQ(prm::get<eqe::event_type>(ev), prm::event::CMD);
	EXPECT_EQ(prm::get<eqe::owner>(ev), 0u) << "first pass writes owner 0";
	CRef<prm::cmd_inter_comp_event> d(prm::bytes<eqe::event_data>(ev));
	EXPECT_EQ(prm::get<prm::cmd_inter_comp_event::command_completion_vector>(d), 1u << 5);
	EXPECT_EQ(plat.irqs(), std::vector<uint32_t>{7});
	EXPECT_EQ(emu.counters().eqes_written, 1u);
}

// As firmware: an overrun is the fatal health syndrome ASYNC_EQ_BUF_OVERRUN
// (0xc) with rfr; the device stops answering.
TEST_F(EqTest, OverrunRaisesFatalSyndrome)
{
	create(2, bit(prm::event::GENERAL_EVENT)); // 4 entries
	for (int i = 0; i < 4; i++)
		EXPECT_EQ(emu.post_event(prm::event::GENERAL_EVENT, (uint8_t)i), 1u);
	EXPECT_FALSE(emu.crashed());
	EXPECT_EQ(emu.post_event(prm::event::GENERAL_EVENT, 4), 0u);
	EXPECT_EQ(emu.counters().eq_overruns, 1u);
	EXPECT_TRUE(emu.crashed());
	using hb = prm::health_buffer;
	uint32_t base = prm::iseg::HEALTH;
	EXPECT_EQ(prm::from_dword<hb::synd>(plat.rd(base + prm::dword_byte_offset<hb::synd>())), 0xcu);
	EXPECT_EQ(prm::from_dword<hb::rfr>(plat.rd(base + prm::dword_byte_offset<hb::rfr>())), 1u);
}

TEST_F(EqTest, OwnerPhaseWrap)
{
	EqRing r = create(2, bit(prm::event::GENERAL_EVENT)); // 4 entries
	for (int i = 0; i < 4; i++)
		EXPECT_EQ(emu.post_event(prm::event::GENERAL_EVENT, (uint8_t)i), 1u);
	EXPECT_EQ(emu.counters().eq_overruns, 0u);

	for (int i = 0; i < 4; i++) {
		const uint8_t *e = next_eqe(r);
		ASSERT_NE(e, nullptr) << i;
		EXPECT_EQ(prm::get<eqe::event_sub_type>(CRef<eqe>(e)), (uint32_t)i);
		r.ci++;
	}
	EXPECT_EQ(next_eqe(r), nullptr) << "nothing new on the second pass yet";
	doorbell(r, false);
	emu.poll_once();
	EqInfo info;
	ASSERT_TRUE(emu.eq_info(r.eqn, &info));
	EXPECT_EQ(info.consumer, 4u);

	// Second pass: owner 1.
	for (int i = 0; i < 4; i++)
		EXPECT_EQ(emu.post_event(prm::event::GENERAL_EVENT, (uint8_t)(10 + i)), 1u);
	for (int i = 0; i < 4; i++) {
		const uint8_t *e = next_eqe(r);
		ASSERT_NE(e, nullptr) << i;
		EXPECT_EQ(prm::get<eqe::owner>(CRef<eqe>(e)), 1u);
		EXPECT_EQ(prm::get<eqe::event_sub_type>(CRef<eqe>(e)), (uint32_t)(10 + i));
		r.ci++;
	}
	// Third pass after the doorbell: owner 0 again.
	doorbell(r, true);
	EXPECT_EQ(emu.post_event(prm::event::GENERAL_EVENT, 20), 1u); // hooks read doorbells first
	const uint8_t *e = next_eqe(r);
	ASSERT_NE(e, nullptr);
	EXPECT_EQ(prm::get<eqe::owner>(CRef<eqe>(e)), 0u);
}

TEST_F(EqTest, EventBitmaskHonoured)
{
	EqRing cmd = create(3, bit(prm::event::CMD));
	EqRing async = create(3, bit(prm::event::ESW_FUNCTIONS_CHANGED) | bit(prm::event::DCT_DRAINED));
	// The CMD EQ heard about ALLOC_UAR and CREATE_EQ of the second EQ.
	for (int i = 0; i < 2; i++) {
		ASSERT_NE(next_eqe(cmd), nullptr);
		cmd.ci++;
	}
	EXPECT_EQ(next_eqe(async), nullptr);
	EXPECT_EQ(emu.post_event(prm::event::PORT_CHANGE, 0), 0u);
	EXPECT_EQ(emu.post_event(prm::event::ESW_FUNCTIONS_CHANGED, 0), 1u);
	EXPECT_EQ(next_eqe(cmd), nullptr);
	ASSERT_NE(next_eqe(async), nullptr);
	async.ci++;
	// A command completes: only the CMD EQ hears about it.
	drv.run<prm::nop_out>(make_in<prm::nop_in>(op::NOP));
	EXPECT_NE(next_eqe(cmd), nullptr);
	EXPECT_EQ(next_eqe(async), nullptr);
}

TEST_F(EqTest, HighEventTypesUseTheirBitmaskWord)
{
	EqRing r = create(2, 0);
	EXPECT_EQ(emu.post_event(0x41, 0), 0u);
	// Re-create with bit 0x41 (word 1, bit 1).
	Msg m = create_msg(plat.alloc(4096), 2, r.uar, 0);
	store_be64(prm::bytes<prm::create_eq_in::event_bitmask>(m.as<prm::create_eq_in>()) + 8, 1ull << 1);
	ASSERT_EQ(drv.run<prm::create_eq_out>(m).status, st::OK);
	EXPECT_EQ(emu.post_event(0x41, 0), 1u);
}

TEST_F(EqTest, QueryAndDestroy)
{
	EqRing r = create(3, bit(prm::event::CMD), 9);
	Msg q = make_in<prm::query_eq_in>(op::QUERY_EQ);
	prm::set<prm::query_eq_in::eq_number>(q.as<prm::query_eq_in>(), r.eqn);
	Answer a = drv.run<prm::query_eq_out>(q);
	ASSERT_EQ(a.status, st::OK);
	CRef<eqc> ctx = prm::sub<prm::query_eq_out::eq_context_entry, eqc>(a.as<prm::query_eq_out>());
	EXPECT_EQ(prm::get<eqc::log_eq_size>(ctx), 3u);
	EXPECT_EQ(prm::get<eqc::uar_page>(ctx), r.uar);
	EXPECT_EQ(prm::get<eqc::intr>(ctx), 9u);
	EXPECT_EQ(prm::get<eqc::producer_counter>(ctx), 0u); // QUERY_EQ's completion comes after
	EXPECT_EQ(prm::get<prm::query_eq_out::event_bitmask>(a.as<prm::query_eq_out>()), bit(prm::event::CMD));

	// DEALLOC_UAR of a UAR in use.
	Msg du = make_in<prm::dealloc_uar_in>(op::DEALLOC_UAR);
	prm::set<prm::dealloc_uar_in::uar>(du.as<prm::dealloc_uar_in>(), r.uar);
	Answer b = drv.exec(du, 16);
	EXPECT_EQ(b.status, st::BAD_RES_STATE_ERR);
	EXPECT_EQ(b.syndrome, synd::UAR_IN_USE);

	Msg d = destroy_msg(r.eqn);
	EXPECT_EQ(drv.run<prm::destroy_eq_out>(d).status, st::OK);
	EXPECT_EQ(emu.eq_count(), 0u);
	a = drv.exec(d, 16);
	EXPECT_EQ(a.status, st::BAD_RES_ERR);
	EXPECT_EQ(a.syndrome, synd::EQ_UNKNOWN_DESTROY);
	a = drv.exec(q, prm::query_eq_out::size_bytes);
	EXPECT_EQ(a.syndrome, synd::EQ_UNKNOWN_QUERY);
	EXPECT_EQ(drv.run<prm::dealloc_uar_out>(du).status, st::OK);
	EXPECT_EQ(drv.exec(du, 16).syndrome, synd::UAR_UNKNOWN);
}

TEST_F(EqTest, CreateValidation)
{
	uint32_t uar = alloc_uar();
	uint64_t ring = plat.alloc(8192);
	auto expect = [&](Msg m, uint32_t syn) {
		Answer a = drv.exec(m, 16);
		EXPECT_EQ(a.syndrome, syn) << syndrome_name(syn);
		EXPECT_NE(a.status, st::OK);
	};
	auto ctx = [](Msg &m) { return prm::sub<prm::create_eq_in::eq_context_entry, eqc>(m.as<prm::create_eq_in>()); };

	Msg m = create_msg(ring, 2, uar + 1, 0);
	expect(m, synd::EQ_BAD_UAR);
	m = create_msg(ring, 23, uar, 0);
	expect(m, synd::EQ_BAD_LOG_SIZE);
	m = create_msg(ring, 2, uar, 0, 4000);
	expect(m, synd::EQ_BAD_INTR);
	m = create_msg(ring, 2, uar, 0);
	prm::set<eqc::page_offset>(ctx(m), 1);
	expect(m, synd::EQ_BAD_PAGE_OFFSET);
	m = create_msg(ring, 2, uar, 0);
	store_be64(prm::tail_entry<prm::create_eq_in_pas>(m.as<prm::create_eq_in>(), 0), ring + 0x40);
	expect(m, synd::EQ_PAS_UNALIGNED);
	m = create_msg(ring, 7, uar, 0); // 8 KiB ring: 2 pas needed
	m.b.resize(m.b.size() - 8);
	expect(m, synd::EQ_PAS_INLEN);
	m = create_msg(ring, 2, uar, 0);
	ctx(m).p[0] |= 0x01; // a reserved bit of eqc dw0
	expect(m, synd::EQC_RESERVED);
	m = create_msg(ring, 2, uar, 0);
	prm::set<prm::create_eq_in::uid>(m.as<prm::create_eq_in>(), 5);
	expect(m, synd::EQ_BAD_UID);
	m = create_msg(ring, 2, uar, 0);
	prm::set<prm::create_eq_in::uid>(m.as<prm::create_eq_in>(), 0xffff); // SHARED_RESOURCE_UID
	EXPECT_EQ(drv.run<prm::create_eq_out>(m).status, st::OK);
}

TEST_F(EqTest, UarExhaustionAndBarMap)
{
	std::set<uint32_t> got;
	for (;;) {
		Answer a = drv.exec(make_in<prm::alloc_uar_in>(op::ALLOC_UAR), 16);
		if (a.status != st::OK) {
			EXPECT_EQ(a.syndrome, synd::UAR_EXHAUSTED);
			break;
		}
		uint32_t idx = (uint32_t)prm::get<prm::alloc_uar_out::uar>(a.as<prm::alloc_uar_out>());
		EXPECT_TRUE(got.insert(idx).second);
		// Doorbell dwords start idle.
		EXPECT_EQ(plat.rd(idx * 4096 + bar_map::UAR_EQ_DB_ARM), bar_map::EQ_DB_IDLE);
		ASSERT_LT(got.size(), 1000u);
	}
	EXPECT_EQ(got.size(), 16u); // the fake BAR holds 16 UAR pages
}

TEST_F(EqTest, BadDoorbellsCounted)
{
	EqRing r = create(2, 0);
	r.eqn = 200; // no such EQ
	doorbell(r, false);
	emu.poll_once();
	EXPECT_EQ(emu.counters().bad_eq_doorbells, 1u);
	EqRing ok = create(2, 0);
	ok.ci = 3; // consumed beyond what was produced
	doorbell(ok, false);
	emu.poll_once();
	EXPECT_EQ(emu.counters().bad_eq_doorbells, 2u);
}

TEST_F(EqTest, OverrunIgnoreBit)
{
	uint32_t uar = alloc_uar();
	uint64_t ring = plat.alloc(4096);
	Msg m = create_msg(ring, 1, uar, bit(prm::event::GENERAL_EVENT));
	prm::set<eqc::oi>(prm::sub<prm::create_eq_in::eq_context_entry, eqc>(m.as<prm::create_eq_in>()), 1);
	ASSERT_EQ(drv.run<prm::create_eq_out>(m).status, st::OK);
	for (int i = 0; i < 5; i++)
		EXPECT_EQ(emu.post_event(prm::event::GENERAL_EVENT, 0), 1u);
	EXPECT_EQ(emu.counters().eq_overruns, 0u);
}

// Arming with EQEs past the consumer index fires at once (none is lost
// between the driver's last look and its arm doorbell).
TEST_F(EqTest, ArmWithPendingEqesFiresAtOnce)
{
	EqRing r = create(2, bit(prm::event::GENERAL_EVENT), 5);
	plat.clear_irqs();
	EXPECT_EQ(emu.post_event(prm::event::GENERAL_EVENT, 0), 1u);
	EXPECT_TRUE(plat.irqs().empty()) << "not armed: no interrupt";
	doorbell(r, true); // ci 0, one EQE pending
	emu.poll_once();
	EXPECT_EQ(plat.irqs(), std::vector<uint32_t>{5});
	r.ci = 1;
	doorbell(r, true);
	emu.poll_once();
	EXPECT_EQ(plat.irqs().size(), 1u) << "nothing pending: armed quietly";
	EXPECT_EQ(emu.post_event(prm::event::GENERAL_EVENT, 0), 1u);
	EXPECT_EQ(plat.irqs().size(), 2u);
}

// Two EQs on one UAR (vectors 5 and 6), each with a ring of its own: they
// share the UAR's arm dword.
struct SharedUarEqTest : EqTest {
	EqRing a, b;
	void SetUp() override
	{
		EqTest::SetUp();
		a = create(2, bit(prm::event::GENERAL_EVENT), 5);
		b = create(2, bit(prm::event::GENERAL_EVENT), 6, a.uar);
		ASSERT_FALSE(HasFailure());
	}
};

// EQs sharing a UAR share its arm dword: two arms written back to back
// (mlx5_core's handlers of the cmd, async and pages EQs on one vector) may
// leave only the last one in the RAM-backed BAR.  The EQ whose arm may have
// been overwritten still interrupts (counted); a lone EQ stays strict.
TEST_F(SharedUarEqTest, ArmLostOnASharedUarDwordIsRescued)
{
	doorbell(a, true);
	emu.poll_once();
	doorbell(b, true);
	emu.poll_once();
	plat.clear_irqs();
	EXPECT_EQ(emu.post_event(prm::event::GENERAL_EVENT, 0), 2u);
	EXPECT_EQ(plat.irqs(), (std::vector<uint32_t>{5, 6}));
	// Both handlers re-arm before the emulator looks: b's write replaces a's.
	a.ci = b.ci = 1;
	doorbell(a, true);
	doorbell(b, true);
	emu.poll_once();
	EXPECT_EQ(emu.post_event(prm::event::GENERAL_EVENT, 0), 2u);
	EXPECT_EQ(plat.irqs().size(), 4u) << "a's lost arm is rescued";
	EXPECT_EQ(emu.counters().eq_arms_rescued, 1u);
	// Nobody re-armed since: neither fires.
	EXPECT_EQ(emu.post_event(prm::event::GENERAL_EVENT, 0), 2u);
	EXPECT_EQ(plat.irqs().size(), 4u);
}

// The same loss, then the other EQ is destroyed before the next event
// (mlx5_core's teardown: pages and async EQs destroyed, the DESTROY_EQ
// completion awaited on the cmd EQ).  Before: a lone EQ by then, so strict,
// and mlx5_core waited 60 s for the completion interrupt.
TEST_F(SharedUarEqTest, ArmLostUnderADestroyedEqIsStillRescued)
{
	doorbell(a, true);
	doorbell(b, true); // replaces a's arm
	emu.poll_once();
	ASSERT_EQ(drv.run<prm::destroy_eq_out>(destroy_msg(b.eqn)).status, st::OK);
	plat.clear_irqs();
	EXPECT_EQ(emu.post_event(prm::event::GENERAL_EVENT, 0), 1u);
	EXPECT_EQ(plat.irqs(), (std::vector<uint32_t>{5})) << "a's lost arm is rescued";
	EXPECT_EQ(emu.counters().eq_arms_rescued, 1u);
	// Alone now and not re-armed: strict again.
	EXPECT_EQ(emu.post_event(prm::event::GENERAL_EVENT, 0), 1u);
	EXPECT_EQ(plat.irqs().size(), 1u);
}

TEST(EqStrictArm, InterruptOnlyWhenArmed)
{
	Rig r(quiet_with([](Profile &p) { p.strict_eq_arm = true; }), Stage::INITIALIZED);
	Answer a = r.drv.run<prm::alloc_uar_out>(make_in<prm::alloc_uar_in>(op::ALLOC_UAR));
	uint32_t uar = (uint32_t)prm::get<prm::alloc_uar_out::uar>(a.as<prm::alloc_uar_out>());
	uint64_t ring = r.plat.alloc(4096);
	Msg m = make_in<prm::create_eq_in>(op::CREATE_EQ, 0, 8);
	Ref<eqc> ctx = prm::sub<prm::create_eq_in::eq_context_entry, eqc>(m.as<prm::create_eq_in>());
	prm::set<eqc::log_eq_size>(ctx, 4);
	prm::set<eqc::uar_page>(ctx, uar);
	prm::set<eqc::intr>(ctx, 2);
	store_be64(prm::bytes<prm::create_eq_in::event_bitmask>(m.as<prm::create_eq_in>()), 1ull << prm::event::GENERAL_EVENT);
	prm::set_pas<prm::create_eq_in_pas>(m.as<prm::create_eq_in>(), 0, ring);
	a = r.drv.run<prm::create_eq_out>(m);
	uint8_t eqn = (uint8_t)prm::get<prm::create_eq_out::eq_number>(a.as<prm::create_eq_out>());
	r.plat.clear_irqs();
	r.emu.post_event(prm::event::GENERAL_EVENT, 0);
	EXPECT_TRUE(r.plat.irqs().empty());
	r.plat.wr(uar * 4096 + bar_map::UAR_EQ_DB_ARM, 1u | (uint32_t)eqn << 24);
	r.emu.post_event(prm::event::GENERAL_EVENT, 0);
	EXPECT_EQ(r.plat.irqs(), std::vector<uint32_t>{2});
	r.emu.post_event(prm::event::GENERAL_EVENT, 0); // fired: needs re-arming
	EXPECT_EQ(r.plat.irqs().size(), 1u);
}

TEST_F(EqTest, ThreadedEventDriven)
{
	// Event-driven completion with the thread: the CMD EQE arrives with
	// the right vector for each of a few commands.
	EqRing r = create(4, bit(prm::event::CMD));
	emu.start();
	TestDriver td(plat, emu, true);
	for (unsigned s = 0; s < 6; s++) {
		Prepared pr = drv.prepare(s, make_in<prm::nop_in>(op::NOP).b, 16);
		drv.ring(s);
		ASSERT_TRUE(td.wait(pr));
		const uint8_t *e = nullptr;
		auto end = std::chrono::steady_clock::now() + std::chrono::seconds(20);
		while (!(e = next_eqe(r)) && std::chrono::steady_clock::now() < end)
			std::this_thread::sleep_for(std::chrono::microseconds(100));
		ASSERT_NE(e, nullptr);
		CRef<prm::cmd_inter_comp_event> d(prm::bytes<eqe::event_data>(CRef<eqe>(e)));
		EXPECT_EQ(prm::get<prm::cmd_inter_comp_event::command_completion_vector>(d), 1u << s);
		r.ci++;
		doorbell(r, true);
	}
	emu.stop();
}

} // namespace
} // namespace cxprm::emu::test
