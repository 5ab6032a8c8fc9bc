/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * QUERY_ADAPTER: vendor id, VSD and PSID of the adapter.
 */
#pragma once

#include <cxprm/prm/layouts_gen.h>

#include "transport.h"

namespace cxprm::prm {

/*
 * query_adapter_param_block: vsd: 208 bytes of vendor-specific data
 * (ASCII); vsd_contd_psid: the 16-byte PSID, a NUL-padded ASCII board id.
 */

} // namespace cxprm::prm
