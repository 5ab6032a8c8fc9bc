// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Teardown (device.h): the pages of functions other than our own -- VFs
 * firmware asked us to provide for, or the external host PF of an ECPF.
 * Like Linux mlx5_reclaim_startup_pages, which walks every function of its
 * page tree after TEARDOWN_HCA, each one is asked with MANAGE_PAGES(TAKE)
 * for as long as it returns pages, a round without progress retried until
 * reclaim_timeout_ns.  What stays is handled by finish_pages() with the own
 * function's pages.
 */
#include "cxprm/device.h"

namespace cxprm {

void Device::reclaim_other_functions()
{
	cmd::FunctionRef fns[PageTracker::MAX_FUNCTIONS];
	u32 n = pages_.functions(fns, PageTracker::MAX_FUNCTIONS);
	const u32 own = (u32)own_function().function_id |
			(own_function().embedded_cpu_function ? 1u << 16 : 0);
	for (u32 i = 0; i < n && i < PageTracker::MAX_FUNCTIONS; i++) {
		const cmd::FunctionRef &fn = fns[i];
		if (((u32)fn.function_id | (fn.embedded_cpu_function ? 1u << 16 : 0)) == own)
			continue;
		CmdResult r;
		u64 freed;
		int err = reclaim_function(fn, &freed, &r);
		step(Step::RECLAIM_FUNCTION_PAGES, err, &r,
		     (s64)(((u64)fn.function_id | (fn.embedded_cpu_function ? 1ull << 16 : 0)) << 32 |
			   (freed & 0xffffffffu)));
	}
}

} // namespace cxprm
