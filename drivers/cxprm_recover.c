// SPDX-License-Identifier: GPL-2.0
/*
 * Automatic recovery after a fatal firmware error, as mlx5_core's health
 * recovery (health.c mlx5_fw_fatal_reporter_err_work and
 * mlx5_health_try_recover).  The steps and their bounds are the core's
 * (cxprm_core_recover(), capi_recover.h); this file is their kernel
 * context: a work item, the device's rwsem for exclusive access, the EQ
 * and poller stopped and started, bus mastering, and the records and
 * dmesg lines the files and the admin see.
 *
 * The core asks for a recovery through health_changed (any context);
 * the work runs it.  Open files survive: they forget their firmware
 * objects (an ioctl naming one gets -ESTALE), readers get
 * CXPRM_HEALTH_RECOVERING, then _RECOVERED or _RECOVERY_FAILED.
 */
#include <linux/lockdep.h>
#include <linux/mutex.h>
#include <linux/pci.h>
#include <linux/sched.h>
#include <linux/workqueue.h>

#include "cxprm.h"
#include "cxprm_params.h"

/* mlx5_fw_reporters_create(): the fw_fatal reporter's grace period. */
#define CXPRM_GRACE_ECPF_MS	180000
#define CXPRM_GRACE_PF_MS	60000
#define CXPRM_GRACE_VF_MS	30000

void cxprm_files_forget(struct cxprm_dev *cx)
{
	struct cxprm_file *f;

	mutex_lock(&cx->files_lock);
	list_for_each_entry(f, &cx->files, node)
		cxprm_core_file_forget(cx->core, &f->core);
	mutex_unlock(&cx->files_lock);
}

static void cxprm_recover_exclusive(void *ctx, int on)
{
	struct cxprm_dev *cx = ctx;

	if (on)
		down_write(&cx->rwsem);
	else
		up_write(&cx->rwsem);
}

static void cxprm_recover_quiesce(void *ctx)
{
	cxprm_quiesce(ctx);
}

/* mlx5_pci_disable_device(), then mlx5_pci_slot_reset()'s pci_set_master(). */
static void cxprm_recover_bus_master(void *ctx, int on)
{
	struct cxprm_dev *cx = ctx;

	if (on)
		pci_set_master(cx->pdev);
	else
		pci_clear_master(cx->pdev);
}

static void cxprm_recover_restart(void *ctx)
{
	cxprm_start(ctx);
}

static void cxprm_recover_report(void *ctx, u8 sub_type, const u8 *data)
{
	struct cxprm_dev *cx = ctx;
	struct cxprm_core_info info;

	cxprm_core_get_info(cx->core, &info);
	switch (sub_type) {
	case CXPRM_HEALTH_RECOVERING:
		dev_warn(&cx->pdev->dev, "recovery: attempt %u: firmware state is lost, open files keep their descriptors\n",
			 info.recovery_attempts);
		break;
	case CXPRM_HEALTH_RECOVERED:
		dev_info(&cx->pdev->dev, "recovery: the device is up again after %u attempt(s) (%u recoveries so far)\n",
			 info.recovery_attempts, info.recoveries);
		break;
	default:
		dev_err(&cx->pdev->dev, "recovery failed after %u attempt(s): reason %u, %s (%d); the device stays failed\n",
			info.recovery_attempts, info.recovery,
			cxprm_core_err_name(info.recovery_err),
			info.recovery_err);
		break;
	}
	cxprm_event_listener(cx, CXPRM_EVENT_HEALTH, sub_type, data);
}

static const struct cxprm_core_recover_ops cxprm_recover_ops = {
	.exclusive = cxprm_recover_exclusive,
	.quiesce = cxprm_recover_quiesce,
	.bus_master = cxprm_recover_bus_master,
	.restart = cxprm_recover_restart,
	.report = cxprm_recover_report,
};

/* Runs the recovery that is due, unless stopping; under recover_lock. */
static int cxprm_recover_run(struct cxprm_dev *cx)
{
	struct cxprm_core_config cfg;
	int err;

	lockdep_assert_held(&cx->recover_lock);
	if (READ_ONCE(cx->recover_stopping)) {
		cxprm_core_recovery_cancel(cx->core);
		return -ENODEV;
	}
	cxprm_bringup_config(cx, &cfg);
	err = cxprm_core_recover(cx->core, &cfg, &cxprm_recover_ops, cx);
	cxprm_dev_wake(cx);
	return err;
}

static void cxprm_recover_work(struct work_struct *work)
{
	struct cxprm_dev *cx = container_of(work, struct cxprm_dev,
					    recover_work);

	mutex_lock(&cx->recover_lock);
	cxprm_recover_run(cx);
	mutex_unlock(&cx->recover_lock);
}

/*
 * mlx5: devlink health recover on the fw_fatal reporter runs
 * mlx5_health_try_recover in the caller's context, whatever the grace
 * period and auto_recover say; here the same recovery as the automatic
 * one, in the writer's task (so that fail-nth injection reaches it).
 */
int cxprm_recover_now(struct cxprm_dev *cx)
{
	int err;

	if (mutex_lock_interruptible(&cx->recover_lock))
		return -EINTR;
	err = READ_ONCE(cx->recover_stopping) || !cx->core ? -ENODEV :
	      cxprm_core_request_recovery(cx->core);
	if (!err) {
		dev_warn(&cx->pdev->dev, "recovery asked for by pid %d (debugfs recover)\n",
			 task_pid_nr(current));
		err = cxprm_recover_run(cx);
	}
	mutex_unlock(&cx->recover_lock);
	return err;
}

void cxprm_recover_setup(struct cxprm_dev *cx)
{
	struct cxprm_core_recovery_config rc = {};
	struct cxprm_core_info info;
	unsigned int grace = READ_ONCE(cxprm_recovery_grace_ms);

	cxprm_core_get_info(cx->core, &info);
	if (!grace)
		grace = info.ecpf ? CXPRM_GRACE_ECPF_MS :
			cx->is_vf ? CXPRM_GRACE_VF_MS : CXPRM_GRACE_PF_MS;
	rc.enabled = READ_ONCE(cxprm_recovery);
	rc.max_attempts = READ_ONCE(cxprm_recovery_attempts);
	rc.grace_ns = (u64)grace * NSEC_PER_MSEC;
	cxprm_core_set_recovery(cx->core, &rc);
}

void cxprm_recover_schedule(struct cxprm_dev *cx)
{
	if (!READ_ONCE(cx->recover_stopping))
		queue_work(system_long_wq, &cx->recover_work);
}

void cxprm_recover_stop(struct cxprm_dev *cx)
{
	WRITE_ONCE(cx->recover_stopping, true);
	/* Due but never run: INFO says CANCELED, not RUNNING for ever. */
	if (cancel_work_sync(&cx->recover_work) && cx->core)
		cxprm_core_recovery_cancel(cx->core);
	/* An admin's recovery in progress ends first (bounded). */
	mutex_lock(&cx->recover_lock);
	mutex_unlock(&cx->recover_lock);
}

void cxprm_recover_init(struct cxprm_dev *cx)
{
	INIT_WORK(&cx->recover_work, cxprm_recover_work);
	WRITE_ONCE(cx->recover_stopping, false);
}
