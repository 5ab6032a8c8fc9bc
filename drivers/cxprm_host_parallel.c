// SPDX-License-Identifier: GPL-2.0
/*
 * The host's run_parallel (core-cpp/include/cxprm/host.h): the ops of a
 * CXPRM_IOC_BATCH run on work items of the unbound workqueue, so that
 * their firmware commands are in flight together; the caller runs the
 * first itself and waits for the rest.  Called by the core only.
 */
#include <linux/slab.h>
#include <linux/workqueue.h>

#include "cxprm.h"

struct cxprm_par_item {
	struct work_struct work;
	void (*fn)(void *arg, u32 i);
	void *arg;
	u32 i;
};

static void cxprm_par_work(struct work_struct *work)
{
	struct cxprm_par_item *it = container_of(work, struct cxprm_par_item, work);

	it->fn(it->arg, it->i);
}

void cxprm_host_run_parallel(void *ctx, u32 n, void (*fn)(void *arg, u32 i), void *arg)
{
	struct cxprm_par_item *items = NULL;
	u32 i;

	if (n > 1)
		items = kcalloc(n - 1, sizeof(*items), GFP_KERNEL);
	if (!items) {
		/* One op, or no memory for work items: one after another. */
		for (i = 0; i < n; i++)
			fn(arg, i);
		return;
	}
	for (i = 0; i < n - 1; i++) {
		INIT_WORK(&items[i].work, cxprm_par_work);
		items[i].fn = fn;
		items[i].arg = arg;
		items[i].i = i + 1;
		queue_work(system_unbound_wq, &items[i].work);
	}
	fn(arg, 0);
	for (i = 0; i < n - 1; i++)
		flush_work(&items[i].work);
	kfree(items);
}
