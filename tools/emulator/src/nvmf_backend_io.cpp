// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// The adapter's side of an NVMF backend controller: frontend commands
// become NVMe commands on the backend's SQ (at the address
// CREATE_NVMF_BACKEND_CTRL gave), the SQ tail doorbell is rung, the CQ
// reaped by its phase tag and its head doorbell rung, and the namespace's
// counters move with what came back.  At most depth - 1 commands are
// outstanding (a full NVMe queue).  When a round neither submits nor
// completes anything, what is outstanding has timed out
// (log_cmd_timeout_us): backend errors.  So the counters move only when
// the addresses name an NVMe queue pair that answers: the driver's own
// pages, a wrong SQ offset or a doorbell record instead of a doorbell
// register all end as backend_error_cmds (prm-notes-nvmf.rst "NVMF backend").
#include "emu_device.h"
#include "nvme_wire.h"

#include <algorithm>
#include <map>

namespace cxprm::emu {

namespace {
using nvme::le32;
using nvme::put32;
using nvme::put64;
constexpr uint32_t SQE = nvme::SQE_BYTES, CQE = nvme::CQE_BYTES;
constexpr uint64_t LBA_WINDOW = 1ull << 20;      // the initiator's LBAs wrap here
constexpr uint64_t LBA_REFUSED = 1ull << 62;     // an LBA no backend namespace has
constexpr uint32_t MAX_NLB = 1u << 16;           // NVMe NLB is 16 bits, 0-based

struct BeCmd {
	uint8_t op;
	bool inline_data;
	uint32_t nlb;
	uint64_t slba;
};

// n commands of op sharing 'blocks' blocks (at least one each).
void add_cmds(std::vector<BeCmd> *v, uint8_t op, uint64_t n, uint64_t blocks, uint64_t n_inline,
	      uint64_t *lba)
{
	for (uint64_t i = 0; i < n; i++) {
		uint64_t nlb = op == NvmeSsd::OP_FLUSH ? 0 : blocks / n + (i < blocks % n);
		nlb = std::clamp<uint64_t>(nlb, op == NvmeSsd::OP_FLUSH ? 0 : 1, MAX_NLB);
		v->push_back({op, i < n_inline, (uint32_t)nlb, *lba});
		*lba = (*lba + nlb) % LBA_WINDOW;
	}
}

// The SQE of c (NVMe 1.4 figure 346 and the NVM command set's read/write).
void build_sqe(uint8_t *sqe, const BeCmd &c, uint16_t cid, uint32_t nsid, uint64_t staging)
{
	std::fill(sqe, sqe + SQE, 0);
	put32(sqe, c.op | (uint32_t)cid << 16); // CDW0: opcode, PRP data transfer, CID
	put32(sqe + 4, nsid);
	if (c.op != NvmeSsd::OP_FLUSH) {
		put64(sqe + 24, staging);            // PRP1: the XRQ's staging buffer
		put64(sqe + 40, c.slba);             // CDW10-11
		put32(sqe + 48, c.nlb - 1);          // CDW12: NLB, 0-based
	}
}

void count_ok(NvmfCounters &k, const BeCmd &c)
{
	if (c.op == NvmeSsd::OP_READ) {
		k.read_cmds++;
		k.read_blocks += c.nlb;
		k.last_read_latency = 8 + c.nlb; // us: a plausible figure, not timed
	} else if (c.op == NvmeSsd::OP_WRITE) {
		k.write_cmds++;
		k.write_blocks += c.nlb;
		k.write_inline_cmds += c.inline_data;
		k.last_write_latency = 12 + c.nlb;
	} else {
		k.flush_cmds++;
	}
}
} // namespace

bool Device::bus_read(uint64_t bus, void *dst, size_t len)
{
	return ssd.claims(bus, len) ? ssd.read(bus, dst, len) : p_.dma_read(bus, dst, len);
}

bool Device::bus_write(uint64_t bus, const void *src, size_t len)
{
	return ssd.claims(bus, len) ? ssd.write(bus, src, len) : p_.dma_write(bus, src, len);
}

void Device::backend_io(Namespace &ns, NvmfBackendInfo *be, uint64_t staging, const NvmfIo &io)
{
	NvmfCounters &k = ns.c;
	std::vector<BeCmd> cmds;
	// Writes first carry their data in the capsule (write_inline_cmds of them).
	add_cmds(&cmds, NvmeSsd::OP_READ, io.read_cmds, io.read_blocks, 0, &ns.next_lba);
	add_cmds(&cmds, NvmeSsd::OP_WRITE, io.write_cmds, io.write_blocks, io.write_inline_cmds, &ns.next_lba);
	add_cmds(&cmds, NvmeSsd::OP_FLUSH, io.flush_cmds, 0, 0, &ns.next_lba);
	// Commands the backend itself refuses: reads beyond any namespace.
	for (uint64_t i = 0; i < io.backend_error_cmds; i++)
		cmds.push_back({NvmeSsd::OP_READ, false, 1, LBA_REFUSED});
	// A provisioned namespace (ProvisionProfile): its backend is another
	// user's NVMe queue pair, not modelled; it answers each command at
	// once, all but the reads it refuses.
	if (ns.provisioned) {
		for (const BeCmd &c : cmds) {
			if (c.slba == LBA_REFUSED)
				k.backend_error_cmds++;
			else
				count_ok(k, c);
		}
		k.current_q_depth = cmds.empty() ? 0 : 1;
		return;
	}
	if (!be || be->depth < 2) {
		k.backend_error_cmds += cmds.size();
		return;
	}
	std::map<uint16_t, BeCmd> outstanding; // by CID
	size_t next = 0;
	uint32_t peak = 0;
	uint8_t buf[SQE], db[4];
	while (next < cmds.size() || !outstanding.empty()) {
		bool submitted = false, completed = false;
		while (next < cmds.size() && outstanding.size() + 1 < be->depth) {
			const BeCmd &c = cmds[next++];
			uint16_t cid = be->next_cid++;
			build_sqe(buf, c, cid, ns.backend_nsid, staging);
			if (!bus_write(be->sq + (uint64_t)be->sq_tail * SQE, buf, SQE)) {
				be->failed++;
				k.backend_error_cmds++;
				continue;
			}
			be->sq_tail = (uint16_t)((be->sq_tail + 1) % be->depth);
			be->submitted++;
			outstanding[cid] = c;
			submitted = true;
		}
		peak = std::max<uint32_t>(peak, (uint32_t)outstanding.size());
		if (submitted) {
			put32(db, be->sq_tail);
			bus_write(be->sqt_db, db, 4); // lost when it names no doorbell: a timeout below
		}
		uint32_t reaped = 0;
		while (reaped < be->depth && bus_read(be->cq + (uint64_t)be->cq_head * CQE, buf, CQE)) {
			uint32_t dw3 = le32(buf + 12);
			if (((dw3 >> 16) & 1) != be->phase)
				break;
			reaped++;
			be->cq_head = (uint16_t)((be->cq_head + 1) % be->depth);
			if (!be->cq_head)
				be->phase = !be->phase;
			auto it = outstanding.find((uint16_t)dw3);
			if (it == outstanding.end())
				continue; // not one of ours: stale or another user's
			completed = true;
			if ((dw3 >> 17 & 0x7ff) == 0) { // SCT and SC both 0
				be->completed++;
				count_ok(k, it->second);
			} else {
				be->failed++;
				k.backend_error_cmds++;
			}
			outstanding.erase(it);
		}
		if (reaped) {
			put32(db, be->cq_head);
			bus_write(be->cqh_db, db, 4);
		}
		if (!submitted && !completed) {
			be->timed_out += outstanding.size();
			k.backend_error_cmds += outstanding.size();
			outstanding.clear();
		}
	}
	k.current_q_depth = peak;
}

} // namespace cxprm::emu
