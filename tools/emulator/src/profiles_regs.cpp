// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// The register values of each adapter (RegisterProfile::for_device).
// prm-notes-registers.rst says where each value comes from.
#include "cxprm_emu/profile.h"

namespace cxprm::emu {

namespace {

// Bits of Linux's enum mlx5e_link_mode (en/port.h).
enum : uint32_t {
	L1000BASE_KX = 1u << 1,
	L10GBASE_KR = 1u << 4,
	L40GBASE_CR4 = 1u << 6,
	L40GBASE_KR4 = 1u << 7,
	L10GBASE_CR = 1u << 12,
	L10GBASE_SR = 1u << 13,
	L10GBASE_ER = 1u << 14,
	L40GBASE_SR4 = 1u << 15,
	L40GBASE_LR4 = 1u << 16,
	L50GBASE_SR2 = 1u << 18,
	L100GBASE_CR4 = 1u << 20,
	L100GBASE_SR4 = 1u << 21,
	L100GBASE_KR4 = 1u << 22,
	L100GBASE_LR4 = 1u << 23,
	L25GBASE_CR = 1u << 27,
	L25GBASE_KR = 1u << 28,
	L25GBASE_SR = 1u << 29,
	L50GBASE_CR2 = 1u << 30,
	L50GBASE_KR2 = 1u << 31,
};

// Bits of Linux's enum mlx5e_ext_link_mode.
enum : uint32_t {
	X10GBASE_XFI_XAUI_1 = 1u << 4,
	X40GBASE_XLAUI_4 = 1u << 5,
	X25GAUI_1 = 1u << 6,
	X50GAUI_2 = 1u << 7,
	X50GAUI_1 = 1u << 8,
	XCAUI_4 = 1u << 9,
	X100GAUI_2 = 1u << 10,
	X100GAUI_1 = 1u << 11,
	X200GAUI_4 = 1u << 12,
	X200GAUI_2 = 1u << 13,
	X400GAUI_8 = 1u << 15,
	X400GAUI_4 = 1u << 16,
};

// A 100GbE port: every 100/50/40/25/10/1G mode of the legacy mask.
constexpr uint32_t legacy_100g = L1000BASE_KX | L10GBASE_KR | L40GBASE_CR4 | L40GBASE_KR4 | L10GBASE_CR |
				 L10GBASE_SR | L10GBASE_ER | L40GBASE_SR4 | L40GBASE_LR4 | L50GBASE_SR2 |
				 L100GBASE_CR4 | L100GBASE_SR4 | L100GBASE_KR4 | L100GBASE_LR4 | L25GBASE_CR |
				 L25GBASE_KR | L25GBASE_SR | L50GBASE_CR2 | L50GBASE_KR2;
// A 400G port's extended modes.
constexpr uint32_t ext_400g = X10GBASE_XFI_XAUI_1 | X40GBASE_XLAUI_4 | X25GAUI_1 | X50GAUI_2 | X50GAUI_1 |
			      XCAUI_4 | X100GAUI_2 | X100GAUI_1 | X200GAUI_4 | X200GAUI_2 | X400GAUI_8 |
			      X400GAUI_4;

// Bit n of a CAM access-register mask (register base + n): bit 127 is the
// mask's first byte's MSB.
void set_reg_bit(std::array<uint8_t, 16> &mask, uint32_t n) { mask[15 - n / 8] |= (uint8_t)(1u << (n % 8)); }

} // namespace

RegisterProfile RegisterProfile::for_device(uint16_t device_id)
{
	RegisterProfile r;
	// The masks advertise the registers answered, of their group: PCAM
	// 0x5000.. PMTU, PTYS, PAOS, PPCNT and PCAM; MCAM 0x9000.. MCIA, MGIR
	// and MCAM.  Not MTRC_CAP: its bit is one of mcam_access_reg's
	// tracer_registers, which make mlx5_core start the firmware tracer
	// (MTRC_CONF, MTRC_CTRL, MTRC_STDB: not emulated).
	for (uint32_t n : {0x03u, 0x04u, 0x06u, 0x08u, 0x7fu})
		set_reg_bit(r.pcam_port_access_reg_cap_mask, n);
	for (uint32_t n : {0x14u, 0x20u, 0x7fu})
		set_reg_bit(r.mcam_access_reg_cap_mask[0], n);
	r.eth_proto_capability = legacy_100g;
	r.eth_proto_oper = L100GBASE_CR4;
	switch (device_id) {
	case 0x1017: // ConnectX-5: 100GbE, 16nm, no extended modes
		r.hw_revision = 0x0;
		r.hw_dev_id = 0x20d;
		r.technology = 3;
		r.module_pn = "CXPRM-Q28-100G-CR";
		r.module_sn = "EMU0CX500001";
		break;
	case 0x1021: // ConnectX-7, its VF (0x101e) and BlueField-3: 400G, 7nm
	case 0x101e:
	case 0xa2dc:
		r.ext_eth_proto_capability = ext_400g;
		r.ext_eth_proto_oper = XCAUI_4; // the 100G QSFP28 DAC in its cage
		r.hw_revision = 0x0;
		r.hw_dev_id = device_id == 0xa2dc ? 0x21c : 0x218;
		r.technology = 4;
		r.module_pn = "CXPRM-Q28-100G-CR";
		r.module_sn = device_id == 0xa2dc ? "EMU0BF300001" : "EMU0CX700001";
		break;
	}
	return r;
}

} // namespace cxprm::emu
