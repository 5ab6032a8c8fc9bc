// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// Fuzz target: the ioctl request checks, as the kernel shim
// (drivers/cxprm_cdev.c) runs them on what userspace passes, and the core
// calls behind them (capi.h), against the synchronous fake device.
//
//   CXPRM_IOC_RAW    cxprm_core_raw_check (lengths, flags, dump size),
//                    cxprm_core_raw_scope (the opcode allow-list), then
//                    cxprm_core_ioc_raw: the command with the wire dump the
//                    shim copies out
//   CXPRM_IOC_DCT_*  cxprm_core_dct_create/query/drain/destroy: every dctc
//                    field and the DCT number range-checked
//   QUERY_CAPS, NVMF_NS, ESW_FUNCTIONS: their argument checks, then the
//                    ioctls themselves (cxprm_core_ioc_typed: reserved
//                    fields and max > 1 refused, a firmware status in st)
//   CXPRM_IOC_OBJ_*, QP_MODIFY  cxprm_core_ioc_obj on a file's table: bad
//                    types and reserved fields refused before anything is
//                    sent, only the file's own objects destroyed or
//                    modified, and closing the file frees every queue
//
//   cxprm_core_ioctl  the whole entry with user memory as an arena of the
//                    input: privilege first, EFAULT outside the arena,
//                    ENOTTY for numbers that are not ours
//
// Oracles are written from the UAPI header's text, not from the code: what
// is accepted, what is refused for everyone, what the dump may hold (never
// more than dump_len), and that a CREATE_DCT sends exactly the fields given.
#include <cstring>
#include <vector>

#include "capi_rig.h"
#include "fake_host.h"
#include "fuzz_input.h"

#include "cxprm/capi.h"
#include "cxprm/commands/dct.h"
#include "cxprm/layout.h"
#include "cxprm/prm/dct.h"
#include "cxprm/prm/opcodes.h"

#include "uapi/linux/cxprm.h"

// The facade takes the UAPI's structs; the core asserts its enums and
// limits equal to the UAPI's in every build (core-cpp/src/ioctl.cpp).
constexpr uint32_t DUMP_HDR = sizeof(struct cxprm_raw_dump);

using namespace cxprm;
using cxprm::fuzz::FakeHost;
using cxprm::fuzz::rig;
using cxprm::fuzz::rig_file;
using cxprm::fuzz::UserCall;
using cxprm::fuzz::FuzzInput;

