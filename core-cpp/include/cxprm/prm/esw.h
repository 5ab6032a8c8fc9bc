/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * QUERY_ESW_FUNCTIONS: the host PF/VF situation an ECPF eswitch manager
 * re-reads on event::ESW_FUNCTIONS_CHANGED (that event has no payload of
 * its own in mlx5_ifc.h; the capability bit is e_switch_cap
 * esw_functions_changed).
 */
#pragma once

#include <cxprm/prm/layouts_gen.h>

#include "flex.h"
#include "transport.h"

namespace cxprm::prm {

/*
 * host_params_context: host_pf_not_exist is in Debian's 6.1 header
 * although it arrived upstream later.  query_esw_functions_out: the
 * host_sf_enable[] tail (64-bit bitmaps) follows host_params_context; 7.3
 * folds both into the flexible union net_function_params, so layouts.sel
 * places them.
 */

} // namespace cxprm::prm
