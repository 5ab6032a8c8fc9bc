// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// cxprm-bench-layout: the layout layer's get<>/set<> (layout.h) against
// hand-written shift/mask/byte-swap code for the same fields, one noinline
// function per access, for instruction counts under
// `valgrind --tool=callgrind` (tools/bench/bench.sh sums the L_* and H_*
// functions' own costs and reports the ratio).
//
// The fields: cmd_queue_entry's token (8 bits at 0x1e0), status (7 bits at
// 0x1f8), ownership (1 bit at 0x1ff), input_length (a whole dword at 0x20),
// output_mailbox_pointer_31_9 (23 bits at 0x1a0) and dctc's dc_access_key
// (64 bits at 0x100).
//
// Both versions must compute the same values; the program checks that and
// exits non-zero otherwise.
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "cxprm/layout.h"
#include "cxprm/prm/dct.h"
#include "cxprm/prm/transport.h"

using namespace cxprm;
using prm::cmd_queue_entry;
using dctc = prm::dctc;

#define NOINLINE extern "C" __attribute__((noinline))

// --- the layout layer --------------------------------------------------------
NOINLINE u64 L_get_token(const u8 *p) { return prm::get<cmd_queue_entry::token>(prm::CRef<cmd_queue_entry>(p)); }
NOINLINE u64 L_get_status(const u8 *p) { return prm::get<cmd_queue_entry::status>(prm::CRef<cmd_queue_entry>(p)); }
NOINLINE u64 L_get_owner(const u8 *p) { return prm::get<cmd_queue_entry::ownership>(prm::CRef<cmd_queue_entry>(p)); }
NOINLINE u64 L_get_inlen(const u8 *p) { return prm::get<cmd_queue_entry::input_length>(prm::CRef<cmd_queue_entry>(p)); }
NOINLINE u64 L_get_optr(const u8 *p)
{
	return prm::get<cmd_queue_entry::output_mailbox_pointer_31_9>(prm::CRef<cmd_queue_entry>(p));
}
NOINLINE u64 L_get_key(const u8 *p) { return prm::get<dctc::dc_access_key>(prm::CRef<dctc>(p)); }
NOINLINE void L_set_token(u8 *p, u64 v) { prm::set<cmd_queue_entry::token>(prm::Ref<cmd_queue_entry>(p), v); }
NOINLINE void L_set_status(u8 *p, u64 v) { prm::set<cmd_queue_entry::status>(prm::Ref<cmd_queue_entry>(p), v); }
NOINLINE void L_set_owner(u8 *p, u64 v) { prm::set<cmd_queue_entry::ownership>(prm::Ref<cmd_queue_entry>(p), v); }
NOINLINE void L_set_inlen(u8 *p, u64 v) { prm::set<cmd_queue_entry::input_length>(prm::Ref<cmd_queue_entry>(p), v); }
NOINLINE void L_set_optr(u8 *p, u64 v)
{
	prm::set<cmd_queue_entry::output_mailbox_pointer_31_9>(prm::Ref<cmd_queue_entry>(p), v);
}
NOINLINE void L_set_key(u8 *p, u64 v) { prm::set<dctc::dc_access_key>(prm::Ref<dctc>(p), v); }

// --- by hand -----------------------------------------------------------------
static inline u32 rd32(const u8 *p, unsigned off)
{
	u32 v;
	std::memcpy(&v, p + off, 4);
	return __builtin_bswap32(v);
}
static inline void wr32(u8 *p, unsigned off, u32 v)
{
	v = __builtin_bswap32(v);
	std::memcpy(p + off, &v, 4);
}

NOINLINE u64 H_get_token(const u8 *p) { return rd32(p, 0x3c) >> 24; }
NOINLINE u64 H_get_status(const u8 *p) { return (rd32(p, 0x3c) >> 1) & 0x7f; }
NOINLINE u64 H_get_owner(const u8 *p) { return rd32(p, 0x3c) & 1; }
NOINLINE u64 H_get_inlen(const u8 *p) { return rd32(p, 0x04); }
NOINLINE u64 H_get_optr(const u8 *p) { return (rd32(p, 0x34) >> 9) & 0x7fffff; }
NOINLINE u64 H_get_key(const u8 *p) { return (u64)rd32(p, 0x20) << 32 | rd32(p, 0x24); }
NOINLINE void H_set_token(u8 *p, u64 v) { wr32(p, 0x3c, (rd32(p, 0x3c) & 0x00ffffffu) | (u32)v << 24); }
NOINLINE void H_set_status(u8 *p, u64 v) { wr32(p, 0x3c, (rd32(p, 0x3c) & ~0xfeu) | ((u32)v & 0x7f) << 1); }
NOINLINE void H_set_owner(u8 *p, u64 v) { wr32(p, 0x3c, (rd32(p, 0x3c) & ~1u) | ((u32)v & 1)); }
NOINLINE void H_set_inlen(u8 *p, u64 v) { wr32(p, 0x04, (u32)v); }
NOINLINE void H_set_optr(u8 *p, u64 v) { wr32(p, 0x34, (rd32(p, 0x34) & 0x1ffu) | ((u32)v & 0x7fffff) << 9); }
NOINLINE void H_set_key(u8 *p, u64 v)
{
	wr32(p, 0x20, (u32)(v >> 32));
	wr32(p, 0x24, (u32)v);
}

struct Ops {
	u64 (*get[6])(const u8 *);
	void (*set[6])(u8 *, u64);
};
static const Ops kLayout = {{L_get_token, L_get_status, L_get_owner, L_get_inlen, L_get_optr, L_get_key},
			    {L_set_token, L_set_status, L_set_owner, L_set_inlen, L_set_optr, L_set_key}};
static const Ops kHand = {{H_get_token, H_get_status, H_get_owner, H_get_inlen, H_get_optr, H_get_key},
			  {H_set_token, H_set_status, H_set_owner, H_set_inlen, H_set_optr, H_set_key}};

// Runs every access n times on buf; returns a checksum of what was read.
static u64 run(const Ops &o, u8 *buf, long n)
{
	u64 sum = 0, v = 0x0123456789abcdefull;
	for (long i = 0; i < n; i++) {
		for (int f = 0; f < 6; f++) {
			o.set[f](buf, v);
			sum += o.get[f](buf);
			v = v * 6364136223846793005ull + 1442695040888963407ull;
		}
	}
	return sum;
}

int main(int argc, char **argv)
{
	long n = argc > 1 ? std::atol(argv[1]) : 100000;
	static_assert(dctc::dc_access_key::offset == 0x100 && dctc::dc_access_key::width == 64);
	static_assert(cmd_queue_entry::output_mailbox_pointer_31_9::offset == 0x1a0);
	alignas(8) u8 a[128] = {}, b[128] = {};
	u64 x = run(kLayout, a, n), y = run(kHand, b, n);
	if (x != y || std::memcmp(a, b, sizeof(a))) {
		std::fprintf(stderr, "cxprm-bench-layout: layout and hand-written code disagree\n");
		return 1;
	}
	std::printf("layout == hand-written over %ld x 12 accesses (checksum %llx)\n", n, (unsigned long long)x);
	return 0;
}
