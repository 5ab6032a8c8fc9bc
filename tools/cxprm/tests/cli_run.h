// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// What the in-process tool suites (cli_decode_test.cpp, cli_device_test.cpp)
// share: run_cli() with captured output, exit code and parsed JSON, and a
// temp device directory (CXPRM_DEV_DIR) to put fake devices in.
#ifndef CXPRM_TOOL_TESTS_CLI_RUN_H
#define CXPRM_TOOL_TESTS_CLI_RUN_H

#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>
#include <unistd.h>

#include "commands.h"
#include "hex.h"
#include "json_parse.h"

namespace cxprm::tool::test {

struct Result {
	int rc;
	std::string out, err;
	Json json() const { return JsonParser::parse(out); }
	std::vector<Json> lines() const
	{
		std::vector<Json> v;
		std::istringstream in(out);
		std::string l;
		while (std::getline(in, l))
			v.push_back(JsonParser::parse(l));
		return v;
	}
};

inline Result cli(std::vector<std::string> args, const std::string &input = "")
{
	std::ostringstream out, err;
	std::istringstream in(input);
	int rc = run_cli(args, out, err, in);
	return {rc, out.str(), err.str()};
}

inline std::string hex(const Bytes &b) { return to_hex(b.data(), b.size()); }

// A temp device directory with fake devices in it.
class DevDir : public ::testing::Test {
protected:
	void SetUp() override
	{
		char tmpl[] = "/tmp/cxprm-test-XXXXXX";
		ASSERT_NE(mkdtemp(tmpl), nullptr);
		dir_ = tmpl;
		setenv("CXPRM_DEV_DIR", dir_.c_str(), 1);
	}
	void TearDown() override
	{
		unsetenv("CXPRM_DEV_DIR");
		std::string cmd = "rm -rf " + dir_;
		ASSERT_EQ(std::system(cmd.c_str()), 0);
	}
	void fake(const std::string &bdf, const std::string &extra = "")
	{
		std::ofstream(dir_ + "/" + bdf) << "cxprm-fake\n" << extra;
	}
	std::string dir_;
};

} // namespace cxprm::tool::test

#endif
