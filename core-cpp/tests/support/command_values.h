// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// What the typed-command suites (commands_test.cpp, commands_decode_test.cpp)
// share: the quiet ConnectX-7 profile, a decoded cap image, a dctc with every
// field set, and a KvWriter look-up.
#ifndef CXPRM_TESTS_SUPPORT_COMMAND_VALUES_H
#define CXPRM_TESTS_SUPPORT_COMMAND_VALUES_H

// First: emulator.h names a constant SIG_BLOCK, a <signal.h> macro gtest pulls in.
#include "harness.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "cxprm/commands/dct.h"
#include "cxprm/commands/decode.h"
#include "cxprm/commands/hca.h"

namespace cxprm::test {

using cmd::DctContext;
using cmd::GeneralCaps;
using cmd::KvWriter;

inline emu::Profile quiet_cx7()
{
	auto p = emu::Profile::connectx7();
	p.nvmf.auto_io_ms = 0; // counters move only when the test says so
	return p;
}

inline GeneralCaps caps_of(const std::vector<uint8_t> &image)
{
	EXPECT_EQ(image.size(), cmd::CAP_IMAGE_BYTES);
	GeneralCaps c{};
	decode_general_caps(image.data(), &c);
	return c;
}

// Every field of a dctc set to a distinct value the emulator accepts, but
// for the pd, cqn and srqn: made-up ones (DctRefs::on() names real ones).
inline DctContext full_dct()
{
	DctContext c{};
	set_dct_required(c, 0x4242, 0x000abc, 0x00def0); // mtu 5, port 1
	c.user_index = 0x12345;
	c.counter_set_id = 0x7;
	c.atomic_mode = 0x3;
	c.rre = 1;
	c.rwe = 1;
	c.rae = 1;
	c.atomic_like_write_en = 1;
	c.latency_sensitive = 1;
	c.rlky = 0;
	c.free_ar = 1;
	c.cs_res = 0x2;
	c.min_rnr_nak = 0x12;
	c.tclass = 0xa0;
	c.flow_label = 0xabcde;
	c.dc_access_key = 0x0123456789abcdefull;
	c.pkey_index = 0x1f;
	c.my_addr_index = 0x3;
	c.hop_limit = 0x40;
	c.dei_cfi = 1;
	c.eth_prio = 0x5;
	c.ecn = 0x2;
	c.dscp = 0x2e;
	c.ece = 0;
	return c;
}

inline std::string kv_get(const KvWriter &kv, const char *key)
{
	const char *v = kv.find(key);
	return v ? v : "<missing>";
}

} // namespace cxprm::test

#endif
