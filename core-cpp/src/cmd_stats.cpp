// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include "cxprm/cmd_stats.h"

namespace cxprm {

void CmdStats::record(const CmdRecord &r)
{
	CmdRecord &slot = claim();
	u64 seq = slot.seq;
	slot = r;
	slot.seq = seq;
	count(r);
}

CmdRecord &CmdStats::claim()
{
	CmdRecord &slot = ring_[seq_ % RING];
	slot.seq = ++seq_;
	return slot;
}

namespace {

static_assert((CmdStats::MAX_OPCODES & (CmdStats::MAX_OPCODES - 1)) == 0, "a power of two");

/*
 * An opcode's first place in the table: Fibonacci hashing.  PRM opcodes
 * come in runs (0x100.., 0x500.., 0x700..) whose low bits alone put the
 * QP and DCT commands behind a dozen of bring-up's on every count.
 */
u32 home(u16 opcode)
{
	return (u32)(opcode * 0x9E3779B1u) >> (32 - __builtin_ctz(CmdStats::MAX_OPCODES));
}

} // namespace

void CmdStats::count(const CmdRecord &r)
{
	/* Open addressing on the opcode; a full table stops counting new opcodes. */
	const u32 h = home(r.opcode);
	for (u32 i = 0; i < MAX_OPCODES; i++) {
		OpcodeStats &o = ops_[(h + i) & (MAX_OPCODES - 1)];
		if (o.used && o.opcode != r.opcode)
			continue;
		if (!o.used) {
			o = {};
			o.used = true;
			o.opcode = r.opcode;
			o.lat_min_ns = ~(u64)0;
		}
		o.count++;
		if (r.err) {
			o.errors++;
			o.last_err = r.err;
			o.last_status = r.status;
			o.last_syndrome = r.syndrome;
			o.last_delivery = r.delivery;
		}
		o.lat_min_ns = min_of(o.lat_min_ns, r.latency_ns);
		o.lat_max_ns = max_of(o.lat_max_ns, r.latency_ns);
		o.lat_sum_ns += r.latency_ns;
		return;
	}
}

u32 CmdStats::opcodes(OpcodeStats *out, u32 max) const
{
	u32 n = 0;

	for (u32 i = 0; i < MAX_OPCODES && n < max; i++)
		if (ops_[i].used)
			out[n++] = ops_[i];
	/* Sorted by opcode, so listings are stable. */
	for (u32 i = 1; i < n; i++)
		for (u32 j = i; j && out[j - 1].opcode > out[j].opcode; j--) {
			OpcodeStats t = out[j];
			out[j] = out[j - 1];
			out[j - 1] = t;
		}
	return n;
}

u32 CmdStats::last(CmdRecord *out, u32 max) const
{
	u64 have = min_of<u64>(seq_, RING);
	u32 n = (u32)min_of<u64>(have, max);

	for (u32 i = 0; i < n; i++)
		out[i] = ring_[(seq_ - n + i) % RING];
	return n;
}

void CmdStats::reset()
{
	for (auto &o : ops_)
		o = {};
	seq_ = 0;
}

} // namespace cxprm
