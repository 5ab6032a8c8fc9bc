// SPDX-License-Identifier: GPL-2.0
/*
 * The device object (struct cxprm_dev, cxprm.h): its lifetime, and its
 * failure state as the core has it.
 *
 * Lifetime: probe allocates it with one reference (dropped by remove);
 * every open file holds one (cxprm_cdev.c), so that a file outliving the
 * device still has a struct to look at.
 *
 * Failure: the core's Health holds it (its rule, its one word); the shim
 * only reads it (cxprm_dev_failed()) and hears of each change through the
 * health_changed host op (cxprm_host.c), which wakes the readers waiting
 * on cx->wait.
 */
#include <linux/atomic.h>
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
	mutex_init(&cx->recover_lock);
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
	int err;

	/*
	 * Remove destroys the core under the write lock (cxprm_stop()), so
	 * the core is read under the read lock.  Not to sleep (a wait
	 * condition calls this), a busy lock means remove is under way:
	 * its final word, then, and 'alive' false ends the wait.
	 */
	if (!down_read_trylock(&cx->rwsem))
		return READ_ONCE(cx->failed_final);
	err = cx->failed_final;
	/* Recovering: readers wait for the recovery's records. */
	if (cx->core)
		err = cxprm_core_recovering(cx->core) ? 0 :
		      cxprm_core_failed(cx->core);
	up_read(&cx->rwsem);
	return err;
}

/* Wakes every blocked reader (device failed or going away). */
void cxprm_dev_wake(struct cxprm_dev *cx)
{
	wake_up_interruptible_all(&cx->wait);
}
