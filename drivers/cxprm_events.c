// SPDX-License-Identifier: GPL-2.0
/*
 * Events for userspace: every EQE the core hands the listener (and the
 * health poller's own CXPRM_EVENT_HEALTH records) goes to each open file
 * subscribed to its type, into the file's ring of CXPRM_EVENT_QUEUE
 * records, which drops the oldest on overflow and counts what it dropped.
 * Readers wait on cx->wait (cxprm_cdev.c).
 */
#include <linux/bitops.h>
#include <linux/minmax.h>
#include <linux/spinlock.h>
#include <linux/string.h>
#include <linux/ktime.h>
#include <linux/timekeeping.h>

#include <cxprm/prm/opcodes.h>	/* CXPRM_EV_<name>, from the core's X-list */

#include "cxprm.h"

/* CXPRM_IOC_SUBSCRIBE (cxprm_core_ioctl()): the file's new mask. */
static void cxprm_file_subscribe(struct cxprm_core_file *core,
				 const struct cxprm_subscribe *s)
{
	struct cxprm_file *f = container_of(core, struct cxprm_file, core);

	spin_lock_irq(&f->ev_lock);
	memcpy(f->mask, s->mask, sizeof(f->mask));
	spin_unlock_irq(&f->ev_lock);
}

void cxprm_events_file_init(struct cxprm_file *f)
{
	spin_lock_init(&f->ev_lock);
	f->core.subscribe = cxprm_file_subscribe;
	/* Subscribed from the start (UAPI: CXPRM_IOC_SUBSCRIBE). */
	f->mask[0] = BIT_ULL(CXPRM_EV_ESW_FUNCTIONS_CHANGED) |
		     BIT_ULL(CXPRM_EV_DCT_DRAINED);
	f->mask[CXPRM_EVENT_HEALTH / 64] |= BIT_ULL(CXPRM_EVENT_HEALTH % 64);
}

static bool cxprm_file_wants(const struct cxprm_file *f, u8 type)
{
	return f->mask[type / 64] & BIT_ULL(type % 64);
}

static void cxprm_file_push(struct cxprm_file *f, const struct cxprm_event *ev)
{
	unsigned long flags;

	spin_lock_irqsave(&f->ev_lock, flags);
	if (!cxprm_file_wants(f, ev->type)) {
		spin_unlock_irqrestore(&f->ev_lock, flags);
		return;
	}
	if (f->ev_count == CXPRM_EVENT_QUEUE) {
		/* Full: the oldest record goes. */
		f->ev_head = (f->ev_head + 1) % CXPRM_EVENT_QUEUE;
		f->ev_count--;
		if (f->ev_lost < U32_MAX)
			f->ev_lost++;
	}
	f->ev_ring[(f->ev_head + f->ev_count) % CXPRM_EVENT_QUEUE] = *ev;
	f->ev_count++;
	spin_unlock_irqrestore(&f->ev_lock, flags);
}

/* The oldest record, with the count of records lost before it. */
bool cxprm_file_pop(struct cxprm_file *f, struct cxprm_event *ev)
{
	bool got = false;
	u32 lost;

	spin_lock_irq(&f->ev_lock);
	if (f->ev_count) {
		*ev = f->ev_ring[f->ev_head];
		f->ev_head = (f->ev_head + 1) % CXPRM_EVENT_QUEUE;
		f->ev_count--;
		lost = min_t(u32, f->ev_lost, U16_MAX);
		ev->dropped = lost;
		f->ev_lost -= lost;
		got = true;
	}
	spin_unlock_irq(&f->ev_lock);
	return got;
}

/* Called by the core for every EQE, from the poll worker. */
void cxprm_event_listener(void *ctx, u8 type, u8 sub_type, const u8 *data)
{
	struct cxprm_dev *cx = ctx;
	struct cxprm_event ev = {};
	struct cxprm_file *f;

	ev.timestamp_ns = ktime_get_ns();
	ev.seq = atomic_inc_return(&cx->event_seq);
	ev.type = type;
	ev.sub_type = sub_type;
	memcpy(ev.data, data, sizeof(ev.data));

	mutex_lock(&cx->files_lock);
	list_for_each_entry(f, &cx->files, node)
		cxprm_file_push(f, &ev);
	mutex_unlock(&cx->files_lock);
	wake_up_interruptible(&cx->wait);
}
