// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The completion EQ (events.h Events::comp_eqn).  Every CQ cxprm creates
 * completes to it: mlx5_core's mlx5_core_create_cq looks the EQ up among
 * its completion EQs and refuses any other (core/cq.c:106), so firmware
 * has never been shown a CQ on the async EQ.  One EQ, created when the
 * first CQ needs it (Linux 6.5+ creates completion EQs on demand), on the
 * async EQ's UAR and vector, with an empty event bitmask: it carries
 * completion EQEs (type COMP) only.  poll() reads it with the async ring.
 */
#include "cxprm/commands/eq.h"
#include "cxprm/events.h"

namespace cxprm {

int Events::comp_eqn(u32 *eqn)
{
	if (!eqn)
		return E_INVAL;
	if (!running_)
		return E_NOTSUP;
	const cxprm_host *host = dev_->cmdq().host();
	host->ops->lock(host->ctx, comp_lock_);
	int err = OK;
	if (!comp_created_) {
		/* The device may still own the ring of an EQ whose DESTROY_EQ failed. */
		u32 log = cfg_.log_eq_size < COMP_LOG_EQ_SIZE ? cfg_.log_eq_size : COMP_LOG_EQ_SIZE;
		u8 n = 0;
		err = comp_kept_ ? E_BUSY : create_ring_eq(comp_, log, nullptr, &n);
		if (!err) {
			comp_.doorbell(true);
			/* poll() reads it from now on. */
			host->ops->lock(host->ctx, poll_lock_);
			comp_created_ = true;
			host->ops->unlock(host->ctx, poll_lock_);
			__atomic_store_n(&comp_eqn_pub_, comp_.eqn(), __ATOMIC_RELEASE);
		}
	}
	if (!err)
		*eqn = comp_.eqn();
	host->ops->unlock(host->ctx, comp_lock_);
	return err;
}

/*
 * Lock-free: INFO asks from any context, also while stop() runs and frees
 * the locks (the health worker of a device that went away).
 */
u32 Events::comp_eqn_now() const
{
	return __atomic_load_n(&comp_eqn_pub_, __ATOMIC_ACQUIRE);
}

/* From stop(): no CQ is left (the objects went first), nothing creates. */
void Events::destroy_comp_eq()
{
	if (!comp_created_)
		return;
	__atomic_store_n(&comp_eqn_pub_, NO_COMP_EQ, __ATOMIC_RELEASE);
	const cxprm_host *host = dev_->cmdq().host();
	if (poll_lock_)
		host->ops->lock(host->ctx, poll_lock_);
	comp_created_ = false;
	if (poll_lock_)
		host->ops->unlock(host->ctx, poll_lock_);
	if (cmd::destroy_eq(dev_->cmdq(), (u8)comp_.eqn()) != OK)
		comp_kept_ = true; /* release_kept() */
	else
		comp_.fini();
}

} // namespace cxprm
