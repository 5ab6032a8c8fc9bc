/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The event-queue consumer: the ring of 64-byte EQEs the device writes,
 * the owner-bit/phase rule, the consumer index and the EQ doorbell.
 *
 * Ownership (prm::eqe::owner): the driver initialises every entry's owner
 * bit to 1.  Entry ci is valid when  ((owner ^ (ci >> log_size)) & 1) == 0,
 * so on the first pass the device writes owner 0, on the second 1, and so
 * on: the valid value flips with each wrap of the consumer index.
 *
 * Doorbell: the be32 value (ci & 0xffffff) | eqn << 24 written to the EQ's
 * UAR page at +0x40 updates the consumer index and re-arms the EQ; at +0x48
 * it only updates the index.
 *
 * Creating the EQ on the device (CREATE_EQ with this ring's pages) is the
 * caller's job; this class owns the memory and the consumer side.
 */
#pragma once

#include "host.h"
#include "types.h"

namespace cxprm {

struct EqEvent {
	u8 type;
	u8 sub_type;
	const u8 *data; /* prm::eqe::event_data, 28 bytes */
};

class EqRing {
public:
	static constexpr u32 EQE_SIZE = 64;
	static constexpr u32 DOORBELL_ARM = 0x40;
	static constexpr u32 DOORBELL_UPDATE_CI = 0x48;
	static constexpr u32 MAX_LOG_SIZE = 16;

	/* Allocates 2^log_size entries (page-aligned), owner bits set to 1. */
	int init(const cxprm_host *host, u32 log_size);
	void fini();

	/* After CREATE_EQ: the EQ number and its UAR page (BAR byte offset). */
	void attach(u32 eqn, u32 uar_page_offset);
	bool attached() const { return attached_; }

	/* The next valid entry, or false when the device has written none. */
	bool peek(EqEvent *ev) const;
	/* Moves past the entry peek() returned. */
	void pop();
	/*
	 * Runs fn(ctx, event) on up to 'budget' valid entries and, when it
	 * handled any, writes the doorbell (re-arming when 'arm': an EQ that
	 * fired stays quiet until re-armed).  Returns how many were handled.
	 */
	u32 poll(void (*fn)(void *ctx, const EqEvent &ev), void *ctx, u32 budget, bool arm);
	/* Doorbell without consuming: + DOORBELL_ARM or DOORBELL_UPDATE_CI. */
	void doorbell(bool arm);

	u32 log_size() const { return log_size_; }
	u32 entries() const { return 1u << log_size_; }
	u32 consumer_index() const { return ci_; }
	u32 phase() const { return (ci_ >> log_size_) & 1; }
	u32 eqn() const { return eqn_; }
	u64 events() const { return events_; }
	/* Bus addresses of the ring's 4 KiB pages, for CREATE_EQ's pas list. */
	u32 npages() const;
	u64 page_bus(u32 i) const;

private:
	const u8 *entry(u32 idx) const;

	const cxprm_host *host_ = nullptr;
	cxprm_dma_buf ring_{};
	u32 log_size_ = 0;
	u32 ci_ = 0;
	u32 eqn_ = 0;
	u32 uar_offset_ = 0;
	bool attached_ = false;
	u64 events_ = 0;
};

} // namespace cxprm
