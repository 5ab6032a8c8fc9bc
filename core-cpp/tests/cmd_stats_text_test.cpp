// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// The command-statistics table (cmd_stats_text.h), the one rendering that
// debugfs cmd_stats and `cxprm stats` share: its exact format
// (Documentation/kernel-module.rst, "debugfs").
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "cxprm/cmd_stats_text.h"

using namespace cxprm;

namespace {

cxprm_opcode_stats entry(uint16_t opcode, uint64_t count, uint64_t errors, uint64_t min_ns,
			 uint64_t avg_ns, uint64_t max_ns)
{
	cxprm_opcode_stats s{};
	s.opcode = opcode;
	s.count = count;
	s.errors = errors;
	s.lat_min_ns = min_ns;
	s.lat_avg_ns = avg_ns;
	s.lat_max_ns = max_ns;
	return s;
}

std::string table(const std::vector<cxprm_opcode_stats> &v)
{
	std::vector<char> buf(cmd_stats_table_bytes((uint32_t)v.size()));
	Text t(buf.data(), buf.size());
	cmd_stats_table(t, v.data(), (uint32_t)v.size());
	EXPECT_FALSE(t.truncated());
	return t.c_str();
}

} // namespace

TEST(CmdStatsText, OneLinePerOpcodeWithItsLastFailure)
{
	std::vector<cxprm_opcode_stats> v;
	v.push_back(entry(0x100, 5, 1, 46000, 410000, 605100));
	v.back().last_errno = -121;
	v.back().last_status = 0x03;
	v.back().last_syndrome = 0x0badca11;
	v.push_back(entry(0x102, 1, 0, 105900, 105900, 105900));
	v.push_back(entry(0x108, 2, 1, 627800, 5105900, 9584000));
	v.back().last_errno = -5;
	v.back().last_delivery = 0x01;
	v.push_back(entry(0x9ff, 1, 1, 1, 1, 1));
	v.back().last_errno = -110;
	v.push_back(entry(0x10a, 7, 2, 0, 0, 0));
	v.back().last_errno = -200;
	EXPECT_EQ(table(v),
		  "opcode                        count      errors   min_us      avg_us      max_us      last_error\n"
		  "QUERY_HCA_CAP(0x100)          5          1        46.000      410.000     605.100     "
		  "EREMOTEIO BAD_PARAM_ERR syndrome 0x0badca11\n"
		  "INIT_HCA(0x102)               1          0        105.900     105.900     105.900     -\n"
		  "MANAGE_PAGES(0x108)           2          1        627.800     5105.900    9584.000    "
		  "EIO delivery SIGNAT_ERR\n"
		  "UNKNOWN(0x9ff)                1          1        0.001       0.001       0.001       ETIMEDOUT\n"
		  "QUERY_ISSI(0x10a)             7          2        0.000       0.000       0.000       errno -200\n");
}

TEST(CmdStatsText, EmptyTableAndTotal)
{
	EXPECT_EQ(table({}), "opcode                        count      errors   min_us      avg_us      max_us      last_error\n");
	char buf[64];
	Text t(buf, sizeof(buf));
	cmd_stats_total(t, 24);
	EXPECT_STREQ(t.c_str(), "commands completed: 24");
	t.clear();
	opcode_label(t, 0x108);
	EXPECT_STREQ(t.c_str(), "MANAGE_PAGES(0x108)");
}

// The worst case fits the size the header promises.
TEST(CmdStatsText, WorstCaseFitsTheBound)
{
	std::vector<cxprm_opcode_stats> v(64, entry(0x9ff, ~0ull, ~0ull, ~0ull, ~0ull, ~0ull));
	for (auto &e : v) {
		e.last_errno = -2147483647 - 1;
		e.last_status = 0xff;
		e.last_syndrome = 0xffffffff;
	}
	std::string s = table(v);
	EXPECT_EQ(std::count(s.begin(), s.end(), '\n'), 65);
}
