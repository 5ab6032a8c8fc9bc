// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The C facade's async event queue (capi.h cxprm_core_events_*): start and
 * stop the Events of a struct cxprm_core, poll it, and its statistics.
 */
#include "capi_core.h"
#include "capi_uapi.h"

using namespace cxprm;

namespace {

void core_listener(void *ctx, const EqEvent &ev)
{
	cxprm_core *c = (cxprm_core *)ctx;
	if (c->listener)
		c->listener(c->listener_ctx, ev.type, ev.sub_type, ev.data);
}

} // namespace

extern "C" {

int cxprm_core_events_start(cxprm_core *c, const cxprm_core_events_config *cfg)
{
	if (!c || !cfg)
		return E_INVAL;
	if (c->ev.running())
		return E_BUSY;
	EventsConfig e;
	if (cfg->log_eq_size)
		e.log_eq_size = cfg->log_eq_size;
	e.intr = cfg->intr;
	e.command_events = cfg->command_events != 0;
	for (u32 i = 0; i < 4; i++)
		e.extra_mask[i] = cfg->extra_mask[i];
	c->listener = cfg->listener;
	c->listener_ctx = cfg->listener_ctx;
	e.listener = core_listener;
	e.listener_ctx = c;
	int err = c->ev.start(c->dev, e);
	c->command_events = !err && e.command_events;
	return err;
}

void cxprm_core_events_stop(cxprm_core *c)
{
	if (!c)
		return;
	c->ev.stop();
	c->command_events = false;
}

cxprm_u32 cxprm_core_events_poll(cxprm_core *c, cxprm_u32 budget)
{
	return c && c->ev.running() ? c->ev.poll(budget) : 0;
}

int cxprm_core_events_service(cxprm_core *c)
{
	return c && c->ev.running() ? c->ev.service() : OK;
}

int cxprm_core_events_pending(cxprm_core *c)
{
	return c && c->ev.running() && c->ev.pending();
}

void cxprm_core_events_stats(cxprm_core *c, cxprm_core_event_stats *st)
{
	*st = {};
	if (!c || !c->ev.running())
		return;
	uapi::copy_event_stats(st, c->ev.stats());
	for (u32 i = 0; i < 4; i++)
		st->subscribed[i] = c->ev.subscribed(i);
	st->running = 1;
	st->eqn = c->ev.eqn();
	st->uar = c->ev.uar();
	st->log_size = c->ev.ring().log_size();
	st->consumer_index = c->ev.ring().consumer_index();
	st->phase = c->ev.ring().phase();
}

} // extern "C"
