// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// The backend NVMe controller model (nvme_ssd_model.h).  Its BAR:
//   0x0000  CAP (MQES = depth - 1, CQR, DSTRD), VS 1.4; other registers
//           read 0 and ignore writes (the adapter never touches them)
//   0x1000  doorbells: SQyTDBL at 0x1000 + 2y * (4 << DSTRD), CQyHDBL
//           after it (NVMe 1.4 section 3.1.24/25); y = 0, the admin
//           queue, is its driver's and not modelled
//   CMB     from the next 64 KiB: per I/O queue pair, the SQ (depth x 64
//           bytes) then the CQ (depth x 16 bytes), each 4 KiB aligned
// A doorbell write with a value beyond the queue is ignored and counted
// (a real controller posts an Invalid Doorbell Write Value event).
#include "nvme_ssd_model.h"

#include "nvme_wire.h"

#include <algorithm>
#include <cstring>

namespace cxprm::emu {

namespace {
using nvme::le32;
using nvme::le64;
using nvme::put32;
constexpr uint64_t REGS = 0x1000, PAGE = 0x1000, CMB_ALIGN = 0x10000;
constexpr uint32_t SQE = nvme::SQE_BYTES, CQE = nvme::CQE_BYTES;
constexpr uint32_t NSID_ALL = 0xffffffffu;

uint64_t round_up(uint64_t v, uint64_t a) { return (v + a - 1) / a * a; }
} // namespace

NvmeSsd::NvmeSsd(const NvmeSsdProfile &p) : p_(p)
{
	p_.dstrd = std::min<uint8_t>(p_.dstrd, 8);
	p_.io_queues = std::clamp<uint16_t>(p_.io_queues, 1, 64);
	p_.queue_depth = std::clamp<uint16_t>(p_.queue_depth, 2, 4096);
	p_.lba_shift = std::clamp<uint8_t>(p_.lba_shift, 9, 15);
	cmb_off_ = round_up(REGS + 2ull * (p_.io_queues + 1) * db_bytes(), CMB_ALIGN);
	pair_bytes_ = round_up((uint64_t)p_.queue_depth * SQE, PAGE) + round_up((uint64_t)p_.queue_depth * CQE, PAGE);
	bar_bytes_ = cmb_off_ + p_.io_queues * pair_bytes_;
	regs_.assign(REGS, 0);
	cmb_.assign(p_.io_queues * pair_bytes_, 0);
	q_.assign(p_.io_queues, Queue{});
	uint64_t cap = (uint64_t)(p_.queue_depth - 1) | 1ull << 16 /* CQR */ | (uint64_t)p_.dstrd << 32;
	put32(&regs_[0], (uint32_t)cap);
	put32(&regs_[4], (uint32_t)(cap >> 32));
	put32(&regs_[8], 0x00010400); // VS 1.4.0
}

uint64_t NvmeSsd::sq_off(uint16_t qid) const { return (uint64_t)(qid - 1) * pair_bytes_; }
uint64_t NvmeSsd::cq_off(uint16_t qid) const
{
	return sq_off(qid) + round_up((uint64_t)p_.queue_depth * SQE, PAGE);
}

bool NvmeSsd::claims(uint64_t bus, size_t len) const
{
	return len && bus >= p_.bar_bus && bus - p_.bar_bus < bar_bytes_ && len <= bar_bytes_ - (bus - p_.bar_bus);
}

bool NvmeSsd::queue(uint16_t qid, NvmeQueueInfo *out) const
{
	if (qid < 1 || qid > p_.io_queues)
		return false;
	if (out) {
		out->sq_bus = p_.bar_bus + cmb_off_ + sq_off(qid);
		out->cq_bus = p_.bar_bus + cmb_off_ + cq_off(qid);
		out->sqt_db_bus = p_.bar_bus + REGS + 2ull * qid * db_bytes();
		out->db_stride = p_.dstrd;
		out->depth = p_.queue_depth;
	}
	return true;
}

bool NvmeSsd::reset_queue(uint16_t qid)
{
	if (qid < 1 || qid > p_.io_queues)
		return false;
	q_[qid - 1] = Queue{};
	std::fill(cmb_.begin() + (long)sq_off(qid), cmb_.begin() + (long)(sq_off(qid) + pair_bytes_), 0);
	return true;
}

bool NvmeSsd::read(uint64_t bus, void *dst, size_t len)
{
	if (!claims(bus, len))
		return false;
	uint64_t off = bus - p_.bar_bus;
	if (off >= cmb_off_) {
		std::memcpy(dst, &cmb_[off - cmb_off_], len);
		return true;
	}
	if (off % 4 || len % 4 || off + len > cmb_off_)
		return false;
	// Registers; doorbells (and the gap before the CMB) read 0.
	std::memset(dst, 0, len);
	if (off < REGS)
		std::memcpy(dst, &regs_[off], std::min<uint64_t>(len, REGS - off));
	return true;
}

bool NvmeSsd::write(uint64_t bus, const void *src, size_t len)
{
	if (!claims(bus, len))
		return false;
	uint64_t off = bus - p_.bar_bus;
	if (off >= cmb_off_) {
		std::memcpy(&cmb_[off - cmb_off_], src, len);
		return true;
	}
	if (off % 4 || len != 4)
		return false;
	if (off >= REGS)
		doorbell(off - REGS, le32(static_cast<const uint8_t *>(src)));
	return true;
}

void NvmeSsd::doorbell(uint64_t reg_off, uint32_t value)
{
	uint64_t idx = reg_off / db_bytes();
	uint16_t qid = (uint16_t)(idx / 2);
	if (reg_off % db_bytes() || qid < 1 || qid > p_.io_queues || value >= p_.queue_depth) {
		stats_.bad_doorbells++;
		return;
	}
	Queue &q = q_[qid - 1];
	if (idx & 1) {
		q.cq_head = (uint16_t)value;
		stats_.cq_doorbells++;
	} else {
		q.sq_tail = (uint16_t)value;
		stats_.sq_doorbells++;
	}
	run_sq(qid);
}

void NvmeSsd::run_sq(uint16_t qid)
{
	Queue &q = q_[qid - 1];
	uint16_t depth = p_.queue_depth;
	while (q.sq_head != q.sq_tail && (uint16_t)((q.cq_tail + 1) % depth) != q.cq_head) {
		const uint8_t *sqe = &cmb_[sq_off(qid) + (uint64_t)q.sq_head * SQE];
		uint16_t cid = (uint16_t)(sqe[2] | sqe[3] << 8);
		uint16_t status = execute(sqe);
		q.sq_head = (uint16_t)((q.sq_head + 1) % depth);
		uint8_t *cqe = &cmb_[cq_off(qid) + (uint64_t)q.cq_tail * CQE];
		put32(cqe, 0);
		put32(cqe + 4, 0);
		put32(cqe + 8, q.sq_head | (uint32_t)qid << 16);               // SQHD, SQID
		put32(cqe + 12, cid | (uint32_t)q.phase << 16 | (uint32_t)status << 17); // CID, P, SF
		q.cq_tail = (uint16_t)((q.cq_tail + 1) % depth);
		if (q.cq_tail == 0)
			q.phase = !q.phase;
	}
}

uint16_t NvmeSsd::execute(const uint8_t *sqe)
{
	uint8_t op = sqe[0];
	uint32_t nsid = le32(sqe + 4);
	uint64_t prp1 = le64(sqe + 24);
	uint64_t slba = le64(sqe + 40);
	uint64_t nlb = (le32(sqe + 48) & 0xffff) + 1ull;
	bool ns_ok = nsid >= 1 && nsid <= p_.namespaces;
	uint16_t sc = SC_SUCCESS;
	stats_.commands++;
	if (op == OP_FLUSH) {
		if (ns_ok || nsid == NSID_ALL)
			stats_.flushes++;
		else
			sc = SC_INVALID_NS;
	} else if (op == OP_READ || op == OP_WRITE) {
		if (!ns_ok)
			sc = SC_INVALID_NS;
		else if (!prp1 || (prp1 & 3))
			sc = SC_INVALID_FIELD;
		else if (slba >= p_.ns_blocks || nlb > p_.ns_blocks - slba)
			sc = SC_LBA_RANGE;
		else if (op == OP_READ) {
			stats_.reads++;
			stats_.blocks_read += nlb;
		} else {
			stats_.writes++;
			stats_.blocks_written += nlb;
		}
	} else {
		sc = SC_INVALID_OPCODE;
	}
	stats_.errors += sc != SC_SUCCESS;
	return sc;
}

} // namespace cxprm::emu
