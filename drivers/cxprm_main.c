// SPDX-License-Identifier: GPL-2.0
/*
 * cxprm: a PCI driver for the command interface of NVIDIA ConnectX (mlx5)
 * functions, with its logic in a freestanding C++ core (core-cpp/).
 *
 * cxprm never binds on its own: every id table entry is override_only (or,
 * before 5.14, the driver has no id table) and there is no
 * MODULE_DEVICE_TABLE, so it neither autoloads nor takes a
 * function from mlx5_core.  Bind a function explicitly:
 *
 *   echo cxprm > /sys/bus/pci/devices/<bdf>/driver_override
 *   echo <bdf> > /sys/bus/pci/drivers_probe
 *
 * (unbind it from its current driver first, if any:
 *   echo <bdf> > /sys/bus/pci/devices/<bdf>/driver/unbind).
 *
 * Besides ConnectX it drives QEMU's ivshmem device, whose BAR2 is a shared
 * memory file behind which the firmware emulator runs as a host process
 * (tools/emulator/daemon/, tools/qemu/): ivshmem-plain (no interrupts) or
 * ivshmem-doorbell (MSI-X, the emulator its ivshmem server).  The test
 * harness's cxswap.ko may have swapped BAR0 and BAR2 for mlx5_core: the
 * init segment is in whichever of the two is the shared memory.
 *
 * Probe brings the function up through the core (ENABLE_HCA ... INIT_HCA,
 * firmware pages from dma_alloc_coherent), starts the async EQ and a worker
 * that polls it (kicked by MSI-X where there is one), and creates
 * /dev/cxprm/<bdf> (cxprm_cdev.c) and /sys/kernel/debug/cxprm/<bdf>/
 * (cxprm_debugfs.c).  Remove undoes it in reverse and reclaims every page.
 * Documentation/kernel-module.rst has the whole story.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/cache.h>
#include <linux/dma-mapping.h>
#include <linux/interrupt.h>
#include <linux/jiffies.h>
#include <linux/kernel.h>
#include <linux/ktime.h>
#include <linux/module.h>
#include <linux/pci.h>
#include <linux/slab.h>
#include <linux/sizes.h>
#include <linux/string.h>

#include "cxprm.h"
#include "cxprm_compat.h"
#include "cxprm_params.h"

/*
 * The init segment (0x400c bytes) must be there in full; BAR0 of a
 * ConnectX is >= 32 MiB, the emulator's UAR pages start at 64 KiB.
 */
#define CXPRM_BAR_MIN_LEN		SZ_64K

/* ---- events: the async EQ, polled by a worker ---- */

/* EQEs per poll call; the worker calls again while it gets a full budget. */
#define CXPRM_POLL_BUDGET	128

static void cxprm_poll_work(struct work_struct *work)
{
	struct cxprm_dev *cx = container_of(to_delayed_work(work),
					    struct cxprm_dev, poll_work);
	unsigned int ms;

	atomic64_inc(&cx->polls);
	while (cxprm_core_events_poll(cx->core, CXPRM_POLL_BUDGET) ==
	       CXPRM_POLL_BUDGET && !READ_ONCE(cx->stopping))
		cond_resched();
	if (READ_ONCE(cx->stopping))
		return;
	if (cxprm_core_events_pending(cx->core))
		queue_work(cx->wq, &cx->service_work);
	ms = READ_ONCE(cxprm_poll_interval_ms);
	queue_delayed_work(cx->wq, &cx->poll_work, msecs_to_jiffies(ms));
}

/* Page requests: MANAGE_PAGES needs a context that may wait for commands. */
static void cxprm_service_work(struct work_struct *work)
{
	struct cxprm_dev *cx = container_of(work, struct cxprm_dev,
					    service_work);
	int err = cxprm_core_events_service(cx->core);

	if (err)
		dev_warn_ratelimited(&cx->pdev->dev,
				     "page request failed: %s (%d)\n",
				     cxprm_core_err_name(err), err);
	if (!READ_ONCE(cx->stopping) && cxprm_core_events_pending(cx->core))
		queue_work(cx->wq, &cx->service_work);
}

