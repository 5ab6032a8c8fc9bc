// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// ACCESS_REG port registers (handlers_reg.cpp dispatches here after the
// length, argument, read-only and reserved-bit checks):
//
//   PAOS 0x5006   admin_status (1 up, 2 down) written with ase, oper_status
//                 follows it at once
//   PTYS 0x5004   Ethernet only (proto_mask 4): capability from the profile,
//                 admin written (a non-empty subset of the capability),
//                 oper the profile's mode while it is in admin and the port
//                 is up, else admin's highest mode; 0 while down
//   PMTU 0x5003   max_mtu from the profile, admin_mtu written within
//                 min_mtu..max_mtu, oper_mtu follows admin_mtu
//   PPCNT 0x5008  group 0 (IEEE 802.3): counters derived from the port's
//                 PPCNT reads since the last clr, so they move on every
//                 read; clr (read or write) clears after answering
//
// local_port is 1..cap num_ports (REG_BAD_PORT); the answer echoes the
// index fields.  A VF writes none of them (REG_VF_PORT_WRITE).
#include "emu_device.h"

#include "cxprm/prm/reg.h"

namespace cxprm::emu {

using prm::CRef;
using prm::Ref;
namespace rid = prm::reg_id;

namespace {

uint32_t highest_bit(uint32_t m)
{
	uint32_t b = 0;
	for (uint32_t i = 0; i < 32; i++)
		if (m & (1u << i))
			b = 1u << i;
	return b;
}

// A PTYS oper mask: the preferred mode while admin has it, else admin's
// highest mode.
uint32_t oper_mode(uint32_t admin, uint32_t preferred)
{
	return (admin & preferred) ? preferred : highest_bit(admin);
}

// IEEE 802.3 counter values after t reads: frames both ways, their octets
// at 1500-byte frames, a few multicast/broadcast; no errors.
void put_802_3(uint8_t *set, uint64_t t)
{
	using g = prm::eth_802_3_cntrs_grp_data_layout;
	Ref<g> r(set);
	// Each counter is a _high/_low pair: one big-endian 64-bit value.
	auto put = [](uint8_t *hi, uint64_t v) { store_be64(hi, v); };
	put(prm::bytes<g::a_frames_transmitted_ok_high>(r), t * 1000);
	put(prm::bytes<g::a_frames_received_ok_high>(r), t * 990);
	put(prm::bytes<g::a_octets_transmitted_ok_high>(r), t * 1000 * 1500);
	put(prm::bytes<g::a_octets_received_ok_high>(r), t * 990 * 1500);
	put(prm::bytes<g::a_multicast_frames_xmitted_ok_high>(r), t * 3);
	put(prm::bytes<g::a_broadcast_frames_xmitted_ok_high>(r), t);
	put(prm::bytes<g::a_multicast_frames_received_ok_high>(r), t * 2);
	put(prm::bytes<g::a_broadcast_frames_received_ok_high>(r), t);
}

// PAOS and PMTU: the port's admin value *admin, written from field Admin
// when 'take' (REG_BAD_VALUE unless ok(value)); the answer has it and the
// oper value (field Oper), which follows it at once.
template <class Admin, class Oper, class T, class Ok>
Result admin_oper(bool take, const uint8_t *in, uint8_t *o, uint8_t port, T *admin, Ok ok)
{
	using L = typename Admin::layout;
	if (take) {
		const T v = (T)prm::get<Admin>(CRef<L>(in));
		if (!ok(v))
			return fail(synd::REG_BAD_VALUE);
		*admin = v;
	}
	Ref<L> a(o);
	prm::set<typename L::local_port>(a, port);
	prm::set<Admin>(a, *admin);
	prm::set<Oper>(a, *admin);
	return Result::ok();
}

} // namespace

Device::PortRegs &Device::port_regs_of(uint8_t port)
{
	auto it = port_regs.find(port);
	if (it == port_regs.end()) {
		const RegisterProfile &rp = prof_.regs;
		it = port_regs.emplace(port, PortRegs{1, rp.eth_proto_capability, rp.ext_eth_proto_capability,
						      rp.admin_mtu, 0})
			     .first;
	}
	return it->second;
}

Result Device::reg_port(uint16_t id, bool write, const uint8_t *in, uint8_t *o)
{
	// Every port register has local_port at bits 0x8..0xf (the core checks).
	using pa = prm::paos_reg;
	const uint8_t port = (uint8_t)prm::get<pa::local_port>(CRef<pa>(in));
	if (port < 1 || port > cap_cur<prm::cmd_hca_cap::num_ports>())
		return fail(synd::REG_BAD_PORT);
	if (write && prof_.functions.vf)
		return fail(synd::REG_VF_PORT_WRITE);
	PortRegs &s = port_regs_of(port);
	const RegisterProfile &rp = prof_.regs;
	const bool up = s.admin_status == 1;

	switch (id) {
	case rid::PAOS: {
		CRef<pa> q(in);
		if (prm::get<pa::swid>(q) || prm::get<pa::ee>(q) || prm::get<pa::e>(q))
			return fail(synd::REG_BAD_VALUE);
		return admin_oper<pa::admin_status, pa::oper_status>(write && prm::get<pa::ase>(q), in, o, port,
								     &s.admin_status,
								     [](uint8_t a) { return a == 1 || a == 2; });
	}
	case rid::PTYS: {
		using pt = prm::ptys_reg;
		CRef<pt> q(in);
		if (prm::get<pt::proto_mask>(q) != 4) // MLX5_PTYS_EN; no InfiniBand
			return fail(synd::REG_BAD_VALUE);
		if (write) {
			const uint32_t e = (uint32_t)prm::get<pt::eth_proto_admin>(q);
			const uint32_t x = (uint32_t)prm::get<pt::ext_eth_proto_admin>(q);
			if ((e & ~rp.eth_proto_capability) || (x & ~rp.ext_eth_proto_capability) || (!e && !x) ||
			    prm::get<pt::an_disable_admin>(q))
				return fail(synd::REG_BAD_VALUE);
			s.eth_admin = e;
			s.ext_admin = x;
		}
		Ref<pt> a(o);
		prm::set<pt::local_port>(a, port);
		prm::set<pt::proto_mask>(a, 4);
		prm::set<pt::eth_proto_capability>(a, rp.eth_proto_capability);
		prm::set<pt::ext_eth_proto_capability>(a, rp.ext_eth_proto_capability);
		prm::set<pt::eth_proto_admin>(a, s.eth_admin);
		prm::set<pt::ext_eth_proto_admin>(a, s.ext_admin);
		prm::set<pt::eth_proto_oper>(a, up ? oper_mode(s.eth_admin, rp.eth_proto_oper) : 0);
		prm::set<pt::ext_eth_proto_oper>(a, up ? oper_mode(s.ext_admin, rp.ext_eth_proto_oper) : 0);
		prm::set<pt::connector_type>(a, rp.connector_type);
		return Result::ok();
	}
	case rid::PMTU: {
		using pm = prm::pmtu_reg;
		prm::set<pm::max_mtu>(Ref<pm>(o), rp.max_mtu); // a failure's answer is zeroed (execute())
		return admin_oper<pm::admin_mtu, pm::oper_mtu>(write, in, o, port, &s.admin_mtu, [&](uint16_t m) {
			return m >= rp.min_mtu && m <= rp.max_mtu;
		});
	}
	case rid::PPCNT: {
		using pc = prm::ppcnt_reg;
		CRef<pc> q(in);
		if (prm::get<pc::swid>(q) || prm::get<pc::pnat>(q) || prm::get<pc::prio_tc>(q))
			return fail(synd::REG_BAD_VALUE);
		if (prm::get<pc::grp>(q) != 0)
			return fail(synd::REG_BAD_COUNTER_GROUP);
		const bool clr = prm::get<pc::clr>(q);
		Ref<pc> a(o);
		prm::set<pc::local_port>(a, port);
		if (!write)
			put_802_3(prm::bytes<pc::counter_set>(a), ++s.ppcnt_ticks);
		if (clr)
			s.ppcnt_ticks = 0;
		return Result::ok();
	}
	}
	return fail(synd::REG_UNKNOWN);
}

} // namespace cxprm::emu
