// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// The fwctl transport against the fake device (fake_dev_node.h,
// transport=fwctl): every read-only subcommand gives the same JSON over
// fwctl as over cxprm.ko on the same emulator profile (but latencies);
// what fwctl cannot do is one error naming `cxprm bind`; a PCI address
// resolves to the function's fwctl device when cxprm does not hold it.
// The real thing (Linux 7.3's mlx5_fwctl beside mlx5_core) is `make
// check-fwctl` (tools/qemu/guest/fwctl-check.sh).
#include <fstream>
#include <set>
#include <unistd.h>

#include "cli_run.h"

namespace cxprm::tool::test {
namespace {

class Fwctl : public DevDir {
protected:
	void SetUp() override
	{
		DevDir::SetUp();
		fwdir_ = dir_ + "/fwctl";
		sys_ = dir_ + "/sys";
		ASSERT_EQ(std::system(("mkdir -p '" + fwdir_ + "' '" + sys_ + "/class/fwctl'").c_str()), 0);
		setenv("CXPRM_FWCTL_DIR", fwdir_.c_str(), 1);
		setenv("CXPRM_SYSFS", sys_.c_str(), 1);
		fake(ko_, kCfg);
		// fwctl0 is the same function's (the sysfs link fwctl_alloc_device makes).
		add_fwctl("fwctl0", ko_);
	}
	// A fake fwctl device 'name' of function bdf, which sysfs shows with
	// vendor, device and mlx5_core as its driver.
	void add_fwctl(const std::string &name, const std::string &bdf)
	{
		std::ofstream(fwdir_ + "/" + name) << "cxprm-fake\ntransport=fwctl\n" << kCfg;
		const std::string fn = sys_ + "/bus/pci/devices/" + bdf;
		ASSERT_EQ(std::system(("mkdir -p '" + fn + "/fwctl/" + name + "' '" + sys_ + "/class/fwctl/" + name +
				       "' '" + sys_ + "/bus/pci/drivers/mlx5_core'")
					      .c_str()),
			  0);
		std::ofstream(fn + "/vendor") << "0x15b3\n";
		std::ofstream(fn + "/device") << "0xa2dc\n";
		ASSERT_EQ(symlink("../../../bus/pci/drivers/mlx5_core", (fn + "/driver").c_str()), 0);
		ASSERT_EQ(symlink(("../../../bus/pci/devices/" + bdf).c_str(),
				  (sys_ + "/class/fwctl/" + name + "/device").c_str()),
			  0);
	}
	static constexpr const char *kCfg = "profile=bluefield3\nprovision=1\nnvmf_ns=none\n";
	void TearDown() override
	{
		unsetenv("CXPRM_FWCTL_DIR");
		unsetenv("CXPRM_SYSFS");
		DevDir::TearDown();
	}
	std::string ko() const { return dir_ + "/" + ko_; }
	std::string fw() const { return fwdir_ + "/fwctl0"; }

	// The JSON of a command on a device, latencies dropped.
	static Json steady(Json j)
	{
		if (j.kind() == Json::Kind::OBJ) {
			Json o = Json::object();
			for (const auto &m : j.members())
				if (m.first != "latency_ns" && m.first != "cmdif_rev") // fwctl.rst
					o.set_json(m.first, steady(m.second));
			return o;
		}
		if (j.kind() == Json::Kind::ARR) {
			Json a = Json::array();
			for (const Json &e : j.items())
				a.push_json(steady(e));
			return a;
		}
		return j;
	}
	void same(std::vector<std::string> args)
	{
		std::vector<std::string> a = args, b = args;
		a.insert(a.begin() + 1 + (args[0] == "nvmf" || args[0] == "esw" || args[0] == "dct"), ko());
		b.insert(b.begin() + 1 + (args[0] == "nvmf" || args[0] == "esw" || args[0] == "dct"), fw());
		Result x = cli(a), y = cli(b);
		// 0, or 3 where the firmware refuses (both alike).
		ASSERT_TRUE(x.rc == 0 || x.rc == 3) << x.err;
		ASSERT_EQ(x.rc, y.rc) << y.err;
		EXPECT_EQ(steady(x.json()).dump(), steady(y.json()).dump()) << args[0] << " " << args[1];
	}

