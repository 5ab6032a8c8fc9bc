// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// ACCESS_REG: the register table, with the messages mlx5_core sends
// (HOST_ENDIANNESS 32/32 before SET_HCA_CAP, PCAM 96/96 and MCAM groups
// 0..2 88/88 after INIT_HCA, DTOR 80/80 when advertised).  Before this
// the emulator answered every ACCESS_REG with BAD_OP.
#include <vector>

#include "reg_fixture.h"

namespace cxprm::emu::test {
namespace {

TEST_F(RegTest, HostEndiannessStoredAndReadBack)
{
	start();
	enable();
	constexpr uint32_t n = prm::register_host_endianness::size_bytes;
	static_assert(prm::access_register_in::size_bytes + n == 32, "mlx5_core sends 32/32");
	Msg w = reg_msg(rid::HOST_ENDIANNESS, aop::WRITE, n);
	reg_data(w)[0] = 0x80; // he = 1, what a big-endian Linux host writes
	Answer a = access(w, n);
	ASSERT_TRUE(a.completed);
	EXPECT_EQ(a.delivery, 0);
	ASSERT_EQ(a.status, st::OK) << std::hex << a.syndrome;
	EXPECT_EQ(reg_data(a)[0], 0x80);

	Answer r = access(reg_msg(rid::HOST_ENDIANNESS, aop::READ, n), n);
	ASSERT_EQ(r.status, st::OK);
	EXPECT_EQ(prm::get<prm::register_host_endianness::he>(CRef<prm::register_host_endianness>(reg_data(r))), 1u);

	Msg le = reg_msg(rid::HOST_ENDIANNESS, aop::WRITE, n); // x86: he = 0
	ASSERT_EQ(access(le, n).status, st::OK);
	r = access(reg_msg(rid::HOST_ENDIANNESS, aop::READ, n), n);
	EXPECT_EQ(reg_data(r)[0], 0);

	Msg bad = reg_msg(rid::HOST_ENDIANNESS, aop::WRITE, n);
	reg_data(bad)[0] = 0x40; // a reserved bit
	EXPECT_EQ(access(bad, n).syndrome, synd::REG_RESERVED);
}

// A VF's firmware refuses the PF's HOST_ENDIANNESS, read or write
// (strict: what it really answers is unknown; Linux never asks from a VF).
TEST_F(RegTest, HostEndiannessRefusedOnAVf)
{
	prof = quiet(Profile::connectx7_vf());
	start();
	enable();
	constexpr uint32_t n = prm::register_host_endianness::size_bytes;
	for (uint16_t mod : {aop::WRITE, aop::READ}) {
		Answer a = access(reg_msg(rid::HOST_ENDIANNESS, mod, n), n);
		ASSERT_TRUE(a.completed);
		EXPECT_EQ(a.status, st::BAD_PARAM_ERR);
		EXPECT_EQ(a.syndrome, synd::REG_VF_HOST_ENDIANNESS);
	}
	EXPECT_EQ(emu->counters().host_endianness_writes, 0u);
}

TEST_F(RegTest, LengthsAsFirmwareChecksThem)
{
	start();
	enable();
	constexpr uint32_t n = prm::register_host_endianness::size_bytes;
	// Input without the register data.
	Answer a = drv->exec(reg_msg(rid::HOST_ENDIANNESS, aop::WRITE, 0), 32);
	EXPECT_EQ(a.status, st::BAD_INP_LEN_ERR);
	EXPECT_EQ(a.syndrome, synd::REG_INLEN);
	// Output without room for it.
	a = drv->exec(reg_msg(rid::HOST_ENDIANNESS, aop::WRITE, n), 16);
	EXPECT_EQ(a.status, st::BAD_OUTP_LEN_ERR);
	EXPECT_EQ(a.syndrome, synd::REG_OUTLEN);
	// Longer than the register: strict by default.
	a = drv->exec(reg_msg(rid::HOST_ENDIANNESS, aop::WRITE, n + 4), 32);
	EXPECT_EQ(a.syndrome, synd::REG_INLEN);
	a = drv->exec(reg_msg(rid::HOST_ENDIANNESS, aop::WRITE, n), 36);
	EXPECT_EQ(a.syndrome, synd::REG_OUTLEN);
}

TEST_F(RegTest, LenientLengthsAcceptLonger)
{
	prof.make_lenient();
	EXPECT_FALSE(prof.regs.exact_length);
	start();
	enable();
	constexpr uint32_t n = prm::register_host_endianness::size_bytes;
	EXPECT_EQ(drv->exec(reg_msg(rid::HOST_ENDIANNESS, aop::WRITE, n + 4), 36).status, st::OK);
	EXPECT_EQ(drv->exec(reg_msg(rid::HOST_ENDIANNESS, aop::WRITE, 0), 32).syndrome, synd::REG_INLEN)
		<< "shorter is never accepted";
}

TEST_F(RegTest, UnknownRegisterOpModAndArgument)
{
	start();
	enable();
	Answer a = access(reg_msg(0x5002 /* PPLR */, aop::READ, 16), 16);
	EXPECT_EQ(a.status, st::BAD_PARAM_ERR);
	EXPECT_EQ(a.syndrome, synd::REG_UNKNOWN);
	a = access(reg_msg(rid::HOST_ENDIANNESS, 2, 16), 16);
	EXPECT_EQ(a.syndrome, synd::BAD_OP_MOD);
	Msg m = reg_msg(rid::HOST_ENDIANNESS, aop::READ, 16);
	prm::set<prm::access_register_in::argument>(m.as<prm::access_register_in>(), 1);
	EXPECT_EQ(access(m, 16).syndrome, synd::REG_BAD_ARGUMENT);
	// Not before ENABLE_HCA.
	EXPECT_EQ(drv->run<prm::disable_hca_out>(make_in<prm::disable_hca_in>(op::DISABLE_HCA)).status, st::OK);
	EXPECT_EQ(access(reg_msg(rid::HOST_ENDIANNESS, aop::READ, 16), 16).syndrome, synd::WRONG_STATE);
}

TEST_F(RegTest, PcamAndMcamFromTheProfile)
{
	prof.regs.mcam_access_reg_cap_mask[1][15] = 0x5a;
	prof.regs.mcam_feature_cap_mask[0] = 0x80;
	prof.regs.pcam_feature_cap_mask[15] = 0x01;
	start();
	drv->bring_up();
	constexpr uint32_t pn = prm::pcam_reg::size_bytes, mn = prm::mcam_reg::size_bytes;
	static_assert(16 + pn == 96 && 16 + mn == 88, "mlx5_core sends 96/96 and 88/88");

	Answer a = access(reg_msg(rid::PCAM, aop::READ, pn), pn);
	ASSERT_EQ(a.status, st::OK) << std::hex << a.syndrome;
	EXPECT_EQ(reg_data(a)[prm::pcam_reg::feature_cap_mask::offset / 8 + 15], 0x01);

	for (uint8_t g = 0; g < 4; g++) {
		Msg m = reg_msg(rid::MCAM, aop::READ, mn);
		prm::set<prm::mcam_reg::access_reg_group>(Ref<prm::mcam_reg>(reg_data(m)), g);
		a = access(m, mn);
		ASSERT_EQ(a.status, st::OK) << "group " << (int)g;
		CRef<prm::mcam_reg> r(reg_data(a));
		EXPECT_EQ(prm::get<prm::mcam_reg::access_reg_group>(r), g);
		EXPECT_EQ(prm::bytes<prm::mcam_reg::mng_access_reg_cap_mask>(r)[15], g == 1 ? 0x5a : 0);
		EXPECT_EQ(prm::bytes<prm::mcam_reg::mng_feature_cap_mask>(r)[0], 0x80);
	}
	Msg m = reg_msg(rid::MCAM, aop::READ, mn);
	prm::set<prm::mcam_reg::access_reg_group>(Ref<prm::mcam_reg>(reg_data(m)), 4);
	EXPECT_EQ(access(m, mn).syndrome, synd::REG_BAD_GROUP);
	EXPECT_EQ(access(reg_msg(rid::MCAM, aop::WRITE, mn), mn).syndrome, synd::REG_READ_ONLY);
}

// The stock masks advertise the registers the emulator answers (and no
// feature): PCAM PMTU, PTYS, PAOS, PPCNT, PCAM; MCAM group 0 MCIA, MGIR,
// MCAM (not MTRC_CAP: tracer_registers would start mlx5_core's tracer).
TEST_F(RegTest, DefaultProfileAdvertisesTheRegistersAnswered)
{
	start();
	drv->bring_up();
	constexpr uint32_t mn = prm::mcam_reg::size_bytes, pn = prm::pcam_reg::size_bytes;
	auto reg_bits = [](const uint8_t *mask) {
		std::vector<uint32_t> v;
		for (uint32_t n = 0; n < 128; n++)
			if (mask[15 - n / 8] & (1u << (n % 8)))
				v.push_back(n);
		return v;
	};
	Answer a = access(reg_msg(rid::MCAM, aop::READ, mn), mn);
	ASSERT_EQ(a.status, st::OK);
	CRef<prm::mcam_reg> m(reg_data(a));
	EXPECT_EQ(reg_bits(prm::bytes<prm::mcam_reg::mng_access_reg_cap_mask>(m)),
		  (std::vector<uint32_t>{0x14, 0x20, 0x7f}));
	EXPECT_EQ(prm::get<prm::mcam_access_reg::tracer_registers>(
			  CRef<prm::mcam_access_reg>(prm::bytes<prm::mcam_reg::mng_access_reg_cap_mask>(m))),
		  0u);
	for (uint32_t i = 0; i < 16; i++)
		EXPECT_EQ(prm::bytes<prm::mcam_reg::mng_feature_cap_mask>(m)[i], 0) << "feature byte " << i;
	a = access(reg_msg(rid::PCAM, aop::READ, pn), pn);
	ASSERT_EQ(a.status, st::OK);
	EXPECT_EQ(reg_bits(prm::bytes<prm::pcam_reg::port_access_reg_cap_mask>(CRef<prm::pcam_reg>(reg_data(a)))),
		  (std::vector<uint32_t>{0x03, 0x04, 0x06, 0x08, 0x7f}));
}

TEST_F(RegTest, CapabilityBitsGateTheCamsAndDtor)
{
	constexpr uint32_t dn = prm::dtor_reg::size_bytes;
	using cap = prm::cmd_hca_cap;
	auto setcap = [&](auto f, uint64_t v) {
		using F = decltype(f);
		prm::set<F>(Ref<cap>(prof.cap(prm::cap::GENERAL).cur.data()), v);
		prm::set<F>(Ref<cap>(prof.cap(prm::cap::GENERAL).max.data()), v);
	};
	setcap(cap::pcam_reg{}, 0);
	// Without cmd_q_init_to in the init segment only cap dtor offers DTOR
	// (Linux reads DTOR whenever cmd_q_init_to is published).
	prof.cmd_q_init_to_ms = 0;
	start();
	drv->bring_up();
	EXPECT_EQ(access(reg_msg(rid::PCAM, aop::READ, prm::pcam_reg::size_bytes), prm::pcam_reg::size_bytes).syndrome,
		  synd::REG_NOT_ADVERTISED);
	Answer a = access(reg_msg(rid::DTOR, aop::READ, dn), dn);
	EXPECT_EQ(a.status, st::BAD_PARAM_ERR);
	EXPECT_EQ(a.syndrome, synd::REG_NOT_ADVERTISED) << "dtor cap is 0 in the stock profiles";
}

TEST_F(RegTest, DtorWhenAdvertised)
{
	constexpr uint32_t dn = prm::dtor_reg::size_bytes;
	using cap = prm::cmd_hca_cap;
	prm::set<cap::dtor>(Ref<cap>(prof.cap(prm::cap::GENERAL).cur.data()), 1);
	prm::set<cap::dtor>(Ref<cap>(prof.cap(prm::cap::GENERAL).max.data()), 1);
	prof.regs.dtor_ms[6] = 2 * 3600 * 1000; // tear_down: too big for 20 bits of ms, sent in s
	start();
	enable();
	Answer a = access(reg_msg(rid::DTOR, aop::READ, dn), dn);
	ASSERT_EQ(a.status, st::OK) << std::hex << a.syndrome;
	auto to = [&](uint32_t off_bits) {
		CRef<prm::default_timeout> t(reg_data(a) + off_bits / 8);
		return std::pair<uint64_t, uint64_t>(prm::get<prm::default_timeout::to_multiplier>(t),
				      prm::get<prm::default_timeout::to_value>(t));
	};
	EXPECT_EQ(to(prm::dtor_reg::health_poll_to::offset), (std::pair<uint64_t, uint64_t>{0, 2000}));
	EXPECT_EQ(to(prm::dtor_reg::reclaim_vfs_pages_to::offset), (std::pair<uint64_t, uint64_t>{0, 120000}));
	EXPECT_EQ(to(prm::dtor_reg::tear_down_to::offset), (std::pair<uint64_t, uint64_t>{1, 7200}));
}

// Linux 6.1 reads DTOR whenever the init segment publishes cmd_q_init_to
// (lib/tout.c tout_is_supported), whatever cap dtor says: firmware that
// publishes it must answer, or mlx5_core's probe fails ("failed to read dtor").
TEST_F(RegTest, DtorWhenCmdQInitToPublished)
{
	constexpr uint32_t dn = prm::dtor_reg::size_bytes;
	ASSERT_NE(prof.cmd_q_init_to_ms, 0u) << "the stock profiles publish cmd_q_init_to";
	start();
	enable();
	Answer a = access(reg_msg(rid::DTOR, aop::READ, dn), dn);
	EXPECT_EQ(a.status, st::OK) << std::hex << a.syndrome;
}

} // namespace
} // namespace cxprm::emu::test
