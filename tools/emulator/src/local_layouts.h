// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// Layouts the emulator needs that core-cpp/include/cxprm/prm/ does not
// (yet) define.  Same X-list form, names and offsets from mlx5_ifc.h (6.1);
// local so the shared prm/ headers stay the layouts owner's.  If the core
// gains them, these go away.
#pragma once

#include "cxprm/layout.h"

namespace cxprm::emu::lprm {

// e_switch_cap (cap type ESWITCH = 0x9): only the bits the emulator uses.
#define CXPRM_EMU_E_SWITCH_CAP(F)                                               \
	F(esw_functions_changed, 0x19, 1)                                       \
	F(ecpf_vport_exists, 0x1b, 1)                                           \
	F(log_max_esw_sf, 0x4b, 5)                                              \
	F(esw_sf_base_id, 0x50, 0x10)
CXPRM_LAYOUT(e_switch_cap, 0x800, CXPRM_EMU_E_SWITCH_CAP)

#define CXPRM_EMU_NOP_IN(F)                                                     \
	F(opcode, 0x0, 0x10)                                                    \
	F(op_mod, 0x30, 0x10)
CXPRM_LAYOUT(nop_in, 0x80, CXPRM_EMU_NOP_IN)

#define CXPRM_EMU_NOP_OUT(F)                                                    \
	F(status, 0x0, 8)                                                       \
	F(syndrome, 0x20, 0x20)
CXPRM_LAYOUT(nop_out, 0x80, CXPRM_EMU_NOP_OUT)

#define CXPRM_EMU_SET_DRIVER_VERSION_IN(F)                                      \
	F(opcode, 0x0, 0x10)                                                    \
	F(op_mod, 0x30, 0x10)                                                   \
	F(driver_version, 0x80, 0x200)
CXPRM_LAYOUT(set_driver_version_in, 0x280, CXPRM_EMU_SET_DRIVER_VERSION_IN)

#define CXPRM_EMU_SET_DRIVER_VERSION_OUT(F)                                     \
	F(status, 0x0, 8)                                                       \
	F(syndrome, 0x20, 0x20)
CXPRM_LAYOUT(set_driver_version_out, 0x80, CXPRM_EMU_SET_DRIVER_VERSION_OUT)

} // namespace cxprm::emu::lprm