static irqreturn_t cxprm_irq(int irq, void *data)
{
	struct cxprm_dev *cx = data;

	atomic64_inc(&cx->irqs);
	if (!READ_ONCE(cx->stopping))
		mod_delayed_work(cx->wq, &cx->poll_work, 0);
	return IRQ_HANDLED;
}

/*
 * MSI-X vector 0 for the EQ (intr 0) on a ConnectX and on ivshmem-doorbell
 * (whose vector v is the emulator's raise_irq(v)).  ivshmem-plain has no
 * interrupt at all: the worker's polling is the whole mechanism.
 */
static void cxprm_irq_setup(struct cxprm_dev *cx)
{
	struct pci_dev *pdev = cx->pdev;
	int err;

	cx->irq = -1;
	if (!cxprm_use_msix)
		return;
	if (!pdev->msix_cap) {
		dev_info(&pdev->dev, "no MSI-X capability: polling the EQ only\n");
		return;
	}
	err = pci_alloc_irq_vectors(pdev, 1, 1, PCI_IRQ_MSIX);
	if (err < 0) {
		dev_info(&pdev->dev, "no MSI-X (%d): polling the EQ only\n",
			 err);
		return;
	}
	cx->msix = true;
	snprintf(cx->irq_name, sizeof(cx->irq_name), "cxprm-%s", cx->bdf);
	err = request_irq(pci_irq_vector(pdev, 0), cxprm_irq, 0, cx->irq_name,
			  cx);
	if (err) {
		dev_warn(&pdev->dev, "cannot request the EQ interrupt: %d\n",
			 err);
		pci_free_irq_vectors(pdev);
		cx->msix = false;
		return;
	}
	cx->irq = pci_irq_vector(pdev, 0);
}

static void cxprm_irq_teardown(struct cxprm_dev *cx)
{
	if (cx->irq >= 0)
		free_irq(cx->irq, cx);
	cx->irq = -1;
	if (cx->msix)
		pci_free_irq_vectors(cx->pdev);
	cx->msix = false;
}

static void cxprm_events_start(struct cxprm_dev *cx)
{
	struct device *dev = &cx->pdev->dev;
	struct cxprm_core_events_config ec = {};
	int err;

	/*
	 * The system's workqueue for long-running items (a page request
	 * runs MANAGE_PAGES), not one of our own: destroy_workqueue() can
	 * find the barrier of a just-finished cancel_work_sync() still in
	 * flight and WARN ("has the following busy pwq ... wq_barrier_func",
	 * seen on 5.10), and the works are cancelled before remove anyway.
	 */
	cx->wq = system_long_wq;
	INIT_DELAYED_WORK(&cx->poll_work, cxprm_poll_work);
	INIT_WORK(&cx->service_work, cxprm_service_work);
	WRITE_ONCE(cx->stopping, false);
	cxprm_irq_setup(cx);

	ec.intr = 0;
	ec.command_events = READ_ONCE(cxprm_cmd_mode) == CXPRM_CMD_MODE_EVENTS;
	ec.listener = cxprm_event_listener;
	ec.listener_ctx = cx;
	err = cxprm_core_events_start(cx->core, &ec);
	if (err) {
		dev_warn(dev, "events not started: %s (%d); page requests are not served, commands complete by polling\n",
			 cxprm_core_err_name(err), err);
		WRITE_ONCE(cx->stopping, true);
		cxprm_irq_teardown(cx);
		cx->wq = NULL;
		return;
	}
	cx->events_on = true;
	cxprm_core_info_flags(cx->core,
			      (ec.command_events ? CXPRM_INFO_EVENT_MODE : 0) |
			      (cx->irq >= 0 ? CXPRM_INFO_IRQ : 0), 0);
	queue_delayed_work(cx->wq, &cx->poll_work, 0);
	dev_info(dev, "events: async EQ polled every %u ms%s, commands complete by %s\n",
		 READ_ONCE(cxprm_poll_interval_ms),
		 cx->irq >= 0 ? " and on MSI-X" : "",
		 ec.command_events ? "CMD events" : "polling");
}

