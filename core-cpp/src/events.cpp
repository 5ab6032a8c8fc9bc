// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include "cxprm/events.h"
#include "cxprm/commands/eq.h"
#include "cxprm/commands/hca.h"
#include "cxprm/prm/eq.h"
#include "cxprm/prm/opcodes.h"
#include "cxprm/prm/transport.h"

namespace cxprm {

namespace {
void subscribe(u64 *mask, u8 type) { mask[type / 64] |= 1ull << (type % 64); }

/*
 * ESW_FUNCTIONS_CHANGED goes to the eswitch manager when the eswitch
 * capability says the device raises it (e_switch_cap.esw_functions_changed).
 */
bool esw_events_supported(Device &dev)
{
	if (!dev.caps_cur().eswitch_manager)
		return false;
	cmd::HostMem image;
	if (image.alloc(dev.cmdq().host(), cmd::CAP_IMAGE_BYTES))
		return false;
	if (cmd::query_hca_cap(dev.cmdq(), prm::cap::ESWITCH, prm::cap::CUR, image.data()))
		return false;
	prm::CRef<prm::e_switch_cap> esw(image.data());
	return prm::get<prm::e_switch_cap::esw_functions_changed>(esw);
}
} // namespace

int Events::start(Device &dev, const EventsConfig &cfg)
{
	if (running_)
		return E_BUSY;
	if (dev.state() != DeviceState::UP)
		return E_INVAL;
	const cxprm_host *host = dev.cmdq().host();
	dev_ = &dev;
	cfg_ = cfg;
	stats_ = {};
	pending_pages_ = 0;
	lock_ = host->ops->lock_create(host->ctx);
	poll_lock_ = host->ops->lock_create(host->ctx);
	if (!lock_ || !poll_lock_) {
		stop();
		return E_NOMEM;
	}

	const cmd::GeneralCaps &caps = dev.caps_cur();
	for (u32 i = 0; i < 4; i++)
		mask_[i] = cfg.extra_mask[i];
	subscribe(mask_, prm::event::PAGE_REQUEST);
	if (esw_events_supported(dev))
		subscribe(mask_, prm::event::ESW_FUNCTIONS_CHANGED);
	if (caps.dct)
		subscribe(mask_, prm::event::DCT_DRAINED);
	if (cfg.command_events)
		subscribe(mask_, prm::event::CMD);

	int err = cmd::alloc_uar(dev.cmdq(), &uar_);
	if (err)
		goto fail;
	uar_allocated_ = true;
	err = ring_.init(host, cfg.log_eq_size);
	if (err)
		goto fail;
	{
		u64 pas[16];
		u32 np = ring_.npages();
		if (np > 16) {
			err = E_RANGE;
			goto fail;
		}
		for (u32 i = 0; i < np; i++)
			pas[i] = ring_.page_bus(i);
		cmd::EqParams p;
		p.log_eq_size = (u8)cfg.log_eq_size;
		p.uar_page = uar_;
		p.intr = cfg.intr;
		for (u32 i = 0; i < 4; i++)
			p.event_bitmask[i] = mask_[i];
		p.pas = pas;
		p.npas = np;
		u8 eqn;
		err = cmd::create_eq(dev.cmdq(), p, &eqn);
		if (err)
			goto fail;
		eq_created_ = true;
		ring_.attach(eqn, dev.uar_offset(uar_));
	}
	ring_.doorbell(true);
	if (cfg.command_events) {
		dev.cmdq().set_event_pump(pump, this);
		err = dev.cmdq().set_mode(CmdqMode::EVENTS);
		if (err)
			goto fail;
	}
	running_ = true;
	return OK;

fail:
	stop();
	return err;
}

void Events::stop()
{
	if (!dev_)
		return;
	Cmdq &q = dev_->cmdq();
	const cxprm_host *host = q.host();
	/* Commands complete by polling again before the EQ goes away. */
	if (cfg_.command_events) {
		q.set_mode(CmdqMode::POLLING);
		q.set_event_pump(nullptr, nullptr);
	}
	if (eq_created_)
		cmd::destroy_eq(q, (u8)ring_.eqn());
	eq_created_ = false;
	ring_.fini();
	if (uar_allocated_)
		cmd::dealloc_uar(q, uar_);
	uar_allocated_ = false;
	if (lock_)
		host->ops->lock_destroy(host->ctx, lock_);
	if (poll_lock_)
		host->ops->lock_destroy(host->ctx, poll_lock_);
	lock_ = poll_lock_ = nullptr;
	running_ = false;
	dev_ = nullptr;
}

void Events::dispatch(void *ctx, const EqEvent &ev)
{
	Events *self = (Events *)ctx;
	const cxprm_host *host = self->dev_->cmdq().host();
	u32 vector = 0;

	host->ops->lock(host->ctx, self->lock_);
	self->stats_.total++;
	if (ev.type < 64)
		self->stats_.by_type[ev.type]++;
	if (ev.type == prm::event::CMD) {
		prm::CRef<prm::cmd_inter_comp_event> d(ev.data);
		vector = (u32)prm::get<prm::cmd_inter_comp_event::command_completion_vector>(d);
		self->stats_.cmd_completions++;
	} else if (ev.type == prm::event::PAGE_REQUEST) {
		prm::CRef<prm::pages_req_event> d(ev.data);
		s32 n = (s32)(u32)prm::get<prm::pages_req_event::num_pages>(d);
		self->stats_.page_requests++;
		self->stats_.pages_requested += n;
		self->pending_pages_ += n;
	}
	host->ops->unlock(host->ctx, self->lock_);

	if (vector)
		self->dev_->cmdq().complete_vector(vector);
	if (self->cfg_.listener)
		self->cfg_.listener(self->cfg_.listener_ctx, ev);
}

u32 Events::poll(u32 budget)
{
	if (!running_)
		return 0;
	const cxprm_host *host = dev_->cmdq().host();
	host->ops->lock(host->ctx, poll_lock_);
	u32 n = ring_.poll(dispatch, this, budget, true);
	host->ops->unlock(host->ctx, poll_lock_);
	return n;
}

void Events::pump(void *ctx)
{
	((Events *)ctx)->poll();
}

bool Events::pending() const
{
	if (!running_)
		return false;
	const cxprm_host *host = dev_->cmdq().host();
	host->ops->lock(host->ctx, lock_);
	bool p = pending_pages_ != 0;
	host->ops->unlock(host->ctx, lock_);
	return p;
}

int Events::service()
{
	if (!running_)
		return OK;
	const cxprm_host *host = dev_->cmdq().host();
	host->ops->lock(host->ctx, lock_);
	s64 n = pending_pages_;
	pending_pages_ = 0;
	host->ops->unlock(host->ctx, lock_);
	if (!n)
		return OK;
	/* One request at most s32 either way; the rest stays queued. */
	s64 now = n > 0x7fffffff ? 0x7fffffff : (n < -0x7fffffff ? -0x7fffffff : n);
	int err = dev_->pages().handle_page_request((s32)now);
	host->ops->lock(host->ctx, lock_);
	pending_pages_ += n - now;
	if (err)
		stats_.page_request_errors++;
	host->ops->unlock(host->ctx, lock_);
	return err;
}

EventStats Events::stats() const
{
	if (!lock_)
		return stats_;
	const cxprm_host *host = dev_->cmdq().host();
	host->ops->lock(host->ctx, lock_);
	EventStats s = stats_;
	host->ops->unlock(host->ctx, lock_);
	return s;
}

} // namespace cxprm
