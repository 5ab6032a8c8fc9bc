/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Device: bring-up and teardown of one ConnectX function (PRM bring-up
 * order, as Linux mlx5_function_enable/open and rdma-core mlx5_vfio do):
 *
 *   init segment: fw_rev / cmd_interface_rev (all ones = device gone)
 *   wait for initial_seg.initializing to clear (bounded, sleep_us polling)
 *   cmd_interface_rev must be 5
 *   Cmdq::init (programs the queue address)
 *   ENABLE_HCA
 *   QUERY_ISSI -> SET_ISSI(1) if supported_issi_dw0 bit 1, else ISSI 0
 *                 (a firmware status from QUERY_ISSI also means ISSI 0)
 *   QUERY_PAGES(BOOT) + MANAGE_PAGES(GIVE)
 *   QUERY_HCA_CAP(GENERAL, MAX), QUERY_HCA_CAP(GENERAL, CUR)
 *   SET_HCA_CAP(GENERAL) from CUR with the BringupConfig edits, then CUR again
 *   QUERY_PAGES(INIT) + MANAGE_PAGES(GIVE)
 *   INIT_HCA
 *
 * A failure unwinds exactly what was done (teardown_hca, reclaim pages,
 * DISABLE_HCA, Cmdq::fini) and bringup() returns the step's error; trace()
 * tells which step failed with which status/syndrome.
 *
 * Teardown: TEARDOWN_HCA(GRACEFUL), FORCE when that fails and the device
 * has cap force_teardown; then the pages: QUERY_PAGES(REGULAR) and
 * MANAGE_PAGES(TAKE) rounds while firmware says it has pages to return
 * (negative num_pages) and the tracker holds some, a round without progress
 * retried until reclaim_timeout_ns; then MANAGE_PAGES(TAKE) for every other
 * function the tracker holds pages of (VFs, an ECPF's host PF: Linux
 * mlx5_reclaim_startup_pages walks every function); DISABLE_HCA; Cmdq::fini.  With firmware
 * dead (health syndrome), the device gone, or the device marked failed in
 * its Health (by the poller, Health::poll, or by a command) no command is
 * sent.
 *
 * Page policy: pages firmware did not return are freed after DISABLE_HCA
 * answered OK (firmware has released the function and its memory).  When
 * DISABLE_HCA fails -- dead firmware, timeout -- the core cannot get pages
 * back and firmware may still write to them, so they stay allocated
 * ("stranded", state STRANDED) unless the device is known gone (fw_rev reads
 * all ones).  The same holds for the command queue page and the mailbox
 * chains of a quarantined slot (a command that timed out or was abandoned
 * when firmware died: the device still owns it), see Cmdq::fini.  The host
 * frees them with release_stranded_pages() once it has reset (FLR) or
 * removed the function, or turned its bus mastering off.  stranded_pages()
 * and stranded_cmdq_buffers() count them.
 *
 * Not thread-safe against itself: bringup/teardown from one context; other
 * threads may issue commands through cmdq() between them.  A Device is a
 * few KiB (engine statistics, capabilities, trace): allocate it, do not put
 * it on a kernel stack.
 */
#pragma once

#include "cmdq.h"
#include "commands/hca.h"
#include "pages.h"
#include "types.h"

namespace cxprm {

struct BringupConfig {
	CmdqConfig cmdq{};
	/* initializing bit: FW_PRE_INIT_TIMEOUT 120 s, polled every 2 ms. */
	u64 init_timeout_ns = 120ull * 1000 * 1000 * 1000;
	u32 init_poll_us = 2000;
	/*
	 * initializing again after the queue address write (Linux FW_INIT):
	 * the device's cmd_q_init_to when it publishes one, else this (2 s).
	 */
	u64 cmdq_init_timeout_ns = 2ull * 1000 * 1000 * 1000;
	/*
	 * cmdq.timeout_ns (and slot_wait_ns) from the device's cmd_exec_to
	 * when it publishes one (Linux lib/tout.c does so always); false
	 * keeps cmdq's.  The C API sets it unless a timeout is configured.
	 */
	bool cmd_timeout_from_device = false;
	/* Page reclaim at teardown (Linux RECLAIM_PAGES: 5 s). */
	u64 reclaim_timeout_ns = 5ull * 1000 * 1000 * 1000;
	/*
	 * fast_unload(): nic_interface DISABLED must read back within this
	 * (Linux tout TEARDOWN, DTOR tear_down_to: 3 s).
	 */
	u64 fast_teardown_timeout_ns = 3ull * 1000 * 1000 * 1000;
	/* Most pages one QUERY_PAGES(BOOT/INIT) answer may ask for (16 GiB). */
	u32 max_startup_pages = 1u << 22;
	/* Pages per MANAGE_PAGES (0: as many as a message holds). */
	u32 pages_per_command = 0;