/*
 * The EQ goes before its vector, as in Linux (mlx5_unload: the EQ table,
 * then the IRQ table): pci_free_irq_vectors() turns INTx back on, and an
 * EQE written in between would raise an interrupt nobody handles.  The
 * handler queues nothing once 'stopping' is set.
 */
static void cxprm_events_stop(struct cxprm_dev *cx)
{
	if (!cx->wq)
		return;
	WRITE_ONCE(cx->stopping, true);
	/* A handler that saw 'stopping' still false has queued by now. */
	if (cx->irq >= 0)
		synchronize_irq(cx->irq);
	cancel_delayed_work_sync(&cx->poll_work);
	cancel_work_sync(&cx->service_work);
	/* Back to polled completion, DESTROY_EQ, DEALLOC_UAR. */
	cxprm_core_events_stop(cx->core);
	cxprm_irq_teardown(cx);
	cx->wq = NULL;
	cx->events_on = false;
	cxprm_core_info_flags(cx->core, 0,
			      CXPRM_INFO_EVENT_MODE | CXPRM_INFO_IRQ);
}

/* ---- bring-up and teardown ---- */

static void cxprm_bringup(struct cxprm_dev *cx)
{
	struct device *dev = &cx->pdev->dev;
	struct cxprm_core_config cfg = {};
	struct cxprm_core_info info;
	u64 t0 = ktime_get_ns();
	int err;

	cfg.cmd_timeout_ns = (u64)READ_ONCE(cxprm_cmd_timeout_ms) *
			     NSEC_PER_MSEC;
	cfg.health_stall_polls = READ_ONCE(cxprm_health_stall_polls);
	/* Linux set_hca_ctrl: HOST_ENDIANNESS is written by a PF only. */
	if (cx->is_vf)
		cfg.flags |= CXPRM_CORE_CFG_VF;
	/* Linux handle_hca_cap: cache_line_128byte from the host's line. */
	if (cache_line_size() >= 128)
		cfg.flags |= CXPRM_CORE_CFG_CACHE_LINE_128;
	if (READ_ONCE(cxprm_cmd_checksum))
		cfg.flags |= CXPRM_CORE_CFG_CHECKSUM;
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
static void cxprm_fast_unload(struct cxprm_dev *cx)
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
static void cxprm_teardown(struct cxprm_dev *cx)
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
	 * off, as Linux's mlx5 shutdown() does.
	 */
	err = cx->shutting_down ? -ESHUTDOWN :
	      pci_reset_function_locked(cx->pdev);
	if (err) {
		pci_clear_master(cx->pdev);
		if (!cx->shutting_down)
			dev_warn(dev, "function reset failed (%d): bus mastering off before freeing the stranded pages\n",
				 err);
	}
	freed = cxprm_core_release_stranded(cx->core);
	dev_info(dev, "%s: freed %llu stranded pages and %u cmdq buffers\n",
		 err ? "bus mastering off" : "function reset",
		 (unsigned long long)freed, rep.cmdq_stranded);
}

/* ---- PCI ---- */

static int cxprm_set_dma_mask(struct pci_dev *pdev)
{
	int err;

	err = dma_set_mask_and_coherent(&pdev->dev, DMA_BIT_MASK(64));
	if (!err)
		return 0;
	dev_warn(&pdev->dev, "no 64-bit DMA, trying 32-bit\n");
	err = dma_set_mask_and_coherent(&pdev->dev, DMA_BIT_MASK(32));
	if (err)
		dev_err(&pdev->dev, "no usable DMA mask: %d\n", err);
	return err;
}

static void cxprm_log_init_seg(struct cxprm_dev *cx)
{
	struct cxprm_core_iseg_rev rev;

	cxprm_core_read_iseg_rev(&cx->host, &rev);
	dev_info(&cx->pdev->dev,
		 "init segment: fw_rev 0x%08x cmdif_rev_fw_sub 0x%08x (firmware %u.%u.%u, cmdif rev %u)\n",
		 rev.fw_rev, rev.cmdif_rev, rev.major, rev.minor, rev.subminor,
		 rev.cmd_interface_rev);
}

