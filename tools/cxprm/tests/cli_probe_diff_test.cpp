// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// probe -o FILE and probe --diff A B: saves from fake devices of the cx7
// and bf3 profiles (the done-when), the same device twice, and bad
// input.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "cli_run.h"

using namespace cxprm::tool;
using namespace cxprm::tool::test;

namespace {

std::string slurp(const std::string &path)
{
	std::ifstream f(path);
	std::stringstream ss;
	ss << f.rdbuf();
	return ss.str();
}

class ProbeDiff : public DevDir {
protected:
	// A fake device of 'profile' at bdf, probed (--no-nvmf) into DIR/name.
	std::string save(const std::string &bdf, const std::string &profile, const std::string &name)
	{
		fake(bdf, "profile=" + profile + "\n");
		std::string path = dir_ + "/" + name;
		Result r = cli({"probe", bdf, "--no-nvmf", "-o", path});
		EXPECT_EQ(r.rc, 0) << r.err;
		return path;
	}
};

TEST_F(ProbeDiff, SavesWhatJsonPrints)
{
	fake("0000:00:03.0", "profile=cx7\n");
	std::string a = dir_ + "/a.json";
	Result r = cli({"probe", "00:03.0", "--xrq", "0x80", "-o", a});
	ASSERT_EQ(r.rc, 0) << r.err;
	EXPECT_NE(r.out.find("== query_issi"), std::string::npos); // stdout keeps the text
	Result j = cli({"probe", "00:03.0", "--xrq", "0x80", "-j"});
	EXPECT_EQ(slurp(a), j.out);
	EXPECT_EQ(cli({"probe", "00:03.0", "-o", dir_ + "/no/such/dir/x.json", "--no-nvmf"}).rc, 2);
}

TEST_F(ProbeDiff, SameDeviceIsIdentical)
{
	std::string a = save("0000:00:03.0", "cx7", "a.json"), b = save("0000:00:03.0", "cx7", "b.json");
	Result d = cli({"probe", "--diff", a, b});
	EXPECT_EQ(d.rc, 0) << d.out << d.err;
	EXPECT_NE(d.out.find("identical"), std::string::npos);
	Result j = cli({"probe", "--diff", a, b, "-j"});
	EXPECT_EQ(j.rc, 0);
	EXPECT_EQ(j.json().get("identical")->dump(), "true");
	EXPECT_EQ(j.json().get("commands")->size(), 0u);
}

// The done-when: cx7 against bf3.  The emulator gives both the
// same capability images (cmd_hca_cap general, CUR and MAX, byte for byte),
// so what differs is the device, QUERY_ADAPTER's strings and the bf3's
// eswitch (an ECPF: QUERY_ESW_FUNCTIONS in its set only).
TEST_F(ProbeDiff, Cx7AgainstBf3)
{
	std::string a = save("0000:00:03.0", "cx7", "cx7.json"), b = save("0000:00:04.0", "bf3", "bf3.json");
	Result d = cli({"probe", "--diff", a, b});
	EXPECT_EQ(d.rc, 1) << d.err;
	EXPECT_NE(d.out.find("--- A " + a), std::string::npos) << d.out;
	EXPECT_NE(d.out.find("device:\n"), std::string::npos) << d.out;
	EXPECT_NE(d.out.find("  fw_version: 28.39.1002 \u2192 32.39.1002"), std::string::npos) << d.out;
	EXPECT_NE(d.out.find("query_adapter:\n  vsd: "), std::string::npos) << d.out;
	EXPECT_NE(d.out.find("only in B: query_esw_functions"), std::string::npos) << d.out;
	EXPECT_EQ(d.out.find("query_hca_cap_general"), std::string::npos) << d.out;

	Result j = cli({"probe", "--diff", a, b, "-j"});
	EXPECT_EQ(j.rc, 1);
	Json dj = j.json();
	EXPECT_EQ(dj.get("identical")->dump(), "false");
	bool esw = false;
	for (const Json &c : dj.get("commands")->items())
		if (c.get("name")->as_str() == "query_esw_functions")
			esw = c.get("only_in") && c.get("only_in")->as_str() == "b";
	EXPECT_TRUE(esw) << j.out;
}

// probe --all-caps: every capability type each answers; cx7 against bf3
// differ in their capabilities (the DPU's virtio emulation), cx5 against
// cx7 in the types a ConnectX-7 adds and in values.
TEST_F(ProbeDiff, AllCapsShowTypeDifferences)
{
	fake("0000:00:03.0", "profile=cx7\n");
	fake("0000:00:04.0", "profile=bf3\n");
	fake("0000:00:05.0", "profile=cx5\n");
	std::string a = dir_ + "/cx7.json", b = dir_ + "/bf3.json", c = dir_ + "/cx5.json";
	ASSERT_EQ(cli({"probe", "00:03.0", "--no-nvmf", "--all-caps", "-o", a}).rc, 0);
	ASSERT_EQ(cli({"probe", "00:04.0", "--no-nvmf", "--all-caps", "-o", b}).rc, 0);
	ASSERT_EQ(cli({"probe", "00:05.0", "--no-nvmf", "--all-caps", "-o", c}).rc, 0);
	Result d = cli({"probe", "--diff", a, b});
	EXPECT_EQ(d.rc, 1) << d.err;
	EXPECT_NE(d.out.find("only in B: query_hca_cap_vdpa"), std::string::npos) << d.out;
	EXPECT_EQ(d.out.find("query_hca_cap_crypto"), std::string::npos) << d.out; // refused by both
	Result e = cli({"probe", "--diff", c, a});
	EXPECT_EQ(e.rc, 1) << e.err;
	EXPECT_NE(e.out.find("only in B: query_hca_cap_tls"), std::string::npos) << e.out;
	EXPECT_NE(e.out.find("query_hca_cap_qos:\n  packet_pacing_max_rate: 100000000 \u2192 400000000\n"),
		  std::string::npos)
		<< e.out;
}

// Capability fields that differ, by name (cx5 against cx7).
TEST_F(ProbeDiff, ShowsCapabilityFields)
{
	std::string a = save("0000:00:05.0", "cx5", "cx5.json"), b = save("0000:00:03.0", "cx7", "cx7.json");
	Result d = cli({"probe", "--diff", a, b});
	EXPECT_EQ(d.rc, 1) << d.err;
	EXPECT_NE(d.out.find("query_hca_cap_general_cur:\n  hca_cap_2: 0 \u2192 1\n  log_max_qp: 17 \u2192 20\n"),
		  std::string::npos)
		<< d.out;
	Json dj = cli({"probe", "--diff", a, b, "-j"}).json();
	bool qp = false;
	for (const Json &c : dj.get("commands")->items())
		if (c.get("name")->as_str() == "query_hca_cap_general_max")
			for (const Json &f : c.get("changes")->items())
				if (f.get("field")->as_str() == "log_max_qp")
					qp = f.get("a")->as_str() == "18" && f.get("b")->as_str() == "20";
	EXPECT_TRUE(qp) << dj.dump();
}

TEST_F(ProbeDiff, BadInputExitsTwo)
{
	std::string a = save("0000:00:03.0", "cx7", "a.json");
	std::string junk = dir_ + "/junk.json", other = dir_ + "/other.json";
	std::ofstream(junk) << "{ not json";
	std::ofstream(other) << "{\"device\": {}}";
	EXPECT_EQ(cli({"probe", "--diff", a, dir_ + "/missing.json"}).rc, 2);
	Result j = cli({"probe", "--diff", junk, a});
	EXPECT_EQ(j.rc, 2);
	EXPECT_NE(j.err.find("A " + junk), std::string::npos) << j.err;
	Result o = cli({"probe", "--diff", a, other});
	EXPECT_EQ(o.rc, 2);
	EXPECT_NE(o.err.find("not a saved probe"), std::string::npos) << o.err;
	EXPECT_EQ(cli({"probe", "--diff", a}).rc, 2);
}

} // namespace