	/*
	 * The own function in ENABLE/DISABLE_HCA, QUERY_PAGES, MANAGE_PAGES.
	 * embedded_cpu_function is also set when the init segment says the
	 * function is an ECPF (initializing dword bit 23, embedded_cpu), as
	 * Linux's mlx5_read_embedded_cpu decides it; this field only forces it.
	 */
	u16 function_id = 0;
	bool embedded_cpu_function = false;

	/*
	 * SET_HCA_CAP(GENERAL) edits, each applied only if the MAX
	 * capability allows it:
	 *  cmdif_checksum: 0 = off (Linux always writes 0); nonzero needs
	 *    MAX cmdif_checksum != 0 (E_NOTSUP otherwise), and the engine
	 *    must then sign its messages.
	 *  enable_dct: sets dct when MAX has it.
	 *  uar_4k: -1 (default) as Linux handle_hca_cap: set when MAX has it
	 *    and the host page is larger than 4 KiB; 0 never; 1 whenever MAX
	 *    has it.
	 *  log_uar_page_sz: -1 (default) as Linux, the host's page shift - 12
	 *    (host page_shift op; 4 KiB without it); >= 0 written as given.
	 *  pkey_table_size: firmware encoding (0 = 128 entries, ...), 0 by
	 *    default as Linux (to_fw_pkey_sz(128)); -1 keeps CUR; larger than
	 *    MAX -> E_RANGE.
	 *  cache_line_128byte: the host's cache line is 128 bytes or more;
	 *    written when MAX has the field, as Linux (cache_line_size()).
	 * And always, as Linux's handle_hca_cap: release_all_pages when MAX
	 * has it (page requests may then say "release all": Events serves
	 * them), num_vhca_ports = MAX's when MAX has any.
	 */
	u8 cmdif_checksum = 0;
	/*
	 * Ask for command checksums: SET_HCA_CAP cmdif_checksum = MAX's
	 * value when MAX offers it (else a log line, checksums stay off).
	 * Whenever CUR cmdif_checksum reads nonzero after SET_HCA_CAP the
	 * engine turns cmdq.verify_signatures on.
	 */
	bool request_checksum = false;
	bool enable_dct = true;
	int uar_4k = -1;
	s32 log_uar_page_sz = -1;
	s32 pkey_table_size = 0;
	bool cache_line_128byte = false;
	bool skip_set_hca_cap = false;

	/*
	 * INIT_HCA sw_owner_id, sent when CUR cap sw_owner_id is set.  All
	 * zero (default): a fresh random one per bring-up from the host's
	 * get_random op, as Linux draws one per module load (main.c).
	 */
	u32 sw_owner_id[4] = {};

	/*
	 * A virtual function: no ACCESS_REG HOST_ENDIANNESS (Linux
	 * set_hca_ctrl runs on a PF, ECPF included, only).
	 */
	bool is_vf = false;
};

/* Steps of bring-up and teardown, for the trace. */
enum class Step : u8 {
	READ_FW_REV,
	WAIT_INIT,
	CHECK_CMDIF,
	CMDQ_INIT,
	WAIT_CMDQ_INIT,    /* value: ns waited for initializing after the address write */
	PAGES_INIT,
	ENABLE_HCA,
	QUERY_ISSI,
	SET_ISSI,
	QUERY_BOOT_PAGES,
	GIVE_BOOT_PAGES,
	SET_HOST_ENDIANNESS, /* ACCESS_REG HOST_ENDIANNESS write (PF only) */
	QUERY_CAPS_MAX,
	QUERY_CAPS_CUR,
	SET_HCA_CAP,
	QUERY_CAPS_FINAL,
	QUERY_INIT_PAGES,
	GIVE_INIT_PAGES,
	INIT_HCA,
	/* teardown / unwind */
	TEARDOWN_GRACEFUL,
	TEARDOWN_FORCE,
	QUERY_RECLAIM_PAGES,
	RECLAIM_PAGES,
	DISABLE_HCA,
	FREE_STRANDED_PAGES,
	CMDQ_FINI,           /* value: DMA buffers kept (Cmdq::fini) */
	FREE_STRANDED_CMDQ,  /* value: the queue page and chains freed */
	RECLAIM_FUNCTION_PAGES, /* another function's pages; value:
				 * (ec << 16 | function_id) << 32 | pages freed */
	/* fast_unload() (shutdown) */
	TEARDOWN_FAST,       /* TEARDOWN_HCA PREPARE_FAST_TEARDOWN; value: state */
	WAIT_NIC_DISABLED,   /* nic_interface DISABLED read back; value: ns waited */
	/* An ECPF's external host PF (host_pf.cpp) */
	ENABLE_HOST_PF,      /* ENABLE_HCA(function 0, embedded_cpu_function 0) */
	DISABLE_HOST_PF,     /* DISABLE_HCA of it */
};

const char *step_name(Step s);

struct StepRecord {
	Step step;
	int err;       /* Err of the step, OK when it succeeded */
	u8 delivery;   /* CmdResult of the step's command, if any */
	u8 status;
	u32 syndrome;
	s64 value;     /* step-specific: pages, ISSI, fw_rev, teardown state... */
};

struct BringupTrace {
	static constexpr u32 MAX = 48;
	StepRecord rec[MAX];
	u32 n = 0;
	u32 dropped = 0;
	bool failed = false;   /* bring-up failed ... */
	Step failed_step{};    /* ... at this step ... */
	int failed_err = OK;   /* ... with this error */

