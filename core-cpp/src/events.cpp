// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include "cxprm/events.h"
#include "cxprm/commands/eq.h"
#include "cxprm/commands/hca.h"
#include "cxprm/prm/eq.h"
#include "cxprm/prm/opcodes.h"
#include "cxprm/prm/transport.h"
#include "cxprm/text.h"

namespace cxprm {

namespace {
void subscribe(u64 *mask, u8 type) { mask[type / 64] |= 1ull << (type % 64); }

/*
 * ESW_FUNCTIONS_CHANGED goes to an ECPF eswitch manager only (Linux eq.c
 * behind mlx5_esw_is_funcs_handler = mlx5_core_is_ecpf_esw_manager), and
 * only when the eswitch capability says the device raises it
 * (e_switch_cap.esw_functions_changed; Linux does not check this one).
 */
bool esw_events_supported(Device &dev)
{
	if (!dev.ecpf() || !dev.caps_cur().eswitch_manager)
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
	if (running_ || ring_kept())
		return E_BUSY;
	if (dev.state() != DeviceState::UP)
		return E_INVAL;
	const cxprm_host *host = dev.cmdq().host();
	dev_ = &dev;
	cfg_ = cfg;
	stats_ = {};
	head_ = count_ = 0;
	lock_ = host->ops->lock_create(host->ctx);
	poll_lock_ = host->ops->lock_create(host->ctx);
	comp_lock_ = host->ops->lock_create(host->ctx);
	if (!lock_ || !poll_lock_ || !comp_lock_) {
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
	{
		u8 eqn;
		err = create_ring_eq(ring_, cfg.log_eq_size, mask_, &eqn);
		if (err)
			goto fail;
		eq_created_ = true;
	}
	ring_.doorbell(true);
	/* The EQ that takes the host PF's page requests exists: release it. */
	dev.enable_host_pf();
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

/*
 * Ring r of 2^log_size entries, halved while the host cannot allocate it
 * (down to MIN_LOG_EQ_SIZE, or log_size when smaller), then CREATE_EQ over
 * it on our UAR, subscribed to mask (null: completion events only), and
 * attached.  On an error r holds nothing.
 */
int Events::create_ring_eq(EqRing &r, u32 log_size, const u64 *mask, u8 *eqn)
{
	const cxprm_host *host = dev_->cmdq().host();
	const u32 asked = log_size;
	int err;
	while ((err = r.init(host, log_size)) == E_NOMEM && log_size > MIN_LOG_EQ_SIZE)
		log_size--;
	if (err)
		return err;
	if (log_size != asked && host->ops->log) {
		char buf[96];
		Text t(buf, sizeof(buf));
		t.str("cxprm: EQ of ").dec(1u << log_size).str(" entries: the host could not allocate ");
		t.dec(1u << asked);
		host->ops->log(host->ctx, 1, t.c_str());
	}
	u64 pas[MAX_EQ_PAGES];
	u32 np = r.npages();
	if (np > MAX_EQ_PAGES) {
		r.fini();
		return E_RANGE;
	}
	for (u32 i = 0; i < np; i++)
		pas[i] = r.page_bus(i);
	cmd::EqParams p;
	p.log_eq_size = (u8)log_size;
	p.uar_page = uar_;
	p.intr = cfg_.intr;
	for (u32 i = 0; mask && i < 4; i++)
		p.event_bitmask[i] = mask[i];
	p.pas = pas;
	p.npas = np;
	err = cmd::create_eq(dev_->cmdq(), p, eqn);
	if (err) {
		r.fini();
		return err;
	}
	r.attach(*eqn, dev_->uar_offset(uar_));
	return OK;
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
	/* Linux unloads the eswitch (DISABLE_HCA of the host PF) before its EQs. */
	dev_->disable_host_pf();
	destroy_comp_eq();
	bool keep = eq_created_ && cmd::destroy_eq(q, (u8)ring_.eqn()) != OK;
	eq_created_ = false;
	if (keep)
		ring_kept_ = true; /* release_kept() */
	else
		ring_.fini();
	if (uar_allocated_)
		cmd::dealloc_uar(q, uar_);
	uar_allocated_ = false;
	if (lock_)
		host->ops->lock_destroy(host->ctx, lock_);
	if (poll_lock_)
		host->ops->lock_destroy(host->ctx, poll_lock_);
	if (comp_lock_)
		host->ops->lock_destroy(host->ctx, comp_lock_);
	lock_ = poll_lock_ = comp_lock_ = nullptr;
	running_ = false;
	dev_ = nullptr;
}

void Events::release_kept()
{
	if (comp_kept_)
		comp_.fini();
	comp_kept_ = false;
	if (!ring_kept_)
		return;
	ring_.fini();
	ring_kept_ = false;
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
		PageRequest rq{};
		rq.function_id = (u16)prm::get<prm::pages_req_event::function_id>(d);
		rq.ec_function = prm::get<prm::pages_req_event::ec_function>(d) != 0;
		rq.release_all = prm::get<prm::pages_req_event::release_all>(d) != 0;
		rq.num_pages = (s32)(u32)prm::get<prm::pages_req_event::num_pages>(d);
		self->stats_.page_requests++;
		if (!rq.release_all)
			self->stats_.pages_requested += rq.num_pages;
		self->queue_page_request_locked(rq);
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
	if (comp_created_ && n < budget)
		n += comp_.poll(dispatch, this, budget - n, true);
	host->ops->unlock(host->ctx, poll_lock_);
	return n;
}

void Events::pump(void *ctx)
{
	((Events *)ctx)->poll();
}

bool Events::pending() const
{
	return queued_page_requests() != 0;
}

u32 Events::queued_page_requests() const
{
	if (!running_)
		return 0;
	const cxprm_host *host = dev_->cmdq().host();
	host->ops->lock(host->ctx, lock_);
	u32 n = count_;
	host->ops->unlock(host->ctx, lock_);
	return n;
}

/* Under lock_ (see events.h for the full-queue rule). */
void Events::queue_page_request_locked(const PageRequest &rq)
{
	if (!rq.release_all && !rq.num_pages)
		return;
	if (count_ < PAGE_QUEUE) {
		queue_[(head_ + count_) % PAGE_QUEUE] = rq;
		count_++;
		return;
	}
	/* The newest queued request of the function, if it goes the same way. */
	for (u32 i = count_; i--;) {
		PageRequest &q = queue_[(head_ + i) % PAGE_QUEUE];
		if (q.function_id != rq.function_id || q.ec_function != rq.ec_function)
			continue;
		s64 sum = (s64)q.num_pages + rq.num_pages;
		bool same_way = !q.release_all && !rq.release_all &&
				(q.num_pages > 0) == (rq.num_pages > 0);
		if (same_way && sum <= 0x7fffffff && sum >= -0x7fffffff) {
			q.num_pages = (s32)sum;
			stats_.page_requests_merged++;
			return;
		}
		if (q.release_all && rq.release_all) {
			stats_.page_requests_merged++; /* the same request twice */
			return;
		}
		break;
	}
	stats_.page_requests_dropped++;
}

bool Events::pop_page_request(PageRequest *rq)
{
	const cxprm_host *host = dev_->cmdq().host();
	host->ops->lock(host->ctx, lock_);
	bool got = count_ != 0;
	if (got) {
		*rq = queue_[head_];
		head_ = (head_ + 1) % PAGE_QUEUE;
		count_--;
	}
	host->ops->unlock(host->ctx, lock_);
	return got;
}

/* Linux pages_work_handler: release_all, else take, else give. */
int Events::serve(const PageRequest &rq)
{
	PageTracker &pt = dev_->pages();
	cmd::FunctionRef fn{rq.function_id, rq.ec_function};
	if (rq.release_all) {
		pt.release_all(fn);
		const cxprm_host *host = dev_->cmdq().host();
		host->ops->lock(host->ctx, lock_);
		stats_.page_release_all++;
		host->ops->unlock(host->ctx, lock_);
		return OK;
	}
	return pt.handle_page_request(fn, rq.num_pages);
}

/*
 * Serves the requests queued when it is called, each for its function, in
 * order; a failed one is counted and does not stop the rest.  Returns the
 * first error.
 */
int Events::service()
{
	if (!running_)
		return OK;
	int first = OK;
	PageRequest rq;
	for (u32 budget = PAGE_QUEUE; budget-- && pop_page_request(&rq);) {
		int err = serve(rq);
		if (!err)
			continue;
		const cxprm_host *host = dev_->cmdq().host();
		host->ops->lock(host->ctx, lock_);
		stats_.page_request_errors++;
		host->ops->unlock(host->ctx, lock_);
		if (!first)
			first = err;
	}
	return first;
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
