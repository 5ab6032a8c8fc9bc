// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include "cxprm/eq_ring.h"
#include "cxprm/errors.h"
#include "cxprm/prm/eq.h"
#include "cxprm/prm/transport.h"

namespace cxprm {

using prm::eqe;

namespace {
constexpr u32 OWNER_BYTE = eqe::owner::offset / 8;
constexpr u32 CI_MASK = 0xffffff; /* the doorbell carries 24 bits of ci */
} // namespace

int EqRing::init(const cxprm_host *host, u32 log_size)
{
	if (!host || ring_.cpu || log_size < 1 || log_size > MAX_LOG_SIZE)
		return E_INVAL;
	usize bytes = (usize)EQE_SIZE << log_size;
	if (bytes < prm::ADAPTER_PAGE_SIZE)
		bytes = prm::ADAPTER_PAGE_SIZE;
	int err = host->ops->dma_alloc(host->ctx, bytes, prm::ADAPTER_PAGE_SIZE, &ring_);
	if (err)
		return err < 0 ? err : E_NOMEM;
	host_ = host;
	log_size_ = log_size;
	ci_ = 0;
	events_ = 0;
	attached_ = false;
	for (u32 i = 0; i < entries(); i++) {
		prm::Ref<eqe> e((u8 *)ring_.cpu + (usize)i * EQE_SIZE);
		prm::set<eqe::owner>(e, 1);
	}
	host->ops->wmb(host->ctx);
	return OK;
}

void EqRing::fini()
{
	if (ring_.cpu)
		host_->ops->dma_free(host_->ctx, &ring_);
	ring_ = {};
	attached_ = false;
}

void EqRing::attach(u32 eqn, u32 uar_page_offset)
{
	eqn_ = eqn;
	uar_offset_ = uar_page_offset;
	attached_ = true;
}

u32 EqRing::npages() const
{
	return (u32)(ring_.size / prm::ADAPTER_PAGE_SIZE);
}

u64 EqRing::page_bus(u32 i) const
{
	return ring_.bus + (u64)i * prm::ADAPTER_PAGE_SIZE;
}

const u8 *EqRing::entry(u32 idx) const
{
	return (const u8 *)ring_.cpu + (usize)(idx & (entries() - 1)) * EQE_SIZE;
}

bool EqRing::peek(EqEvent *ev) const
{
	if (!ring_.cpu)
		return false;
	const u8 *e = entry(ci_);
	u8 owner = __atomic_load_n(e + OWNER_BYTE, __ATOMIC_ACQUIRE) & 1;
	if ((owner ^ phase()) & 1)
		return false;
	host_->ops->rmb(host_->ctx); /* read the entry only after its owner bit */
	prm::CRef<eqe> r(e);
	ev->type = (u8)prm::get<eqe::event_type>(r);
	ev->sub_type = (u8)prm::get<eqe::event_sub_type>(r);
	ev->data = prm::bytes<eqe::event_data>(r);
	return true;
}

void EqRing::pop()
{
	ci_++;
	events_++;
}

void EqRing::doorbell(bool arm)
{
	if (!attached_)
		return;
	u32 v = (ci_ & CI_MASK) | eqn_ << 24;
	host_->ops->wmb(host_->ctx);
	host_->ops->iowrite32be(host_->ctx, uar_offset_ + (arm ? DOORBELL_ARM : DOORBELL_UPDATE_CI), v);
}

u32 EqRing::poll(void (*fn)(void *ctx, const EqEvent &ev), void *ctx, u32 budget, bool arm)
{
	u32 n = 0;
	EqEvent ev;

	while (n < budget && peek(&ev)) {
		fn(ctx, ev);
		pop();
		n++;
		/* Publish the consumer index every half ring, so a long batch
		 * never leaves the device looking at a full ring. */
		if (!(n & (entries() / 2 - 1)))
			doorbell(false);
	}
	if (n)
		doorbell(arm);
	return n;
}

} // namespace cxprm
