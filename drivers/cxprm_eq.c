// SPDX-License-Identifier: GPL-2.0
/*
 * The async EQ of a device: started after bring-up (and after a
 * recovery's or a resume's), polled by a worker that MSI-X vector 0 kicks
 * where there is one, page requests served from a second work item, and
 * stopped before the teardown.  The EQ itself is the core's
 * (cxprm_core_events_*); this file is its kernel context.
 */
#include <linux/interrupt.h>
#include <linux/jiffies.h>
#include <linux/pci.h>
#include <linux/workqueue.h>

#include "cxprm.h"
#include "cxprm_params.h"

/* ---- events: the async EQ, polled by a worker ---- */

/* EQEs per poll call; the worker calls again while it gets a full budget. */
#define CXPRM_POLL_BUDGET	128

static void cxprm_poll_work(struct work_struct *work)
{
	struct cxprm_dev *cx = container_of(to_delayed_work(work),
					    struct cxprm_dev, poll_work);
	unsigned int ms;

	atomic64_inc(&cx->polls);
	while (cxprm_core_events_poll(cx->core, CXPRM_POLL_BUDGET) ==
	       CXPRM_POLL_BUDGET && !READ_ONCE(cx->stopping))
		cond_resched();
	if (READ_ONCE(cx->stopping))
		return;
	if (cxprm_core_events_pending(cx->core))
		queue_work(cx->wq, &cx->service_work);
	ms = READ_ONCE(cxprm_poll_interval_ms);
	queue_delayed_work(cx->wq, &cx->poll_work, msecs_to_jiffies(ms));
}

/* Page requests: MANAGE_PAGES needs a context that may wait for commands. */
static void cxprm_service_work(struct work_struct *work)
{
	struct cxprm_dev *cx = container_of(work, struct cxprm_dev,
					    service_work);
	int err = cxprm_core_events_service(cx->core);

	if (err)
		dev_warn_ratelimited(&cx->pdev->dev,
				     "page request failed: %s (%d)\n",
				     cxprm_core_err_name(err), err);
	if (!READ_ONCE(cx->stopping) && cxprm_core_events_pending(cx->core))
		queue_work(cx->wq, &cx->service_work);
}

static irqreturn_t cxprm_irq(int irq, void *data)
{
	struct cxprm_dev *cx = data;

	atomic64_inc(&cx->irqs);
	if (!READ_ONCE(cx->stopping))
		mod_delayed_work(cx->wq, &cx->poll_work, 0);
	return IRQ_HANDLED;
}

/*
 * MSI-X vector 0 for the EQ (intr 0) on a ConnectX and on ivshmem-doorbell
 * (whose vector v is the emulator's raise_irq(v)).  ivshmem-plain has no
 * interrupt at all: the worker's polling is the whole mechanism.
 */
static void cxprm_irq_setup(struct cxprm_dev *cx)
{
	struct pci_dev *pdev = cx->pdev;
	int err;

	cx->irq = -1;
	if (!cxprm_use_msix)
		return;
	if (!pdev->msix_cap) {
		dev_info(&pdev->dev, "no MSI-X capability: polling the EQ only\n");
		return;
	}
	err = pci_alloc_irq_vectors(pdev, 1, 1, PCI_IRQ_MSIX);
	if (err < 0) {
		dev_info(&pdev->dev, "no MSI-X (%d): polling the EQ only\n",
			 err);
		return;
	}
	cx->msix = true;
	snprintf(cx->irq_name, sizeof(cx->irq_name), "cxprm-%s", cx->bdf);
	err = request_irq(pci_irq_vector(pdev, 0), cxprm_irq, 0, cx->irq_name,
			  cx);
	if (err) {
		dev_warn(&pdev->dev, "cannot request the EQ interrupt: %d\n",
			 err);
		pci_free_irq_vectors(pdev);
		cx->msix = false;
		return;
	}
	cx->irq = pci_irq_vector(pdev, 0);
}

static void cxprm_irq_teardown(struct cxprm_dev *cx)
{
	if (cx->irq >= 0)
		free_irq(cx->irq, cx);
	cx->irq = -1;
	if (cx->msix)
		pci_free_irq_vectors(cx->pdev);
	cx->msix = false;
}

void cxprm_events_start(struct cxprm_dev *cx)
{
	struct device *dev = &cx->pdev->dev;
	struct cxprm_core_events_config ec = {};
	int err;

	/*
	 * The system's workqueue for long-running items (a page request
	 * runs MANAGE_PAGES), not one of our own: destroy_workqueue() can
	 * find the barrier of a just-finished cancel_work_sync() still in
	 * flight and WARN ("has the following busy pwq ... wq_barrier_func",
	 * seen on 5.10), and the works are cancelled before remove anyway.
	 */
	cx->wq = system_long_wq;
	INIT_DELAYED_WORK(&cx->poll_work, cxprm_poll_work);
	INIT_WORK(&cx->service_work, cxprm_service_work);
	WRITE_ONCE(cx->stopping, false);
	cxprm_irq_setup(cx);

	ec.intr = 0;
	ec.command_events = READ_ONCE(cxprm_cmd_mode) == CXPRM_CMD_MODE_EVENTS;
	ec.listener = cxprm_event_listener;
	ec.listener_ctx = cx;
	err = cxprm_core_events_start(cx->core, &ec);
	if (err) {
		dev_warn(dev, "events not started: %s (%d); page requests are not served, commands complete by polling\n",
			 cxprm_core_err_name(err), err);
		WRITE_ONCE(cx->stopping, true);
		cxprm_irq_teardown(cx);
		cx->wq = NULL;
		return;
	}
	cx->events_on = true;
	cxprm_core_info_flags(cx->core,
			      (ec.command_events ? CXPRM_INFO_EVENT_MODE : 0) |
			      (cx->irq >= 0 ? CXPRM_INFO_IRQ : 0), 0);
	queue_delayed_work(cx->wq, &cx->poll_work, 0);
	dev_info(dev, "events: async EQ polled every %u ms%s, commands complete by %s\n",
		 READ_ONCE(cxprm_poll_interval_ms),
		 cx->irq >= 0 ? " and on MSI-X" : "",
		 ec.command_events ? "CMD events" : "polling");
}

/*
 * The EQ goes before its vector, as in Linux (mlx5_unload: the EQ table,
 * then the IRQ table): pci_free_irq_vectors() turns INTx back on, and an
 * EQE written in between would raise an interrupt nobody handles.  The
 * handler queues nothing once 'stopping' is set.
 */
void cxprm_events_stop(struct cxprm_dev *cx)
{
	if (!cx->wq)
		return;
	WRITE_ONCE(cx->stopping, true);
	/* A handler that saw 'stopping' still false has queued by now. */
	if (cx->irq >= 0)
		synchronize_irq(cx->irq);
	cancel_delayed_work_sync(&cx->poll_work);
	cancel_work_sync(&cx->service_work);
	/* Back to polled completion, DESTROY_EQ, DEALLOC_UAR. */
	cxprm_core_events_stop(cx->core);
	cxprm_irq_teardown(cx);
	cx->wq = NULL;
	cx->events_on = false;
	cxprm_core_info_flags(cx->core, 0,
			      CXPRM_INFO_EVENT_MODE | CXPRM_INFO_IRQ);
}