/* Everything probe set up after mapping the BAR, in reverse. */
static void cxprm_stop(struct cxprm_dev *cx)
{
	cxprm_debugfs_remove(cx);
	/* No new ioctls; wait for those in flight (bounded by the timeout). */
	down_write(&cx->rwsem);
	WRITE_ONCE(cx->alive, false);
	up_write(&cx->rwsem);
	if (cx->shutting_down && cx->core)
		cxprm_fast_unload(cx);
	cxprm_cdev_unregister(cx);
	/* DCTs of open files, then no more cleanup by releases. */
	cxprm_cdev_shutdown(cx);
	cxprm_events_stop(cx);
	/* The poller ran until here: it fails commands of a dying device. */
	cxprm_health_stop(cx);
	if (cx->core) {
		struct cxprm_core *core = cx->core;

		cxprm_teardown(cx);
		/* Files may outlive it: they keep its last word (cxprm_dev_failed()). */
		down_write(&cx->rwsem);
		WRITE_ONCE(cx->failed_final, cxprm_core_failed(core));
		cx->core = NULL;
		up_write(&cx->rwsem);
		cxprm_core_destroy(core);
	}
	cx->up = false;
	cxprm_host_fini(cx);
}

static bool cxprm_bar_fits(struct pci_dev *pdev, int bar)
{
	return (pci_resource_flags(pdev, bar) & IORESOURCE_MEM) &&
	       pci_resource_len(pdev, bar) >= CXPRM_BAR_MIN_LEN;
}

/*
 * ivshmem's shared memory is BAR2 (BAR0 is its 256-byte register BAR), or
 * BAR0 after the test harness's cxswap.ko swapped the two for mlx5_core:
 * the one large enough for the init segment and the UAR pages.  BAR2 when
 * neither is (probe then says so).
 */
static int cxprm_ivshmem_bar(struct pci_dev *pdev)
{
	if (!cxprm_bar_fits(pdev, 2) && cxprm_bar_fits(pdev, 0))
		return 0;
	return 2;
}

static int cxprm_probe(struct pci_dev *pdev, const struct pci_device_id *id)
{
	unsigned long id_data;
	enum cxprm_kind kind;
	struct cxprm_dev *cx;
	int err;

	/*
	 * The entry of our own table that matched: without override_only
	 * ids (before 5.14) the driver has no id table and driver_override
	 * matches with a dummy id, looked up instead (cxprm_compat.h).
	 */
	id_data = cxprm_pci_id_data(pdev, id);
	kind = id_data & CXPRM_KIND_MASK;
	if (kind != CXPRM_KIND_CONNECTX && kind != CXPRM_KIND_IVSHMEM) {
		dev_err(&pdev->dev, "%04x:%04x is not a device cxprm drives\n",
			pdev->vendor, pdev->device);
		return -ENODEV;
	}

	cx = cxprm_dev_alloc(pdev, kind);
	if (!cx)
		return -ENOMEM;

	err = pci_enable_device(pdev);
	if (err) {
		dev_err(&pdev->dev, "cannot enable device: %d\n", err);
		goto err_free;
	}

	if (kind == CXPRM_KIND_IVSHMEM)
		cx->bar_idx = cxprm_ivshmem_bar(pdev);
	if (!(pci_resource_flags(pdev, cx->bar_idx) & IORESOURCE_MEM) ||
	    pci_resource_len(pdev, cx->bar_idx) < CXPRM_BAR_MIN_LEN) {
		dev_err(&pdev->dev, "BAR%d is not a memory BAR of >= %u bytes\n",
			cx->bar_idx, CXPRM_BAR_MIN_LEN);
		err = -ENODEV;
		goto err_disable;
	}

	err = pci_request_regions(pdev, KBUILD_MODNAME);
	if (err) {
		dev_err(&pdev->dev, "cannot request regions: %d\n", err);
		goto err_disable;
	}

	err = cxprm_set_dma_mask(pdev);
	if (err)
		goto err_release;

	pci_set_master(pdev);

	cx->bar_len = pci_resource_len(pdev, cx->bar_idx);
	cx->bar = pci_iomap(pdev, cx->bar_idx, 0);
	if (!cx->bar) {
		dev_err(&pdev->dev, "cannot map BAR%d\n", cx->bar_idx);
		err = -ENOMEM;
		goto err_clear_master;
	}

	cxprm_host_init(cx);
	pci_set_drvdata(pdev, cx);

	cx->is_vf = cxprm_pci_is_vf(cx, id_data);
	dev_info(&pdev->dev, "%s%s, BAR%d %pR\n",
		 kind == CXPRM_KIND_IVSHMEM ? "ivshmem (emulated ConnectX)" :
		 "ConnectX", cx->is_vf ? " VF" : "", cx->bar_idx,
		 &pdev->resource[cx->bar_idx]);
	cxprm_log_init_seg(cx);

	err = cxprm_core_create(&cx->host, &cx->core);
	if (err) {
		dev_err(&pdev->dev, "cannot create the core: %d\n", err);
		cxprm_host_fini(cx);
		goto err_unmap;
	}
	if (kind == CXPRM_KIND_IVSHMEM)
		cxprm_core_info_flags(cx->core, CXPRM_INFO_EMULATED, 0);
	cxprm_bringup(cx);
	if (cx->up) {
		cxprm_events_start(cx);
		cxprm_health_start(cx);
	}
	cx->alive = true;
	cx->cleanup_ok = cx->up;

	cxprm_debugfs_add(cx);
	err = cxprm_cdev_register(cx);
	if (err) {
		dev_err(&pdev->dev, "cannot create /dev/%s: %d\n",
			cx->misc_name, err);
		cxprm_stop(cx);
		goto err_unmap;
	}
	return 0;

err_unmap:
	pci_iounmap(pdev, cx->bar);
err_clear_master:
	pci_clear_master(pdev);
err_release:
	pci_release_regions(pdev);
err_disable:
	pci_disable_device(pdev);
err_free:
	cxprm_dev_put(cx);
	return err;
}

