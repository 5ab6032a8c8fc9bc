/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * QUERY_HCA_CAP / SET_HCA_CAP and the general device capabilities.
 *
 * The capability travels in a 0x8000-bit region (mlx5_ifc.h hca_cap_union);
 * which layout it holds depends on op_mod (cap::op_mod() in opcodes.h).
 * layouts.sel lists cmd_hca_cap's (cap::GENERAL) fields worth decoding, not
 * all of them; offsets and widths come from mlx5_ifc.h (layouts_gen.h).
 */
#pragma once

#include <cxprm/prm/layouts_gen.h>

#include "transport.h"

namespace cxprm::prm {

/*
 * set_hca_cap_in: capability: a cap::GENERAL/... layout, given by op_mod =
 * cap type << 1.
 */

/*
 * cmd_hca_cap: General capabilities (cap::GENERAL).  nvmf_target_offload
 * (bit 0x502) is reserved in 6.1; the vendor's out-of-tree mlx5_ifc.h names
 * it.
 */

/*
 * nvmf_cap: NVMF capabilities (cap type 0xe, cap::NVMF).  Not in the 6.1 header
 * (type 0xe is RESERVED_14 there).  The vendor's mlx5_ifc.h has nvmf_cap in
 * its hca_cap_union, but its definition was not checked here: the two bits
 * are from prm-layouts.md section 5 and the size assumes the usual 0x800-bit
 * capability page.  PROVISIONAL, unverified.
 */

/* The capability region inside query_hca_cap_out / set_hca_cap_in. */
inline constexpr u32 HCA_CAP_BYTES = query_hca_cap_out::capability::width / 8;

/* e_switch_cap (cap type ESWITCH): esw_functions_changed says the device
 * raises ESW_FUNCTIONS_CHANGED (0x0e) for the eswitch manager. */

/*
 * roce_cap (cap type ROCE): qp_ts_format is what a QP of a RoCE function
 * may use (mlx5_get_qp_default_ts); l3_type and roce_version are bitmasks
 * of ROCE_L3_TYPE_* / ROCE_VERSION_*_CAP (Linux get_core_cap_flags: GID
 * types only with both IPv4 and IPv6).
 */

namespace roce_cap_bits {
enum : u8 {
	L3_TYPE_IPV4 = 1 << 1, /* MLX5_ROCE_L3_TYPE_IPV4_CAP */
	L3_TYPE_IPV6 = 1 << 2,
	VERSION_1 = 1 << 0,    /* MLX5_ROCE_VERSION_1_CAP */
	VERSION_2 = 1 << 2,
};
}

} // namespace cxprm::prm
