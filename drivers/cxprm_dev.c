// SPDX-License-Identifier: GPL-2.0
/*
 * The device object (struct cxprm_dev, cxprm.h): its lifetime and its
 * failure state.
 *
 * Lifetime: probe allocates it with one reference (dropped by remove);
 * every open file holds one (cxprm_cdev.c), so that a file outliving the
 * device still has a struct to look at.
 *
 * Failure: cxprm_dev_set_failed() is the one writer of cx->failed_err,
 * which follows the core's rule (the first failure sticks; only "gone"
 * replaces "firmware dead"), and wakes the readers waiting on cx->wait.
 */
#include <linux/atomic.h>
#include <linux/errno.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "cxprm.h"

struct cxprm_dev *cxprm_dev_alloc(struct pci_dev *pdev, enum cxprm_kind kind)
{
	struct cxprm_dev *cx = kzalloc(sizeof(*cx), GFP_KERNEL);

	if (!cx)
		return NULL;
	kref_init(&cx->kref);
	cx->pdev = pdev;
	cx->kind = kind;
	cx->bar_idx = 0;
	cx->irq = -1;
	strscpy(cx->bdf, pci_name(pdev), sizeof(cx->bdf));
	init_rwsem(&cx->rwsem);
	mutex_init(&cx->files_lock);
	INIT_LIST_HEAD(&cx->files);
	init_waitqueue_head(&cx->wait);
	atomic_set(&cx->event_seq, 0);
	atomic64_set(&cx->polls, 0);
	atomic64_set(&cx->irqs, 0);
	return cx;
}

void cxprm_dev_get(struct cxprm_dev *cx)
{
	kref_get(&cx->kref);
}

static void cxprm_dev_release(struct kref *kref)
{
	kfree(container_of(kref, struct cxprm_dev, kref));
}

void cxprm_dev_put(struct cxprm_dev *cx)
{
	kref_put(&cx->kref, cxprm_dev_release);
}

int cxprm_dev_failed(struct cxprm_dev *cx)
{
	return READ_ONCE(cx->failed_err);
}

/* Wakes every blocked reader (device failed or going away). */
void cxprm_dev_wake(struct cxprm_dev *cx)
{
	wake_up_interruptible_all(&cx->wait);
}

/* The core's rule (Cmdq::mark_failed): true if failed_err changed. */
static bool cxprm_dev_fail_state(struct cxprm_dev *cx, int err)
{
	int cur = cmpxchg(&cx->failed_err, 0, err);

	if (!cur)
		return true;
	return cur == -EHOSTDOWN && err == -ENODEV &&
	       cmpxchg(&cx->failed_err, cur, err) == cur;
}

static const char *cxprm_fail_name(int err)
{
	return err == -ENODEV ? "gone" : "firmware dead";
}

/*
 * A command (CXPRM_FAIL_COMMAND) or the health poller (CXPRM_FAIL_HEALTH)
 * found the firmware dead (-EHOSTDOWN) or the device gone (-ENODEV); the
 * core has marked it failed.  Blocked readers learn it now.  A command
 * speaks only when it is the one that failed the device (one refused
 * because the device had failed is no news); the poller reports each new
 * finding of its own, with what its sensors read.  No sleep.
 */
void cxprm_dev_set_failed(struct cxprm_dev *cx, int err,
			  enum cxprm_fail_source src)
{
	struct cxprm_core_info info;
	bool changed, news;

	if (err != -EHOSTDOWN && err != -ENODEV)
		return;
	changed = cxprm_dev_fail_state(cx, err);
	news = xchg(&cx->fail_seen[src], err) != err;
	if (src == CXPRM_FAIL_COMMAND && changed)
		dev_err(&cx->pdev->dev, "device failed (%s), found by a command; commands now fail with %d\n",
			cxprm_fail_name(err), err);
	if (src == CXPRM_FAIL_HEALTH && news) {
		cxprm_core_get_info(cx->core, &info);
		dev_err(&cx->pdev->dev,
			"health: device failed (%s): fatal sensor %u, health syndrome 0x%x rfr %u, nic_interface %u, counter %u; commands now fail with %d\n",
			cxprm_fail_name(err), info.health_sensor,
			info.health_syndrome, info.health_rfr,
			info.nic_interface, info.health_counter, err);
	}
	/* Blocked readers get the error instead of waiting for events. */
	if (changed || news)
		cxprm_dev_wake(cx);
}
