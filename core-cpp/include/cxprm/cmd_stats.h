/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Command statistics kept by the engine: per-opcode counters and latencies,
 * and a ring of the last commands with the first bytes of their input and
 * output.  Fixed-size tables (no allocation); the engine updates them under
 * its lock, readers copy them out with snapshot().
 */
#pragma once

#include "types.h"

namespace cxprm {

struct OpcodeStats {
	u16 opcode;
	bool used;
	u64 count;
	u64 errors;        /* any result other than OK */
	u8 last_status;    /* cmd_out.status of the last failure with one */
	u32 last_syndrome;
	u8 last_delivery;
	int last_err;      /* Err of the last failure */
	u64 lat_min_ns, lat_max_ns, lat_sum_ns;
};

struct CmdRecord {
	u64 seq;           /* 1, 2, ... in completion order */
	u64 time_ns;       /* host clock at completion */
	u16 opcode;
	u16 op_mod;
	u8 slot, token, delivery, status;
	u32 syndrome;
	int err;
	u32 inlen, outlen;
	u64 latency_ns;
	u8 in[16];         /* first bytes of the input message */
	u8 out[16];        /* first bytes of the output message */
};

class CmdStats {
public:
	static constexpr u32 MAX_OPCODES = 64;
	static constexpr u32 RING = 64;

	void record(const CmdRecord &r);
	/*
	 * record() in two steps, for a record written in place: claim() is
	 * the next ring entry (numbered; the caller fills every other field),
	 * count() adds the filled record to its opcode's counters.
	 */
	CmdRecord &claim();
	void count(const CmdRecord &r);
	/* Copies up to max per-opcode entries in use; returns how many. */
	u32 opcodes(OpcodeStats *out, u32 max) const;
	/* Copies the last up-to-max records, oldest first; returns how many. */
	u32 last(CmdRecord *out, u32 max) const;
	u64 total() const { return seq_; }
	void reset();

private:
	OpcodeStats ops_[MAX_OPCODES] = {};
	CmdRecord ring_[RING] = {};
	u64 seq_ = 0;
};

} // namespace cxprm
