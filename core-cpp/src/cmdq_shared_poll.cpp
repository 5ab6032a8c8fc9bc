// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Polling completions with several commands in flight (cmdq.h; a batch's
 * ops, or threads): one waiter at a time polls for all of them and wakes
 * the waiters whose entries the device handed back, the others sleep on
 * their slot's waiter.  N pollers on fewer CPUs take the CPU from each
 * other and from whatever answers; mlx5_core has one completion handler
 * for every command (its command EQ's), and polls only for one command at
 * a time (bring-up).  Alone in flight, a command polls as before: the
 * single command's latency does not change.
 */
#include "cxprm/cmdq.h"

namespace cxprm {

namespace {

/* A waiter that does not poll looks for itself at least this often. */
constexpr u64 FOLLOW_MIN_NS = 20 * 1000;
constexpr u64 FOLLOW_MAX_NS = 1000 * 1000;

} // namespace

/*
 * In wait_loop(), polling: SHARED_WAITED when this waiter has just waited
 * (another one polls for it); SHARED_POLLER when it polls for others too:
 * it has passed over their entries and busy-polls on (as the kernel's
 * lone waiter does for its first milliseconds; the others sleep, so one
 * CPU polls for all); SHARED_ALONE when no other command is waited for.
 */
int Cmdq::shared_poll(u32 slot, u64 waited_ns, u64 left_ns)
{
	const u32 me = 1u << slot;
	u32 others = __atomic_load_n(&waiting_, __ATOMIC_RELAXED) & ~me;
	if (!others)
		return SHARED_ALONE;
	u32 cur = 0;
	if (__atomic_compare_exchange_n(&poller_, &cur, slot + 1, false, __ATOMIC_ACQUIRE,
					__ATOMIC_RELAXED) ||
	    cur == slot + 1) {
		u32 done = 0;
		for (u32 i = 0; i < nent_; i++)
			if ((others & (1u << i)) && !(owner_byte(i) & 1))
				done |= 1u << i;
		if (done)
			complete_vector(done);
		return SHARED_POLLER;
	}
	/* As a lone waiter sleeps: a fraction of the time waited so far. */
	u64 ns = waited_ns / POLL_SLEEP_FRACTION;
	ns = ns < FOLLOW_MIN_NS ? FOLLOW_MIN_NS : ns > FOLLOW_MAX_NS ? FOLLOW_MAX_NS : ns;
	host_->ops->waiter_wait(host_->ctx, slots_[slot].waiter, ns < left_ns ? ns : left_ns);
	return SHARED_WAITED;
}

/*
 * wait_done()'s end: a poller stops polling and wakes a waiter still
 * waiting, which polls next (instead of at its next timeout).
 */
void Cmdq::leave_poll(u32 slot)
{
	u32 cur = slot + 1;
	if (!__atomic_compare_exchange_n(&poller_, &cur, 0u, false, __ATOMIC_RELEASE, __ATOMIC_RELAXED))
		return;
	u32 left = __atomic_load_n(&waiting_, __ATOMIC_RELAXED);
	for (u32 i = 0; i < nent_; i++)
		if (left & (1u << i)) {
			complete_vector(1u << i);
			return;
		}
}

} // namespace cxprm
