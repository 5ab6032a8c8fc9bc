// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// Fuzz target: CXPRM_IOC_BATCH through cxprm_core_ioctl() as the kernel
// shim calls it, the user's memory an arena of the input (capi_rig.h):
// the batch struct, its op array and each op's struct anywhere in it or
// outside it, any count, flags and op numbers.  Only ops that make nothing
// are chosen (a creating number becomes DCT_QUERY), so no state stays.
//
// Oracles from the UAPI's text (include/uapi/linux/cxprm.h, "CXPRM_IOC_BATCH"):
//  - without CAP_NET_ADMIN: -EPERM, nothing else looked at;
//  - an unreadable batch or op array: -EFAULT; a bad count, flags or
//    reserved field: -EINVAL; then no op result is written;
//  - otherwise 0, done = the ops whose result is 0, each result what the
//    op's own ioctl may return, -ENOTTY for a number that is not a typed
//    or object ioctl, -EFAULT for a struct outside the arena.
#include <cstring>
#include <vector>

#include "capi_rig.h"
#include "fuzz_input.h"

#include "cxprm/capi.h"

#include "uapi/linux/cxprm.h"

using namespace cxprm;
using cxprm::fuzz::FuzzInput;
using cxprm::fuzz::rig;
using cxprm::fuzz::rig_file;
using cxprm::fuzz::UserCall;

