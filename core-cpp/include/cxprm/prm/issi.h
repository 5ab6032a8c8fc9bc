/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * QUERY_ISSI / SET_ISSI: the interface step sequence id.
 * supported_issi_dw0 bit n set = ISSI n is supported.
 */
#pragma once

#include <cxprm/prm/layouts_gen.h>

#include "transport.h"

namespace cxprm::prm {

} // namespace cxprm::prm