	void clear() { n = dropped = 0; failed = false; failed_err = OK; }
	void add(Step s, int err, const CmdResult *r = nullptr, s64 value = 0);
	/* The last record of step s, or null. */
	const StepRecord *find(Step s) const;
};

enum class DeviceState : u8 {
	OFF,          /* nothing set up (before bringup, after teardown) */
	UP,           /* INIT_HCA done */
	STRANDED,     /* torn down, but pages firmware never returned, or the
		       * command queue memory of a command it still owns, remain */
};

/*
 * The state a user sees (cxprm_core_state, CXPRM_CORE_*): derived from the
 * device's own state, the queue's failure, the health sensors and whether
 * the last bring-up failed without a teardown since.
 */
enum class DeviceStatus : u8 {
	DOWN,         /* never brought up, or torn down cleanly */
	UP,           /* up and answering */
	ERROR,        /* failed, fatal health sensor, stranded, or bring-up failed */
	GONE,         /* fw_rev reads all ones, or the queue saw the device gone */
};

/* What one teardown did (Device::teardown), kept until the next bring-up. */
struct TeardownReport {
	u64 pages_given;         /* over the whole bring-up */
	u64 pages_reclaimed;     /* firmware returned them (MANAGE_PAGES TAKE) */
	u64 pages_freed;         /* freed after DISABLE_HCA / device gone */
	u64 pages_stranded;      /* still lent: see release_stranded_pages() */
	u32 cmdq_stranded;       /* queue DMA buffers kept (timed-out command) */
	s32 err;                 /* first teardown step that failed, or 0 */
	u32 steps;               /* trace records the teardown added */
	const char *failed_step; /* its name, or "" */
};

struct FwVersion {
	u16 major, minor, subminor;
	u16 cmdif_rev;
};

class Device {
public:
	Device() = default;
	~Device() = default; /* call teardown(); no hidden commands */
	Device(const Device &) = delete;
	Device &operator=(const Device &) = delete;

	/* OK, or the failing step's error after unwinding (E_BUSY if up). */
	int bringup(const cxprm_host *host, const BringupConfig &cfg);
	/*
	 * Safe to call in any state; a no-op when OFF.  Returns the page
	 * totals and the first failed step of this teardown; the report of
	 * the last teardown of an up device stays (last_teardown()).
	 */
	TeardownReport teardown();
	/*
	 * The shutdown path (Linux mlx5_try_fast_unload, fast_unload.cpp): when
	 * UP and CUR fast_teardown is set, TEARDOWN_HCA PREPARE_FAST_TEARDOWN,
	 * then nic_interface = DISABLED written into cmdq_addr_l_sz and read
	 * back within fast_teardown_timeout_ns: firmware has let go of the
	 * function and its memory.  OK: the queue is marked failed (E_HOSTDOWN),
	 * so teardown() afterwards sends nothing and strands the pages for the
	 * host to free once bus mastering is off.  E_NOTSUP (no capability,
	 * not up), E_HOSTDOWN (already dead) or the command's error status:
	 * nothing changed, the caller falls back to teardown().  A command
	 * timeout, or nic_interface not reading DISABLED in time, also marks
	 * the queue failed: the fallback then sends nothing more to a device
	 * that stopped answering (the pages stay stranded), which bounds the
	 * shutdown.
	 */
	int fast_unload();
	/* fast_unload() succeeded since the last bring-up. */
	bool fast_unloaded() const { return fast_unloaded_; }
	/* The device answers nothing (gone, queue failed, fatal health sensor). */
	bool fw_dead() const;
	/* The last teardown's report, valid when torn_down(). */
	const TeardownReport &last_teardown() const { return last_teardown_; }
	/* A teardown followed the last bringup() call. */
	bool torn_down() const { return torn_down_; }
	/* bringup() was called at least once. */
	bool bringup_called() const { return bringup_called_; }
	/* Trace index where the last teardown began. */
	u32 teardown_trace_from() const { return teardown_trace_from_; }
	/*
	 * The user-visible state; reads fw_rev and the health buffer through
	 * 'host' (the device's host, usable before the first bring-up).
	 */
	DeviceStatus status(const cxprm_host *host) const;

