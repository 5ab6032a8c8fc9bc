// SPDX-License-Identifier: GPL-2.0
/*
 * cxprm: a PCI driver for the command interface of NVIDIA ConnectX (mlx5)
 * functions, with its logic in a freestanding C++ core (core-cpp/).
 *
 * cxprm never binds on its own: every id table entry is override_only and
 * there is no MODULE_DEVICE_TABLE, so it neither autoloads nor takes a
 * function from mlx5_core.  Bind a function explicitly:
 *
 *   echo cxprm > /sys/bus/pci/devices/<bdf>/driver_override
 *   echo <bdf> > /sys/bus/pci/drivers_probe
 *
 * (unbind it from its current driver first, if any:
 *   echo <bdf> > /sys/bus/pci/devices/<bdf>/driver/unbind).
 *
 * Besides ConnectX it drives QEMU's ivshmem-plain device, whose BAR2 is a
 * shared memory file that a host process fills in like a ConnectX init
 * segment (tools/qemu/).
 */
#include <linux/dma-mapping.h>
#include <linux/fs.h>
#include <linux/module.h>
#include <linux/pci.h>
#include <linux/slab.h>
#include <linux/sizes.h>

#include "cxprm.h"

#define CXPRM_IVSHMEM_DEVICE_ID		0x1110

/* The init segment must be there in full; BAR0 of a ConnectX is >= 32 MiB. */
#define CXPRM_BAR_MIN_LEN		SZ_4K

/* Init segment (struct mlx5_init_seg). */
#define CXPRM_ISEG_FW_REV		0x00
#define CXPRM_ISEG_CMDIF_REV_FW_SUB	0x04

#define CXPRM_CX(dev) {						\
	PCI_DEVICE_DRIVER_OVERRIDE(PCI_VENDOR_ID_MELLANOX, (dev), 1),	\
	.driver_data = CXPRM_KIND_CONNECTX,				\
}

/* The mlx5_core id table of Linux (drivers/net/ethernet/mellanox/mlx5). */
static const struct pci_device_id cxprm_pci_ids[] = {
	CXPRM_CX(0x1011),	/* Connect-IB */
	CXPRM_CX(0x1012),	/* Connect-IB VF */
	CXPRM_CX(0x1013),	/* ConnectX-4 */
	CXPRM_CX(0x1014),	/* ConnectX-4 VF */
	CXPRM_CX(0x1015),	/* ConnectX-4 Lx */
	CXPRM_CX(0x1016),	/* ConnectX-4 Lx VF */
	CXPRM_CX(0x1017),	/* ConnectX-5 */
	CXPRM_CX(0x1018),	/* ConnectX-5 VF */
	CXPRM_CX(0x1019),	/* ConnectX-5 Ex */
	CXPRM_CX(0x101a),	/* ConnectX-5 Ex VF */
	CXPRM_CX(0x101b),	/* ConnectX-6 */
	CXPRM_CX(0x101c),	/* ConnectX-6 VF */
	CXPRM_CX(0x101d),	/* ConnectX-6 Dx */
	CXPRM_CX(0x101e),	/* ConnectX family mlx5Gen VF */
	CXPRM_CX(0x101f),	/* ConnectX-6 Lx */
	CXPRM_CX(0x1021),	/* ConnectX-7 */
	CXPRM_CX(0x1023),	/* ConnectX-8 */
	CXPRM_CX(0x1025),	/* ConnectX-9 */
	CXPRM_CX(0x1027),	/* ConnectX-10 */
	CXPRM_CX(0x2101),	/* ConnectX-10 NVLink-C2C */
	CXPRM_CX(0xa2d2),	/* BlueField ConnectX-5 */
	CXPRM_CX(0xa2d3),	/* BlueField ConnectX-5 VF */
	CXPRM_CX(0xa2d6),	/* BlueField-2 ConnectX-6 Dx */
	CXPRM_CX(0xa2dc),	/* BlueField-3 ConnectX-7 */
	CXPRM_CX(0xa2df),	/* BlueField-4 ConnectX-8 */
	{
		PCI_DEVICE_DRIVER_OVERRIDE(PCI_VENDOR_ID_REDHAT_QUMRANET,
					   CXPRM_IVSHMEM_DEVICE_ID, 1),
		.driver_data = CXPRM_KIND_IVSHMEM,
	},
	{ }
};

/* Character device skeleton: /dev/cxprm/<bdf>. */
static int cxprm_open(struct inode *inode, struct file *file)
{
	/* file->private_data is &cx->misc (set by the misc core). */
	return nonseekable_open(inode, file);
}

static int cxprm_release(struct inode *inode, struct file *file)
{
	return 0;
}

static const struct file_operations cxprm_fops = {
	.owner = THIS_MODULE,
	.open = cxprm_open,
	.release = cxprm_release,
	.llseek = no_llseek,
};

