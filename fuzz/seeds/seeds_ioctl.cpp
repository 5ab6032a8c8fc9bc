// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// Seeds of the ioctl_request and ioctl_batch targets.
#include <array>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "hex.h"
#include "seed_bytes.h"

#include "cxprm/capi.h"
#include "uapi/linux/cxprm.h"
#include "cxprm/layout.h"
#include "cxprm/prm/adapter.h"
#include "cxprm/prm/dct.h"
#include "cxprm/prm/eq.h"
#include "cxprm/prm/esw.h"
#include "cxprm/prm/hca.h"
#include "cxprm/prm/hca_cap.h"
#include "cxprm/prm/issi.h"
#include "cxprm/prm/nvmf.h"
#include "cxprm/prm/opcodes.h"
#include "cxprm/prm/pages.h"
#include "cxprm/prm/registry.h"
#include "cxprm/prm/transport.h"

using namespace cxprm;
using namespace cxprm::prm;
namespace fs = std::filesystem;

namespace cxprm::seeds {

// ---- ioctl_request ----

void batch();

void ioctl_seed(const std::string &name, const Bytes &b) { write("ioctl_request", name, b); }

Bytes raw_req(uint32_t inlen, uint32_t outlen, uint32_t flags, uint32_t dump_len, bool dump_ptr,
	      u16 opcode)
{
	Bytes b;
	put8(b, 0);
	uint8_t shape = 0x01 | 0x02 | 0x04 | 0x10 | (dump_ptr ? 0 : 0x20);
	put8(b, shape);
	put32(b, inlen);
	put32(b, outlen);
	put32(b, flags);
	put32(b, dump_len);
	put16(b, opcode); // the input: opcode first
	return b;
}

// One object request of obj_request: what (0 create, 1 query, 2 destroy),
// then fill_obj's bytes with how = 0 (type, id, reserved, 32 attribute
// bytes: 1 for a zero byte, 0 then v for v < 16).
void put_obj(Bytes &b, uint8_t what, uint8_t type, uint8_t id, const std::vector<uint8_t> &attr = {})
{
	put8(b, what);
	put8(b, 0);
	put8(b, type);
	put8(b, id);
	put8(b, 0);
	for (size_t i = 0; i < 32; i++) {
		uint8_t v = i < attr.size() ? attr[i] : 0;
		if (v)
			put8(b, 0);
		put8(b, v ? v : 1);
	}
}

// A QP_MODIFY of QP 0 (what 3): transition, mtu 5, nothing reserved.
void put_modify(Bytes &b, uint8_t transition)
{
	for (uint8_t v : {3, 0, (int)transition, 5, 0, 0x34, 0, 14, 0, 0})
		put8(b, v);
}

void ioctl()
{
	const u32 HDR = sizeof(struct cxprm_raw_dump), BLK = CXPRM_MAILBOX_BYTES;
	ioctl_seed("raw_query_adapter", raw_req(16, 0x110, 0, 0, false, op::QUERY_ADAPTER));
	ioctl_seed("raw_dump_all_blocks", raw_req(16 + 512, 16 + 1024, 1, HDR + 3 * BLK, true, op::QUERY_HCA_CAP));
	ioctl_seed("raw_dump_header_only", raw_req(16 + 512, 16 + 512, 1, HDR, true, op::QUERY_ISSI));
	ioctl_seed("raw_dump_one_short", raw_req(16 + 512, 16 + 1024, 1, HDR + 3 * BLK - 1, true, op::QUERY_PAGES));
	ioctl_seed("raw_dump_len_below_header", raw_req(16, 16, 1, HDR - 1, true, op::QUERY_ISSI));
	ioctl_seed("raw_dump_flag_no_pointer", raw_req(16, 16, 1, 0, false, op::QUERY_ISSI));
	ioctl_seed("raw_inlen_15", raw_req(15, 16, 0, 0, false, op::QUERY_ISSI));
	ioctl_seed("raw_max_lengths", raw_req(CXPRM_RAW_MAX, CXPRM_RAW_MAX, 0, 0, false, op::QUERY_ESW_FUNCTIONS));
	ioctl_seed("raw_over_max", raw_req(16, CXPRM_RAW_MAX + 1, 0, 0, false, op::QUERY_ISSI));
	ioctl_seed("raw_unknown_flag", raw_req(16, 16, 2, 0, false, op::QUERY_ISSI));
	ioctl_seed("raw_forbidden_manage_pages", raw_req(16, 16, 0, 0, false, op::MANAGE_PAGES));
	ioctl_seed("raw_write_create_dct", raw_req(create_dct_in::size_bytes, 16, 0, 0, false, op::CREATE_DCT));

	// DCT: how (wide values), then each field, then a DCT number.
	Bytes d;
	put8(d, 1);
	put8(d, 1 | 2);
	const uint64_t ok[] = {1, 2, 3, 0, 0xc0ffee, 0, 0, 5, 1, 64, 0, 12, 0, 1, 1, 0, 0, 0, 0, 0, 0, 0};
	for (uint64_t v : ok)
		put64(d, v);
	put32(d, 0x1000);
	ioctl_seed("dct_create_typical", d);
	Bytes bad = d;
	bad[2 + 7 * 8 + 7] = 8; // mtu 8: 3 bits
	ioctl_seed("dct_create_mtu_too_wide", bad);
	Bytes big = d;
	big[big.size() - 4] = 0x01; // dctn 0x01001000: beyond 24 bits
	ioctl_seed("dct_number_beyond_24_bits", big);

	Bytes o;
	put8(o, 2);
	put16(o, cap::ESWITCH);
	put8(o, 1);
	put32(o, 0x80), put32(o, 1);
	put8(o, 16);
	ioctl_seed("caps_nvmf_esw", o);
	Bytes r;
	put8(r, 2);
	put16(r, 0x8000);
	put8(r, 0);
	put32(r, 0x1000000), put32(r, 1);
	put8(r, 0);
	ioctl_seed("caps_type_too_wide_xrqn_too_wide", r);

	// Objects: a PD made and destroyed; a CQ, queried, and a QP taken
	// through its states, left for the close.
	Bytes p;
	put8(p, 3);
	put8(p, 2);
	put_obj(p, 0, CXPRM_OBJ_PD, 0);
	put_obj(p, 2, CXPRM_OBJ_PD, 0);
	ioctl_seed("obj_pd_create_destroy", p);
	Bytes q;
	put8(q, 3);
	put8(q, 7);
	put_obj(q, 0, CXPRM_OBJ_CQ, 0, {4});
	put_obj(q, 1, CXPRM_OBJ_CQ, 0);
	put_obj(q, 0, CXPRM_OBJ_QP, 0);
	for (uint8_t t = CXPRM_QP_RST2INIT; t <= CXPRM_QP_2RST; t++)
		put_modify(q, t);
	ioctl_seed("obj_cq_qp_states", q);
	batch();
}

// ---- ioctl_batch ----

// An input of the ioctl_batch target: shape, the arena (extra bytes past
// the batch and a full op array, zero), the count byte (count = 1 +
// byte % 65), then per op how (0: cmd and arg follow), the cmd's index in
// its list and the arg's offset in the arena.
struct BatchOp {
	uint8_t cmd_index;
	uint16_t arg_offset;
};

Bytes batch_input(uint8_t shape, uint16_t extra, uint8_t count_byte, const std::vector<BatchOp> &ops)
{
	Bytes b;
	put8(b, shape);
	put16(b, extra);
	b.resize(b.size() + sizeof(cxprm_batch) + CXPRM_BATCH_MAX * sizeof(cxprm_batch_op) + extra % 0x3000);
	put8(b, count_byte);
	for (const BatchOp &o : ops) {
		put8(b, 0);
		put8(b, o.cmd_index);
		put16(b, o.arg_offset);
	}
	return b;
}

void batch()
{
	auto seed = [](const std::string &name, const Bytes &b) { write("ioctl_batch", name, b); };
	// Index in ioctl_batch.cpp's kCmds: 0 QUERY_CAPS, 3 DCT_QUERY, 5
	// DCT_DESTROY, 8 QP_MODIFY, 9 INFO, 10 RAW, 11 BATCH.
	const uint16_t arena = 0x1400, args = 0x500; // past the batch and the op array
	seed("caps_and_dct_query", batch_input(0, arena, 1, {{0, args}, {3, args}}));
	seed("mixed_refused", batch_input(0, arena, 5, {{9, args}, {10, args}, {11, args}, {5, args},
							{8, args}, {0, 0x7000}}));
	seed("count_65", batch_input(0, arena, 64, {}));
	seed("no_admin", batch_input(1, arena, 1, {{0, args}, {3, args}}));
	seed("flags_set", batch_input(8, arena, 1, {{0, args}, {3, args}}));
}

} // namespace cxprm::seeds
