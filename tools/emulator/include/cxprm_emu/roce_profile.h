// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// The emulator profile's RoCE part (Profile::roce; emulator.h).
#pragma once

#include <array>
#include <cstdint>

namespace cxprm::emu {

// RoCE on the Ethernet port (handlers_roce.cpp, prm-notes-functions.rst "RoCE"):
// roce_en of the BAR's function's NIC vport (MODIFY/QUERY_NIC_VPORT_CONTEXT)
// and the port's GID table (SET_ROCE_ADDRESS).  What firmware does with an
// RC QP or DCT whose address names no GID is not public: strict (default)
// refuses INIT2RTR_QP and CREATE_DCT on an Ethernet port with RoCE off
// (ROCE_DISABLED) or a source GID index naming an empty entry
// (GID_EMPTY); lenient (check_path = false) takes both.
struct RoceProfile {
	bool check_path = true;
	uint32_t gid_table_size = 256; // RoCE cap roce_address_table_size
	// QUERY_NIC_VPORT_CONTEXT permanent_address (a locally administered MAC).
	std::array<uint8_t, 6> mac{0x02, 0xc7, 0x00, 0x00, 0x00, 0x01};
};

} // namespace cxprm::emu
