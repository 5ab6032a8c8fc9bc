/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The capability types other than general, eswitch, RoCE and NVMF
 * (hca_cap.h): only the fields the emulator's profiles set (layouts.sel),
 * offsets and widths those of mlx5_ifc.h (layouts_gen.h).  A nested member
 * (odp_cap.rc_odp_caps, flow_table_nic_cap.flow_table_properties_nic_receive)
 * is selected as one field whose offset places its own layout.  The tools
 * decode a type with the build's fuller mlx5_ifc.h table when that one has
 * every field layouts.sel selects (cxprm caps).
 */
#pragma once

#include <cxprm/prm/layouts_gen.h>

#include "../layout.h"

namespace cxprm::prm {

} // namespace cxprm::prm
