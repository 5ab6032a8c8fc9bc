// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// The ConnectX firmware emulator: plays the device side of the mlx5 command
// interface over a Platform (BAR bytes + DMA by bus address).
//
// Model in one paragraph: the init segment lives at BAR offset 0 (layout
// prm::initial_seg); the driver programs the command queue address, rings
// command_doorbell_vector, and the emulator (its own thread, or poll_once()
// driven by a test) fetches each rung entry by DMA, checks it like firmware
// (descriptor type, signatures, lengths, mailbox chains, tokens), runs the
// command against a stateful device model (HCA state machine, ISSI, pages,
// capabilities, UARs, EQs, DCTs, eswitch, NVMF namespaces), writes the output
// back through the driver's output mailboxes and hands the entry back.
// Events are written into EQ rings in host memory with the owner/phase rule.
// See tools/emulator/README.md for the full model, the BAR map, the fault
// knobs and the syndrome table (syndromes.h).
#pragma once

#include <array>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "latency.h"
#include "nvme_ssd.h"
#include "nvmf_info.h"
#include "platform.h"
#include "profile.h"
#include "syndromes.h"

namespace cxprm::emu {

// ---------------------------------------------------------------------------
// BAR map (byte offsets from the start of the BAR)
// ---------------------------------------------------------------------------
namespace bar_map {
inline constexpr uint32_t INIT_SEG = 0x0;            // prm::initial_seg
// UAR page i is BAR bytes [i * UAR_SIZE, + UAR_SIZE), as on a ConnectX
// (BAR0 + uar * 4 KiB); ALLOC_UAR hands out indices from FIRST_UAR on, so
// UAR pages start at UAR_BASE, past the init segment.
inline constexpr uint32_t UAR_BASE = 0x10000;
inline constexpr uint32_t UAR_SIZE = 4096;
inline constexpr uint32_t FIRST_UAR = UAR_BASE / UAR_SIZE;
inline constexpr uint32_t UAR_EQ_DB_ARM = 0x40;      // be32 (ci & 0xffffff) | eqn << 24, arms
inline constexpr uint32_t UAR_EQ_DB_NOARM = 0x48;    // same value, updates ci only
// What the emulator leaves in an EQ doorbell dword after consuming a write
// (eqn 0xff is never handed out).
inline constexpr uint32_t EQ_DB_IDLE = 0xffffffffu;
// Smallest BAR that holds the init segment and one UAR page.
inline constexpr size_t MIN_BAR_SIZE = UAR_BASE + UAR_SIZE;
} // namespace bar_map

// ---------------------------------------------------------------------------
// Faults: knobs a test flips while the emulator runs
// ---------------------------------------------------------------------------
//
// Per-command knobs (never_complete, corrupt_output_signature,
// wrong_output_token, output_length_lie, broken_output_chain, slow_ms and
// delivery_status) honour the selectors: only_opcode >= 0 limits them to that
// opcode; once = true clears every per-command knob (and 'once') after the
// first command they hit.  crash and device_gone are global and sticky.
struct Faults {
	// The command runs (side effects happen) but the entry is never handed
	// back: ownership stays 1, nothing is written, no CMD event.
	std::atomic<bool> never_complete{false};
	// Bit mask: ENTRY = wrong entry signature, BLOCKS = wrong signature on
	// the first output mailbox block.  'true' means ENTRY.
	std::atomic<uint32_t> corrupt_output_signature{0};
	// Bit mask: ENTRY = the entry carries another token, BLOCKS = the
	// output blocks do.  'true' means ENTRY.
	std::atomic<uint32_t> wrong_output_token{0};
	// Complete the next delivery_status_count commands with delivery status
	// delivery_status without running them (0 = off).
	std::atomic<uint8_t> delivery_status{0};
	std::atomic<uint32_t> delivery_status_count{0};
	// Write output_length + this into the entry (0 = off).
	std::atomic<uint32_t> output_length_lie{0};
	// Mangle block_number and next pointer of the first output block (only
	// when the output has blocks).
	std::atomic<bool> broken_output_chain{false};
	// Firmware death: health syndrome FW_INTERNAL_ERR (0x1) in the health
	// buffer with rfr+valid set (initial_seg.health_syndrome too only with
	// Profile::crash_copies_iseg_syndrome), the health counter stops.  Commands then hang (consumed, never completed), or,
	// with crash_answers_int_err, complete with status INT_ERR and syndrome
	// FW_CRASHED.  Sticky: clearing the flag does not revive the device.
	std::atomic<bool> crash{false};
	std::atomic<bool> crash_answers_int_err{false};
	// Surprise removal: every BAR byte becomes 0xff and the emulator stops
	// processing.  Sticky.
	std::atomic<bool> device_gone{false};
	// Each command takes this long (sleep before the answer is written).
	std::atomic<uint32_t> slow_ms{0};
	// Hung firmware that still looks healthy: the health counter stops
	// ticking (no syndrome); commands are still answered.  Global, not
	// sticky (clearing it lets the counter tick again), not cleared by
	// clear_command_faults().
	std::atomic<bool> health_stall{false};
	// A syndrome firmware survives (no rfr): health buffer synd = this
	// (e.g. 0x10 HIGH_TEMP), valid set, severity WARNING, rfr 0; commands
	// are still answered.  0 clears it.  Not cleared by
	// clear_command_faults().
	std::atomic<uint8_t> health_syndrome{0};
	// Firmware/SW reset in progress: nic_interface reads SW_RESET (7) and
	// commands are no longer answered (swallowed).  Sticky until
	// function_reset().
	std::atomic<bool> sw_reset{false};
	// A crash that no reset undoes: the crashed firmware ignores the
	// driver's SW_RESET request (it still advertises fw_reset_supported),
	// so only a function reset or fw-restart brings it back.  Cleared by
	// function_reset().
	std::atomic<bool> no_restart{false};
	// Completions post no CMD event: the driver finds them by polling.
	// Global, not cleared by clear_command_faults().
	std::atomic<bool> no_cmd_events{false};

