// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// RoCE: the BAR's function's NIC vport (QUERY/MODIFY_NIC_VPORT_CONTEXT:
// roce_en and the permanent MAC) and the Ethernet port's GID table
// (SET_ROCE_ADDRESS), and the check INIT2RTR_QP and CREATE_DCT make of
// them (roce_path_ok; strict unless RoceProfile::check_path is off).
// Another vport's context and fields other than roce_en are not emulated.
// TEARDOWN/DISABLE_HCA forget both (drop_objects).
#include <algorithm>

#include "emu_device.h"

#include "cxprm/prm/vport.h"

namespace cxprm::emu {

using prm::CRef;
using prm::Ref;

namespace {

bool entry_empty(const std::array<uint8_t, 32> &e)
{
	CRef<prm::roce_addr_layout> r(e.data());
	const uint8_t *gid = prm::bytes<prm::roce_addr_layout::source_l3_address>(r);
	return std::all_of(gid, gid + 16, [](uint8_t b) { return b == 0; }) &&
	       !prm::get<prm::roce_addr_layout::source_mac_47_32>(r) &&
	       !prm::get<prm::roce_addr_layout::source_mac_31_0>(r);
}

// A NIC vport command (input layout In) must name the function's own
// vport: no other vport is emulated.
template <class In> Result own_vport(const Cmd &c)
{
	CRef<In> in(c.in);
	if (prm::get<typename In::other_vport>(in) || prm::get<typename In::vport_number>(in))
		return fail(synd::VPORT_OTHER);
	return Result::ok();
}

} // namespace

bool Device::port_is_eth() const
{
	return cap_cur<prm::cmd_hca_cap::port_type>() == prm::port_type::ETH;
}

Result Device::query_nic_vport(Cmd &c)
{
	using out_t = prm::query_nic_vport_context_out;
	if (Result r = own_vport<prm::query_nic_vport_context_in>(c); r.status)
		return r;
	auto v = prm::sub<out_t::nic_vport_context, prm::nic_vport_context>(Ref<out_t>(c.out));
	prm::set<prm::nic_vport_context::roce_en>(v, roce_en);
	uint8_t *mac = prm::bytes<prm::nic_vport_context::permanent_address>(v) + 2;
	std::copy(prof_.roce.mac.begin(), prof_.roce.mac.end(), mac);
	return Result::ok();
}

Result Device::modify_nic_vport(Cmd &c)
{
	using in_t = prm::modify_nic_vport_context_in;
	using sel = prm::modify_nic_vport_field_select;
	if (Result r = own_vport<in_t>(c); r.status)
		return r;
	CRef<in_t> in(c.in);
	auto s = prm::sub<in_t::field_select, sel>(in);
	if (prm::get<sel::permanent_address>(s))
		return fail(synd::VPORT_FIELD);
	if (prm::get<sel::roce_en>(s))
		roce_en = prm::get<prm::nic_vport_context::roce_en>(
				  prm::sub<in_t::nic_vport_context, prm::nic_vport_context>(in)) != 0;
	return Result::ok();
}

Result Device::set_roce_address(Cmd &c)
{
	using in_t = prm::set_roce_address_in;
	using ra = prm::roce_addr_layout;
	CRef<in_t> in(c.in);
	if (!port_is_eth())
		return fail(synd::ROCE_NOT_ETH);
	uint64_t port = prm::get<in_t::vhca_port_num>(in);
	if (port > cap_cur<prm::cmd_hca_cap::num_ports>())
		return fail(synd::ROCE_BAD_PORT);
	uint32_t index = (uint32_t)prm::get<in_t::roce_address_index>(in);
	if (index >= prof_.roce.gid_table_size)
		return fail(synd::ROCE_GID_INDEX);
	CRef<ra> e = prm::sub<in_t::roce_address, ra>(in);
	uint64_t ver = prm::get<ra::roce_version>(e);
	if ((ver != prm::roce_version::V1 && ver != prm::roce_version::V2) ||
	    prm::get<ra::roce_l3_type>(e) > prm::roce_l3_type::IPV6)
		return fail(synd::ROCE_BAD_VERSION);
	std::array<uint8_t, 32> entry{};
	std::copy(e.p, e.p + entry.size(), entry.begin());
	auto key = std::make_pair((uint8_t)(port ? port : 1), (uint16_t)index);
	if (entry_empty(entry))
		gids.erase(key);
	else
		gids[key] = entry;
	return Result::ok();
}

Result Device::roce_path_ok(uint64_t port, uint64_t gid_index) const
{
	if (!prof_.roce.check_path || !port_is_eth())
		return Result::ok();
	if (!roce_en)
		return fail(synd::ROCE_DISABLED);
	if (!gids.count(std::make_pair((uint8_t)port, (uint16_t)gid_index)))
		return fail(synd::ROCE_GID_EMPTY);
	return Result::ok();
}

} // namespace cxprm::emu
