// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// The commands that create their own objects (obj_set.h) against fake
// devices with the emulator's strict object model: dct create without
// --pd/--cqn/--srqn, dct session, nvmf setup, bench connect; and what
// made-up numbers get (the firmware's BAD_RES, exit 3).
#include <gtest/gtest.h>

#include "cli_run.h"

using namespace cxprm::tool;
using namespace cxprm::tool::test;

namespace {

std::vector<std::string> ops_of(const std::vector<Json> &lines)
{
	std::vector<std::string> v;
	for (const Json &l : lines)
		v.push_back(l.get("op")->as_str() + (l.get("object") ? " " + l.get("object")->as_str() : ""));
	return v;
}

TEST_F(DevDir, DctOnItsOwnObjectsRunsItsLifecycleAndDestroysThem)
{
	fake("0000:00:03.0");
	Result r = cli({"dct", "create", "00:03.0", "--then", "query,drain,wait,destroy", "-j"});
	ASSERT_EQ(r.rc, 0) << r.err;
	std::vector<Json> l = r.lines();
	std::vector<std::string> want = {"obj_create PD", "obj_create CQ", "obj_create SRQ", "create", "query", "drain",
					 "wait", "destroy", "obj_destroy SRQ", "obj_destroy CQ", "obj_destroy PD"};
	ASSERT_EQ(ops_of(l), want);
	// The DCT names what was created.
	const Json &ctx = *l[4].get("context");
	EXPECT_EQ(ctx.get("pd")->as_uint(), l[0].get("id")->as_uint());
	EXPECT_EQ(ctx.get("cqn")->as_uint(), l[1].get("id")->as_uint());
	EXPECT_EQ(ctx.get("srqn_xrqn")->as_uint(), l[2].get("id")->as_uint());
	EXPECT_EQ(l[8].get("id")->as_uint(), l[2].get("id")->as_uint());
	EXPECT_TRUE(r.err.empty()) << r.err;

	// Human output; the DCT left alive: closing the file destroys all.
	Result h = cli({"dct", "create", "00:03.0"});
	ASSERT_EQ(h.rc, 0) << h.err;
	EXPECT_NE(h.out.find("created PD"), std::string::npos) << h.out;
	EXPECT_NE(h.out.find("created SRQ"), std::string::npos) << h.out;
	EXPECT_NE(h.out.find("created DCT"), std::string::npos) << h.out;
	EXPECT_NE(h.err.find("destroys the DCT(s) first, then PD"), std::string::npos) << h.err;
}

TEST_F(DevDir, DctOnMadeUpObjectsIsTheFirmwaresBadRes)
{
	fake("0000:00:03.0", "nvmf_ns=none\n"); // no object exists
	Result r = cli({"dct", "create", "00:03.0", "--pd", "1", "--cqn", "2", "--srqn", "3", "-j"});
	EXPECT_EQ(r.rc, 3);
	EXPECT_EQ(r.json().get("status")->get("status_code")->as_uint(), 5u); // BAD_RES
	EXPECT_NE(r.err.find("CREATE_DCT (pd 0x1, cqn 0x2, srqn 0x3) names an object that does not exist"),
		  std::string::npos)
		<< r.err;
	EXPECT_NE(r.err.find("DCT_NO_PD"), std::string::npos) << r.err;
}

TEST_F(DevDir, DctSessionCreatesItsObjectsOnce)
{
	fake("0000:00:03.0");
	Result r = cli({"dct", "session", "00:03.0", "-j"},
		       "create\ncreate --mtu 256\ndrain @1\nwait @1\ndestroy @1\ndrain @2\nwait @2\ndestroy @2\n");
	ASSERT_EQ(r.rc, 0) << r.err;
	std::vector<std::string> got = ops_of(r.lines());
	std::vector<std::string> want = {"obj_create PD", "obj_create CQ", "obj_create SRQ", "create", "create",
					 "drain", "wait", "destroy", "drain", "wait", "destroy",
					 "obj_destroy SRQ", "obj_destroy CQ", "obj_destroy PD"};
	EXPECT_EQ(got, want);
	// A DCT left alive: the objects stay for the driver's close.
	Result k = cli({"dct", "session", "00:03.0"}, "create\n");
	ASSERT_EQ(k.rc, 0) << k.err;
	EXPECT_NE(k.err.find("destroys 1 DCT(s)"), std::string::npos) << k.err;
	EXPECT_EQ(k.out.find("destroyed"), std::string::npos) << k.out;
}

// The default profile's emulated SSD, I/O queue pair 1: what 'emuctl
// nvme-queue 1' prints in a guest (the emulator's tests check the layout).
std::vector<std::string> nvmf_setup(std::vector<std::string> extra)
{
	std::vector<std::string> a = {"nvmf",      "setup",        "00:03.0",      "--sq-addr",    "0xf000010000",
				      "--cq-addr", "0xf000011000", "--sq-doorbell", "0xf000001008"};
	a.insert(a.end(), extra.begin(), extra.end());
	return a;
}

TEST_F(DevDir, NvmfSetupBuildsQueriesAndTearsDown)
{
	fake("0000:00:03.0", "allow_raw_write=1\n");
	Result r = cli(nvmf_setup({"--nsid", "7", "--exec",
				   "test \"$CXPRM_NSID\" = 7 && test -n \"$CXPRM_XRQN\" && test \"$CXPRM_DEV\" = 0000:00:03.0",
				   "-j"}));
	ASSERT_EQ(r.rc, 0) << r.err;
	std::vector<Json> l = r.lines();
	std::vector<std::string> want = {"obj_create PD", "obj_create CQ", "obj_create XRQ", "obj_create NVMF backend",
					 "obj_create NVMF namespace", "setup", "query", "obj_destroy NVMF namespace",
					 "obj_destroy NVMF backend", "obj_destroy XRQ", "obj_destroy CQ", "obj_destroy PD"};
	ASSERT_EQ(ops_of(l), want);
	uint64_t xrqn = l[2].get("id")->as_uint();
	EXPECT_EQ(l[3].get("parent")->as_uint(), xrqn);
	EXPECT_EQ(l[4].get("id")->as_uint(), 7u);
	EXPECT_EQ(l[5].get("xrqn")->as_uint(), xrqn);
	EXPECT_EQ(l[5].get("backend_ctrl")->as_uint(), l[3].get("id")->as_uint());
	EXPECT_EQ(l[6].get("status")->get("status")->as_str(), "OK");
	EXPECT_EQ(l[6].get("counters")->get("read_cmds")->as_uint(), 0u); // no I/O simulated here

	// Human output.
	Result h = cli(nvmf_setup({}));
	ASSERT_EQ(h.rc, 0) << h.err;
	EXPECT_NE(h.out.find("namespace 1 (backend controller 1"), std::string::npos) << h.out;
	EXPECT_NE(h.out.find("read commands"), std::string::npos) << h.out;
	EXPECT_NE(h.out.find("destroyed XRQ"), std::string::npos) << h.out;

	// A failing hook: exit 2, said so.
	Result f = cli(nvmf_setup({"--exec", "exit 7"}));
	EXPECT_EQ(f.rc, 2);
	EXPECT_NE(f.err.find("--exec 'exit 7' failed (exit 7)"), std::string::npos) << f.err;
}

TEST_F(DevDir, NvmfSetupNeedsTheQueuePairAndRawWrite)
{
	fake("0000:00:03.0");
	Result r = cli({"nvmf", "setup", "00:03.0"});
	EXPECT_EQ(r.rc, 1);
	EXPECT_NE(r.err.find("--sq-addr, --cq-addr and --sq-doorbell"), std::string::npos) << r.err;
	r = cli(nvmf_setup({"--queue-depth", "1"}));
	EXPECT_EQ(r.rc, 1);
	r = cli({"nvmf", "setup", "00:03.0", "--sq-addr", "0xf000010100", "--cq-addr", "0xf000011000",
		 "--sq-doorbell", "0xf000001008"});
	EXPECT_EQ(r.rc, 1) << "an SQ not 4 KiB aligned";
	// Without allow_raw_write the backend is refused: firmware would DMA.
	r = cli(nvmf_setup({"-j"}));
	EXPECT_EQ(r.rc, 2) << r.err;
	EXPECT_NE(r.err.find("allow_raw_write"), std::string::npos) << r.err;
}

TEST_F(DevDir, NvmfNamespaceOfNothingIsBadRes)
{
	fake("0000:00:03.0");
	Result r = cli({"nvmf", "ns", "00:03.0", "--xrq", "0x99", "--nsid", "1", "-j"});
	EXPECT_EQ(r.rc, 3);
	EXPECT_EQ(r.json().get("status")->get("status_code")->as_uint(), 5u);
}

TEST_F(DevDir, BenchConnectPrintsSerialAndBatchRows)
{
	fake("0000:00:03.0");
	Json j = cli({"bench", "connect", "00:03.0", "--count", "40", "--batch", "16", "-j"}).json();
	ASSERT_NE(j.get("count"), nullptr);
	EXPECT_EQ(j.get("count")->as_uint(), 40u);
	EXPECT_EQ(j.get("mode")->as_str(), "both");
	const Json &rows = *j.get("rows");
	ASSERT_EQ(rows.size(), 4u);
	const char *paths[] = {"RC QP", "RC QP", "DCT", "DCT"};
	const char *modes[] = {"serial", "batch", "serial", "batch"};
	uint64_t cmds[] = {4, 4, 1, 1};
	for (size_t i = 0; i < 4; i++) {
		const Json &row = rows.items()[i];
		EXPECT_EQ(row.get("path")->as_str(), paths[i]);
		EXPECT_EQ(row.get("mode")->as_str(), modes[i]);
		EXPECT_EQ(row.get("connections")->as_uint(), 40u);
		EXPECT_EQ(row.get("commands_per_connection")->as_uint(), cmds[i]);
		EXPECT_GT(row.get("per_second")->as_uint(), 0u);
		EXPECT_GT(row.get("timed_ns")->as_uint(), 0u);
		// The batch rows say how they compare with the serial ones.
		EXPECT_EQ(row.get("speedup_milli") != nullptr, i % 2 == 1) << i;
		for (const char *k : {"fw_ns", "wall_ns"}) {
			const Json &s = *row.get(k);
			EXPECT_GT(s.get("p50")->as_uint(), 0u) << paths[i] << " " << k;
			EXPECT_LE(s.get("p50")->as_uint(), s.get("p99")->as_uint()) << paths[i] << " " << k;
			EXPECT_GT(s.get("mean")->as_uint(), 0u) << paths[i] << " " << k;
		}
		// The firmware's share of a connection is inside its wall time.
		EXPECT_LE(row.get("fw_ns")->get("p50")->as_uint(), row.get("wall_ns")->get("p99")->as_uint());
	}
	Result t = cli({"bench", "connect", "00:03.0", "--count", "3"});
	ASSERT_EQ(t.rc, 0) << t.err;
	EXPECT_NE(t.out.find("RC QP"), std::string::npos) << t.out;
	EXPECT_NE(t.out.find("\nDCT "), std::string::npos) << t.out;
	EXPECT_NE(t.out.find("CONN/S"), std::string::npos) << t.out;
	Json b = cli({"bench", "connect", "00:03.0", "--count", "5", "--mode", "batch", "-j"}).json();
	ASSERT_EQ(b.get("rows")->size(), 2u);
	EXPECT_EQ(b.get("rows")->items()[0].get("mode")->as_str(), "batch");
}

} // namespace
