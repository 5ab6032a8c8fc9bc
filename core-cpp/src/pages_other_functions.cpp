// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * PageTracker (pages.h): pages per function -- the count table, release_all
 * and the per-function queries.
 */
#include "cxprm/pages.h"

namespace cxprm {

/*
 * Entry 0 is the own function's for good; other entries are claimed by the
 * first page of a function and free again when it holds none.
 */
PageTracker::FnCount *PageTracker::fn_count_locked(u32 key, bool create)
{
	FnCount *spare = nullptr;
	for (FnCount &f : fns_) {
		if (f.key == key)
			return &f;
		if (!spare && &f != &fns_[0] && (f.key == NO_FN || !f.live))
			spare = &f;
	}
	if (!create || !spare)
		return nullptr;
	spare->key = key;
	spare->live = 0;
	return spare;
}

u64 PageTracker::live(const cmd::FunctionRef &fn) const
{
	if (!host_)
		return 0;
	lock();
	const FnCount *fc = nullptr;
	for (const FnCount &f : fns_)
		if (f.key == fn_key(fn))
			fc = &f;
	u64 n = fc ? fc->live : 0;
	unlock();
	return n;
}

u32 PageTracker::functions(cmd::FunctionRef *out, u32 max) const
{
	if (!host_)
		return 0;
	u32 n = 0;
	lock();
	for (const FnCount &f : fns_) {
		if (f.key == NO_FN || !f.live)
			continue;
		if (out && n < max)
			out[n] = fn_ref(f.key);
		n++;
	}
	unlock();
	return n;
}

u64 PageTracker::release_all(const cmd::FunctionRef &fn)
{
	if (!host_)
		return 0;
	const u32 key = fn_key(fn);
	u64 total = 0;
	/* In batches: the buffers to free are collected under the lock. */
	for (;;) {
		constexpr u32 BATCH = 16; /* on the stack: kernel-sized */
		cxprm_dma_buf bufs[BATCH];
		u32 k = 0;
		lock();
		for (u32 i = 0; i < cap_ && k < BATCH; i++) {
			/* Backward shift may move a later entry into i: look again. */
			while (k < BATCH && tab_[i].buf.cpu && tab_[i].fn == key) {
				u64 bus = tab_[i].buf.bus;
				remove_locked(bus, &bufs[k++]);
			}
		}
		st_.reclaimed += k; /* firmware's own word that it let them go */
		unlock();
		for (u32 i = 0; i < k; i++)
			free_page(&bufs[i]);
		total += k;
		if (k < BATCH)
			return total;
	}
}

} // namespace cxprm
