// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// The initialization segment at BAR offset 0: what firmware publishes
// there (fw_rev, cmd_interface_rev, queue geometry, initializing, health)
// and what it reads back (queue address, doorbell vector).
#pragma once

#include <cstdint>

#include "bar.h"
#include "cxprm_emu/emulator.h"

namespace cxprm::emu {

class InitSegment {
public:
	InitSegment(Bar &bar, const Profile &profile) : bar_(bar), prof_(profile) {}

	// Zeroes the BAR and writes the reset-time init segment.  exclusive:
	// nothing else can read the BAR yet (the emulator's construction), so
	// one memset clears it instead of a dword-atomic store per dword (the
	// fuzz targets construct a device per input: Documentation/fuzzing.rst).
	void reset(bool initializing, bool exclusive = false);
	void clear_initializing();
	void set_initializing();
	bool initializing() const;

	// health_counter += 1 (24 bits); the syndrome byte is left alone.
	void tick_health();
	uint32_t health_counter() const;
	// Firmware death: health buffer synd/rfr/valid (and health_syndrome
	// with Profile::crash_copies_iseg_syndrome).
	void set_health_error(uint8_t synd);
	// A syndrome firmware survives: synd, valid, severity WARNING, no rfr
	// (0 clears it).  Ignored once a fatal one is there.
	void set_health_warning(uint8_t synd);
	uint8_t health_synd() const;
	// nic_interface (bits 10:8 of cmdq_addr_l_sz): 7 = SW_RESET.
	void set_nic_interface(uint8_t state);
	// Surprise removal: every BAR dword reads 0xffffffff.
	void fill_gone();

	// log_cmdq_size/stride are firmware's: if the driver's write of the
	// cmdq_phy_addr_31_12 dword changed them, put the profile's back.
	void enforce_geometry();
	uint64_t cmdq_base() const;
	uint8_t nic_interface() const; // bits 10:8

	// Takes the pending doorbell bits (atomic exchange with 0).
	uint32_t take_doorbell();

private:
	Bar &bar_;
	const Profile &prof_;
};

} // namespace cxprm::emu