static void cxprm_remove(struct pci_dev *pdev)
{
	struct cxprm_dev *cx = pci_get_drvdata(pdev);

	if (!cx->shutting_down)	/* shutdown() stopped it already */
		cxprm_stop(cx);
	pci_iounmap(pdev, cx->bar);
	pci_clear_master(pdev);
	pci_release_regions(pdev);
	pci_disable_device(pdev);
	dev_info(&pdev->dev, "removed\n");
	/* Open files keep the struct (not the device) until they close. */
	cxprm_dev_put(cx);
}

/*
 * Reboot, poweroff, kexec (Linux mlx5_core shutdown()): no page may stay
 * with the firmware, which could otherwise write into the next kernel's
 * memory.  The fast teardown first (one command and at most 3 s), then
 * remove's path, which sends nothing more after it (the whole of remove's
 * teardown without the capability), then bus mastering off.
 * Documentation/faults.rst, "Shutdown".
 */
static void cxprm_shutdown(struct pci_dev *pdev)
{
	struct cxprm_dev *cx = pci_get_drvdata(pdev);

	cx->shutting_down = true;
	cxprm_stop(cx);
	pci_clear_master(pdev);
}

static struct pci_driver cxprm_pci_driver = {
	.name = KBUILD_MODNAME,
	.id_table = CXPRM_PCI_ID_TABLE(cxprm_pci_ids),
	.probe = cxprm_probe,
	.remove = cxprm_remove,
	.shutdown = cxprm_shutdown,
};

static int __init cxprm_init(void)
{
	int err;

	cxprm_debugfs_init();
	err = pci_register_driver(&cxprm_pci_driver);
	if (err)
		cxprm_debugfs_exit();
	return err;
}

static void __exit cxprm_exit(void)
{
	pci_unregister_driver(&cxprm_pci_driver);
	cxprm_debugfs_exit();
}

module_init(cxprm_init);
module_exit(cxprm_exit);

MODULE_DESCRIPTION("Command interface of NVIDIA ConnectX functions (driver_override only)");
MODULE_LICENSE("GPL");
