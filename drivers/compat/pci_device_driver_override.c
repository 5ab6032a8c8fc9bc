// SPDX-License-Identifier: GPL-2.0
/* override_only PCI id entries, PCI_DEVICE_DRIVER_OVERRIDE(): since 5.14. */
#include <linux/pci.h>

const struct pci_device_id cxprm_probe_ids[] = {
	{ PCI_DEVICE_DRIVER_OVERRIDE(0x15b3, 0x1021, 1) },
	{ }
};
