// SPDX-License-Identifier: GPL-2.0
/*
 * Power management and PCI error recovery, as mlx5_core has them (main.c
 * mlx5_suspend/mlx5_resume, mlx5_pci_err_detected/_slot_reset/_resume):
 *
 *   suspend    the function unloaded with its commands (TEARDOWN_HCA,
 *              every page reclaimed, DISABLE_HCA); open files forget
 *              their objects (-ESTALE after resume)
 *   resume     brought up again (the pages given afresh)
 *   error_detected  the device marked failed (commands fail at once),
 *              unloaded without commands, bus mastering off, disabled;
 *              NEED_RESET (DISCONNECT on a permanent failure)
 *   slot_reset enabled, bus mastering on, config space restored, then
 *              the device ready (the core's wait: reads not all ones, the
 *              health counter moving, as mlx5's wait_vital)
 *   resume     brought up again
 *
 * Each holds cx->rwsem for writing (no ioctl runs), after any automatic
 * recovery was stopped; a resume allows recoveries again.
 */
#include <linux/pci.h>

#include "cxprm.h"

/* Takes the function out of service for suspend or a PCI error. */
static void cxprm_pm_unload(struct cxprm_dev *cx, bool pci_error)
{
	cxprm_recover_stop(cx);
	down_write(&cx->rwsem);
	cx->pci_error = pci_error;
	if (cx->core) {
		if (pci_error)
			cxprm_core_fail(cx->core);
		cxprm_unload(cx);
	}
	up_write(&cx->rwsem);
}

/* Brings it back (resume, after a PCI error); returns the bring-up's error. */
static int cxprm_pm_load(struct cxprm_dev *cx)
{
	down_write(&cx->rwsem);
	cx->pci_error = false;
	/* A teardown that left pages stranded turned it off. */
	pci_set_master(cx->pdev);
	cxprm_recover_init(cx);
	if (cx->core)
		cxprm_load(cx);
	up_write(&cx->rwsem);
	return cx->up ? 0 : cx->bringup_err;
}

int cxprm_pm_suspend(struct pci_dev *pdev, pm_message_t state)
{
	struct cxprm_dev *cx = pci_get_drvdata(pdev);

	dev_info(&pdev->dev, "suspend (event 0x%x): unloading the function\n",
		 state.event);
	cxprm_pm_unload(cx, false);
	return 0;
}

int cxprm_pm_resume(struct pci_dev *pdev)
{
	struct cxprm_dev *cx = pci_get_drvdata(pdev);
	int err;

	err = cxprm_pm_load(cx);
	dev_info(&pdev->dev, "resume: %s\n", err ? "bring-up failed" : "up again");
	return err;
}

static pci_ers_result_t cxprm_pci_error_detected(struct pci_dev *pdev,
						 pci_channel_state_t state)
{
	struct cxprm_dev *cx = pci_get_drvdata(pdev);
	pci_ers_result_t res = state == pci_channel_io_perm_failure ?
			       PCI_ERS_RESULT_DISCONNECT :
			       PCI_ERS_RESULT_NEED_RESET;

	dev_warn(&pdev->dev, "PCI error detected (channel state %d): unloading the function\n",
		 state);
	cxprm_pm_unload(cx, true);
	pci_disable_device(pdev);
	return res;
}

static pci_ers_result_t cxprm_pci_slot_reset(struct pci_dev *pdev)
{
	struct cxprm_dev *cx = pci_get_drvdata(pdev);
	int err;

	err = pci_enable_device(pdev);
	if (err) {
		dev_err(&pdev->dev, "slot reset: cannot enable the device: %d\n",
			err);
		return PCI_ERS_RESULT_DISCONNECT;
	}
	pci_set_master(pdev);
	pci_restore_state(pdev);
	pci_save_state(pdev);
	err = cx->core ? cxprm_core_wait_ready(cx->core, 0) : -ENODEV;
	dev_info(&pdev->dev, "slot reset: %s (%d)\n",
		 err ? "the device did not come back" : "the device is ready",
		 err);
	return err ? PCI_ERS_RESULT_DISCONNECT : PCI_ERS_RESULT_RECOVERED;
}

static void cxprm_pci_resume(struct pci_dev *pdev)
{
	struct cxprm_dev *cx = pci_get_drvdata(pdev);
	int err = cxprm_pm_load(cx);

	dev_info(&pdev->dev, "PCI error recovery: %s\n",
		 err ? "bring-up failed, the device stays failed" :
		 "the device is up again");
}

const struct pci_error_handlers cxprm_err_handler = {
	.error_detected = cxprm_pci_error_detected,
	.slot_reset = cxprm_pci_slot_reset,
	.resume = cxprm_pci_resume,
};