	// Selectors.
	std::atomic<int32_t> only_opcode{-1};
	std::atomic<bool> once{false};

	// How many commands a per-command knob hit so far.
	std::atomic<uint64_t> fired{0};

	// Targets for corrupt_output_signature / wrong_output_token.
	static constexpr uint32_t ENTRY = 1, BLOCKS = 2;

	// Clears every per-command knob and the selectors (not crash/device_gone).
	void clear_command_faults();
};

// ---------------------------------------------------------------------------
// Inspection types
// ---------------------------------------------------------------------------

// The function's state as firmware sees it.  ISSI is separate (current_issi()).
enum class HcaState : uint8_t {
	DISABLED,    // after reset / DISABLE_HCA: only ENABLE_HCA (and NOP) run
	ENABLED,     // ENABLE_HCA done: ISSI, pages, caps, INIT_HCA
	INITIALIZED, // INIT_HCA done: resources (UAR, EQ, DCT, NVMF, ESW queries)
	TORN_DOWN,   // TEARDOWN_HCA done: page reclaim, then DISABLE_HCA
};
const char *hca_state_name(HcaState s);

// dctc.state values.
enum class DctState : uint8_t { ACTIVE = 0, DRAINING = 1, DRAINED = 2 };

// Frontend commands for an NVMF namespace (simulate_nvmf_io): reads and
// writes sharing their blocks, write_inline_cmds of the writes with data
// in the capsule, flushes, error_cmds the frontend refuses itself, and
// backend_error_cmds reads the backend device refuses (beyond its LBAs).
struct NvmfIo {
	uint64_t read_cmds = 0, read_blocks = 0;
	uint64_t write_cmds = 0, write_blocks = 0;
	uint64_t write_inline_cmds = 0;
	uint64_t flush_cmds = 0;
	uint64_t error_cmds = 0;
	uint64_t backend_error_cmds = 0;
};

struct NvmfCounters : NvmfIo {
	uint32_t current_q_depth = 0;
	uint32_t last_read_latency = 0, last_write_latency = 0;
};

// How many of each object exist (Emulator::object_counts()).
struct ObjectCounts {
	uint32_t pds = 0, cqs = 0, srqs = 0, xrqs = 0, qps = 0, backends = 0;
	uint32_t total() const { return pds + cqs + srqs + xrqs + qps + backends; }
};

// What ProvisionProfile made at the last INIT_HCA (Emulator::provisioned()):
// uid 0's, not the driver's.  0 = not made (the model lacks it).
struct Provisioned {
	bool active = false; // made, and the HCA not torn down since
	uint32_t pd = 0, cqn = 0, xrqn = 0, dctn = 0;
	uint16_t backend_ctrl = 0;
	std::array<uint32_t, 2> nsids{}; // on xrqn, behind backend_ctrl
};

struct EqInfo {
	uint8_t eqn = 0;
	uint8_t log_size = 0;
	uint32_t uar = 0;
	uint16_t intr = 0;
	uint32_t producer = 0; // EQEs written (free running)
	uint32_t consumer = 0; // last consumer index from the doorbell (24 bits)
	bool armed = false;
	uint64_t overruns = 0; // events dropped because the ring was full
	std::array<uint64_t, 4> event_bitmask{};
};

struct Counters {
	uint64_t commands_processed = 0; // entries consumed (completed or swallowed)
	uint64_t commands_executed = 0;  // delivered and dispatched
	uint64_t delivery_errors = 0;
	uint64_t ignored_doorbells = 0;  // bit rung for a slot not owned by hardware / out of range
	uint64_t early_doorbells = 0;    // bits rung while 'initializing' was set: dropped (strict)
	uint64_t deferred_doorbells = 0; // rung in the grace after a queue address: served when it cleared
	uint64_t lost_doorbells = 0;     // entries served without a doorbell (Profile::lost_doorbell_us)
	uint64_t unreachable_entries = 0; // entry DMA read failed: cannot even answer
	uint64_t eqes_written = 0;
	uint64_t eq_overruns = 0;
	uint64_t eqe_dma_errors = 0;
	uint64_t bad_eq_doorbells = 0;   // doorbell for an unknown EQ / impossible ci
	uint64_t irqs_raised = 0;
	uint64_t eq_arms_rescued = 0;    // interrupts for an EQ whose arm a shared UAR dword may have lost
	uint64_t pages_leaked = 0;       // pages still held at DISABLE_HCA (an error: the driver did not reclaim)
	uint64_t pages_dropped_at_reset = 0; // pages dropped by function_reset (not the driver's fault)
	uint64_t objects_leaked = 0;     // EQs/UARs/DCTs/namespaces still alive at TEARDOWN_HCA
	uint64_t unknown_opcodes = 0;    // commands answered BAD_OP because the opcode is not emulated
	uint64_t fast_teardowns = 0;     // PREPARE_FAST_TEARDOWN + nic_interface DISABLED completed
	uint64_t pages_released_fast_teardown = 0; // pages firmware let go at a fast teardown (not leaked)
	uint64_t doorbells_while_disabled = 0; // doorbells while nic_interface is DISABLED (not served)
	uint64_t fw_restarts = 0;              // firmware_restart(): emuctl, or the driver's SW_RESET on a crash
	uint64_t host_endianness_writes = 0;   // ACCESS_REG HOST_ENDIANNESS writes
	LatencyCounters latency;               // the firmware latency model's timing (latency.h)
};

// One command as the emulator answered it (Emulator::set_trace).
struct TraceRecord {
	uint64_t seq = 0;     // 1, 2, ... per command consumed (answered or swallowed)
	uint64_t time_ns = 0; // answered, since the emulator's clock started
	unsigned slot = 0;
	uint16_t opcode = 0, op_mod = 0;
	uint32_t inlen = 0, outlen = 0; // the entry's lengths
	bool has_function = false;      // the *_in names a function (HCA, pages)
	uint16_t function_id = 0;
	bool ec = false;                // embedded_cpu_function
	bool completed = true;          // false: swallowed (never_complete)
	uint8_t delivery = 0;           // entry status, 0 = delivered
	bool executed = false;          // the device model ran it (status/syndrome valid)
	uint8_t status = 0;
	uint32_t syndrome = 0;
	bool has_pages = false;         // MANAGE_PAGES: pages moved; QUERY_PAGES: num_pages
	int64_t pages = 0;
	uint64_t seen_ns = 0; // its doorbell taken (same clock as time_ns)
};

// The trace line of a record (one line, no newline), stable for scripts:
//   seq=N t=S.UUUUUU slot=N op=NAME(0xHEX) op_mod=0xH in=N out=N fn=N|- ec=0|1|-
//   delivery=0xH status=0xH|- syndrome=0xH|- [pages=N] [swallowed]
//   seen=S.NNNNNNNNN answer_ns=N
// (tools/emulator/daemon/README.md, "Trace").
std::string trace_line(const TraceRecord &r);

// ---------------------------------------------------------------------------
// The emulator
// ---------------------------------------------------------------------------
class Emulator {
public:
	// Writes the init segment (initializing = 1 unless init_delay_ms == 0)
	// into the BAR.  The BAR must be at least bar_map::MIN_BAR_SIZE bytes
	// for UARs; a smaller one (>= the init segment) just has no UAR pages.
	Emulator(Platform &platform, Profile profile);
	~Emulator(); // stops the thread

