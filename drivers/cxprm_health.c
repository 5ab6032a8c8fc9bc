// SPDX-License-Identifier: GPL-2.0
/*
 * The health poller: every health_poll_ms, cxprm_core_health_check() (see
 * struct cxprm_dev in cxprm.h).  A fatal finding fails the device in the
 * core, which says so through its health_changed host op (cxprm_host.c);
 * a warning the core calls new goes to dmesg and, as a CXPRM_EVENT_HEALTH
 * record, to the files subscribed to it.
 */
#include <linux/jiffies.h>
#include <linux/string.h>
#include <linux/workqueue.h>

#include "cxprm.h"
#include "cxprm_params.h"

/* A health finding that does not fail the device: dmesg and readers. */
static void cxprm_health_report(struct cxprm_dev *cx, u8 kind,
				const struct cxprm_core_info *info)
{
	u8 data[28] = {};
	__be32 v;

	if (kind == CXPRM_HEALTH_STALL)
		dev_warn(&cx->pdev->dev,
			 "health: counter %u unchanged for %u polls of %u ms (firmware may be hung); device kept\n",
			 info->health_counter, info->health_stalled_polls,
			 cx->health_ms);
	else
		dev_warn(&cx->pdev->dev,
			 "health: syndrome 0x%x without reset request (rfr %u); device kept\n",
			 info->health_syndrome, info->health_rfr);
	data[0] = info->health_syndrome;
	data[1] = info->health_rfr;
	v = cpu_to_be32(info->health_counter);
	memcpy(&data[4], &v, sizeof(v));
	v = cpu_to_be32(info->health_stalled_polls);
	memcpy(&data[8], &v, sizeof(v));
	data[12] = info->nic_interface;
	cxprm_event_listener(cx, CXPRM_EVENT_HEALTH, kind, data);
}

static void cxprm_health_work(struct work_struct *work)
{
	struct cxprm_dev *cx = container_of(to_delayed_work(work),
					    struct cxprm_dev, health_work);
	struct cxprm_core_info info;
	u32 found;

	cxprm_core_health_check(cx->core, &found);
	if (found & (CXPRM_CORE_HEALTH_SYNDROME | CXPRM_CORE_HEALTH_STALL)) {
		cxprm_core_get_info(cx->core, &info);
		if (found & CXPRM_CORE_HEALTH_SYNDROME)
			cxprm_health_report(cx, CXPRM_HEALTH_SYNDROME, &info);
		if (found & CXPRM_CORE_HEALTH_STALL)
			cxprm_health_report(cx, CXPRM_HEALTH_STALL, &info);
	}
	if (!READ_ONCE(cx->health_stopping))
		queue_delayed_work(system_wq, &cx->health_work,
				   msecs_to_jiffies(cx->health_ms));
}

void cxprm_health_start(struct cxprm_dev *cx)
{
	cx->health_ms = READ_ONCE(cxprm_health_poll_ms);
	if (!cx->health_ms) {
		dev_info(&cx->pdev->dev, "health poller off (health_poll_ms=0)\n");
		return;
	}
	INIT_DELAYED_WORK(&cx->health_work, cxprm_health_work);
	WRITE_ONCE(cx->health_stopping, false);
	cx->health_on = true;
	queue_delayed_work(system_wq, &cx->health_work,
			   msecs_to_jiffies(cx->health_ms));
}

void cxprm_health_stop(struct cxprm_dev *cx)
{
	if (!cx->health_on)
		return;
	WRITE_ONCE(cx->health_stopping, true);
	cancel_delayed_work_sync(&cx->health_work);
	cx->health_on = false;
}
