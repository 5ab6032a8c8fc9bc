// SPDX-License-Identifier: GPL-2.0
/*
 * cxswap: a QEMU guest helper of the cxprm test harness, never loaded on a
 * real machine.  Linux's mlx5_core finds the init segment and the UAR pages
 * at pci_resource_start(pdev, 0); QEMU's ivshmem device has its shared
 * memory (the emulated ConnectX BAR) at BAR2 and a 256-byte register BAR
 * at BAR0.  At insmod, for every ivshmem device (1af4:1110) that no driver
 * holds, cxswap releases resource[0] and resource[2], swaps their ranges
 * and flags and claims both again, so resource[0] is the shared memory and
 * the resource tree stays consistent.  Config space is not touched (the
 * MSI-X table is found through its capability, in BAR1).  rmmod swaps the
 * devices it swapped back, if no driver holds them then.
 *
 * Anything that programs BARs from resource[] (pci_update_resource, a
 * reset that restores BARs) would program the wrong ones: fine for tests.
 *
 * mlx5_core tells a VF from a PF by the driver_data of the id it matched
 * (main.c, coredev_type from MLX5_PCI_DEV_IS_VF); a driver_override match
 * gives driver_data 0, a PF.  So that the emulated function is what the
 * emulator's profile says, cxswap reads the profile's PCI device id from
 * the emulator's control page (the shared memory's last 4 KiB, control.h),
 * looks it up in mlx5_core's own id table and adds the ivshmem id as a
 * dynamic id of mlx5_core with that entry's driver_data (pci_add_dynid, as
 * a write of "1af4 1110 ... driver_data" to its new_id would).  It stays
 * until mlx5_core is unloaded.
 */
#include <linux/device.h>
#include <linux/io.h>
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/pci.h>

#include "control.h"	/* tools/emulator/daemon/, copied by build-cxswap.sh */

#define CXSWAP_VENDOR	0x1af4
#define CXSWAP_DEVICE	0x1110
#define CXSWAP_MAX	16

static struct pci_dev *cxswap_devs[CXSWAP_MAX];
static unsigned int cxswap_count;

/* Called with the device lock held and no driver bound. */
static int cxswap_swap(struct pci_dev *pdev)
{
	struct resource *r0 = &pdev->resource[0];
	struct resource *r2 = &pdev->resource[2];
	resource_size_t start = r0->start, end = r0->end;
	unsigned long flags = r0->flags;
	int e0, e2;

	if (!(r0->flags & IORESOURCE_MEM) || !(r2->flags & IORESOURCE_MEM)) {
		pci_warn(pdev, "cxswap: BAR0 or BAR2 is not a memory BAR: not swapped\n");
		return -ENODEV;
	}
	if (r0->parent)
		release_resource(r0);
	if (r2->parent)
		release_resource(r2);
	r0->start = r2->start;
	r0->end = r2->end;
	r0->flags = r2->flags;
	r2->start = start;
	r2->end = end;
	r2->flags = flags;
	e0 = pci_claim_resource(pdev, 0);
	e2 = pci_claim_resource(pdev, 2);
	pci_info(pdev, "cxswap: BAR0 <-> BAR2: resource0 %pR (claim %d), resource2 %pR (claim %d)\n",
		 r0, e0, r2, e2);
	return e0 ? e0 : e2;
}

/* The emulator's profile device id from BAR0's control page; 0: none. */
static u32 cxswap_emulated_device(struct pci_dev *pdev)
{
	resource_size_t len = pci_resource_len(pdev, 0);
	void __iomem *ctrl;
	u32 dev = 0;

	if (len < 2 * CXPRM_EMUD_CTRL_SIZE)
		return 0;
	ctrl = ioremap(pci_resource_start(pdev, 0) + CXPRM_EMUD_CTRL_OFFSET(len),
		       CXPRM_EMUD_CTRL_SIZE);
	if (!ctrl)
		return 0;
	if (ioread32(ctrl + CXPRM_EMUD_CTRL_MAGIC) == CXPRM_EMUD_MAGIC)
		dev = ioread32(ctrl + CXPRM_EMUD_CTRL_DEVICE_ID);
	iounmap(ctrl);
	return dev;
}

/* mlx5_core's entry for PCI_VENDOR_ID_MELLANOX:dev: a dynamic id for ivshmem. */
static void cxswap_add_mlx5_id(struct pci_dev *pdev, u32 dev)
{
	const struct pci_device_id *id;
	struct device_driver *drv;
	struct pci_driver *pdrv;
	int err;

	drv = driver_find("mlx5_core", &pci_bus_type);
	if (!drv) {
		pci_info(pdev, "cxswap: mlx5_core is not loaded: no dynamic id\n");
		return;
	}
	pdrv = to_pci_driver(drv);
	for (id = pdrv->id_table; id && id->vendor; id++)
		if (id->vendor == PCI_VENDOR_ID_MELLANOX && id->device == dev)
			break;
	if (!id || !id->vendor) {
		pci_info(pdev, "cxswap: device id 0x%04x is not in mlx5_core's table: no dynamic id\n",
			 dev);
		return;
	}
	err = pci_add_dynid(pdrv, CXSWAP_VENDOR, CXSWAP_DEVICE, PCI_ANY_ID, PCI_ANY_ID,
			    0, 0, id->driver_data);
	pci_info(pdev, "cxswap: emulated 15b3:%04x: mlx5_core dynamic id %04x:%04x driver_data 0x%lx (%d)\n",
		 dev, CXSWAP_VENDOR, CXSWAP_DEVICE, id->driver_data, err);
}

static int __init cxswap_init(void)
{
	struct pci_dev *pdev = NULL;
	u32 emulated = 0;

	while ((pdev = pci_get_device(CXSWAP_VENDOR, CXSWAP_DEVICE, pdev))) {
		bool swapped = false;

		if (cxswap_count == CXSWAP_MAX) {
			pci_warn(pdev, "cxswap: more than %d devices: not swapped\n",
				 CXSWAP_MAX);
			continue;
		}
		device_lock(&pdev->dev);
		if (pdev->dev.driver)
			pci_info(pdev, "cxswap: bound to %s: not swapped\n",
				 pdev->dev.driver->name);
		else
			swapped = !cxswap_swap(pdev);
		device_unlock(&pdev->dev);
		if (swapped) {
			cxswap_devs[cxswap_count++] = pci_dev_get(pdev);
			emulated = emulated ? emulated : cxswap_emulated_device(pdev);
		}
	}
	/* One dynamic id serves every ivshmem device: the first one's. */
	if (emulated)
		cxswap_add_mlx5_id(cxswap_devs[0], emulated);
	return 0;
}

static void __exit cxswap_exit(void)
{
	unsigned int i;

	for (i = 0; i < cxswap_count; i++) {
		struct pci_dev *pdev = cxswap_devs[i];

		device_lock(&pdev->dev);
		if (pdev->dev.driver)
			pci_warn(pdev, "cxswap: bound to %s: BAR0 and BAR2 stay swapped\n",
				 pdev->dev.driver->name);
		else
			cxswap_swap(pdev);
		device_unlock(&pdev->dev);
		pci_dev_put(pdev);
	}
}

module_init(cxswap_init);
module_exit(cxswap_exit);

MODULE_DESCRIPTION("cxprm test harness: swap BAR0 and BAR2 of ivshmem devices for mlx5_core");
MODULE_LICENSE("GPL");