namespace {

constexpr int EPERM_ = -1, ENOENT_ = -2, ENOMEM_ = -12, EFAULT_ = -14, EINVAL_ = -22,
	      ENOTTY_ = -25, ENOTSUP_ = -95, EPROTO_ = -71;

const unsigned int kCmds[] = {
	CXPRM_IOC_QUERY_CAPS, CXPRM_IOC_NVMF_NS,     CXPRM_IOC_ESW_FUNCTIONS, CXPRM_IOC_DCT_QUERY,
	CXPRM_IOC_DCT_DRAIN,  CXPRM_IOC_DCT_DESTROY, CXPRM_IOC_OBJ_QUERY,     CXPRM_IOC_OBJ_DESTROY,
	CXPRM_IOC_QP_MODIFY,  CXPRM_IOC_INFO,        CXPRM_IOC_RAW,           CXPRM_IOC_BATCH,
};

bool creates(unsigned int cmd)
{
	return cmd == CXPRM_IOC_DCT_CREATE || cmd == CXPRM_IOC_OBJ_CREATE;
}

// What an op's own ioctl may return (include/uapi/linux/cxprm.h).
bool op_errno(int r)
{
	return r == 0 || r == ENOENT_ || r == ENOMEM_ || r == EFAULT_ || r == EINVAL_ ||
	       r == ENOTTY_ || r == ENOTSUP_ || r == EPROTO_ || r == EPERM_;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	FuzzInput in(data, size);
	UserCall u;
	uint8_t shape = in.u8();
	u.admin = !(shape & 1);
	u.raw_write = shape & 2;
	u.mem.resize(sizeof(cxprm_batch) + CXPRM_BATCH_MAX * sizeof(cxprm_batch_op) + in.u16() % 0x3000);
	in.fill(u.mem.data(), u.mem.size());
	// The batch at the arena's start (or anywhere), its ops after it.
	cxprm_batch b;
	std::memcpy(&b, u.mem.data(), sizeof(b));
	if (!(shape & 4)) { // mostly up to 64 ops; sometimes at the limit or one past it
		uint8_t k = in.u8();
		b.count = k < 0xf8 ? 1 + k % 64 : CXPRM_BATCH_MAX - 3 + (k - 0xf8) % 5;
	}
	if (!(shape & 8))
		b.flags = b.reserved = 0;
	if (!(shape & 0x10))
		b.ops = u.base + sizeof(b);
	uint64_t ops_at = b.ops - u.base;
	bool ops_inside = b.ops >= u.base && u.at(b.ops, (cxprm_size)b.count * sizeof(cxprm_batch_op));
	for (uint32_t i = 0; ops_inside && i < b.count && i < CXPRM_BATCH_MAX; i++) {
		cxprm_batch_op op;
		std::memcpy(&op, u.mem.data() + ops_at + i * sizeof(op), sizeof(op));
		uint8_t how = in.u8();
		if (!(how & 1))
			op.cmd = kCmds[in.u8() % (sizeof(kCmds) / sizeof(kCmds[0]))];
		if (creates(op.cmd))
			op.cmd = CXPRM_IOC_DCT_QUERY;
		if (!(how & 2))
			op.arg = u.base + in.u16() % u.mem.size();
		op.result = 1;
		std::memcpy(u.mem.data() + ops_at + i * sizeof(op), &op, sizeof(op));
	}
	std::memcpy(u.mem.data(), &b, sizeof(b));
	cxprm_u64 uarg = (shape & 0x20) ? in.u64() : u.base;
	bool batch_inside = u.at(uarg, sizeof(cxprm_batch)) != nullptr;
	const std::vector<uint8_t> before = u.mem;
	const cxprm_core_caller caller{&UserCall::ops, &u};
	long err = cxprm_core_ioctl(rig().core, &rig_file(), CXPRM_IOC_BATCH, uarg, &caller);

	cxprm_core_file &f = rig_file();
	FUZZ_CHECK(f.dcts.n == 0 && f.dcts.pending == 0);
	FUZZ_CHECK(!f.objs || cxprm_core_objs_count(f.objs) == 0);
	if (!u.admin) {
		FUZZ_CHECK(err == EPERM_ && u.mem == before);
		return 0;
	}
	if (!batch_inside) {
		FUZZ_CHECK(err == EFAULT_ && u.mem == before);
		return 0;
	}
	cxprm_batch got;
	std::memcpy(&got, u.at(uarg, sizeof(got)), sizeof(got));
	bool bad = !got.count || got.count > CXPRM_BATCH_MAX || got.flags || got.reserved;
	if (bad) {
		FUZZ_CHECK(err == EINVAL_ && u.mem == before);
		return 0;
	}
	if (!u.at(got.ops, (cxprm_size)got.count * sizeof(cxprm_batch_op))) {
		FUZZ_CHECK(err == EFAULT_ && u.mem == before);
		return 0;
	}
	// Ran.  The op array and the batch may overlap op structs the ops
	// wrote: check the results as they were copied back, when still
	// readable as written (the batch struct is written last).
	FUZZ_CHECK(err == 0 || err == EFAULT_ || err == ENOMEM_);
	if (err)
		return 0;
	// The batch struct is written last: unless it overlaps the op array,
	// the results are as the core wrote them.
	cxprm_batch after;
	std::memcpy(&after, u.at(uarg, sizeof(after)), sizeof(after));
	FUZZ_CHECK(after.done <= got.count);
	uint64_t ops_end = got.ops + (uint64_t)got.count * sizeof(cxprm_batch_op);
	if (uarg < ops_end && got.ops < uarg + sizeof(cxprm_batch))
		return 0;
	uint32_t zero = 0;
	for (uint32_t i = 0; i < got.count; i++) {
		cxprm_batch_op op;
		std::memcpy(&op, u.at(got.ops + i * sizeof(op), sizeof(op)), sizeof(op));
		FUZZ_CHECK(op_errno(op.result));
		zero += op.result == 0;
		// The op's cmd and arg as they were read (before anything ran).
		cxprm_batch_op was;
		std::memcpy(&was, before.data() + (got.ops - u.base) + i * sizeof(was), sizeof(was));
		if (!cxprm_core_ioc_is_batchable(was.cmd))
			FUZZ_CHECK(op.result == ENOTTY_);
		else if (!u.at(was.arg, _IOC_SIZE(was.cmd)))
			FUZZ_CHECK(op.result == EFAULT_);
	}
	FUZZ_CHECK(after.done == zero);
	return 0;
}
