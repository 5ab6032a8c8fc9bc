// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// README.md's syndrome table is syndromes.h's X-list, row for row: every
// syndrome has its row (value as written in the list, name, status,
// "when"), in the list's order, and the table has no other rows.  The
// list is the definition; on a mismatch the test prints the table to
// paste over the README's.
#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "cxprm_emu/syndromes.h"

namespace {

std::vector<std::string> rows()
{
	std::vector<std::string> r;
#define CXPRM_ROW_(n, v, s, t) r.push_back("| `" #v "` | " #n " | " #s " | " t " |");
	CXPRM_EMU_SYNDROMES(CXPRM_ROW_)
#undef CXPRM_ROW_
	return r;
}

std::vector<std::string> readme_rows()
{
	std::ifstream f(CXPRM_EMU_README);
	EXPECT_TRUE(f.good()) << CXPRM_EMU_README;
	std::vector<std::string> r;
	std::string line;
	while (std::getline(f, line))
		if (line.rfind("| `0xE3", 0) == 0)
			r.push_back(line);
	return r;
}

TEST(SyndromeTable, ReadmeIsTheXList)
{
	std::vector<std::string> want = rows(), have = readme_rows();
	for (const std::string &w : want) {
		bool found = false;
		for (const std::string &h : have)
			found = found || h == w;
		EXPECT_TRUE(found) << "README.md lacks (or has another text for):\n" << w;
	}
	EXPECT_EQ(have.size(), want.size()) << "README.md rows that are not syndromes.h's";
	bool same = have == want;
	EXPECT_TRUE(same) << "README.md's table is not syndromes.h's list, in its order";
	if (!same) {
		std::printf("The table syndromes.h defines:\n");
		for (const std::string &r : want)
			std::printf("%s\n", r.c_str());
	}
}

} // namespace
