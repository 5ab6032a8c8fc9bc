/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Dynamically Connected Targets: dctc, CREATE/DESTROY/DRAIN/QUERY_DCT and
 * ARM_DCT_FOR_KEY_VIOLATION (arm_dct_in/out).  DRAIN_DCT completes with
 * event::DCT_DRAINED (eq.h dct_events), after which DESTROY_DCT is safe.
 */
#pragma once

#include <cxprm/prm/layouts_gen.h>

#include "transport.h"

namespace cxprm::prm {

/*
 * dctc: state: 0 ACTIVE, 1 DRAINING, 2 DRAINED (mlx5_ifc.h
 * MLX5_DCTC_STATE_*).
 */

/* destroy_dct_in: DESTROY_DCT and DRAIN_DCT: dctn only. */

/*
 * arm_dct_in: ARM_DCT_FOR_KEY_VIOLATION (mlx5_ifc.h names its layouts
 * arm_dct_in/out).
 */

} // namespace cxprm::prm
