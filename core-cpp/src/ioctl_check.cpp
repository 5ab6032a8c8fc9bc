// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The checks of ioctl requests that need no device (capi.h, "ioctl request
 * checks"): pure functions of what userspace passed, so the kernel shim
 * calls them and the fuzzers (fuzz/targets/ioctl_request.cpp) run them in
 * userspace.  The raw command's opcode policy is cxprm_core_raw_scope()
 * (capi.cpp); the capability checks themselves stay in the shim.
 */
#include "cxprm/capi.h"

#include "cxprm/errors.h"
#include "cxprm/prm/transport.h"
#include "cxprm/types.h"

using namespace cxprm;

static_assert(CXPRM_CORE_MAILBOX_BYTES == prm::MAILBOX_SIZE, "mailbox block size");
static_assert(CXPRM_CORE_RAW_DUMP_HDR == 64 + 64 + 4 * 4, "struct cxprm_raw_dump");

extern "C" int cxprm_core_raw_check(const cxprm_core_raw_req *req, cxprm_core_raw_plan *plan)
{
	if (!req || !plan)
		return E_INVAL;
	*plan = {};
	if (req->inlen < prm::INLINE_BYTES || req->inlen > CXPRM_CORE_RAW_MAX ||
	    req->outlen < prm::INLINE_BYTES || req->outlen > CXPRM_CORE_RAW_MAX ||
	    (req->flags & ~CXPRM_CORE_RAW_FLAG_DUMP))
		return E_INVAL;
	if (!(req->flags & CXPRM_CORE_RAW_FLAG_DUMP) || !req->dump)
		return OK;
	if (req->dump_len < CXPRM_CORE_RAW_DUMP_HDR)
		return E_INVAL;
	u32 want = prm::mailbox_blocks(req->inlen) + prm::mailbox_blocks(req->outlen);
	u32 room = (req->dump_len - CXPRM_CORE_RAW_DUMP_HDR) / CXPRM_CORE_MAILBOX_BYTES;
	plan->dump = 1;
	plan->blocks_cap = min_of(want, room);
	return OK;
}