	Emulator(const Emulator &) = delete;
	Emulator &operator=(const Emulator &) = delete;

	// Own thread: polls the doorbell, EQ doorbells and faults, ticks the
	// health counter every ms, clears 'initializing' after the delay.
	void start();
	void stop();
	// Make the thread look at once (a sleeping idle thread would see a
	// change made from outside, such as a fault knob, only after its sleep).
	void wake();
	bool running() const;

	// One processing step without the thread (deterministic tests): health
	// tick, initializing check, EQ doorbells, every rung slot, timed work
	// (DCT drain, NVMF auto I/O).  Returns whether it did anything beyond
	// the health tick.  Must not be mixed with a running thread (it is safe,
	// just not deterministic).
	bool poll_once();

	// --- synchronous mode ---
	// No thread: the host calls register_written() from its own register
	// write accessor, so the device answers inside the write and a command
	// is complete the first time the driver looks (the benchmark rig,
	// tools/bench/rig.h).  A command doorbell is served at once (one
	// poll_once()); a queue address write (cmdq_addr_l_sz) is taken as
	// hardware does, at once: settle(true).  Other registers wait for the
	// next step.  Returns whether anything was processed.
	bool register_written(uint32_t off);
	// Steps until 'initializing' is clear (and, with need_queue, a queue
	// address is taken); false if limit_ns of the emulator's clock pass
	// first.
	bool settle(bool need_queue, uint64_t limit_ns = 5'000'000'000ull);
	// The emulator's clock, nanoseconds, monotonic (steady_clock unless
	// replaced): every delay of the Profile, the health tick, lost-doorbell
	// and DCT drain timing and trace times run on it, so a host with a
	// clock of its own (one that moves only when read, say) sees them
	// deterministically.  Set it before start() or the first step.
	void set_clock(std::function<uint64_t()> now_ns);

	Faults &faults();
	const Profile &profile() const;

	// Calls fn for every command consumed, on the emulator's thread (or
	// inside poll_once) with the emulator's lock held: keep it short and
	// never call back into the Emulator.  An empty fn turns tracing off.
	void set_trace(std::function<void(const TraceRecord &)> fn);

	// A test double's say over the answers (the fuzz targets' FakeHost):
	// called for every command the device model ran, with its input and
	// the output the model wrote, before the answer is handed back.  It
	// may rewrite the output; a nonzero return is a delivery status to
	// report instead (then only the entry is written).  replaces_model:
	// the device model does not run at all, the hook alone answers (on a
	// zeroed output) and the device's state stays as it is.  Same rules
	// as set_trace(); an empty fn removes it.
	using AnswerHook =
		std::function<uint8_t(unsigned slot, const uint8_t *in, uint32_t inlen, uint8_t *out, uint32_t outlen)>;
	void set_answer_hook(AnswerHook fn, bool replaces_model = false);

	// --- test hooks ---
	// Changes the eswitch state (host_num_of_vfs) and posts
	// ESW_FUNCTIONS_CHANGED to every EQ subscribed to it.  False when
	// n > total_vfs or eswitch support is off.
	bool set_num_vfs(uint16_t n);
	// Firmware asks for n more pages (n < 0: wants -n back) with a
	// PAGE_REQUEST event.  Needs INITIALIZED; false otherwise.
	bool request_pages(int32_t n);
	// The same for another function (a VF, an ECPF's host PF, or the BAR's
	// own function named explicitly): the event carries function_id and
	// ec_function.  False when the function does not exist, is not enabled,
	// or (n < 0) holds fewer than -n pages.
	bool request_pages(int32_t n, uint16_t function_id, bool ec_function);
	// Firmware dropped every page of the function (as after its FLR) and
	// says so with a release_all PAGE_REQUEST; the pages are no longer
	// held.  False for the BAR's own function or one that does not exist.
	bool release_all_pages(uint16_t function_id, bool ec_function);
	// Posts an arbitrary event (28-byte payload) to the EQs subscribed to
	// its type.  Returns how many EQs got it.
	unsigned post_event(uint8_t type, uint8_t sub_type, const uint8_t *data28 = nullptr);
	// The host resets the function (an FLR the driver could not do, or a
	// device that comes back): crash, device_gone and health_stall end,
	// the init segment is rewritten (not initializing), the HCA is
	// DISABLED with its pages and objects dropped (pages counted in
	// Counters::pages_dropped_at_reset, not as a leak).
	void function_reset();
	// The firmware resets itself as after an assert (what Linux's health
	// recovery, health.c mlx5_error_sw_reset, waits for): all its state is
	// lost as in function_reset() (HCA DISABLED, ISSI 0, objects and EQs
	// gone, pages counted in pages_dropped_at_reset, the queue address
	// forgotten), the crash, sw_reset and stall faults end, the health
	// buffer is clear and the health counter runs again from 0.  The init
	// segment reads nic_interface DISABLED (1) and 'initializing' 1 for
	// init_ms (0: not at all), then 0; doorbells wait until it clears and
	// the driver writes the queue address again.  Also what the step does
	// when a crashed firmware with Profile::fw_reset_supported sees the
	// driver write nic_interface SW_RESET (with Profile::fw_reset_ms).
	// Counted in Counters::fw_restarts.  A gone device stays gone.
	void firmware_restart(uint32_t init_ms);
	// An initiator sends io's commands to a namespace (false when it does
	// not exist): the firmware model forwards them to the namespace's
	// backend controller, and the counters move with what the backend
	// NVMe device answers (nvmf_backend_io.cpp).
	bool simulate_nvmf_io(uint32_t xrqn, uint32_t nsid, const NvmfIo &io);
	bool simulate_nvmf_io(uint32_t xrqn, uint32_t nsid, uint64_t reads, uint64_t writes,
			      uint64_t blocks_per_io = 8);
	// Adds to a namespace's counters without any I/O (false when it does
	// not exist): for tests of the 64-bit counter words, which real I/O
	// would take years to reach.
	bool nvmf_add_counters(uint32_t xrqn, uint32_t nsid, const NvmfIo &io);
	// Pauses (false) or runs again (true) the namespaces' automatic I/O
	// tick (Profile::nvmf.auto_io_ms), so a test can compare counters
	// with nothing moving them; returns whether it was running.
	bool set_nvmf_auto_io(bool run);

	// --- inspection ---
	HcaState hca_state() const;
	uint16_t current_issi() const;
	// 'initializing' as the emulator holds it (reset, or after a new queue
	// address).
	bool initializing() const;
	// The command-queue address the emulator has taken (0: none yet); once
	// it equals the driver's and initializing() is false, doorbells are served.
	uint64_t cmdq_address() const;
	bool crashed() const;
	bool sw_resetting() const; // Faults::sw_reset seen: nic_interface SW_RESET
	bool gone() const;
	uint32_t health_counter() const;
	uint64_t pages_held() const;
	// Pages held for one function (the BAR's own included); 0 if unknown.
	uint64_t pages_held(uint16_t function_id, bool ec_function) const;
	// Whether that function exists / is enabled.
	bool function_exists(uint16_t function_id, bool ec_function) const;
	bool function_enabled(uint16_t function_id, bool ec_function) const;
	uint64_t pages_given_total() const;
	uint64_t pages_taken_total() const;
	std::vector<uint64_t> held_pages() const;
	// What QUERY_PAGES would answer now for op_mod 1/2/3.
	int32_t pages_wanted(uint16_t op_mod) const;
	uint64_t commands_processed() const;
	uint64_t opcode_count(uint16_t opcode) const;
	std::map<uint16_t, uint64_t> opcode_counts() const;
	uint8_t last_delivery_status() const;
	uint8_t last_status() const;   // cmd_out.status of the last executed command
	uint32_t last_syndrome() const;
	Counters counters() const;
	uint32_t uar_count() const;
	uint32_t eq_count() const;
	bool eq_info(uint8_t eqn, EqInfo *out) const;
	uint32_t dct_count() const;
	// RoCE: the function's roce_en and the GID table's populated entries
	// (a roce_addr_layout each; false when (port, index) is empty).
	bool roce_enabled() const;
	uint32_t gid_count() const;
	bool gid_entry(uint8_t port, uint16_t index, std::array<uint8_t, 32> *out) const;
	bool dct_state(uint32_t dctn, DctState *out) const;
	uint16_t num_vfs() const;
	uint32_t nvmf_namespace_count() const;
	// PDs, CQs, SRQs, XRQs, QPs and NVMF backend controllers alive now
	// (like dct_count() and nvmf_namespace_count(): the provisioned ones
	// left out, they are not the driver's).
	ObjectCounts object_counts() const;
	// ProvisionProfile's objects (false when none are alive).
	bool provisioned(Provisioned *out) const;
	// User contexts alive (CREATE_UCTX) and one's uctx.cap.
	uint32_t uctx_count() const;
	bool uctx_cap(uint16_t uid, uint32_t *cap) const;
	bool nvmf_counters(uint32_t xrqn, uint32_t nsid, NvmfCounters *out) const;
	bool xrq_info(uint32_t xrqn, XrqInfo *out) const;
	bool nvmf_backend(uint32_t xrqn, uint16_t id, NvmfBackendInfo *out) const;
	// The modelled backend NVMe device (nvme_ssd.h): I/O queue pair qid
	// (1..), as its driver hands it to a peer (take: the pair created
	// afresh first, as for a new backend controller), and what it did.
	bool nvme_queue(uint16_t qid, NvmeQueueInfo *out) const;
	bool nvme_take_queue(uint16_t qid, NvmeQueueInfo *out);
	NvmeSsdStats nvme_stats() const;
	// The CUR image of a capability type (empty if unsupported).
	std::vector<uint8_t> cap_cur(uint16_t type) const;
	bool checksums_enabled() const; // CUR cmdif_checksum != 0
	// INIT_HCA's sw_owner_id, last one run (dword 0 first, as sent).
	std::array<uint32_t, 4> last_sw_owner_id() const;

	struct Impl;

private:
	std::unique_ptr<Impl> impl_;
};

} // namespace cxprm::emu
