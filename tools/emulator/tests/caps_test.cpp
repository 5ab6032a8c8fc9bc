// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// The capability types each profile answers (Documentation/prm-notes-caps.rst
// has the table), a few of their values, and the refusal of the others.
#include <gtest/gtest.h>

#include <set>

#include "cxprm/prm/caps.h"
#include "test_driver.h"

using namespace cxprm;
using namespace cxprm::emu;
namespace ct = prm::cap;

namespace {

std::set<uint16_t> types(const Profile &p)
{
	std::set<uint16_t> s;
	for (const auto &kv : p.caps)
		s.insert(kv.first);
	return s;
}

const std::set<uint16_t> cx5_types = {ct::GENERAL, ct::ETHERNET_OFFLOADS, ct::ODP, ct::ATOMIC, ct::ROCE,
				      ct::FLOW_TABLE, ct::ESWITCH_FLOW_TABLE, ct::ESWITCH, ct::QOS,
				      ct::DEBUG_CAP, ct::NVMF, ct::DEV_MEM};

std::set<uint16_t> plus(std::set<uint16_t> s, std::initializer_list<uint16_t> more)
{
	s.insert(more);
	return s;
}

TEST(CapTypes, PerProfile)
{
	const std::set<uint16_t> cx7 = plus(cx5_types, {ct::GENERAL_2, ct::TLS, ct::IPSEC, ct::MACSEC,
							ct::PORT_SELECTION, ct::ADV_VIRTUALIZATION});
	EXPECT_EQ(types(Profile::connectx5()), cx5_types);
	EXPECT_EQ(types(Profile::connectx7()), cx7);
	EXPECT_EQ(types(Profile::bluefield3()), plus(cx7, {ct::VDPA_EMULATION}));
	std::set<uint16_t> vf = plus(cx5_types, {ct::GENERAL_2, ct::TLS, ct::IPSEC, ct::MACSEC});
	vf.erase(ct::ESWITCH_FLOW_TABLE);
	EXPECT_EQ(types(Profile::connectx7_vf()), vf);
	// Not modelled (no layout in the 6.1 header, or a generation the
	// profiles are not): refused everywhere.
	for (const Profile &p : {Profile::connectx5(), Profile::connectx7(), Profile::bluefield3()})
		for (uint16_t t : {ct::CRYPTO, ct::PSP, ct::ADV_RDMA, ct::TLP_EMULATION, ct::VECTOR_CALC,
				   ct::IPOIB_OFFLOADS, ct::IPOIB_ENHANCED_OFFLOADS, ct::DEV_SHAMPO, ct::DEV_EVENT})
			EXPECT_EQ(p.caps.count(t), 0u) << p.name << " type " << t;
}

template <class F> uint64_t cur(const Profile &p, uint16_t type, uint32_t at_bits = 0)
{
	using L = typename F::layout;
	return prm::get<F>(prm::CRef<L>(p.caps.at(type).cur.data() + at_bits / 8));
}

TEST(CapTypes, Values)
{
	Profile cx5 = Profile::connectx5(), cx7 = Profile::connectx7(), bf3 = Profile::bluefield3();
	using ftn = prm::flow_table_nic_cap;
	using ftp = prm::flow_table_prop_layout;
	EXPECT_EQ(cur<ftp::max_ft_level>(cx7, ct::FLOW_TABLE, ftn::flow_table_properties_nic_receive::offset), 63u);
	EXPECT_EQ(cur<ftp::ft_support>(cx7, ct::FLOW_TABLE, ftn::flow_table_properties_nic_receive::offset), 0u);
	EXPECT_EQ(cur<prm::odp_per_transport_service_cap::send>(cx5, ct::ODP, prm::odp_cap::rc_odp_caps::offset), 1u);
	EXPECT_EQ(cur<prm::odp_per_transport_service_cap::srq_receive>(cx5, ct::ODP,
								    prm::odp_cap::rc_odp_caps::offset),
		  0u);
	EXPECT_EQ(cur<prm::atomic_caps::atomic_size_qp>(cx5, ct::ATOMIC), 8u);
	EXPECT_EQ(cur<prm::qos_cap::packet_pacing_max_rate>(cx5, ct::QOS), 100000000u);
	EXPECT_EQ(cur<prm::qos_cap::packet_pacing_max_rate>(cx7, ct::QOS), 400000000u);
	EXPECT_EQ(cur<prm::device_mem_cap::memic>(cx5, ct::DEV_MEM), 1u);
	EXPECT_EQ(cur<prm::tls_cap::tls_1_3_aes_gcm_256>(cx7, ct::TLS), 1u);
	EXPECT_EQ(cur<prm::ipsec_cap::ipsec_full_offload>(cx7, ct::IPSEC), 1u);
	EXPECT_EQ(cur<prm::macsec_cap::macsec_epn>(cx7, ct::MACSEC), 1u);
	EXPECT_EQ(cur<prm::virtio_emulation_cap::virtio_queue_type>(bf3, ct::VDPA_EMULATION), 3u);
	// Gating bits left clear (prm-notes-caps.rst): Linux would start what
	// the emulator does not serve.
	prm::CRef<prm::cmd_hca_cap> g(cx7.caps.at(ct::GENERAL).cur.data());
	EXPECT_EQ(prm::get<prm::cmd_hca_cap::debug>(g), 0u);
}

} // namespace
