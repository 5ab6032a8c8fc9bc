// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include "control_server.h"

#include <atomic>
#include <chrono>
#include <endian.h>
#include <initializer_list>
#include <thread>
#include <unistd.h>

#include "control.h"
#include "cxprm/types.h"

namespace cxprm::emud {

namespace {

/* Whether an X-macro list numbers its selectors 0, 1, 2, ... */
constexpr bool dense(std::initializer_list<uint32_t> sels)
{
	uint32_t i = 0;
	for (uint32_t v : sels)
		if (v != i++)
			return false;
	return true;
}

#define CXPRM_EMUD_SEL_(n, v) v,
static_assert(dense({CXPRM_EMUD_COUNTERS(CXPRM_EMUD_SEL_)}));
static_assert(dense({CXPRM_EMUD_NVMF_FIELDS(CXPRM_EMUD_SEL_)}));
static_assert(dense({CXPRM_EMUD_NVMEQ_FIELDS(CXPRM_EMUD_SEL_)}));
static_assert(dense({CXPRM_EMUD_NVME_STATS(CXPRM_EMUD_SEL_)}));
#undef CXPRM_EMUD_SEL_

/* How many selectors an X-macro list has. */
#define CXPRM_EMUD_ONE_(n, v) +1
constexpr size_t kCounters = 0 CXPRM_EMUD_COUNTERS(CXPRM_EMUD_ONE_);
constexpr size_t kNvmfFields = 0 CXPRM_EMUD_NVMF_FIELDS(CXPRM_EMUD_ONE_);
constexpr size_t kNvmeqFields = 0 CXPRM_EMUD_NVMEQ_FIELDS(CXPRM_EMUD_ONE_);
constexpr size_t kNvmeStats = 0 CXPRM_EMUD_NVME_STATS(CXPRM_EMUD_ONE_);
#undef CXPRM_EMUD_ONE_

/*
 * The value selector sel picks of vals, one per selector of a list of Want
 * (in their order): *value = vals[sel]; past them, *status = UNKNOWN_CMD.
 */
template <size_t Want, size_t N>
void pick(uint32_t sel, const uint64_t (&vals)[N], uint32_t *status, uint64_t *value)
{
	static_assert(N == Want, "one value per selector");
	if (sel < N)
		*value = vals[sel];
	else
		*status = CXPRM_EMUD_ST_UNKNOWN_CMD;
}

// The on/off fault knobs: v != 0 sets the flag, the answer is its old value.
struct OnOffKnob {
	uint32_t knob;
	std::atomic<bool> emu::Faults::*flag;
};
const OnOffKnob kOnOffKnobs[] = {
	{CXPRM_EMUD_FAULT_NEVER_COMPLETE, &emu::Faults::never_complete},
	{CXPRM_EMUD_FAULT_BROKEN_CHAIN, &emu::Faults::broken_output_chain},
	{CXPRM_EMUD_FAULT_CRASH_INT_ERR, &emu::Faults::crash_answers_int_err},
	{CXPRM_EMUD_FAULT_HEALTH_STALL, &emu::Faults::health_stall},
	{CXPRM_EMUD_FAULT_SW_RESET, &emu::Faults::sw_reset},
	{CXPRM_EMUD_FAULT_NO_RESTART, &emu::Faults::no_restart},
	{CXPRM_EMUD_FAULT_ONCE, &emu::Faults::once},
};

const char *cmd_name(uint32_t c)
{
	switch (c) {
	case CXPRM_EMUD_CMD_NOP: return "NOP";
	case CXPRM_EMUD_CMD_SET_NUM_VFS: return "SET_NUM_VFS";
	case CXPRM_EMUD_CMD_NVMF_IO: return "NVMF_IO";
	case CXPRM_EMUD_CMD_REQUEST_PAGES: return "REQUEST_PAGES";
	case CXPRM_EMUD_CMD_POST_EVENT: return "POST_EVENT";
	case CXPRM_EMUD_CMD_FAULT: return "FAULT";
	case CXPRM_EMUD_CMD_FAULT_CLEAR: return "FAULT_CLEAR";
	case CXPRM_EMUD_CMD_FUNCTION_RESET: return "FUNCTION_RESET";
	case CXPRM_EMUD_CMD_FW_RESTART: return "FW_RESTART";
	case CXPRM_EMUD_CMD_QUERY: return "QUERY";
	case CXPRM_EMUD_CMD_NVME_QUEUE: return "NVME_QUEUE";
	case CXPRM_EMUD_CMD_NVMF_AUTO_IO: return "NVMF_AUTO_IO";
	case CXPRM_EMUD_CMD_MARK: return "MARK";
	default: return "?";
	}
}

const char *fault_name(uint32_t k)
{
	switch (k) {
	case CXPRM_EMUD_FAULT_NEVER_COMPLETE: return "never_complete";
	case CXPRM_EMUD_FAULT_CORRUPT_SIGNATURE: return "corrupt_output_signature";
	case CXPRM_EMUD_FAULT_WRONG_TOKEN: return "wrong_output_token";
	case CXPRM_EMUD_FAULT_DELIVERY_STATUS: return "delivery_status";
	case CXPRM_EMUD_FAULT_OUTPUT_LENGTH_LIE: return "output_length_lie";
	case CXPRM_EMUD_FAULT_BROKEN_CHAIN: return "broken_output_chain";
	case CXPRM_EMUD_FAULT_SLOW_MS: return "slow_ms";
	case CXPRM_EMUD_FAULT_CRASH: return "crash";
	case CXPRM_EMUD_FAULT_DEVICE_GONE: return "device_gone";
	case CXPRM_EMUD_FAULT_ONLY_OPCODE: return "only_opcode";
	case CXPRM_EMUD_FAULT_ONCE: return "once";
	case CXPRM_EMUD_FAULT_CRASH_INT_ERR: return "crash_answers_int_err";
	case CXPRM_EMUD_FAULT_HEALTH_STALL: return "health_stall";
	case CXPRM_EMUD_FAULT_HEALTH_SYNDROME: return "health_syndrome";
	case CXPRM_EMUD_FAULT_SW_RESET: return "sw_reset";
	case CXPRM_EMUD_FAULT_NO_RESTART: return "no_restart";
	default: return "?";
	}
}

} // namespace

ControlServer::ControlServer(uint8_t *page, emu::Emulator &emu, FilePlatform &plat, Log &log)
	: page_(page), emu_(emu), plat_(plat), log_(log)
{
}

uint32_t ControlServer::rd(uint32_t off) const
{
	return le32toh(__atomic_load_n(reinterpret_cast<const uint32_t *>(page_ + off), __ATOMIC_ACQUIRE));
}

void ControlServer::wr(uint32_t off, uint32_t v)
{
	__atomic_store_n(reinterpret_cast<uint32_t *>(page_ + off), htole32(v), __ATOMIC_RELEASE);
}

void ControlServer::publish()
{
	for (uint32_t off = 0; off < CXPRM_EMUD_CTRL_SIZE; off += 4)
		wr(off, 0);
	const emu::Profile &p = emu_.profile();
	wr(CXPRM_EMUD_CTRL_VERSION, CXPRM_EMUD_VERSION);
	wr(CXPRM_EMUD_CTRL_PID, (uint32_t)getpid());
	wr(CXPRM_EMUD_CTRL_DEVICE_ID, p.device_id);
	wr(CXPRM_EMUD_CTRL_FW_REV,
	   (uint32_t)(p.fw_rev.major & 0xff) << 24 | (uint32_t)(p.fw_rev.minor & 0xff) << 16 | p.fw_rev.subminor);
	last_seq_ = 0;
	wr(CXPRM_EMUD_CTRL_MAGIC, CXPRM_EMUD_MAGIC);
}

void ControlServer::withdraw() { wr(CXPRM_EMUD_CTRL_MAGIC, 0); }

void ControlServer::heartbeat(uint32_t ms) { wr(CXPRM_EMUD_CTRL_HEARTBEAT, heartbeat_ += ms); }

bool ControlServer::poll()
{
	uint32_t seq = rd(CXPRM_EMUD_CTRL_SEQ);
	if (seq == last_seq_)
		return false;
	uint32_t cmd = rd(CXPRM_EMUD_CTRL_CMD);
	uint32_t arg[CXPRM_EMUD_CTRL_NARGS];
	for (uint32_t i = 0; i < CXPRM_EMUD_CTRL_NARGS; i++)
		arg[i] = rd(CXPRM_EMUD_CTRL_ARG(i));

	Result r = execute(cmd, arg);
	log_.debug("control: seq %u %s(0x%x, 0x%x, 0x%x, 0x%x) -> status %u result 0x%llx", seq, cmd_name(cmd),
		   arg[0], arg[1], arg[2], arg[3], r.status, (unsigned long long)r.value);

	wr(CXPRM_EMUD_CTRL_RESULT_LO, (uint32_t)r.value);
	wr(CXPRM_EMUD_CTRL_RESULT_HI, (uint32_t)(r.value >> 32));
	wr(CXPRM_EMUD_CTRL_STATUS, r.status);
	answered_++;
	wr(CXPRM_EMUD_CTRL_DONE, (uint32_t)answered_);
	last_seq_ = seq;
	wr(CXPRM_EMUD_CTRL_ACK, seq); // last: the answer is complete
	return true;
}

ControlServer::Result ControlServer::execute(uint32_t cmd, const uint32_t *arg)
{
	Result r;
	switch (cmd) {
	case CXPRM_EMUD_CMD_NOP:
		r.value = CXPRM_EMUD_VERSION;
		break;
	case CXPRM_EMUD_CMD_SET_NUM_VFS:
		if (arg[0] > 0xffff) {
			r.status = CXPRM_EMUD_ST_BAD_ARG;
			break;
		}
		if (!emu_.set_num_vfs((uint16_t)arg[0]))
			r.status = CXPRM_EMUD_ST_REFUSED;
		log_.info("control: set_num_vfs(%u): %s", arg[0], r.status ? "refused" : "ok");
		break;
	case CXPRM_EMUD_CMD_NVME_QUEUE: // the answer: its SQ's bus address
		r = nvme_queue_field(arg[0], true, CXPRM_EMUD_NVMEQ_SQ_ADDR);
		log_.info("control: nvme_take_queue(%u): %s", arg[0], r.status ? "no such queue" : "ok");
		break;
	case CXPRM_EMUD_CMD_NVMF_IO: {
		uint64_t bpi = arg[4] ? arg[4] : 8;
		if (!emu_.simulate_nvmf_io(arg[0], arg[1], arg[2], arg[3], bpi))
			r.status = CXPRM_EMUD_ST_REFUSED;
		log_.info("control: simulate_nvmf_io(xrqn 0x%x, nsid %u, %u reads, %u writes, %llu blocks each): %s",
			  arg[0], arg[1], arg[2], arg[3], (unsigned long long)bpi, r.status ? "refused" : "ok");
		break;
	}
	case CXPRM_EMUD_CMD_NVMF_AUTO_IO:
		if (arg[0] > 1) {
			r.status = CXPRM_EMUD_ST_BAD_ARG;
			break;
		}
		r.value = emu_.set_nvmf_auto_io(arg[0] == 1);
		log_.info("control: nvmf automatic I/O %s", arg[0] ? "runs" : "paused");
		break;
	case CXPRM_EMUD_CMD_REQUEST_PAGES:
		if (!emu_.request_pages((int32_t)arg[0]))
			r.status = CXPRM_EMUD_ST_REFUSED;
		log_.info("control: request_pages(%d): %s", (int32_t)arg[0], r.status ? "refused" : "ok");
		break;
	case CXPRM_EMUD_CMD_FN_PAGES: {
		bool ok = arg[1] <= 0xffff && arg[2] <= 1 &&
			  (arg[3] ? emu_.release_all_pages((uint16_t)arg[1], arg[2] != 0)
				  : emu_.request_pages((int32_t)arg[0], (uint16_t)arg[1], arg[2] != 0));
		if (!ok)
			r.status = CXPRM_EMUD_ST_REFUSED;
		log_.info("control: page request for function %u ec %u (%d%s): %s", arg[1], arg[2],
			  (int32_t)arg[0], arg[3] ? ", release_all" : "", r.status ? "refused" : "ok");
		break;
	}
	case CXPRM_EMUD_CMD_POST_EVENT: {
		if (arg[0] > 0xff || arg[1] > 0xff) {
			r.status = CXPRM_EMUD_ST_BAD_ARG;
			break;
		}
		uint8_t data[28];
		for (int i = 0; i < 7; i++) {
			uint32_t be = htobe32(arg[2 + i]);
			__builtin_memcpy(data + 4 * i, &be, 4);
		}
		r.value = emu_.post_event((uint8_t)arg[0], (uint8_t)arg[1], data);
		log_.info("control: post_event(type 0x%x, sub_type 0x%x): %llu EQ(s)", arg[0], arg[1],
			  (unsigned long long)r.value);
		break;
	}
	case CXPRM_EMUD_CMD_FAULT:
		r = fault(arg);
		break;
	case CXPRM_EMUD_CMD_FAULT_CLEAR:
		emu_.faults().clear_command_faults();
		log_.info("control: per-command faults cleared");
		break;
	case CXPRM_EMUD_CMD_FUNCTION_RESET:
		emu_.function_reset();
		log_.info("control: function reset (crash, gone, stall cleared; HCA DISABLED)");
		break;
	case CXPRM_EMUD_CMD_FW_RESTART: {
		uint32_t ms = arg[0] ? arg[0] : emu_.profile().fw_reset_ms;
		if (emu_.gone()) {
			r.status = CXPRM_EMUD_ST_REFUSED;
			log_.info("control: firmware restart refused (device gone)");
			break;
		}
		emu_.firmware_restart(ms);
		log_.info("control: firmware restart (state lost, crash/stall cleared; nic_interface DISABLED, "
			  "initializing for %u ms)", ms);
		break;
	}
	case CXPRM_EMUD_CMD_QUERY:
		r = query(arg);
		break;
	case CXPRM_EMUD_CMD_MARK:
		log_.info("guest mark %u", arg[0]);
		break;
	default:
		r.status = CXPRM_EMUD_ST_UNKNOWN_CMD;
		log_.info("control: unknown command 0x%x", cmd);
		break;
	}
	return r;
}

ControlServer::Result ControlServer::fault(const uint32_t *arg)
{
	emu::Faults &f = emu_.faults();
	const uint32_t knob = arg[0], v = arg[1], v2 = arg[2];
	Result r;
	switch (knob) {
	case CXPRM_EMUD_FAULT_CORRUPT_SIGNATURE:
	case CXPRM_EMUD_FAULT_WRONG_TOKEN: {
		// Which places (Faults::ENTRY, BLOCKS) the fault hits.
		auto &places = knob == CXPRM_EMUD_FAULT_WRONG_TOKEN ? f.wrong_output_token
								    : f.corrupt_output_signature;
		if (v > (emu::Faults::ENTRY | emu::Faults::BLOCKS))
			r.status = CXPRM_EMUD_ST_BAD_ARG;
		else
			r.value = places.exchange(v);
		break;
	}
	case CXPRM_EMUD_FAULT_DELIVERY_STATUS:
		if (v > 0x7f) { // 7-bit entry status
			r.status = CXPRM_EMUD_ST_BAD_ARG;
			break;
		}
		// Count first: the status makes the knob live.
		f.delivery_status_count = v ? (v2 ? v2 : 1) : 0;
		r.value = f.delivery_status.exchange((uint8_t)v);
		break;
	case CXPRM_EMUD_FAULT_OUTPUT_LENGTH_LIE:
		r.value = f.output_length_lie.exchange(v);
		break;
	case CXPRM_EMUD_FAULT_SLOW_MS:
		if (v > 600000)
			r.status = CXPRM_EMUD_ST_BAD_ARG;
		else
			r.value = f.slow_ms.exchange(v);
		break;
	case CXPRM_EMUD_FAULT_CRASH:
		if (v)
			f.crash_answers_int_err = v2 != 0;
		r.value = f.crash.exchange(v != 0);
		break;
	case CXPRM_EMUD_FAULT_HEALTH_SYNDROME:
		if (v > 0xff) {
			r.status = CXPRM_EMUD_ST_BAD_ARG;
			break;
		}
		r.value = f.health_syndrome.exchange((uint8_t)v);
		break;
	case CXPRM_EMUD_FAULT_DEVICE_GONE:
		r.value = f.device_gone.exchange(v != 0);
		if (v) {
			// The emulator's thread fills the device BAR with 0xff at its
			// next step: answer once that happened, so the client sees it.
			auto end = std::chrono::steady_clock::now() + std::chrono::seconds(2);
			while (!emu_.gone() && std::chrono::steady_clock::now() < end)
				std::this_thread::sleep_for(std::chrono::microseconds(100));
			if (!emu_.gone())
				r.status = CXPRM_EMUD_ST_TIMEOUT;
		}
		break;
	case CXPRM_EMUD_FAULT_ONLY_OPCODE:
		if (v != 0xffffffffu && v > 0xffff)
			r.status = CXPRM_EMUD_ST_BAD_ARG;
		else
			r.value = (uint32_t)f.only_opcode.exchange(v == 0xffffffffu ? -1 : (int32_t)v);
		break;
	default: // the on/off knobs, or none
		if (const OnOffKnob *b = find_row<&OnOffKnob::knob>(kOnOffKnobs, knob))
			r.value = (f.*b->flag).exchange(v != 0);
		else
			r.status = CXPRM_EMUD_ST_UNKNOWN_CMD;
		break;
	}
	log_.info("control: fault %s(%u) = 0x%x (0x%x): %s", fault_name(knob), knob, v, v2,
		  r.status == CXPRM_EMUD_ST_OK ? "ok" : "failed");
	return r;
}

ControlServer::Result ControlServer::query(const uint32_t *arg)
{
	Result r;
	switch (arg[0]) {
	case CXPRM_EMUD_Q_PAGES_HELD: r.value = emu_.pages_held(); break;
	case CXPRM_EMUD_Q_COMMANDS: r.value = emu_.commands_processed(); break;
	case CXPRM_EMUD_Q_HCA_STATE: r.value = (uint64_t)emu_.hca_state(); break;
	case CXPRM_EMUD_Q_NUM_VFS: r.value = emu_.num_vfs(); break;
	case CXPRM_EMUD_Q_ISSI: r.value = emu_.current_issi(); break;
	case CXPRM_EMUD_Q_INITIALIZING: r.value = emu_.initializing(); break;
	case CXPRM_EMUD_Q_CRASHED: r.value = emu_.crashed(); break;
	case CXPRM_EMUD_Q_SW_RESET: r.value = emu_.sw_resetting(); break;
	case CXPRM_EMUD_Q_GONE: r.value = emu_.gone(); break;
	case CXPRM_EMUD_Q_HEALTH_COUNTER: r.value = emu_.health_counter(); break;
	case CXPRM_EMUD_Q_PAGES_GIVEN: r.value = emu_.pages_given_total(); break;
	case CXPRM_EMUD_Q_PAGES_TAKEN: r.value = emu_.pages_taken_total(); break;
	case CXPRM_EMUD_Q_PAGES_WANTED:
		if (arg[1] < 1 || arg[1] > 3)
			r.status = CXPRM_EMUD_ST_BAD_ARG;
		else
			r.value = (uint64_t)(int64_t)emu_.pages_wanted((uint16_t)arg[1]);
		break;
	case CXPRM_EMUD_Q_FN_PAGES_HELD:
		r.value = arg[1] > 0xffff ? 0 : emu_.pages_held((uint16_t)arg[1], arg[2] != 0);
		break;
	case CXPRM_EMUD_Q_FN_ENABLED:
		r.value = arg[1] <= 0xffff && emu_.function_enabled((uint16_t)arg[1], arg[2] != 0);
		break;
	case CXPRM_EMUD_Q_OPCODE_COUNT:
		r.value = arg[1] > 0xffff ? 0 : emu_.opcode_count((uint16_t)arg[1]);
		break;
	case CXPRM_EMUD_Q_LAST_STATUS:
		r.value = (uint64_t)emu_.last_syndrome() << 32 | emu_.last_status();
		break;
	case CXPRM_EMUD_Q_LAST_DELIVERY: r.value = emu_.last_delivery_status(); break;
	case CXPRM_EMUD_Q_UARS: r.value = emu_.uar_count(); break;
	case CXPRM_EMUD_Q_EQS: r.value = emu_.eq_count(); break;
	case CXPRM_EMUD_Q_DCTS: r.value = emu_.dct_count(); break;
	case CXPRM_EMUD_Q_NVMF_NAMESPACES: r.value = emu_.nvmf_namespace_count(); break;
	case CXPRM_EMUD_Q_OBJECTS: r.value = emu_.object_counts().total(); break;
	case CXPRM_EMUD_Q_CHECK_REFS: r.value = emu_.profile().objects.check_refs; break;
	case CXPRM_EMUD_Q_COUNTER: {
		emu::Counters c = emu_.counters();
		pick<kCounters>(arg[1],
				{c.commands_processed, c.commands_executed, c.delivery_errors,
				 c.ignored_doorbells, c.unreachable_entries, c.eqes_written,
				 c.eq_overruns, c.eqe_dma_errors, c.bad_eq_doorbells, c.irqs_raised,
				 c.pages_leaked, c.objects_leaked, plat_.dma_refused(), c.fw_restarts},
				&r.status, &r.value);
		break;
	}
	case CXPRM_EMUD_Q_FAULTS_FIRED: r.value = emu_.faults().fired.load(); break;
	case CXPRM_EMUD_Q_CHECKSUMS: r.value = emu_.checksums_enabled(); break;
	case CXPRM_EMUD_Q_NVMF_COUNTER: {
		emu::NvmfCounters c;
		if (!emu_.nvmf_counters(arg[1], arg[2], &c))
			r.status = CXPRM_EMUD_ST_REFUSED;
		else
			pick<kNvmfFields>(arg[3],
					  {c.read_cmds, c.read_blocks, c.write_cmds, c.write_blocks,
					   c.flush_cmds, c.error_cmds, c.backend_error_cmds,
					   c.write_inline_cmds},
					  &r.status, &r.value);
		break;
	}
	case CXPRM_EMUD_Q_NVME_QUEUE:
		r = nvme_queue_field(arg[1], false, arg[2]);
		break;
	case CXPRM_EMUD_Q_NVME_STAT: {
		emu::NvmeSsdStats s = emu_.nvme_stats();
		pick<kNvmeStats>(arg[1],
				 {s.commands, s.reads, s.writes, s.flushes, s.errors, s.sq_doorbells,
				  s.bad_doorbells},
				 &r.status, &r.value);
		break;
	}
	default:
		r.status = CXPRM_EMUD_ST_UNKNOWN_CMD;
		break;
	}
	return r;
}

ControlServer::Result ControlServer::nvme_queue_field(uint32_t qid, bool take, uint32_t field)
{
	Result r;
	emu::NvmeQueueInfo q;
	if (qid > 0xffff || !(take ? emu_.nvme_take_queue((uint16_t)qid, &q) : emu_.nvme_queue((uint16_t)qid, &q)))
		r.status = CXPRM_EMUD_ST_BAD_ARG;
	else
		pick<kNvmeqFields>(field, {q.sq_bus, q.cq_bus, q.sqt_db_bus, q.db_stride, q.depth}, &r.status,
				   &r.value);
	return r;
}

} // namespace cxprm::emud
