// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// The register values of each adapter (RegisterProfile::for_device).
// prm-notes-registers.rst says where each value comes from.
#include "cxprm_emu/profile.h"

namespace cxprm::emu {

namespace {

// The link mode bits by name (profiles_link_modes.def).
enum : uint32_t {
#define LINK_MODE(n, bit) n = 1u << (bit),
#define EXT_LINK_MODE(n, bit) n = 1u << (bit),
#include "profiles_link_modes.def"
};

// What a 100GbE port advertises: every legacy mode of the list.
constexpr uint32_t legacy_100g = 0
#define LINK_MODE(n, bit) | n
#include "profiles_link_modes.def"
	;
// What a 400G port adds: every extended mode of the list.
constexpr uint32_t ext_400g = 0
#define EXT_LINK_MODE(n, bit) | n
#include "profiles_link_modes.def"
	;

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
