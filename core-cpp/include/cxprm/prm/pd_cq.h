/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Protection domains (ALLOC_PD / DEALLOC_PD) and completion queues: cqc,
 * CREATE/DESTROY/QUERY_CQ.  A CQ's entries live in host memory listed by
 * the pas[] tail; its doorbell record (two be32: consumer index, arm) at
 * cqc.dbr_addr; uar_page is the UAR page whose doorbell arms it.
 */
#pragma once

#include <cxprm/prm/layouts_gen.h>

#include "flex.h"
#include "transport.h"

namespace cxprm::prm {

/*
 * cqc: cqe_sz: 0 = 64-byte entries, 1 = 128.  st: 0x6 SOLICITED_NOTIFICATION
 * _REQUEST_ARMED, 0x9 NOTIFICATION_REQUEST_ARMED, 0xa FIRED.
 * c_eqn_or_apu_element: the EQ completions are reported on.
 */

} // namespace cxprm::prm
