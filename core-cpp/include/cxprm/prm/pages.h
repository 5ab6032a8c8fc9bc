/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * QUERY_PAGES / MANAGE_PAGES: the firmware's demand for host memory.
 * op_mod values: query_pages_op and manage_pages_op in opcodes.h; the
 * function asked about: function_id (hca.h).  The page address
 * arrays follow the fixed parts (flex.h).
 */
#pragma once

#include <cxprm/prm/layouts_gen.h>

#include "flex.h"
#include "hca.h"

namespace cxprm::prm {

/*
 * query_pages_out: num_pages is signed: negative = firmware has pages to
 * return.
 */

} // namespace cxprm::prm