namespace {

constexpr int EINVAL_ = -22;

// include/uapi/linux/cxprm.h: "refused for everyone".
bool uapi_forbidden(u16 op)
{
	namespace o = prm::op;
	return op == o::ENABLE_HCA || op == o::DISABLE_HCA || op == o::INIT_HCA ||
	       op == o::TEARDOWN_HCA || op == o::MANAGE_PAGES || op == o::SET_ISSI ||
	       op == o::CREATE_EQ || op == o::DESTROY_EQ || op == o::DEALLOC_UAR;
}

void raw_request(FuzzInput &in)
{
	cxprm_raw_cmd req{};
	uint8_t shape = in.u8();
	// Mostly plausible lengths, sometimes any 32-bit value.
	req.inlen = (shape & 1) ? in.u32() : in.u16() % (CXPRM_RAW_MAX + 64);
	req.outlen = (shape & 2) ? in.u32() : in.u16() % (CXPRM_RAW_MAX + 64);
	req.flags = (shape & 4) ? in.u32() : (shape >> 3) & 1;
	req.dump_len = (shape & 0x10) ? in.u32() : in.u16();
	req.dump = (shape & 0x20) ? 0 : 0x7fff0000ull;

	bool want_dump = (req.flags & CXPRM_RAW_DUMP) && req.dump;
	bool ok = req.inlen >= 16 && req.inlen <= CXPRM_RAW_MAX && req.outlen >= 16 &&
		  req.outlen <= CXPRM_RAW_MAX && !(req.flags & ~CXPRM_RAW_DUMP) &&
		  (!want_dump || req.dump_len >= DUMP_HDR);
	cxprm_core_raw_plan plan;
	int err = cxprm_core_raw_check(&req, &plan);
	FUZZ_CHECK(err == 0 || err == EINVAL_);
	FUZZ_CHECK((err == 0) == ok);
	if (err)
		return;
	FUZZ_CHECK(plan.dump == (want_dump ? 1u : 0u));
	if (plan.dump)
		FUZZ_CHECK(DUMP_HDR + (uint64_t)plan.blocks_cap * CXPRM_MAILBOX_BYTES <= req.dump_len);
	else
		FUZZ_CHECK(plan.blocks_cap == 0);

	// The input as copied from userspace: its opcode decides the scope.
	std::vector<uint8_t> cmd(req.inlen);
	in.fill(cmd.data(), cmd.size());
	if (shape & 0x40) { // a known opcode, so the allow-list is exercised
		u16 op = (u16)(0x100 + in.u8() % 0x40);
		cmd[0] = (uint8_t)(op >> 8);
		cmd[1] = (uint8_t)op;
	}
	u16 opcode = cxprm_core_in_opcode(cmd.data());
	FUZZ_CHECK(opcode == (u16)(cmd[0] << 8 | cmd[1]));
	u16 op_mod = cxprm_core_in_op_mod(cmd.data());
	FUZZ_CHECK(op_mod == (u16)(cmd[6] << 8 | cmd[7]));
	int scope = cxprm_core_raw_scope_in(cmd.data());
	FUZZ_CHECK(scope == cxprm_core_raw_scope(opcode, op_mod));
	FUZZ_CHECK(scope == CXPRM_RAW_SCOPE_QUERY || scope == CXPRM_RAW_SCOPE_WRITE ||
		   scope == CXPRM_RAW_SCOPE_FORBIDDEN);
	FUZZ_CHECK((scope == CXPRM_RAW_SCOPE_FORBIDDEN) == uapi_forbidden(opcode));
	if (scope == CXPRM_RAW_SCOPE_QUERY) // QUERY_*, or a register read
		FUZZ_CHECK(std::strncmp(cxprm_core_opcode_name(opcode), "QUERY_", 6) == 0 ||
			   (opcode == 0x805 && op_mod == 1));
	if (scope == CXPRM_RAW_SCOPE_FORBIDDEN)
		return;

	// What the shim does next: the command, with the dump it copies out.
	std::vector<uint8_t> out(req.outlen);
	std::vector<uint8_t> blocks((size_t)plan.blocks_cap * CXPRM_MAILBOX_BYTES + 1, 0);
	cxprm_core_capture cap{};
	cap.blocks = plan.blocks_cap ? blocks.data() : nullptr;
	const cxprm_raw_dump &hdr = cap.hdr;
	uint32_t dump_len = req.dump_len;
	err = cxprm_core_ioc_raw(rig().core, &req, cmd.data(), out.data(), &plan, &cap);
	FUZZ_CHECK(err == 0); // a firmware status is a result in st, not the errno
	FUZZ_CHECK(req.st.opcode == opcode);
	FUZZ_CHECK(plan.dump ? req.dump_len != 0 : req.dump_len == 0);
	if (plan.dump) {
		uint64_t nblk = (uint64_t)hdr.in_blocks + hdr.out_blocks;
		FUZZ_CHECK(nblk <= plan.blocks_cap);
		FUZZ_CHECK(req.dump_len == DUMP_HDR + nblk * CXPRM_MAILBOX_BYTES);
		FUZZ_CHECK(req.dump_len <= dump_len);
		FUZZ_CHECK(blocks.back() == 0);
		uint32_t want = prm::mailbox_blocks(req.inlen) + prm::mailbox_blocks(req.outlen);
		FUZZ_CHECK(hdr.truncated == (want > plan.blocks_cap ? 1u : 0u));
	}
}

#define CXPRM_FUZZ_DCTC_FIELDS(X)                                                          \
	X(pd) X(cqn) X(srqn_xrqn) X(user_index) X(dc_access_key) X(flow_label) X(pkey_index) \
	X(mtu) X(port) X(hop_limit) X(tclass) X(min_rnr_nak) X(my_addr_index) X(rre) X(rwe)   \
	X(rae) X(atomic_mode) X(cs_res) X(counter_set_id) X(dscp) X(ecn) X(eth_prio)

template <class T> void take(FuzzInput &in, T *v, bool wide)
{
	uint64_t x = wide ? in.u64() : in.u8() % 4 == 0 ? in.u64() : in.u8() % 8;
	*v = (T)x;
}

void dct_request(FuzzInput &in)
{
	uint8_t how = in.u8();
	cxprm_dctc k{};
#define X(f) take(in, &k.f, how & 1);
	CXPRM_FUZZ_DCTC_FIELDS(X)
#undef X
	bool fits = true;
#define X(f) fits = fits && prm::fits<prm::dctc::f>(k.f);
	CXPRM_FUZZ_DCTC_FIELDS(X)
#undef X
	// On the rig's RoCE port (ConnectX-7: RoCE v1 and v2) my_addr_index
	// must name one of the two default GID entries the driver wrote.
	fits = fits && k.my_addr_index < 2;
	uint64_t before = rig().dev.commands();
	cxprm_u32 dctn = 0xdeadbeef;
	cxprm_core_result res;
	int err = cxprm_core_dct_create(rig().core, &k, &dctn, &res);
	FUZZ_CHECK(fits ? err == 0 : err == EINVAL_);
	if (!fits) {
		FUZZ_CHECK(rig().dev.commands() == before); // nothing sent
		return;
	}
	// Exactly the fields given went to the firmware.
	const std::vector<uint8_t> &sent = rig().dev.last_in();
	FUZZ_CHECK(sent.size() == prm::create_dct_in::size_bytes);
	cmd::DctContext got;
	cmd::decode_dctc(prm::bytes<prm::create_dct_in::dct_context_entry>(
				 prm::CRef<prm::create_dct_in>(sent.data())),
			 &got);
#define X(f) FUZZ_CHECK(got.f == (uint64_t)k.f);
	CXPRM_FUZZ_DCTC_FIELDS(X)
#undef X
	FUZZ_CHECK(got.state == 0 && got.dc_access_key_violation_count == 0);

	uint32_t n = (how & 2) ? in.u32() : in.u32() & 0xffffff;
	bool n_fits = n <= 0xffffff;
	// The destroy drains and polls QUERY_DCT until DRAINED: the input says
	// after how many queries the firmware reports it (0..62), or never (63:
	// the 10 s drain timeout, a thousand queries on the fake clock, which
	// would otherwise be most of this target's time).
	uint32_t drained_after = how >> 2, queries = 0;
	rig().dev.handler = [&](FakeHost::Command &c) {
		FakeHost::answer_ok_zeroed(c);
		if (cxprm_core_in_opcode(c.in.data()) != prm::op::QUERY_DCT || drained_after == 63 ||
		    queries++ < drained_after || c.out.size() < prm::query_dct_out::size_bytes)
			return;
		prm::Ref<prm::query_dct_out> r(c.out.data());
		prm::set<prm::dctc::state>(prm::sub<prm::query_dct_out::dct_context_entry, prm::dctc>(r),
					   cmd::DCT_STATE_DRAINED);
	};
	cxprm_dctc q;
	err = cxprm_core_dct_query(rig().core, n, &q, &res);
	FUZZ_CHECK(n_fits ? err == 0 : err == EINVAL_);
	err = cxprm_core_dct_drain(rig().core, n, &res);
	FUZZ_CHECK(n_fits ? err == 0 : err == EINVAL_);
	err = cxprm_core_dct_destroy(rig().core, n, &res);
	FUZZ_CHECK(n_fits ? err == 0 : err == EINVAL_);
	rig().dev.handler = FakeHost::answer_ok_zeroed;
}

void other_requests(FuzzInput &in)
{
	static uint8_t image[sizeof(cxprm_caps::caps)];
	cxprm_core_result res;
	u16 cap_type = in.u16();
	int max = in.u8() & 1;
	int err = cxprm_core_query_caps(rig().core, cap_type, max, image, &res);
	// op_mod = cap_type << 1 | mode is 16 bits.
	FUZZ_CHECK(cap_type < 0x8000 ? err == 0 : err == EINVAL_);

	uint32_t xrqn = in.u32(), nsid = in.u32();
	cxprm_nvmf_ns ns{};
	ns.xrqn = xrqn;
	ns.nsid = nsid;
	err = cxprm_core_query_nvmf_ns(rig().core, &ns, &res);
	FUZZ_CHECK(xrqn <= 0xffffff ? err == 0 : err == EINVAL_);

	cxprm_esw_functions esw;
	std::memset(&esw, 0x5a, sizeof(esw));
	uint32_t words = in.u8() % 17; // the shim asks for CXPRM_ESW_MAX_SF_WORDS
	err = cxprm_core_query_esw(rig().core, &esw, words, &res);
	// Only an ECPF eswitch manager asks firmware (A8); else EOPNOTSUPP.
	FUZZ_CHECK(err == (cxprm_core_is_ecpf_esw_manager(rig().core) ? 0 : -95));
	for (uint32_t w = words; w < CXPRM_ESW_MAX_SF_WORDS; w++)
		FUZZ_CHECK(esw.sf_enable[w] == 0); // nothing past the words asked, no stale bytes

	// The ioctls on the structs as userspace passed them (the shim's call).
	static cxprm_caps caps;
	std::memset(&caps, 0, sizeof(caps));
	caps.cap_type = cap_type;
	caps.max = in.u8() % 4;
	caps.reserved0 = in.u8() % 8 == 1;
	caps.reserved1 = in.u8() % 8 == 1 ? in.u32() : 0;
	bool refused = caps.max > 1 || caps.reserved0 || caps.reserved1 || cap_type >= 0x8000;
	err = cxprm_core_ioc_typed(rig().core, CXPRM_IOC_QUERY_CAPS, nullptr, &caps);
	FUZZ_CHECK(refused ? err == EINVAL_ : err == 0); // a bad type: status in st
	if (!err)
		FUZZ_CHECK(caps.st.opcode == prm::op::QUERY_HCA_CAP);
	ns = {};
	ns.xrqn = xrqn;
	ns.nsid = nsid;
	ns.reserved = in.u8() % 8 == 1;
	err = cxprm_core_ioc_typed(rig().core, CXPRM_IOC_NVMF_NS, nullptr, &ns);
	FUZZ_CHECK(ns.reserved || xrqn > 0xffffff ? err == EINVAL_ : err == 0);
}

constexpr int ENOENT_ = -2;

// A struct cxprm_obj as userspace might pass it: mostly plausible.
void fill_obj(FuzzInput &in, cxprm_obj *o)
{
	*o = {};
	uint8_t how = in.u8();
	o->type = (how & 1) ? in.u32() : in.u8() % 9;
	o->id = (how & 2) ? in.u32() : in.u8() % 4;
	o->parent = (how & 4) ? in.u8() % 3 : 0;
	o->reserved = in.u8() % 16 == 1;
	for (uint8_t &b : o->u.raw)
		b = (how & 8) ? in.u8() : in.u8() % 4 == 0 ? in.u8() % 16 : 0;
}

// Refused for everyone (the UAPI header): no such type, a reserved field,
// a parent where none belongs.
bool obj_refused(const cxprm_obj &o)
{
	auto zero = [](const auto &a) {
		for (auto v : a)
			if (v)
				return false;
		return true;
	};
	if (o.type < CXPRM_OBJ_PD || o.type > CXPRM_OBJ_NVMF_NS || o.reserved)
		return true;
	if (o.parent && o.type != CXPRM_OBJ_NVMF_BACKEND && o.type != CXPRM_OBJ_NVMF_NS)
		return true;
	switch (o.type) {
	case CXPRM_OBJ_PD: return !zero(o.u.raw);
	case CXPRM_OBJ_CQ: return !zero(o.u.cq.reserved0) || !zero(o.u.cq.reserved);
	case CXPRM_OBJ_SRQ: return o.u.srq.reserved0 || !zero(o.u.srq.reserved);
	case CXPRM_OBJ_QP: return !zero(o.u.qp.reserved0) || !zero(o.u.qp.reserved);
	case CXPRM_OBJ_XRQ: return !zero(o.u.xrq.reserved);
	case CXPRM_OBJ_NVMF_BACKEND: return o.u.backend.reserved != 0;
	default: return !zero(o.u.ns.reserved);
	}
}

struct Owned {
	uint32_t type, parent, id;
};

void obj_request(FuzzInput &in)
{
	FakeHost &d = rig().dev;
	size_t dma0 = d.dma_live(), mem0 = d.mem_live();
	cxprm_core_objs *t = nullptr;
	FUZZ_CHECK(cxprm_core_objs_create(rig().core, &t) == 0);
	std::vector<Owned> owned; // what this file created
	auto find = [&](uint32_t type, uint32_t parent, uint32_t id) {
		for (size_t i = 0; i < owned.size(); i++)
			if (owned[i].type == type && owned[i].parent == parent && owned[i].id == id)
				return (int)i;
		return -1;
	};
	for (uint32_t n = in.u8() % 8; n > 0 && !in.empty(); n--) {
		uint8_t what = in.u8() % 4;
		uint64_t before = d.commands();
		if (what == 3) {
			cxprm_qp_modify m{};
			m.qpn = in.u8() % 2 ? in.u32() : 0;
			m.transition = in.u8() % 6;
			m.mtu = in.u8() % 7;
			m.remote_qpn = in.u8() % 2 ? in.u32() : in.u8();
			m.rq_psn = in.u8() % 2 ? in.u32() : 0;
			m.ack_timeout = in.u8();
			m.reserved[in.u8() % 2] = in.u8() % 16 == 1;
			int err = cxprm_core_ioc_obj(rig().core, CXPRM_IOC_QP_MODIFY, t, &m);
			bool bad = m.reserved[0] || m.reserved[1] ||
				   m.transition < CXPRM_QP_RST2INIT || m.transition > CXPRM_QP_2RST;
			if (bad)
				FUZZ_CHECK(err == EINVAL_);
			else if (find(CXPRM_OBJ_QP, 0, m.qpn) < 0)
				FUZZ_CHECK(err == EINVAL_ || err == ENOENT_);
			else
				FUZZ_CHECK(err == 0 || err == EINVAL_);
			if (err)
				FUZZ_CHECK(d.commands() == before);
			continue;
		}
		static const unsigned cmds[] = {CXPRM_IOC_OBJ_CREATE, CXPRM_IOC_OBJ_QUERY,
						CXPRM_IOC_OBJ_DESTROY};
		cxprm_obj o;
		fill_obj(in, &o);
		bool refused = obj_refused(o);
		int err = cxprm_core_ioc_obj(rig().core, cmds[what], t, &o);
		if (refused) {
			FUZZ_CHECK(err == EINVAL_);
			FUZZ_CHECK(d.commands() == before); // nothing sent
			continue;
		}
		if (what == 0) { // sizes may still be too large: EINVAL, nothing kept
			FUZZ_CHECK(err == 0 || err == EINVAL_ || err == -28 /* ENOSPC */);
			if (!err)
				owned.push_back({o.type, o.parent, o.id});
		} else if (what == 1) { // only CQ and SRQ have a query command
			bool q = o.type == CXPRM_OBJ_CQ || o.type == CXPRM_OBJ_SRQ;
			// A zeroed rmpc (stride 0 < 16 bytes) is firmware's EPROTO.
			bool proto = o.type == CXPRM_OBJ_SRQ && err == -71;
			FUZZ_CHECK(q ? err == 0 || err == EINVAL_ || proto : err == -95);
		} else { // only the file's own
			int i = find(o.type, o.parent, o.id);
			FUZZ_CHECK(i < 0 ? err == ENOENT_ : err == 0);
			if (i >= 0)
				owned.erase(owned.begin() + i);
		}
		FUZZ_CHECK(cxprm_core_objs_count(t) == owned.size());
	}
	// Close: every destroy answered OK here, so every queue is freed.
	cxprm_u32 done = 0;
	FUZZ_CHECK(cxprm_core_objs_destroy(rig().core, t, &done) == 0);
	FUZZ_CHECK(done == owned.size());
	FUZZ_CHECK(d.dma_live() == dma0 && d.mem_live() == mem0);
}

// The one entry, cxprm_core_ioctl(), as the kernel shim calls it, with
// the user's memory an arena of the input (capi_rig.h).  Only commands
// that make nothing are chosen, so no state stays between inputs.
// Oracles from the UAPI: INFO needs nothing, every other ioctl
// CAP_NET_ADMIN first; unknown numbers are ENOTTY; the errno is one the
// UAPI documents.
void entry_request(FuzzInput &in)
{
	cxprm_core_file &file = rig_file();
	static const unsigned int cmds[] = {
		CXPRM_IOC_INFO, CXPRM_IOC_STATS, CXPRM_IOC_RAW, CXPRM_IOC_SUBSCRIBE,
		CXPRM_IOC_QUERY_CAPS, CXPRM_IOC_NVMF_NS, CXPRM_IOC_ESW_FUNCTIONS,
		CXPRM_IOC_DCT_QUERY, CXPRM_IOC_DCT_DRAIN, CXPRM_IOC_DCT_DESTROY,
	};
	UserCall u;
	uint8_t shape = in.u8();
	u.admin = shape & 1;
	u.raw_write = shape & 2;
	bool known = !(shape & 4);
	unsigned int cmd = known ? cmds[in.u8() % (sizeof(cmds) / sizeof(cmds[0]))] : in.u32();
	// A random number that is a creating ioctl, or a batch (its ops may
	// create), would leave state behind (fuzz/targets/ioctl_batch.cpp
	// fuzzes the batch).
	if (cmd == CXPRM_IOC_DCT_CREATE || cxprm_core_ioc_is_obj(cmd) || cmd == CXPRM_IOC_BATCH)
		cmd = CXPRM_IOC_DCT_QUERY;
	u.mem.resize(in.u16() % 0x2000);
	in.fill(u.mem.data(), u.mem.size());
	// Pointers inside the request point into the arena, mostly.
	if ((shape & 8) && u.mem.size() >= sizeof(cxprm_raw_cmd) && cmd == CXPRM_IOC_RAW) {
		cxprm_raw_cmd rc;
		std::memcpy(&rc, u.mem.data(), sizeof(rc));
		rc.in = u.base + in.u16() % u.mem.size();
		rc.out = u.base + in.u16() % u.mem.size();
		rc.dump = u.base + in.u16() % u.mem.size();
		std::memcpy(u.mem.data(), &rc, sizeof(rc));
	}
	cxprm_u64 uarg = (shape & 0x10) ? in.u64() : u.base + (u.mem.empty() ? 0 : in.u8() % 16);
	const cxprm_core_caller caller{&UserCall::ops, &u};
	long err = cxprm_core_ioctl(rig().core, &file, cmd, uarg, &caller);
	FUZZ_CHECK(err == 0 || err == -1 || err == -2 || err == -12 || err == -14 || err == EINVAL_ ||
		   err == -25 || err == -95);
	bool ours = known || cmd == CXPRM_IOC_INFO || cmd == CXPRM_IOC_STATS || cmd == CXPRM_IOC_RAW ||
		    cmd == CXPRM_IOC_SUBSCRIBE || cxprm_core_ioc_is_batchable(cmd);
	if (!ours)
		FUZZ_CHECK(err == -25);
	if (known && !u.admin && cmd != CXPRM_IOC_INFO && cmd != CXPRM_IOC_RAW)
		FUZZ_CHECK(err == -1); // asked before anything is copied
	if (cmd == CXPRM_IOC_INFO)
		FUZZ_CHECK(err == (u.at(uarg, sizeof(cxprm_info)) ? 0 : -14));
	FUZZ_CHECK(file.dcts.n == 0 && (!file.objs || cxprm_core_objs_count(file.objs) == 0));
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	FuzzInput in(data, size);
	switch (in.u8() % 5) {
	case 0: raw_request(in); break;
	case 1: dct_request(in); break;
	case 2: other_requests(in); break;
	case 3: obj_request(in); break;
	default: entry_request(in); break;
	}
	return 0;
}
