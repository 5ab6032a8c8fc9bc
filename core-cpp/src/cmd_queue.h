/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* What the CREATE commands of queues (CQ, SRQ, RMP, XRQ, QP) check alike. */
#pragma once

#include "cxprm/commands/objects.h"

namespace cxprm::cmd {

/*
 * queue_buffer_ok(bus, pages, bytes) and a doorbell record at dbr:
 * nonzero and 8-byte aligned.
 */
inline bool queue_and_dbr_ok(u64 bus, u32 pages, u64 bytes, u64 dbr)
{
	return queue_buffer_ok(bus, pages, bytes) && dbr && !(dbr & 7);
}

} // namespace cxprm::cmd
