// SPDX-License-Identifier: GPL-2.0
/*
 * Loading and unloading the function, with what they log: the core's
 * bring-up, the fast unload of shutdown, the teardown and the pages it
 * leaves; and the two halves around them that probe/remove, suspend/resume,
 * the PCI error handlers and a recovery share (cxprm_load, cxprm_unload:
 * the EQ, the health poller, the open files' objects).
 */
#include <linux/cache.h>
#include <linux/kernel.h>
#include <linux/ktime.h>
#include <linux/pci.h>

#include "cxprm.h"
#include "cxprm_params.h"

void cxprm_bringup(struct cxprm_dev *cx)
{
	struct device *dev = &cx->pdev->dev;
	struct cxprm_core_config cfg;
	struct cxprm_core_info info;
	u64 t0 = ktime_get_ns();
	int err;

	cxprm_bringup_config(cx, &cfg);
	err = cxprm_core_bringup(cx->core, &cfg);
	cx->bringup_err = err;
	if (err) {
		dev_err(dev, "bring-up failed: %s (%d); the function stays bound in state ERROR (see debugfs health)\n",
			cxprm_core_err_name(err), err);
		return;
	}
	cx->up = true;
	cxprm_core_get_info(cx->core, &info);
	if (READ_ONCE(cxprm_cmd_checksum) && !info.cmd_checksum)
		dev_warn(dev, "cmd_checksum=1, but the device offers no cmdif_checksum: checksums stay off\n");
	dev_info(dev, "HCA up: firmware %u.%u.%u, cmdif rev %u, ISSI %u, %u command slots (checksums %s, timeout %llu ms), %llu pages given, %llu commands in %llu ms\n",
		 info.fw_major, info.fw_minor, info.fw_subminor, info.cmdif_rev,
		 info.issi, info.cmdq_entries,
		 info.cmd_checksum ? "on" : "off",
		 div_u64(info.cmd_timeout_ns, NSEC_PER_MSEC),
		 (unsigned long long)info.pages_given,
		 (unsigned long long)info.commands,
		 div_u64(ktime_get_ns() - t0, NSEC_PER_MSEC));
}

/*
 * Shutdown (Linux shutdown(): mlx5_try_fast_unload first): the health
 * poller stops, then the fast teardown, before objects, DCTs or the EQ are
 * touched.  When it works the queue is closed and the rest of the stop
 * path sends nothing: firmware has let go of all of it.
 */
void cxprm_fast_unload(struct cxprm_dev *cx)
{
	int err;

	cxprm_health_stop(cx);
	err = cxprm_core_fast_unload(cx->core);
	dev_info(&cx->pdev->dev, "shutdown: %s (%s)\n",
		 err ? "teardown" : "fast teardown", cxprm_core_err_name(err));
}

/*
 * TEARDOWN_HCA, page reclaim, DISABLE_HCA; then no page stays lent.  After
 * a fast teardown it sends nothing and every page is stranded.
 */
void cxprm_teardown(struct cxprm_dev *cx)
{
	struct device *dev = &cx->pdev->dev;
	struct cxprm_core_teardown_report rep;
	u64 freed;
	int err;

	cxprm_core_teardown(cx->core, &rep);
	/* No steps: bring-up had failed and unwound already. */
	if (rep.steps && rep.err)
		dev_warn(dev, "teardown: %s failed with %s (%d)\n",
			 rep.failed_step, cxprm_core_err_name(rep.err),
			 rep.err);
	if (rep.steps || rep.pages_stranded || rep.cmdq_stranded)
		dev_info(dev, "pages given %llu reclaimed %llu (freed unreturned %llu, stranded %llu), cmdq buffers kept %u\n",
			 (unsigned long long)rep.pages_given,
			 (unsigned long long)rep.pages_reclaimed,
			 (unsigned long long)rep.pages_freed,
			 (unsigned long long)rep.pages_stranded,
			 rep.cmdq_stranded);
	/* A failed bring-up's unwind can strand memory too. */
	if (!rep.pages_stranded && !rep.cmdq_stranded)
		return;

	/*
	 * Firmware kept pages and could not be told to release the function
	 * (dead or timing out), or still owns a timed-out command's queue
	 * entry and mailboxes.  A function reset makes them safe to free;
	 * without one, clearing Bus Master Enable (command register bit 2)
	 * does: the function can no longer write to memory.  remove() runs
	 * with the device lock held, hence the _locked variant.  Shutdown
	 * (after a fast teardown every page is here) only turns bus mastering
	 * off, as Linux's mlx5 shutdown() does, and so does a PCI error's
	 * unload (the PCI core resets the link itself).
	 */
	err = cx->shutting_down || cx->pci_error ? -ESHUTDOWN :
	      pci_reset_function_locked(cx->pdev);
	if (err) {
		pci_clear_master(cx->pdev);
		if (!cx->shutting_down && !cx->pci_error)
			dev_warn(dev, "function reset failed (%d): bus mastering off before freeing the stranded pages\n",
				 err);
	}
	freed = cxprm_core_release_stranded(cx->core);
	dev_info(dev, "%s: freed %llu stranded pages and %u cmdq buffers\n",
		 err ? "bus mastering off" : "function reset",
		 (unsigned long long)freed, rep.cmdq_stranded);
}

/* The device is up: its EQ and health poller run (load, a recovery). */
void cxprm_start(struct cxprm_dev *cx)
{
	cx->up = true;
	cxprm_events_start(cx);
	cxprm_health_start(cx);
}

/*
 * The poller and the EQ stopped, every open file's objects forgotten (the
 * firmware will not have them): before a teardown (unload, a recovery).
 * Called with cx->rwsem held for writing: no ioctl runs.
 */
void cxprm_quiesce(struct cxprm_dev *cx)
{
	cxprm_health_stop(cx);
	cxprm_events_stop(cx);
	cxprm_files_forget(cx);
	cx->up = false;
}

/*
 * After a bring-up that worked: the recovery's rules, the EQ, the health
 * poller (probe, resume, a PCI error's resume).
 */
void cxprm_load(struct cxprm_dev *cx)
{
	cxprm_bringup(cx);
	if (!cx->up)
		return;
	cxprm_recover_setup(cx);
	cxprm_start(cx);
}

/* cxprm_quiesce(), then the teardown (suspend, a PCI error); rwsem as there. */
void cxprm_unload(struct cxprm_dev *cx)
{
	cxprm_quiesce(cx);
	cxprm_teardown(cx);
}
