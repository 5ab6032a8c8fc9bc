/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * ENABLE_HCA, DISABLE_HCA, INIT_HCA, TEARDOWN_HCA.
 * teardown_hca_in.profile / teardown_hca_out.state values: teardown_profile
 * and teardown_state in opcodes.h.
 */
#pragma once

#include <cxprm/prm/layouts_gen.h>

#include "transport.h"

namespace cxprm::prm {

/*
 * The function a command addresses (ENABLE/DISABLE_HCA, QUERY/MANAGE_PAGES):
 * function_id, of the embedded CPU's functions when embedded_cpu_function
 * is set.  enable_hca_in, disable_hca_in and query_pages_in are the
 * command header and these.
 */

/*
 * init_hca_in: sw_owner_id: 128 bits, written only when
 * cmd_hca_cap.sw_owner_id is set.
 */

/*
 * NOP and SET_DRIVER_VERSION (set_driver_version_in.driver_version: a
 * NUL-padded string).
 */

} // namespace cxprm::prm
