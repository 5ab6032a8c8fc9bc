// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* QUERY/MODIFY_NIC_VPORT_CONTEXT (own vport) and SET_ROCE_ADDRESS. */
#include "cxprm/commands/vport.h"

#include "cxprm/prm/opcodes.h"
#include "cxprm/prm/vport.h"

namespace cxprm::cmd {

using namespace prm;

int query_nic_vport(Cmdq &q, NicVport *v, CmdResult *res)
{
	if (!v)
		return E_INVAL;
	u8 in[query_nic_vport_context_in::size_bytes];
	u8 out[out_size<query_nic_vport_context_out>()];
	begin_in<query_nic_vport_context_in>(in, op::QUERY_NIC_VPORT_CONTEXT);
	int err = exec(q, in, sizeof(in), out, sizeof(out), res);
	return err ? err : decode_query_nic_vport(out, sizeof(out), v);
}

int decode_query_nic_vport(const void *out, u32 outlen, NicVport *v)
{
	if (!out || !v || outlen < query_nic_vport_context_out::size_bytes)
		return E_INVAL;
	auto c = sub<query_nic_vport_context_out::nic_vport_context, nic_vport_context>(
		CRef<query_nic_vport_context_out>(out));
	/* mac_address_layout: two reserved bytes, then the MAC. */
	mem_copy(v->mac, bytes<nic_vport_context::permanent_address>(c) + 2, sizeof(v->mac));
	v->roce_en = get<nic_vport_context::roce_en>(c) != 0;
	return OK;
}

int modify_nic_vport_roce(Cmdq &q, bool en, CmdResult *res)
{
	using in_t = modify_nic_vport_context_in;
	u8 in[in_t::size_bytes], out[out_size<modify_nic_vport_context_out>()];
	auto r = begin_in<in_t>(in, op::MODIFY_NIC_VPORT_CONTEXT);
	set<modify_nic_vport_field_select::roce_en>(
		sub<in_t::field_select, modify_nic_vport_field_select>(r), 1);
	set<nic_vport_context::roce_en>(sub<in_t::nic_vport_context, nic_vport_context>(r), en);
	return exec(q, in, sizeof(in), out, sizeof(out), res);
}

int set_roce_address(Cmdq &q, const RoceAddr &a, CmdResult *res)
{
	if (!fits<set_roce_address_in::vhca_port_num>(a.port) ||
	    !fits<roce_addr_layout::roce_l3_type>(a.roce_l3_type))
		return E_RANGE;
	u8 in[set_roce_address_in::size_bytes], out[out_size<set_roce_address_out>()];
	auto r = begin_in<set_roce_address_in>(in, op::SET_ROCE_ADDRESS);
	set<set_roce_address_in::roce_address_index>(r, a.index);
	if (a.set_port)
		set<set_roce_address_in::vhca_port_num>(r, a.port);
	auto e = sub<set_roce_address_in::roce_address, roce_addr_layout>(r);
	mem_copy(bytes<roce_addr_layout::source_l3_address>(e), a.gid, sizeof(a.gid));
	set<roce_addr_layout::source_mac_47_32>(e, (u32)a.mac[0] << 8 | a.mac[1]);
	set<roce_addr_layout::source_mac_31_0>(e, load_be32(a.mac + 2));
	set<roce_addr_layout::roce_version>(e, a.roce_version);
	set<roce_addr_layout::roce_l3_type>(e, a.roce_l3_type);
	return exec(q, in, sizeof(in), out, sizeof(out), res);
}

} // namespace cxprm::cmd
