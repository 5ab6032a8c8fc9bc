/* SPDX-License-Identifier: GPL-2.0 */
/*
 * cxprm kernel shim: per-device state shared by the C files of drivers/.
 */
#ifndef CXPRM_DRV_H
#define CXPRM_DRV_H

#include <linux/list.h>
#include <linux/miscdevice.h>
#include <linux/mutex.h>
#include <linux/pci.h>
#include <linux/types.h>

#include <cxprm/host.h>

#include "cxprm_selftest.h"

/* pci_device_id.driver_data: what sits behind the function. */
enum cxprm_kind {
	CXPRM_KIND_NONE = 0,	/* not in the id table (bound by override only) */
	CXPRM_KIND_CONNECTX,	/* ConnectX / BlueField: init segment at BAR0 */
	CXPRM_KIND_IVSHMEM,	/* QEMU ivshmem-plain: emulated device at BAR2 */
};

struct cxprm_dev {
	struct pci_dev *pdev;
	enum cxprm_kind kind;
	int bar_idx;
	void __iomem *bar;
	resource_size_t bar_len;

	/* The C host interface handed to the C++ core. */
	struct cxprm_host host;

	/* DMA buffers handed out through the host interface. */
	struct mutex dma_lock;
	struct list_head dma_list;

	struct cxprm_selftest selftest;

	struct miscdevice misc;
	char misc_name[32];
	bool misc_registered;
};

void cxprm_host_init(struct cxprm_dev *cx);
void cxprm_host_fini(struct cxprm_dev *cx);

#endif /* CXPRM_DRV_H */
