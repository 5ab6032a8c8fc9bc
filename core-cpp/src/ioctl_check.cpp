// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The checks of ioctl requests that need no device (capi.h, "ioctl request
 * checks"): pure functions of what userspace passed, so the kernel shim
 * calls them and the fuzzers (fuzz/targets/ioctl_request.cpp) run them in
 * userspace.  The raw command's opcode policy is cxprm_core_raw_scope()
 * (capi.cpp); the capability checks themselves stay in the shim; the
 * ioctls themselves are ioctl.cpp.
 */
#include "cxprm/capi.h"

#include "cxprm/errors.h"
#include "cxprm/prm/transport.h"
#include "cxprm/types.h"

using namespace cxprm;

extern "C" int cxprm_core_raw_check(const cxprm_raw_cmd *rc, cxprm_core_raw_plan *plan)
{
	if (!rc || !plan)
		return E_INVAL;
	*plan = {};
	if (rc->inlen < prm::INLINE_BYTES || rc->inlen > CXPRM_RAW_MAX ||
	    rc->outlen < prm::INLINE_BYTES || rc->outlen > CXPRM_RAW_MAX ||
	    (rc->flags & ~CXPRM_RAW_DUMP))
		return E_INVAL;
	if (!(rc->flags & CXPRM_RAW_DUMP) || !rc->dump)
		return OK;
	if (rc->dump_len < sizeof(cxprm_raw_dump))
		return E_INVAL;
	u32 want = prm::mailbox_blocks(rc->inlen) + prm::mailbox_blocks(rc->outlen);
	u32 room = (u32)((rc->dump_len - sizeof(cxprm_raw_dump)) / CXPRM_MAILBOX_BYTES);
	plan->dump = 1;
	plan->blocks_cap = min_of(want, room);
	return OK;
}
