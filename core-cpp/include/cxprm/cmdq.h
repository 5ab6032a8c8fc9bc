/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The command engine: one command queue of 2^log_cmdq_size entries in one
 * 4 KiB DMA page, several commands in flight (one per free slot), a token
 * per command, mailbox chains for anything beyond the 16 inline bytes, and
 * completion by the entry's ownership bit (polled, or signalled from a CMD
 * event via complete_vector()).
 *
 * Thread-safe: exec() may be called from many threads at once.
 *
 * Whether the device has failed is not the queue's: it consults the Health
 * it was built with (the Device's, health_monitor.h).  exec() refuses at
 * once while it says failed, a waiting command wakes when it changes, and
 * a waiting command that reads a fatal sensor marks it there.
 */
#pragma once

#include "host.h"
#include "types.h"
#include "errors.h"
#include "mailbox.h"
#include "cmd_result.h"
#include "cmd_stats.h"
#include "health_monitor.h"
#include "prm/transport.h"

namespace cxprm {

struct CmdqConfig {
	u64 timeout_ns = 60ull * 1000 * 1000 * 1000; /* per command */
	u64 slot_wait_ns = 60ull * 1000 * 1000 * 1000;
	u32 max_msg_bytes = 16 + 256 * 512; /* per direction */
	/*
	 * Command checksums (CUR cmdif_checksum != 0): sign the input blocks
	 * and verify the output entry and block signatures.  Off by default,
	 * as in Linux (checksum_disabled) and rdma-core: firmware with
	 * checksums off is not known to sign what it hands back.  The input
	 * entry signature is written always, as Linux does.
	 */
	bool verify_signatures = false;
	bool reserve_page_slot = true;    /* last slot only for MANAGE_PAGES */
	/*
	 * The health poller (Health::poll(); init() hands it over): a warning
	 * (stall_reports) once the health counter has not moved for this
	 * many consecutive polls, as Linux's MAX_MISSES; it does not fail the
	 * device (0: the counter is not watched; the fatal sensors still are).
	 */
	u32 health_stall_polls = 3;
};

enum class CmdqMode { POLLING, EVENTS };

/* Flags for exec(). */
enum : u32 {
	EXEC_PAGE_SLOT = 1u << 0, /* may use the reserved last slot */
	EXEC_NO_WAIT = 1u << 1,   /* submit(): E_AGAIN at once when no slot is free */
};

class Cmdq {
	/* A command's output: its inline part to head, the rest to tail. */
	struct OutBuf {
		u8 *head, *tail;
		u32 len;
		void zero() const;
		/* One buffer of len bytes (null stays null). */
		static OutBuf flat(void *out, u32 len)
		{
			u8 *o = (u8 *)out;
			return {o, o && len > prm::INLINE_BYTES ? o + prm::INLINE_BYTES : nullptr, len};
		}
	};

public:
	explicit Cmdq(Health &health) : health_(health) {}
	Cmdq(const Cmdq &) = delete;
	Cmdq &operator=(const Cmdq &) = delete;

	/*
	 * Reads log_cmdq_size/stride from the init segment, allocates the
	 * queue page and the mailbox pool, and programs the queue address.
	 * The caller has already waited for 'initializing' to clear, and
	 * waits for it to clear again before the first command (firmware may
	 * raise it while it takes the address: Device::wait_cmdq_init).
	 * Starts the Health (HEALTHY again, its poller armed); fini() stops it.
	 */
	int init(const cxprm_host *host, const CmdqConfig &cfg);
	/* Commands in flight right now. */
	u32 in_flight() const;
	/*
	 * Waits for in-flight commands (bounded), fails new ones, frees all.
	 * With 'strand_stuck', a quarantined slot (a command that timed out
	 * or was abandoned when the firmware died: the device may still
	 * complete it) keeps its mailbox chains and the queue page allocated
	 * ("stranded"), unless the device is gone: DMA memory the device may
	 * still write is never freed while it can.  The host frees them with
	 * release_stranded() once it has reset the function or turned off its
	 * bus mastering.  Without it (test rigs whose device has stopped)
	 * everything is freed.
	 */
	void fini(bool strand_stuck = false);
	/* DMA buffers fini() kept (queue page and chains), 0 when none. */
	u32 stranded_buffers() const { return stranded_bufs_; }
	/* Frees what fini() kept; returns how many buffers. */
	u32 release_stranded();
	/*
	 * Waits for a free slot (each sleep or wait of a caller), wakes a freed
	 * slot gave, callers waiting now.
	 */
	struct SlotWaits {
		u64 waits, wakes;
		u32 waiting;
	};
	SlotWaits slot_waits() const;

	/*
	 * Runs one command: 'in' (inlen >= 8 bytes) to 'out' (outlen >= 16).
	 * Returns OK when delivered with status OK; E_REMOTEIO when the
	 * firmware ran it and answered a non-OK status (out and res valid);
	 * otherwise a transport error (E_IO for a delivery status, E_BADMSG
	 * or E_PROTO for untrustworthy output, E_TIMEDOUT, E_BUSY, E_NODEV,
	 * E_INVAL, E_NOMEM, E_SHUTDOWN).  res may be null.  On a transport
	 * error 'out' holds zeros, also when the command was never posted.
	 */
	int exec(const void *in, u32 inlen, void *out, u32 outlen, CmdResult *res = nullptr,
		 u32 flags = 0, CmdCapture *cap = nullptr)
	{
		return exec(MsgSource::flat((const u8 *)in, inlen), out, outlen, res, flags, cap);
	}
	/*
	 * The same with the input as a MsgSource: its tail is written by
	 * in.fill straight into the slot's input mailboxes (E_INVAL unless
	 * in.valid()).
	 */
	int exec(const MsgSource &in, void *out, u32 outlen, CmdResult *res = nullptr,
		 u32 flags = 0, CmdCapture *cap = nullptr);
	/*
	 * The same with the output in two parts: bytes [0, min(outlen, 16))
	 * (the inline part, the cmd_out header) to 'head', bytes [16, outlen)
	 * to 'tail' (may be null when outlen <= 16).  QUERY_HCA_CAP's image
	 * goes straight into the caller's buffer: no 4 KiB message to
	 * allocate, zero and copy out of.  On an error, both are zeroed.
	 */
	int exec_split(const MsgSource &in, u8 *head, u8 *tail, u32 outlen, CmdResult *res = nullptr,
		       u32 flags = 0);

	/*
	 * A command in two halves, as mlx5_cmd_exec_cb() posts one and its
	 * completion handler ends it: submit() checks, takes a slot, posts and
	 * rings; complete() waits for the owner bit, collects and records.
	 * exec() is the two in a row.  One thread may have several posted
	 * (a batch, ioctl_batch.cpp), completing them in any order.
	 */
	class Posted {
		friend class Cmdq;
		const u8 *in;
		u32 inlen, slot;
		u64 start;
		CmdResult *res;
		CmdCapture *cap;
		OutBuf out;
		CmdResult local;
	};
	/*
	 * OK: posted, and complete(p) must follow (the input's head and the
	 * output stay the caller's until then; p must not move).  Otherwise
	 * the error exec() would return, with nothing left to complete; with
	 * EXEC_NO_WAIT, E_AGAIN when no slot is free now.
	 */
	int submit(const MsgSource &in, void *out, u32 outlen, CmdResult *res, u32 flags,
		   Posted *p);
	/*
	 * A command whose input tail is written into its slot's mailbox
	 * blocks before it runs: MANAGE_PAGES GIVE writes each page's
	 * address as it maps the page (PageTracker::give_chunk), as mlx5_core's
	 * give_pages builds its `in` while it allocates, so the command
	 * itself writes only what is left of each block (next pointer, block
	 * number, token, signature) and each byte is stored once
	 * (cmdq_page_slot.cpp).  reserve() takes a slot as exec() would with
	 * 'flags' (EXEC_PAGE_SLOT: the page slot when free) and grows its
	 * input chain for inlen bytes; the caller writes bytes [16, inlen) at
	 * data(); exec_reserved() runs it (the 16 inline bytes from 'head'),
	 * or release() (also the destructor) gives the slot back unused.
	 * While held, no other command formats the slot's blocks, and fini()
	 * waits for it: a queue shut down or a device failed in between is
	 * exec_reserved()'s error (E_SHUTDOWN, the failure), the command
	 * never posted.  Never held across a command of the same thread.
	 */
	class Reserved {
		friend class Cmdq;
		Cmdq *q_ = nullptr;
		u32 slot_ = 0, len_ = 0;
		u8 token_ = 0;

	public:
		Reserved() = default;
		Reserved(const Reserved &) = delete;
		Reserved &operator=(const Reserved &) = delete;
		~Reserved() { release(); }
		bool held() const { return q_ != nullptr; }
		Cmdq *queue() const { return q_; }
		/*
		 * Where message bytes [off, off + n) go (16 <= off, off + n <=
		 * len): n bytes inside one block's data, i.e. not across a
		 * 512-byte boundary of the tail.
		 */
		u8 *data(u32 off) const;
		void release();
	};
	int reserve(u32 inlen, u32 flags, Reserved *r);
	int exec_reserved(Reserved *r, const u8 *head, void *out, u32 outlen, CmdResult *res = nullptr);

	/* Whether a posted command's entry is back (a look, no wait). */
	bool done(const Posted &p) const { return !(owner_byte(p.slot) & 1); }
	/* Waits for a posted command and ends it: exec()'s result. */
	int complete(Posted *p);

	/* Event-driven completion: bit i set = slot i completed. */
	void complete_vector(u32 mask);
	/* Switch completion mode; EVENTS needs the host's waiter_* callbacks. */
	int set_mode(CmdqMode mode);
	/*
	 * In EVENTS mode a waiting command first runs 'pump' (the EQ poll),
	 * so completions are consumed by the threads that wait for them and
	 * the EQ cannot overflow when its interrupt or worker runs late.
	 * Set before switching to EVENTS, cleared after switching back.
	 */
	void set_event_pump(void (*pump)(void *ctx), void *ctx);

	u32 entries() const { return nent_; }
	/* The slots any command may take: all but the last when it is kept for MANAGE_PAGES. */
	u32 regular_slots() const { return cfg_.reserve_page_slot && nent_ > 1 ? nent_ - 1 : nent_; }
	u32 log_stride() const { return log_stride_; }
	const cxprm_dma_buf &queue_page() const { return page_; }
	/* Bytes of slot i of the queue (for dumps), or null. */
	const u8 *slot_bytes(u32 i) const;
	/*
	 * Snapshots of the statistics (see CmdStats), taken under the lock;
	 * still readable after fini() (a failed bring-up keeps its history).
	 */
	u32 stats_opcodes(OpcodeStats *out, u32 max) const;
	u32 stats_last(CmdRecord *out, u32 max) const;
	u64 stats_total() const;
	const cxprm_host *host() const { return host_; }
	void set_config(const CmdqConfig &cfg) { cfg_ = cfg; }
	const CmdqConfig &config() const { return cfg_; }
	/* Whether the device looks gone (fw_rev reads all ones). */
	bool device_gone() const;

	/* OK, or why the device failed (the Health's word; no lock, no sleep). */
	int failed() const { return health_.failed(); }
	Health &health() const { return health_; }

private:
	struct Slot {
		MailboxChain in, out;
		void *waiter = nullptr;
		bool stuck = false; /* timed out: the device may still own it */
	};

	/* err, the output zeroed first when it is a usable buffer (ok). */
	static int refused(bool ok, const OutBuf &out, int err)
	{
		if (ok)
			out.zero();
		return err;
	}

	/* submit() and complete(); out of line: two objects call it (no COMDAT copies). */
	int run(const MsgSource &in, const OutBuf &out, CmdResult *res, u32 flags, CmdCapture *cap,
		Reserved *r = nullptr);
	/* r: the slot reserve() took (in.fill MsgSource::in_place), not one from alloc_slot(). */
	int submit(const MsgSource &in, const OutBuf &out, CmdResult *res, u32 flags, CmdCapture *cap,
		   Posted *p, Reserved *r = nullptr);
	/* alloc_slot()'s flag of reserve(): counted in reserved_ under the same lock. */
	static constexpr u32 SLOT_RESERVE = 1u << 31;
	int alloc_slot(u32 flags, u32 *slot, u8 *token);
	int take_reserved(Reserved *r, u32 *slot, u8 *token);
	void unreserve(u32 slot);
	u32 reclaim_stuck_locked();
	u8 *entry(u32 slot) const { return (u8 *)page_.cpu + ((usize)slot << log_stride_); }
	u8 owner_byte(u32 slot) const
	{
		return __atomic_load_n(entry(slot) + prm::cmd_queue_entry::ownership::offset / 8, __ATOMIC_ACQUIRE);
	}
	int post(u32 slot, u8 token, const MsgSource &in, u32 outlen);
	void ring(u32 slot);
	/* Completion: the owner bit back, or an error; the first look inline. */
	int wait_done(u32 slot, u64 start_ns)
	{
		return owner_byte(slot) & 1 ? wait_slow(slot, start_ns) : completed();
	}
	int wait_slow(u32 slot, u64 start_ns);
	int wait_loop(u32 slot, u64 start_ns, u64 from_ns);
	/*
	 * A polling waiter sleeps this fraction of the time waited so far, so
	 * it sees a completion at most about that late (cmdq.cpp, wait_loop;
	 * cmdq_shared_poll.cpp, a waiter another polls for).
	 */
	static constexpr u64 POLL_SLEEP_FRACTION = 8;
	/* shared_poll(): alone in flight, waited (another polls), or the poller. */
	enum { SHARED_ALONE, SHARED_WAITED, SHARED_POLLER };
	int shared_poll(u32 slot, u64 waited_ns, u64 left_ns);
	void leave_poll(u32 slot);
	int completed();
	int collect(u32 slot, const OutBuf &out, CmdResult *res);
	int check_entry(u32 slot, CmdResult *res) const;
	void finish(u32 slot, const u8 *in, u32 inlen, const OutBuf &out, int err, const CmdResult &res,
		    u64 now);
	static void capture_blocks(const MailboxChain &c, CmdCapture *cap, u32 *count);
	void log(int level, const char *msg) const;
	static void wake_waiters(void *self); /* Health's wake on a failure */
	CmdqMode mode() const { return (CmdqMode)__atomic_load_n(&mode_, __ATOMIC_RELAXED); }
	void reader_lock() const;
	void reader_unlock() const;

	Health &health_;
	const cxprm_host *host_ = nullptr;
	CmdqConfig cfg_{};
	/* CmdqMode; atomic: set_mode() may run while other threads wait. */
	u8 mode_ = (u8)CmdqMode::POLLING;
	cxprm_dma_buf page_{};
	void *lock_ = nullptr;
	CmdStats stats_{};
	Slot slots_[prm::MAX_CMDQ_ENTRIES] = {};
	u32 nent_ = 0, log_stride_ = 0;
	u32 busy_mask_ = 0;  /* slots in use (incl. stuck ones) */
	u32 waiting_ = 0;    /* atomic: slots whose command wait_done() waits for */
	u32 poller_ = 0;     /* atomic: slot + 1 of the one polling for all, or 0 */
	u32 stuck_mask_ = 0; /* the slots whose Slot::stuck is set */
	u8 next_token_ = 0;
	cxprm_dma_buf stranded_page_{}; /* the queue page, kept by fini() */
	u32 stranded_bufs_ = 0;
	bool shutting_down_ = false;
	/*
	 * A caller that finds no free slot waits on slot_freed_ (the host's
	 * waiter; null: it sleeps), signalled when a slot is freed while
	 * slot_waiters_ (under lock_) callers wait, as mlx5's slot semaphore
	 * (cmd->vars.sem) wakes a down() at up().
	 */
	void *slot_freed_ = nullptr;
	u32 slot_waiters_ = 0;
	u32 reserved_ = 0;   /* slots reserve() holds (lock_): fini() waits for them */
	u64 slot_waits_ = 0; /* times a caller waited for a slot (lock_) */
	u64 slot_wakes_ = 0; /* times a freed slot signalled a waiter (lock_) */
	void (*pump_)(void *ctx) = nullptr;
	void *pump_ctx_ = nullptr;
};

} // namespace cxprm
