// SPDX-License-Identifier: GPL-2.0
/*
 * Which functions cxprm drives and what each one is: the id table (Linux
 * mlx5_core's, drivers/net/ethernet/mellanox/mlx5/core/main.c, with its
 * MLX5_PCI_DEV_IS_VF flag) and, for QEMU's ivshmem, the ConnectX the
 * emulator behind it stands in for.
 *
 * A VF is known by its id, as in Linux (main.c: coredev_type from
 * driver_data): in a VM the function passed through is a plain PCI
 * function there (pdev->is_virtfn 0), yet it is still a VF to the firmware.
 */
#include <linux/io.h>
#include <linux/pci.h>

#include "cxprm.h"
#include "cxprm_compat.h"
#include "../tools/emulator/daemon/control.h"

#define CXPRM_IVSHMEM_DEVICE_ID		0x1110

#define CXPRM_CX(dev) {						\
	CXPRM_PCI_ID(PCI_VENDOR_ID_MELLANOX, (dev)),			\
	.driver_data = CXPRM_KIND_CONNECTX,				\
}
#define CXPRM_CX_VF(dev) {						\
	CXPRM_PCI_ID(PCI_VENDOR_ID_MELLANOX, (dev)),			\
	.driver_data = CXPRM_KIND_CONNECTX | CXPRM_PCI_DEV_IS_VF,	\
}

const struct pci_device_id cxprm_pci_ids[] = {
	CXPRM_CX(0x1011),	/* Connect-IB */
	CXPRM_CX_VF(0x1012),	/* Connect-IB VF */
	CXPRM_CX(0x1013),	/* ConnectX-4 */
	CXPRM_CX_VF(0x1014),	/* ConnectX-4 VF */
	CXPRM_CX(0x1015),	/* ConnectX-4 Lx */
	CXPRM_CX_VF(0x1016),	/* ConnectX-4 Lx VF */
	CXPRM_CX(0x1017),	/* ConnectX-5 */
	CXPRM_CX_VF(0x1018),	/* ConnectX-5 VF */
	CXPRM_CX(0x1019),	/* ConnectX-5 Ex */
	CXPRM_CX_VF(0x101a),	/* ConnectX-5 Ex VF */
	CXPRM_CX(0x101b),	/* ConnectX-6 */
	CXPRM_CX_VF(0x101c),	/* ConnectX-6 VF */
	CXPRM_CX(0x101d),	/* ConnectX-6 Dx */
	CXPRM_CX_VF(0x101e),	/* ConnectX family mlx5Gen VF */
	CXPRM_CX(0x101f),	/* ConnectX-6 Lx */
	CXPRM_CX(0x1021),	/* ConnectX-7 */
	CXPRM_CX(0x1023),	/* ConnectX-8 */
	CXPRM_CX(0x1025),	/* ConnectX-9 */
	CXPRM_CX(0x1027),	/* ConnectX-10 */
	CXPRM_CX(0x2101),	/* ConnectX-10 NVLink-C2C */
	CXPRM_CX(0xa2d2),	/* BlueField ConnectX-5 */
	CXPRM_CX_VF(0xa2d3),	/* BlueField ConnectX-5 VF */
	CXPRM_CX(0xa2d6),	/* BlueField-2 ConnectX-6 Dx */
	CXPRM_CX(0xa2dc),	/* BlueField-3 ConnectX-7 */
	CXPRM_CX(0xa2df),	/* BlueField-4 ConnectX-8 */
	{
		CXPRM_PCI_ID(PCI_VENDOR_ID_REDHAT_QUMRANET, CXPRM_IVSHMEM_DEVICE_ID),
		.driver_data = CXPRM_KIND_IVSHMEM,
	},
	{ }
};

/*
 * The driver_data of the entry probe matched: @id is that entry where the
 * driver registers its table (override_only ids, 5.14+); before, it has
 * none and driver_override matches with pci_match_device()'s dummy id, so
 * the entry is looked up here, once (cxprm_compat.h).
 */
unsigned long cxprm_pci_id_data(struct pci_dev *pdev, const struct pci_device_id *id)
{
	id = CXPRM_PCI_ID_MATCHED(cxprm_pci_ids, pdev, id);
	return id ? id->driver_data : 0;
}

/*
 * The emulated function's driver_data: cxprm-emud names the PCI device id
 * of its profile in its control page (the BAR's last 4 KiB, control.h),
 * looked up in the table above.  0 when no emulator answers there or it
 * names an id the table does not have (then: a PF).
 */
static unsigned long cxprm_ivshmem_id_data(struct cxprm_dev *cx)
{
	const struct pci_device_id *id;
	resource_size_t ctrl;
	u32 dev;

	if (cx->bar_len < 2 * CXPRM_EMUD_CTRL_SIZE)
		return 0;
	ctrl = CXPRM_EMUD_CTRL_OFFSET(cx->bar_len);
	if (ioread32(cx->bar + ctrl + CXPRM_EMUD_CTRL_MAGIC) != CXPRM_EMUD_MAGIC)
		return 0;
	dev = ioread32(cx->bar + ctrl + CXPRM_EMUD_CTRL_DEVICE_ID);
	for (id = cxprm_pci_ids; id->vendor; id++)
		if (id->vendor == PCI_VENDOR_ID_MELLANOX && id->device == dev)
			return id->driver_data;
	return 0;
}

bool cxprm_pci_is_vf(struct cxprm_dev *cx, unsigned long id_data)
{
	if (cx->kind == CXPRM_KIND_IVSHMEM)
		id_data = cxprm_ivshmem_id_data(cx);
	return id_data & CXPRM_PCI_DEV_IS_VF;
}
