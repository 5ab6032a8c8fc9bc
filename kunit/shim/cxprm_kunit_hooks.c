// SPDX-License-Identifier: GPL-2.0
/*
 * Test hooks for cxprm_kunit.ko (see cxprm_kunit_hooks.h); part of
 * cxprm.ko only when the kernel has CONFIG_KUNIT (Kbuild).
 */
#include <linux/device.h>
#include <linux/module.h>
#include <linux/pci.h>

#include "cxprm_kunit_hooks.h"

static int cxprm_kunit_match_any(struct device *dev, const void *data)
{
	return 1;
}

struct cxprm_dev *cxprm_kunit_get_dev(void)
{
	struct device_driver *drv = driver_find(KBUILD_MODNAME, &pci_bus_type);
	struct cxprm_dev *cx = NULL;
	struct device *dev;

	if (!drv)
		return NULL;
	dev = driver_find_device(drv, NULL, NULL, cxprm_kunit_match_any);
	if (!dev)
		return NULL;
	device_lock(dev);
	if (dev->driver == drv) {
		cx = pci_get_drvdata(to_pci_dev(dev));
		if (cx) {
			cxprm_dev_get(cx);
			pci_dev_get(cx->pdev);
		}
	}
	device_unlock(dev);
	put_device(dev);
	return cx;
}
EXPORT_SYMBOL_GPL(cxprm_kunit_get_dev);

void cxprm_kunit_put_dev(struct cxprm_dev *cx)
{
	struct pci_dev *pdev;

	if (!cx)
		return;
	pdev = cx->pdev;
	cxprm_dev_put(cx);
	pci_dev_put(pdev);
}
EXPORT_SYMBOL_GPL(cxprm_kunit_put_dev);

unsigned long cxprm_kunit_dma_count(struct cxprm_dev *cx)
{
	unsigned long n;

	mutex_lock(&cx->dma_lock);
	n = cx->dma_count;
	mutex_unlock(&cx->dma_lock);
	return n;
}
EXPORT_SYMBOL_GPL(cxprm_kunit_dma_count);

/*
 * Like an ioctl: under the rwsem, only while the device is alive (and up,
 * with need_up).  Returns with the rwsem held when true.
 */
static bool cxprm_kunit_enter(struct cxprm_dev *cx, bool need_up)
{
	down_read(&cx->rwsem);
	if (cx->alive && cx->core && (cx->up || !need_up))
		return true;
	up_read(&cx->rwsem);
	return false;
}

int cxprm_kunit_raw(struct cxprm_dev *cx, const void *in, u32 inlen,
		    void *out, u32 outlen, struct cxprm_core_result *res)
{
	int err;

	if (!cxprm_kunit_enter(cx, true))
		return -ENODEV;
	err = cxprm_core_raw(cx->core, in, inlen, out, outlen, res, NULL);
	up_read(&cx->rwsem);
	return err;
}
EXPORT_SYMBOL_GPL(cxprm_kunit_raw);

int cxprm_kunit_info(struct cxprm_dev *cx, struct cxprm_core_info *info)
{
	if (!cxprm_kunit_enter(cx, false))
		return -ENODEV;
	cxprm_core_get_info(cx->core, info);
	up_read(&cx->rwsem);
	return 0;
}
EXPORT_SYMBOL_GPL(cxprm_kunit_info);

int cxprm_kunit_event_stats(struct cxprm_dev *cx,
			    struct cxprm_core_event_stats *st)
{
	if (!cxprm_kunit_enter(cx, false))
		return -ENODEV;
	cxprm_core_events_stats(cx->core, st);
	up_read(&cx->rwsem);
	return 0;
}
EXPORT_SYMBOL_GPL(cxprm_kunit_event_stats);

/*
 * The PCI core's error recovery for a frozen channel (pcie_do_recovery),
 * in two halves so that a test can reset the function between them as
 * the link reset would: error_detected, then slot_reset and resume.  Under
 * the device lock, as the PCI core calls them.  Return the handlers'
 * pci_ers_result_t (0 when a half did not run).
 */
int cxprm_kunit_pci_error_detected(struct cxprm_dev *cx)
{
	struct pci_dev *pdev = cx->pdev;
	const struct pci_error_handlers *h = to_pci_driver(pdev->dev.driver)->err_handler;
	pci_ers_result_t r;

	device_lock(&pdev->dev);
	r = h->error_detected(pdev, pci_channel_io_frozen);
	device_unlock(&pdev->dev);
	return r;
}
EXPORT_SYMBOL_GPL(cxprm_kunit_pci_error_detected);

int cxprm_kunit_pci_slot_reset(struct cxprm_dev *cx)
{
	struct pci_dev *pdev = cx->pdev;
	const struct pci_error_handlers *h = to_pci_driver(pdev->dev.driver)->err_handler;
	pci_ers_result_t r;

	device_lock(&pdev->dev);
	r = h->slot_reset(pdev);
	if (r == PCI_ERS_RESULT_RECOVERED)
		h->resume(pdev);
	device_unlock(&pdev->dev);
	return r;
}
EXPORT_SYMBOL_GPL(cxprm_kunit_pci_slot_reset);
