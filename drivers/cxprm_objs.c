// SPDX-License-Identifier: GPL-2.0
/*
 * The objects of open files (PD, CQ, SRQ, QP, XRQ, NVMF backend and
 * namespace; CXPRM_IOC_OBJ_*, CXPRM_IOC_QP_MODIFY): what they mean and
 * their tables are the core's (core-cpp/src/ioctl_objects.cpp,
 * objects_table.cpp; the ioctls are cxprm_core_ioctl()'s); here destroying
 * them when the file closes or the device goes away.  Called by
 * cxprm_cdev.c only.
 */
#include <linux/atomic.h>

#include "cxprm.h"

/*
 * Destroys the objects of a table taken from a file (cx->cleanup_ok).
 * Those another file's objects still name are the core's to try again
 * (cxprm_core_objs_destroy()); their queue memory is never freed early.
 */
void cxprm_objs_destroy(struct cxprm_dev *cx, struct cxprm_core_objs *t,
			const char *why)
{
	u32 done, left;

	left = cxprm_core_objs_destroy(cx->core, t, &done);
	if (left)
		dev_warn(&cx->pdev->dev,
			 "%s: %u objects left for later (%u destroyed)\n",
			 why, left, done);
}

#define CXPRM_SWEEP_FILES 32

/*
 * The objects of open files, up to CXPRM_SWEEP_FILES files' tables at once:
 * one file's QP may name another's PD, so each pass sweeps them all.  A
 * table is taken from its file under files_lock (a release may take it
 * first); no lock is held while commands run.
 */
void cxprm_objs_shutdown(struct cxprm_dev *cx)
{
	struct cxprm_core_objs *t[CXPRM_SWEEP_FILES];
	struct cxprm_file *f;
	unsigned int n, i;
	u32 swept;

	do {
		n = 0;
		mutex_lock(&cx->files_lock);
		list_for_each_entry(f, &cx->files, node) {
			if (n == CXPRM_SWEEP_FILES)
				break;
			t[n] = xchg(&f->core.objs, NULL);
			if (t[n])
				n++;
		}
		mutex_unlock(&cx->files_lock);
		do {
			swept = 0;
			for (i = 0; i < n; i++)
				swept += cxprm_core_objs_sweep(cx->core, t[i]);
		} while (swept);
		for (i = 0; i < n; i++)
			cxprm_objs_destroy(cx, t[i], "remove");
	} while (n);
	/* Those of closed files that these named. */
	if (cxprm_core_orphans_destroy(cx->core))
		dev_warn(&cx->pdev->dev,
			 "remove: objects of closed files left, their queues kept until teardown\n");
}
