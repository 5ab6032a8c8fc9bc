// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// ACCESS_REG port and management registers (handlers_reg_port.cpp,
// handlers_reg_mng.cpp) and QCAM: values per profile, writes read back,
// refusals, PPCNT counters that move, MCIA module EEPROM bytes.
#include <cstring>
#include <string>

#include "reg_fixture.h"

namespace cxprm::emu::test {
namespace {

// A read (or write) of register L with its data set by fill.
template <class L, class Fill> Answer reg(RegTest &t, uint16_t id, uint16_t mod, Fill fill)
{
	Msg m = reg_msg(id, mod, L::size_bytes);
	fill(Ref<L>(reg_data(m)));
	return t.access(m, L::size_bytes);
}

template <class L> Answer reg_port1(RegTest &t, uint16_t id, uint16_t mod = aop::READ)
{
	return reg<L>(t, id, mod, [](Ref<L> r) { prm::set<typename L::local_port>(r, 1); });
}

template <class F> uint64_t out(const Answer &a) { return prm::get<F>(CRef<typename F::layout>(reg_data(a))); }

struct RegPortTest : RegTest {
	void SetUp() override
	{
		start();
		drv->bring_up();
	}
};

TEST_F(RegPortTest, LocalPortMustBeAPortOfTheProfile)
{
	using pa = prm::paos_reg;
	for (uint8_t port : {0, 2, 255}) {
		Answer a = reg<pa>(*this, rid::PAOS, aop::READ, [&](Ref<pa> r) { prm::set<pa::local_port>(r, port); });
		EXPECT_EQ(a.status, st::BAD_PARAM_ERR);
		EXPECT_EQ(a.syndrome, synd::REG_BAD_PORT) << "port " << (int)port;
	}
	EXPECT_EQ(reg_port1<prm::ptys_reg>(*this, rid::PTYS).syndrome, synd::REG_BAD_VALUE) << "proto_mask 0";
	Answer a = reg_port1<prm::pmtu_reg>(*this, rid::PMTU);
	ASSERT_EQ(a.status, st::OK);
	EXPECT_EQ(out<prm::pmtu_reg::local_port>(a), 1u);
}

TEST_F(RegPortTest, PaosAdminWrittenWithAseOperFollows)
{
	using pa = prm::paos_reg;
	Answer a = reg_port1<pa>(*this, rid::PAOS);
	ASSERT_EQ(a.status, st::OK) << std::hex << a.syndrome;
	EXPECT_EQ(out<pa::admin_status>(a), 1u);
	EXPECT_EQ(out<pa::oper_status>(a), 1u);
	auto write = [&](uint8_t status, bool ase) {
		return reg<pa>(*this, rid::PAOS, aop::WRITE, [&](Ref<pa> r) {
			prm::set<pa::local_port>(r, 1);
			prm::set<pa::admin_status>(r, status);
			prm::set<pa::ase>(r, ase);
		});
	};
	EXPECT_EQ(write(2, false).status, st::OK);
	EXPECT_EQ(out<pa::admin_status>(reg_port1<pa>(*this, rid::PAOS)), 1u) << "without ase: unchanged";
	a = write(2, true);
	ASSERT_EQ(a.status, st::OK);
	a = reg_port1<pa>(*this, rid::PAOS);
	EXPECT_EQ(out<pa::admin_status>(a), 2u);
	EXPECT_EQ(out<pa::oper_status>(a), 2u);
	EXPECT_EQ(write(3, true).syndrome, synd::REG_BAD_VALUE);
	// Down: PTYS has no operational mode.
	using pt = prm::ptys_reg;
	a = reg<pt>(*this, rid::PTYS, aop::READ, [](Ref<pt> r) {
		prm::set<pt::local_port>(r, 1);
		prm::set<pt::proto_mask>(r, 4);
	});
	EXPECT_EQ(out<pt::eth_proto_oper>(a), 0u);
}

Answer ptys(RegTest &t, uint16_t mod = aop::READ, uint32_t admin = 0, uint8_t proto = 4)
{
	using pt = prm::ptys_reg;
	return reg<pt>(t, rid::PTYS, mod, [&](Ref<pt> r) {
		prm::set<pt::local_port>(r, 1);
		prm::set<pt::proto_mask>(r, proto);
		prm::set<pt::eth_proto_admin>(r, admin);
	});
}

TEST_F(RegPortTest, PtysEthernetModesOfTheProfile)
{
	using pt = prm::ptys_reg;
	Answer a = ptys(*this);
	ASSERT_EQ(a.status, st::OK) << std::hex << a.syndrome;
	const uint32_t cap = prof.regs.eth_proto_capability;
	EXPECT_NE(cap, 0u);
	EXPECT_EQ(out<pt::eth_proto_capability>(a), cap);
	EXPECT_EQ(out<pt::eth_proto_admin>(a), cap);
	EXPECT_EQ(out<pt::eth_proto_oper>(a), 1u << 20) << "100GBASE_CR4";
	EXPECT_EQ(out<pt::ext_eth_proto_capability>(a), 0u) << "ConnectX-5: no extended modes";
	EXPECT_EQ(out<pt::proto_mask>(a), 4u);
	EXPECT_EQ(out<pt::connector_type>(a), 7u);

	ASSERT_EQ(ptys(*this, aop::WRITE, 1u << 27).status, st::OK); // 25GBASE_CR only
	a = ptys(*this);
	EXPECT_EQ(out<pt::eth_proto_admin>(a), 1u << 27);
	EXPECT_EQ(out<pt::eth_proto_oper>(a), 1u << 27);
	EXPECT_EQ(ptys(*this, aop::WRITE, 1u << 24).syndrome, synd::REG_BAD_VALUE) << "100BASE_TX not capable";
	EXPECT_EQ(ptys(*this, aop::WRITE, 0).syndrome, synd::REG_BAD_VALUE) << "no mode";
	EXPECT_EQ(ptys(*this, aop::READ, 0, 1).syndrome, synd::REG_BAD_VALUE) << "InfiniBand";
}

TEST(RegProfiles, ConnectX7HasExtendedModes)
{
	RegisterProfile r = Profile::connectx7().regs;
	EXPECT_NE(r.ext_eth_proto_capability & (1u << 15), 0u) << "400GAUI_8";
	EXPECT_EQ(r.technology, 4u);
	EXPECT_EQ(Profile::connectx5().regs.technology, 3u);
}

TEST_F(RegPortTest, PmtuAdminBoundedOperFollows)
{
	using pm = prm::pmtu_reg;
	Answer a = reg_port1<pm>(*this, rid::PMTU);
	EXPECT_EQ(out<pm::max_mtu>(a), 10000u);
	EXPECT_EQ(out<pm::admin_mtu>(a), 1522u);
	EXPECT_EQ(out<pm::oper_mtu>(a), 1522u);
	auto write = [&](uint16_t mtu) {
		return reg<pm>(*this, rid::PMTU, aop::WRITE, [&](Ref<pm> r) {
			prm::set<pm::local_port>(r, 1);
			prm::set<pm::admin_mtu>(r, mtu);
		});
	};
	ASSERT_EQ(write(9022).status, st::OK);
	a = reg_port1<pm>(*this, rid::PMTU);
	EXPECT_EQ(out<pm::admin_mtu>(a), 9022u);
	EXPECT_EQ(out<pm::oper_mtu>(a), 9022u);
	EXPECT_EQ(write(10001).syndrome, synd::REG_BAD_VALUE);
	EXPECT_EQ(write(89).syndrome, synd::REG_BAD_VALUE);
	EXPECT_EQ(write(10000).status, st::OK);
}

TEST_F(RegPortTest, PpcntCountersMoveAndClear)
{
	using pc = prm::ppcnt_reg;
	using g = prm::eth_802_3_cntrs_grp_data_layout;
	auto read = [&](bool clr, uint8_t grp = 0) {
		return reg<pc>(*this, rid::PPCNT, aop::READ, [&](Ref<pc> r) {
			prm::set<pc::local_port>(r, 1);
			prm::set<pc::grp>(r, grp);
			prm::set<pc::clr>(r, clr);
		});
	};
	auto frames_tx = [](const Answer &a) {
		CRef<g> s(reg_data(a) + pc::counter_set::offset / 8);
		return prm::get<g::a_frames_transmitted_ok_high>(s) << 32 | prm::get<g::a_frames_transmitted_ok_low>(s);
	};
	static_assert(16 + pc::size_bytes == 272, "PPCNT is 256 bytes");
	Answer a = read(false), b = read(false);
	ASSERT_EQ(a.status, st::OK) << std::hex << a.syndrome;
	EXPECT_GT(frames_tx(a), 0u);
	EXPECT_GT(frames_tx(b), frames_tx(a)) << "counters move between reads";
	CRef<g> s(reg_data(b) + pc::counter_set::offset / 8);
	EXPECT_EQ(prm::get<g::a_frame_check_sequence_errors_low>(s), 0u);
	EXPECT_GT(prm::get<g::a_octets_received_ok_low>(s), 0u);
	Answer c = read(true); // answers, then clears
	EXPECT_GT(frames_tx(c), frames_tx(b));
	EXPECT_LT(frames_tx(read(false)), frames_tx(c)) << "cleared";
	EXPECT_EQ(read(false, 0x12).syndrome, synd::REG_BAD_COUNTER_GROUP);
}

TEST_F(RegPortTest, QcamAdvertisedAndEmpty)
{
	Answer a = access(reg_msg(rid::QCAM, aop::READ, prm::qcam_reg::size_bytes), prm::qcam_reg::size_bytes);
	ASSERT_EQ(a.status, st::OK) << std::hex << a.syndrome;
	for (uint32_t i = 0; i < prm::qcam_reg::size_bytes; i++)
		EXPECT_EQ(reg_data(a)[i], 0) << i;
	EXPECT_EQ(access(reg_msg(rid::QCAM, aop::WRITE, prm::qcam_reg::size_bytes), prm::qcam_reg::size_bytes).syndrome,
		  synd::REG_READ_ONLY);
}

TEST_F(RegPortTest, MgirIdentityMatchesTheProfile)
{
	using mg = prm::mgir_reg;
	constexpr uint32_t n = mg::size_bytes;
	Answer a = access(reg_msg(rid::MGIR, aop::READ, n), n);
	ASSERT_EQ(a.status, st::OK) << std::hex << a.syndrome;
	EXPECT_EQ(out<mg::device_id>(a), prof.device_id);
	EXPECT_EQ(out<mg::device_id>(a), 0x1017u);
	EXPECT_EQ(out<mg::num_ports>(a), 1u);
	EXPECT_EQ(out<mg::hw_dev_id>(a), 0x20du);
	EXPECT_EQ(out<mg::extended_major>(a), prof.fw_rev.major);
	EXPECT_EQ(out<mg::extended_minor>(a), prof.fw_rev.minor);
	EXPECT_EQ(out<mg::extended_sub_minor>(a), prof.fw_rev.subminor);
	EXPECT_EQ(out<mg::extended_sub_minor>(a), 2000u);
	const char *psid = (const char *)reg_data(a) + mg::psid::offset / 8;
	EXPECT_EQ(std::string(psid, prof.psid.size()), prof.psid);
	EXPECT_EQ(psid[prof.psid.size()], 0);
	EXPECT_EQ(access(reg_msg(rid::MGIR, aop::WRITE, n), n).syndrome, synd::REG_READ_ONLY);
}

TEST_F(RegPortTest, MtrcCapOwnership)
{
	using mt = prm::mtrc_cap;
	constexpr uint32_t n = mt::size_bytes;
	Answer a = access(reg_msg(rid::MTRC_CAP, aop::READ, n), n);
	ASSERT_EQ(a.status, st::OK) << std::hex << a.syndrome;
	EXPECT_EQ(out<mt::trace_owner>(a), 0u);
	EXPECT_EQ(out<mt::trace_to_memory>(a), 1u);
	EXPECT_EQ(out<mt::num_string_db>(a), 2u);
	a = reg<mt>(*this, rid::MTRC_CAP, aop::WRITE, [](Ref<mt> r) { prm::set<mt::trace_owner>(r, 1); });
	ASSERT_EQ(a.status, st::OK);
	EXPECT_EQ(out<mt::trace_owner>(access(reg_msg(rid::MTRC_CAP, aop::READ, n), n)), 1u);
}

Answer mcia(RegTest &t, uint32_t addr, uint32_t size, uint8_t i2c = 0x50, uint8_t page = 0, uint8_t module = 0)
{
	using mc = prm::mcia_reg;
	return reg<mc>(t, rid::MCIA, aop::READ, [&](Ref<mc> r) {
		prm::set<mc::module>(r, module);
		prm::set<mc::i2c_device_address>(r, i2c);
		prm::set<mc::page_number>(r, page);
		prm::set<mc::device_address>(r, addr);
		prm::set<mc::size>(r, size);
	});
}

TEST_F(RegPortTest, MciaReadsTheQsfp28Identity)
{
	using mc = prm::mcia_reg;
	const uint32_t d = mc::dwords::offset / 8;
	Answer a = mcia(*this, 0, 4);
	ASSERT_EQ(a.status, st::OK) << std::hex << a.syndrome;
	EXPECT_EQ(out<mc::status>(a), 0u);
	EXPECT_EQ(reg_data(a)[d], 0x11) << "identifier: QSFP28";
	a = mcia(*this, 148, 16); // vendor name
	ASSERT_EQ(a.status, st::OK);
	EXPECT_EQ(std::string((const char *)reg_data(a) + d, 16), "CXPRM EMU       ");
	a = mcia(*this, 168, 16); // vendor PN
	EXPECT_EQ(std::string((const char *)reg_data(a) + d, 16), "CXPRM-Q28-100G-C");
	a = mcia(*this, 196, 16); // vendor SN
	EXPECT_EQ(std::string((const char *)reg_data(a) + d, 16), "EMU0CX500001    ");
	// Upper page 00h 128..191 in two reads: CC_BASE (191) sums 128..190.
	Answer p = mcia(*this, 128, 48), q = mcia(*this, 176, 16);
	ASSERT_EQ(p.status, st::OK);
	ASSERT_EQ(q.status, st::OK);
	EXPECT_EQ(reg_data(p)[d], 0x11);
	uint8_t sum = 0;
	for (uint32_t k = 0; k < 48; k++)
		sum += reg_data(p)[d + k];
	for (uint32_t k = 0; k < 15; k++)
		sum += reg_data(q)[d + k];
	EXPECT_EQ(reg_data(q)[d + 15], sum) << "CC_BASE";
	// Refusals.
	EXPECT_EQ(mcia(*this, 0, 49).syndrome, synd::REG_MCIA_BAD_ACCESS);
	EXPECT_EQ(mcia(*this, 0, 0).syndrome, synd::REG_MCIA_BAD_ACCESS);
	EXPECT_EQ(mcia(*this, 240, 17).syndrome, synd::REG_MCIA_BAD_ACCESS);
	EXPECT_EQ(mcia(*this, 0, 4, 0x51).syndrome, synd::REG_MCIA_BAD_ACCESS);
	EXPECT_EQ(mcia(*this, 0, 4, 0x50, 1).syndrome, synd::REG_MCIA_BAD_ACCESS);
	EXPECT_EQ(mcia(*this, 0, 4, 0x50, 0, 1).syndrome, synd::REG_BAD_PORT);
	EXPECT_EQ(access(reg_msg(rid::MCIA, aop::WRITE, mc::size_bytes), mc::size_bytes).syndrome,
		  synd::REG_READ_ONLY);
}

// A VF reads the port registers but writes none of them.
TEST_F(RegTest, VfPortWritesRefused)
{
	prof = quiet(Profile::connectx7_vf());
	start();
	enable();
	EXPECT_EQ(reg_port1<prm::pmtu_reg>(*this, rid::PMTU).status, st::OK);
	EXPECT_EQ(reg_port1<prm::pmtu_reg>(*this, rid::PMTU, aop::WRITE).syndrome, synd::REG_VF_PORT_WRITE);
}

} // namespace
} // namespace cxprm::emu::test
