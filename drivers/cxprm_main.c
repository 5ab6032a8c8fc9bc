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
	/* A recovery under way ends first (bounded: cxprm_core_recover()). */
	cxprm_recover_stop(cx);
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
	/* What slot_reset restores after a PCI error (mlx5_pci_init). */
	pci_save_state(pdev);

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
	cxprm_recover_init(cx);
	cxprm_load(cx);
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
	.suspend = cxprm_pm_suspend,
	.resume = cxprm_pm_resume,
	.err_handler = &cxprm_err_handler,
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
