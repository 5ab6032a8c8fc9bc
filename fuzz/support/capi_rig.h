// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// What the ioctl fuzz targets (ioctl_request, ioctl_batch) share: one
// device brought up once for all inputs, and the calling task of
// cxprm_core_ioctl() with the user's memory as an arena of the input's
// bytes (an address or length outside it is EFAULT, as
// copy_{from,to}_user) and the caller's privileges from the input.
#pragma once

#include <cstdint>
#include <vector>

#include "fake_host.h"

#include "cxprm/capi.h"

namespace cxprm::fuzz {

// The fake device brought up with events and RoCE set up (what stays until
// the teardown, made while the emulator answered), then answering every
// command OK with a zeroed output: the checks keep no state.
struct Rig {
	FakeHost dev{16u << 20};
	cxprm_core *core = nullptr;
	Rig();
};

Rig &rig();

struct UserCall {
	std::vector<uint8_t> mem;
	uint64_t base = 0x7ff000000000ull;
	bool admin = false, raw_write = false;

	uint8_t *at(cxprm_u64 ua, cxprm_size n)
	{
		if (ua < base || ua - base > mem.size() || n > mem.size() - (ua - base))
			return nullptr;
		return mem.data() + (ua - base);
	}
	// The caller ops over this arena (ctx: the UserCall).
	static const cxprm_core_caller_ops ops;
};

// A file of the rig's device (its object table's lock made once).
cxprm_core_file &rig_file();

} // namespace cxprm::fuzz