	std::string ko_ = "0000:00:03.0", fwdir_, sys_;
};

TEST_F(Fwctl, ReadOnlySubcommandsAnswerAsOverCxprmKo)
{
	// The provisioned objects (prm-notes-uctx.rst): an NVMF offload on
	// XRQ 0x80 with namespaces 1 and 2, DCT 0x1000 (BlueField-3).
	same({"caps", "-j"});
	for (const char *t : {"nvmf", "eswitch", "roce", "general_2", "vdpa_emulation", "0x3f"})
		same({"caps", "--type", t, "-j"});
	same({"probe", "--all-caps", "-j"});
	same({"nvmf", "ns", "--xrq", "0x80", "--nsid", "1", "-j"});
	same({"nvmf", "ns", "--xrq", "0x80", "--nsid", "2", "-j"});
	same({"esw", "functions", "-j"});
	same({"dct", "query", "0x1000", "-j"});
	same({"reg", "MGIR", "-j"});
	same({"raw", "--opcode", "QUERY_ADAPTER", "-j"});
}

TEST_F(Fwctl, InfoShowsTheUserContext)
{
	Result r = cli({"info", fw(), "-j"});
	ASSERT_EQ(r.rc, 0) << r.err;
	Json j = r.json();
	EXPECT_EQ(j.get("transport")->as_str(), "fwctl");
	EXPECT_GT(j.get("uid")->as_uint(), 0u);
	EXPECT_EQ(j.get("uctx_caps")->as_uint(), 4u);
	EXPECT_EQ(j.get("uctx_cap_names")->items().at(0).as_str(), "TOOLS_RESOURCES");
	// The firmware version from MGIR is the one cxprm.ko reads from the init segment.
	Result k = cli({"info", ko(), "-j"});
	ASSERT_EQ(k.rc, 0) << k.err;
	EXPECT_EQ(j.get("fw_version")->as_str(), k.json().get("fw_version")->as_str());
	EXPECT_EQ(k.json().get("transport")->as_str(), "cxprm.ko");
	Result t = cli({"info", fw()});
	EXPECT_NE(t.out.find("uid " + std::to_string(j.get("uid")->as_uint()) + ", caps TOOLS_RESOURCES"),
		  std::string::npos)
		<< t.out;
}

TEST_F(Fwctl, WhatFwctlCannotDoNamesCxprmBind)
{
	for (std::vector<std::string> args : {std::vector<std::string>{"dct", "create", fw()},
					      {"esw", "watch", fw(), "--count", "1", "--timeout", "1"},
					      {"raw", fw(), "--opcode", "QUERY_ADAPTER", "--dump"},
					      {"stats", fw()}}) {
		Result r = cli(args);
		EXPECT_EQ(r.rc, 2) << args[0] << " " << args[1] << ": " << r.err;
		EXPECT_NE(r.err.find("not possible over fwctl"), std::string::npos) << r.err;
		EXPECT_NE(r.err.find("cxprm bind"), std::string::npos) << r.err;
	}
}

TEST_F(Fwctl, WritesNeedAnExplicitScope)
{
	Result r = cli({"reg", fw(), "PAOS", "--write", "--set", "admin_status=1"});
	EXPECT_EQ(r.rc, 2);
	EXPECT_NE(r.err.find("--scope"), std::string::npos) << r.err;
	EXPECT_NE(r.err.find("taint"), std::string::npos) << r.err;
	// With a scope the write goes through, and the tool says a debug scope taints.
	Result w = cli({"reg", fw(), "PAOS", "--write", "--set", "admin_status=1", "--scope", "debug-write", "-j"});
	EXPECT_EQ(w.rc, 0) << w.err;
	EXPECT_NE(w.err.find("taints the kernel"), std::string::npos) << w.err;
	// debug-write-full needs CAP_SYS_RAWIO (the fake: allow_raw_write=1).
	Result f = cli({"reg", fw(), "PAOS", "--write", "--set", "admin_status=1", "--scope", "debug-write-full"});
	EXPECT_EQ(f.rc, 2);
	EXPECT_NE(f.err.find("CAP_SYS_RAWIO"), std::string::npos) << f.err;
	// A command mlx5_fwctl does not let through: EBADMSG, worded.
	Result c = cli({"raw", fw(), "--opcode", "ALLOC_PD", "--scope", "configuration"});
	EXPECT_EQ(c.rc, 2);
	EXPECT_NE(c.err.find("refused by mlx5_fwctl"), std::string::npos) << c.err;
	// --scope over cxprm.ko is a usage error: the driver's policy decides.
	Result u = cli({"reg", ko(), "PAOS", "--scope", "configuration"});
	EXPECT_EQ(u.rc, 1);
	EXPECT_NE(u.err.find("fwctl devices"), std::string::npos) << u.err;
}

// A kernel whose FWCTL_RPC reports lengths it did not copy: a clear
// error for too little, nothing read past the buffer for too much.
TEST_F(Fwctl, LyingOutputLengths)
{
	std::ofstream(fwdir_ + "/fwctl2") << "cxprm-fake\ntransport=fwctl\nfwctl_out_len=8\n" << kCfg;
	Result r = cli({"caps", fwdir_ + "/fwctl2"});
	EXPECT_EQ(r.rc, 2);
	EXPECT_NE(r.err.find("less than a command's header"), std::string::npos) << r.err;
	Result w = cli({"raw", fwdir_ + "/fwctl2", "--opcode", "QUERY_ADAPTER"});
	EXPECT_EQ(w.rc, 2) << w.err;
	std::ofstream(fwdir_ + "/fwctl3") << "cxprm-fake\ntransport=fwctl\nfwctl_out_len=0x100000\n" << kCfg;
	Result big = cli({"caps", fwdir_ + "/fwctl3", "-j"});
	EXPECT_EQ(big.rc, 0) << big.err; // the answer as copied, its length clamped
	Result ko = cli({"caps", this->ko(), "-j"});
	const Json bj = big.json(), kj = ko.json();
	EXPECT_EQ(bj.get("fields")->dump(), kj.get("fields")->dump());
}

TEST_F(Fwctl, PciAddressReachesTheFwctlDevice)
{
	// 0000:00:04.0: mlx5_core's, with fwctl1 and no cxprm node.
	const std::string bdf = "0000:00:04.0";
	add_fwctl("fwctl1", bdf);
	Result r = cli({"info", bdf, "-j"});
	ASSERT_EQ(r.rc, 0) << r.err;
	EXPECT_EQ(r.json().get("transport")->as_str(), "fwctl");
	EXPECT_EQ(r.json().get("pci_addr")->as_str(), bdf);
	EXPECT_EQ(r.json().get("driver")->as_str(), "mlx5_core");
	EXPECT_EQ(r.json().get("path")->as_str(), fwdir_ + "/fwctl1");
	// A fwctl path finds its function through sysfs.
	Result p = cli({"info", fwdir_ + "/fwctl1", "-j"});
	EXPECT_EQ(p.json().get("pci_addr")->as_str(), bdf);
	// The cxprm node wins where there is one.
	Result k = cli({"info", ko_, "-j"});
	EXPECT_EQ(k.json().get("transport")->as_str(), "cxprm.ko");
	// list --all: how each function not cxprm's is reached.
	Result l = cli({"list", "--all", "-j"});
	bool seen = false;
	const Json all = l.json();
	for (const Json &e : all.items())
		if (e.get("pci_addr")->as_str() == bdf) {
			seen = true;
			EXPECT_EQ(e.get("reach")->as_str(), "fwctl");
			EXPECT_EQ(e.get("fwctl")->as_str(), fwdir_ + "/fwctl1");
		}
	EXPECT_TRUE(seen) << l.out;
	Result t = cli({"list", "--all"});
	EXPECT_NE(t.out.find("fwctl (fwctl1)"), std::string::npos) << t.out;
}

} // namespace
} // namespace cxprm::tool::test
