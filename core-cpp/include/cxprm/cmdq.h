/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The command engine: one command queue of 2^log_cmdq_size entries in one
 * 4 KiB DMA page, several commands in flight (one per free slot), a token
 * per command, mailbox chains for anything beyond the 16 inline bytes, and
 * completion by the entry's ownership bit (polled, or signalled from a CMD
 * event via complete_vector()).
 *
 * Thread-safe: exec() may be called from many threads at once.
 */
#pragma once

#include "host.h"
#include "types.h"
#include "errors.h"
#include "mailbox.h"
#include "cmd_result.h"
#include "cmd_stats.h"
#include "health.h"
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
	 * Health poller (health_poll()): a warning (stall_reports) once the
	 * health counter has not moved for this many consecutive polls, as
	 * Linux's MAX_MISSES; it does not fail the device (0: the counter is
	 * not watched; the fatal sensors still are).
	 */
	u32 health_stall_polls = 3;
};

/* What health_poll() saw. */
struct HealthStatus {
	int failed;          /* OK, or the device's failure (see failed()) */
	u32 syndrome;        /* health buffer synd at the last poll */
	u32 counter;         /* initial_seg.health_counter */
	u32 stalled_polls;   /* consecutive polls without the counter moving */
	u64 polls;           /* health_poll() calls since init() */
	u64 refused;         /* commands refused at once because the device failed */
	u8 rfr;              /* health buffer rfr at the last poll */
	u8 nic_state;        /* nic_interface (bits 10:8) at the last poll */
	u8 sensor;           /* HealthSensor that failed the device, or NONE */
	u16 ext_synd;
	u64 stall_reports;   /* times the counter reached health_stall_polls misses */
	u64 synd_reports;    /* new syndromes seen without rfr (not fatal) */
};

enum class CmdqMode { POLLING, EVENTS };

/* Flags for exec(). */
enum : u32 {
	EXEC_PAGE_SLOT = 1u << 0, /* may use the reserved last slot */
};

class Cmdq {
public:
	/*
	 * Reads log_cmdq_size/stride from the init segment, allocates the
	 * queue page and the mailbox pool, and programs the queue address.
	 * The caller has already waited for 'initializing' to clear, and
	 * waits for it to clear again before the first command (firmware may
	 * raise it while it takes the address: Device::wait_cmdq_init).
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
	 * Runs one command: 'in' (inlen >= 8 bytes) to 'out' (outlen >= 16).
	 * Returns OK when delivered with status OK; E_REMOTEIO when the
	 * firmware ran it and answered a non-OK status (out and res valid);
	 * otherwise a transport error (E_IO for a delivery status, E_BADMSG
	 * or E_PROTO for untrustworthy output, E_TIMEDOUT, E_BUSY, E_NODEV,
	 * E_INVAL, E_NOMEM, E_SHUTDOWN).  res may be null.
	 */
	int exec(const void *in, u32 inlen, void *out, u32 outlen, CmdResult *res = nullptr,
		 u32 flags = 0, CmdCapture *cap = nullptr);
	/*
	 * The same with the input as a MsgSource: its tail is written by
	 * in.fill straight into the slot's input mailboxes (E_INVAL unless
	 * in.valid()).
	 */
	int exec(const MsgSource &in, void *out, u32 outlen, CmdResult *res = nullptr,
		 u32 flags = 0, CmdCapture *cap = nullptr);

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
	/* Whether the device looks gone (fw_rev reads all ones; health.cpp). */
	bool device_gone() const;

	/*
	 * Health poller (health.cpp), called periodically by the host (the
	 * kernel's health work item) from one context at a time.  The fatal
	 * sensors of health.h fail the device: all ones -> E_NODEV;
	 * nic_interface DISABLED/SW_RESET or health buffer rfr && synd ->
	 * E_HOSTDOWN.  A new syndrome without rfr (synd_reports) and the counter
	 * unchanged for cfg.health_stall_polls polls (stall_reports) are only
	 * counted and logged: the host reports them.  Returns failed().
	 */
	int health_poll();
	/*
	 * Marks the device failed (err: E_HOSTDOWN or E_NODEV; E_NODEV replaces
	 * E_HOSTDOWN, nothing else replaces a failure): every waiting command
	 * is woken and returns err, every later exec() returns err at once
	 * without touching the device.  Sticky until the next init().
	 */
	void mark_failed(int err);
	/* OK, or why the device was marked failed (no lock, no sleep). */
	int failed() const { return __atomic_load_n(&failed_, __ATOMIC_ACQUIRE); }
	HealthStatus health() const;

private:
	struct Slot {
		MailboxChain in, out;
		void *waiter = nullptr;
		bool stuck = false; /* timed out: the device may still own it */
	};

	int alloc_slot(u32 flags, u32 *slot);
	void free_slot(u32 slot);
	u32 reclaim_stuck_locked();
	u8 *entry(u32 slot) const { return (u8 *)page_.cpu + ((usize)slot << log_stride_); }
	u8 owner_byte(u32 slot) const;
	int post(u32 slot, u8 token, const MsgSource &in, u32 outlen);
	void ring(u32 slot);
	int wait_done(u32 slot, u64 start_ns);
	int collect(u32 slot, u8 *out, u32 outlen, CmdResult *res);
	static void capture_blocks(const MailboxChain &c, CmdCapture *cap, u32 *count);
	void log(int level, const char *msg) const;
	int check_fatal(); /* the fatal sensors: marks failed, returns failed() */
	CmdqMode mode() const { return (CmdqMode)__atomic_load_n(&mode_, __ATOMIC_RELAXED); }
	void reader_lock() const;
	void reader_unlock() const;

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
	u8 next_token_ = 0;
	cxprm_dma_buf stranded_page_{}; /* the queue page, kept by fini() */
	u32 stranded_bufs_ = 0;
	bool shutting_down_ = false;
	int failed_ = OK;             /* atomic: see mark_failed() */
	u32 last_counter_ = 0;        /* health_poll() state (one caller) */
	bool have_counter_ = false;
	u32 stalled_polls_ = 0;
	u8 last_synd_ = 0;
	u8 sensor_ = 0;               /* HealthSensor, atomic */
	HealthRead last_{};
	u64 health_polls_ = 0;
	u64 stall_reports_ = 0;       /* atomic */
	u64 synd_reports_ = 0;        /* atomic */
	u64 refused_ = 0;             /* atomic */
	void (*pump_)(void *ctx) = nullptr;
	void *pump_ctx_ = nullptr;
};

} // namespace cxprm