	Cmdq &cmdq() { return cmdq_; }
	/* Whether the device failed, and the health poller (health_monitor.h). */
	Health &health() { return health_; }
	const Health &health() const { return health_; }
	PageTracker &pages() { return pages_; }
	const cmd::GeneralCaps &caps_cur() const { return caps_cur_; }
	/*
	 * BAR offset of UAR page 'uar' (Linux uar.c uar2pfn): 4 KiB pages with
	 * uar_4k, else one host page each.
	 */
	u64 uar_offset(u32 uar) const;
	/* The sw_owner_id INIT_HCA sent at the last bring-up (zeros: none). */
	const u32 *sw_owner_id() const { return sw_owner_id_; }
	const cmd::GeneralCaps &caps_max() const { return caps_max_; }
	DeviceState state() const { return state_; }
	/* The init segment's embedded_cpu bit (a BlueField's Arm side). */
	bool ecpf() const { return ecpf_; }
	/* What ENABLE_HCA, QUERY/MANAGE_PAGES and DISABLE_HCA name as "us". */
	cmd::FunctionRef own_function() const
	{
		return cmd::FunctionRef{cfg_.function_id, cfg_.embedded_cpu_function || ecpf_};
	}
	/*
	 * On an ECPF (a BlueField's Arm side): firmware holds the external
	 * host PF in 'initializing' until the ECPF sends ENABLE_HCA for it
	 * (function 0, embedded_cpu_function 0), as Linux's eswitch does once
	 * its async EQ exists (the host PF's page requests come there).  The
	 * events code calls these; no-ops elsewhere.  A refusal is recorded
	 * in the trace, not fatal: the ECPF itself is up.
	 */
	int enable_host_pf();
	void disable_host_pf();
	bool host_pf_enabled() const { return host_pf_enabled_; }
	FwVersion fw_version() const { return fw_; }
	u16 issi() const { return issi_; }
	const BringupTrace &trace() const { return trace_; }
	const BringupConfig &config() const { return cfg_; }
	/* Command checksums on (CUR cmdif_checksum != 0): signatures verified. */
	bool checksums() const { return cmdq_.config().verify_signatures; }

	/* Pages still lent to firmware after teardown (see the policy above). */
	u64 stranded_pages() const { return pages_.live(); }
	/* Command queue DMA buffers kept after teardown (see the policy above). */
	u32 stranded_cmdq_buffers() const { return cmdq_.stranded_buffers(); }
	/*
	 * The host reset or removed the function: frees the stranded pages,
	 * the tracker and stranded command queue memory; state becomes OFF.
	 * Returns how many pages were freed (0, doing nothing, unless the
	 * state is STRANDED); last_teardown() counts them as freed.
	 */
	u64 release_stranded_pages();
	/* fw_rev reads all ones (only meaningful once bringup was called). */
	bool device_gone() const;

private:
	int wait_ready();
	int wait_cmdq_init();
	void use_checksums_if_on();
	int negotiate_issi();
	int give_pages(cmd::PagesKind kind, Step query_step, Step give_step);
	int setup_caps();
	int set_host_endianness();
	void pick_sw_owner_id();
	void unwind();
	void reclaim_pages();
	void reclaim_other_functions();
	/* MANAGE_PAGES(TAKE) rounds for fn until our books hold none for it. */
	int reclaim_function(cmd::FunctionRef fn, u64 *freed, CmdResult *r);
	void finish_pages(bool released);
	void stop();
	int step(Step s, int err, const CmdResult *r = nullptr, s64 value = 0);

	const cxprm_host *host_ = nullptr;
	BringupConfig cfg_{};
	Health health_;        /* before cmdq_, which consults it */
	Cmdq cmdq_{health_};
	PageTracker pages_;
	cmd::GeneralCaps caps_cur_{}, caps_max_{};
	DeviceState state_ = DeviceState::OFF;
	FwVersion fw_{};
	u16 issi_ = 0;
	u32 page_shift_ = 12;     /* the host's, from its page_shift op */
	u32 sw_owner_id_[4] = {};
	BringupTrace trace_{};
	/* What is up, for exact unwinding. */
	bool cmdq_up_ = false;
	bool hca_enabled_ = false;
	bool hca_initialized_ = false;
	bool gone_ = false;
	bool ecpf_ = false;
	bool host_pf_enabled_ = false; /* we sent its ENABLE_HCA */
	/* The last bring-up and teardown (status(), last_teardown()). */
	TeardownReport last_teardown_{};
	u32 teardown_trace_from_ = 0;
	bool bringup_called_ = false, torn_down_ = false;
	bool fast_unloaded_ = false;
};

} // namespace cxprm
