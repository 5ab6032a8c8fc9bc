/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * User contexts (CREATE_UCTX / DESTROY_UCTX): the uid a command header
 * carries in its bits 0x10..0x1f names one.  uctx.cap: the context's
 * security labels (UCTX_CAP_*).  CREATE_UCTX answers the uid; DESTROY_UCTX
 * names it in its dword 2 (destroy_uctx_in.uid at 0x50, as mlx5_ifc.h has
 * it and Linux's fwctl/mlx5 and mlx5_ib devx set it), the header's uid
 * being reserved.
 */
#pragma once

#include <cxprm/prm/layouts_gen.h>

#include "transport.h"

namespace cxprm::prm {

namespace uctx_cap {
inline constexpr u32 RAW_TX = 0x1;
inline constexpr u32 INTERNAL_DEV_RES = 0x2;
inline constexpr u32 TOOLS_RESOURCES = 0x4;
} // namespace uctx_cap

} // namespace cxprm::prm