static int cxprm_misc_register(struct cxprm_dev *cx)
{
	int err;

	snprintf(cx->misc_name, sizeof(cx->misc_name), "cxprm/%s",
		 pci_name(cx->pdev));
	cx->misc.minor = MISC_DYNAMIC_MINOR;
	cx->misc.name = cx->misc_name;
	cx->misc.fops = &cxprm_fops;
	cx->misc.parent = &cx->pdev->dev;
	err = misc_register(&cx->misc);
	if (!err)
		cx->misc_registered = true;
	return err;
}

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
	const struct cxprm_host_ops *ops = cx->host.ops;
	u32 fw = ops->ioread32be(cx->host.ctx, CXPRM_ISEG_FW_REV);
	u32 cmdif = ops->ioread32be(cx->host.ctx, CXPRM_ISEG_CMDIF_REV_FW_SUB);

	dev_info(&cx->pdev->dev,
		 "init segment: fw_rev 0x%08x cmdif_rev_fw_sub 0x%08x (firmware %u.%u.%u, cmdif rev %u)\n",
		 fw, cmdif, fw & 0xffff, fw >> 16, cmdif & 0xffff,
		 cmdif >> 16);
}

static void cxprm_run_selftest(struct cxprm_dev *cx)
{
	struct cxprm_selftest *st = &cx->selftest;
	struct device *dev = &cx->pdev->dev;
	int err;

	err = cxprm_selftest_run(&cx->host, cx->kind == CXPRM_KIND_IVSHMEM, st);
	if (err) {
		dev_err(dev, "C++ selftest: %s failed: %d\n",
			st->host_fail, err);
		return;
	}
	dev_info(dev, "C++ selftest: host interface ok, fw_rev 0x%08x cmdif_rev_fw_sub 0x%08x\n",
		 st->fw_rev, st->cmdif_rev_fw_sub);
	if (!st->scratch)
		return;
	if (st->ack_rc == -ETIMEDOUT)
		dev_warn(dev, "DMA proof: no answer from the host program\n");
	else if (st->ack_rc)
		dev_err(dev, "DMA proof: host read fnv1a 0x%08x, buffer has 0x%08x\n",
			st->ack, st->fnv);
	else
		dev_info(dev, "DMA proof: host read %u bytes at bus 0x%llx, fnv1a 0x%08x matches (%llu us)\n",
			 CXPRM_PATTERN_LEN, (unsigned long long)st->dma.bus,
			 st->fnv, (unsigned long long)st->ack_ns / 1000);
}

static int cxprm_probe(struct pci_dev *pdev, const struct pci_device_id *id)
{
	enum cxprm_kind kind = id->driver_data;
	struct cxprm_dev *cx;
	int err;

	if (kind != CXPRM_KIND_CONNECTX && kind != CXPRM_KIND_IVSHMEM) {
		dev_err(&pdev->dev, "%04x:%04x is not a device cxprm drives\n",
			pdev->vendor, pdev->device);
		return -ENODEV;
	}

	cx = kzalloc(sizeof(*cx), GFP_KERNEL);
	if (!cx)
		return -ENOMEM;
	cx->pdev = pdev;
	cx->kind = kind;
	cx->bar_idx = kind == CXPRM_KIND_IVSHMEM ? 2 : 0;

	err = pci_enable_device(pdev);
	if (err) {
		dev_err(&pdev->dev, "cannot enable device: %d\n", err);
		goto err_free;
	}

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

	dev_info(&pdev->dev, "%s, BAR%d %pR\n",
		 kind == CXPRM_KIND_IVSHMEM ? "ivshmem (emulated ConnectX)" :
		 "ConnectX", cx->bar_idx, &pdev->resource[cx->bar_idx]);
	cxprm_log_init_seg(cx);
	cxprm_run_selftest(cx);

	err = cxprm_misc_register(cx);
	if (err)
		dev_warn(&pdev->dev, "no /dev/%s: %d\n", cx->misc_name, err);

	return 0;

err_clear_master:
	pci_clear_master(pdev);
err_release:
	pci_release_regions(pdev);
err_disable:
	pci_disable_device(pdev);
err_free:
	kfree(cx);
	return err;
}

static void cxprm_remove(struct pci_dev *pdev)
{
	struct cxprm_dev *cx = pci_get_drvdata(pdev);

	if (cx->misc_registered)
		misc_deregister(&cx->misc);
	cxprm_selftest_fini(&cx->host, &cx->selftest);
	cxprm_host_fini(cx);
	pci_iounmap(pdev, cx->bar);
	pci_clear_master(pdev);
	pci_release_regions(pdev);
	pci_disable_device(pdev);
	kfree(cx);
	dev_info(&pdev->dev, "removed\n");
}

static struct pci_driver cxprm_pci_driver = {
	.name = KBUILD_MODNAME,
	.id_table = cxprm_pci_ids,
	.probe = cxprm_probe,
	.remove = cxprm_remove,
};
module_pci_driver(cxprm_pci_driver);

MODULE_DESCRIPTION("Command interface of NVIDIA ConnectX functions (driver_override only)");
MODULE_LICENSE("GPL");
