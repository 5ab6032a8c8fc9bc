// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// cxprm bind / unbind / list --all against a fake sysfs ($CXPRM_SYSFS) and
// /proc ($CXPRM_PROCFS): the refusals (an interface up, an RDMA device
// open), what is written where (driver_override first, then the old
// driver's unbind, then cxprm's bind), the hand-over record and --restore.
// A fake sysfs cannot re-link 'driver', so the final check ("did not bind")
// fails here by design; the QEMU guest (tools/qemu/guest/mlx5-check.sh)
// runs the real hand-over with mlx5_core.
#include <fstream>
#include <sys/stat.h>
#include <unistd.h>

#include "cli_run.h"

namespace cxprm::tool::test {
namespace {

class FakeSys : public DevDir {
protected:
	void SetUp() override
	{
		DevDir::SetUp();
		// Beside the device directory, not in it (list scans that).
		top_ = dir_ + ".sys";
		root_ = top_ + "/sys";
		proc_ = top_ + "/proc";
		setenv("CXPRM_SYSFS", root_.c_str(), 1);
		setenv("CXPRM_PROCFS", proc_.c_str(), 1);
		setenv("CXPRM_RUN_DIR", (top_ + "/run").c_str(), 1);
		for (const char *d : {"/bus/pci/drivers/mlx5_core", "/bus/pci/drivers/cxprm", "/bus/pci/devices"})
			mkdirs(root_ + d);
		for (const char *f : {"mlx5_core/bind", "mlx5_core/unbind", "cxprm/bind", "cxprm/unbind"})
			put("/bus/pci/drivers/" + std::string(f), "");
		fn_ = root_ + "/bus/pci/devices/" + bdf_;
		mkdirs(fn_ + "/net/eth0");
		put("/bus/pci/devices/" + bdf_ + "/vendor", "0x15b3");
		put("/bus/pci/devices/" + bdf_ + "/device", "0x1021");
		put("/bus/pci/devices/" + bdf_ + "/driver_override", "(null)");
		put("/bus/pci/devices/" + bdf_ + "/net/eth0/flags", "0x1003");
		link("mlx5_core");
		mkdirs(proc_);
	}
	void TearDown() override
	{
		unsetenv("CXPRM_SYSFS");
		unsetenv("CXPRM_PROCFS");
		unsetenv("CXPRM_RUN_DIR");
		ASSERT_EQ(std::system(("rm -rf '" + top_ + "'").c_str()), 0);
		DevDir::TearDown();
	}
	static void mkdirs(const std::string &p)
	{
		ASSERT_EQ(std::system(("mkdir -p '" + p + "'").c_str()), 0);
	}
	void put(const std::string &rel, const std::string &v) { std::ofstream(root_ + rel) << v << (v.empty() ? "" : "\n"); }
	std::string get(const std::string &rel)
	{
		std::ifstream f(root_ + rel);
		std::string l;
		std::getline(f, l);
		return l;
	}
	void link(const std::string &drv)
	{
		unlink((fn_ + "/driver").c_str());
		ASSERT_EQ(symlink(("../../drivers/" + drv).c_str(), (fn_ + "/driver").c_str()), 0);
	}
	std::string top_, root_, proc_, fn_, bdf_ = "0000:03:00.0";
};

TEST_F(FakeSys, BindRefusesInterfaceUp)
{
	Result r = cli({"bind", "03:00.0"});
	EXPECT_EQ(r.rc, 2);
	EXPECT_NE(r.err.find("eth0 are up"), std::string::npos) << r.err;
	EXPECT_EQ(get("/bus/pci/devices/" + bdf_ + "/driver_override"), "(null)"); // nothing written
	EXPECT_EQ(get("/bus/pci/drivers/mlx5_core/unbind"), "");
}

TEST_F(FakeSys, BindRefusesRdmaInUse)
{
	put("/bus/pci/devices/" + bdf_ + "/net/eth0/flags", "0x1002"); // down
	mkdirs(fn_ + "/infiniband/mlx5_0");
	mkdirs(fn_ + "/infiniband_verbs/uverbs0");
	mkdirs(proc_ + "/4242/fd");
	ASSERT_EQ(symlink("/dev/infiniband/uverbs0", (proc_ + "/4242/fd/7").c_str()), 0);
	Result r = cli({"bind", "03:00.0"});
	EXPECT_EQ(r.rc, 2);
	EXPECT_NE(r.err.find("RDMA device(s) mlx5_0 in use (uverbs0"), std::string::npos) << r.err;
	EXPECT_EQ(get("/bus/pci/drivers/mlx5_core/unbind"), "");
	// Nobody holds it: the check passes.
	unlink((proc_ + "/4242/fd/7").c_str());
	EXPECT_EQ(cli({"bind", "03:00.0"}).err.find("in use"), std::string::npos);
}

TEST_F(FakeSys, BindForceWritesTheHandOver)
{
	Result r = cli({"bind", "0000:03:00.0", "--force"});
	// The order of the writes shows in what each file holds.
	EXPECT_EQ(get("/bus/pci/devices/" + bdf_ + "/driver_override"), "cxprm");
	EXPECT_EQ(get("/bus/pci/drivers/mlx5_core/unbind"), bdf_);
	EXPECT_EQ(get("/bus/pci/drivers/cxprm/bind"), bdf_);
	std::ifstream rec(top_ + "/run/" + bdf_ + ".driver");
	std::string drv, ovr;
	rec >> drv >> ovr;
	EXPECT_EQ(drv, "mlx5_core");
	EXPECT_EQ(ovr, "-");
	// The fake's 'driver' link still says mlx5_core: reported, not claimed.
	EXPECT_EQ(r.rc, 2);
	EXPECT_NE(r.err.find("cxprm did not bind it (now: mlx5_core"), std::string::npos) << r.err;
}

TEST_F(FakeSys, UnbindRestore)
{
	EXPECT_EQ(cli({"unbind", "03:00.0"}).rc, 2); // mlx5_core holds it, not cxprm
	put("/bus/pci/devices/" + bdf_ + "/net/eth0/flags", "0x1002");
	cli({"bind", "03:00.0"});
	link("cxprm"); // what the kernel would have done
	put("/bus/pci/devices/" + bdf_ + "/driver_override", "cxprm");
	Result r = cli({"unbind", "03:00.0", "--restore"});
	EXPECT_EQ(get("/bus/pci/devices/" + bdf_ + "/driver_override"), ""); // cleared
	EXPECT_EQ(get("/bus/pci/drivers/cxprm/unbind"), bdf_);
	EXPECT_EQ(get("/bus/pci/drivers/mlx5_core/bind"), bdf_);
	EXPECT_EQ(r.rc, 2); // the fake link still says cxprm
	EXPECT_NE(r.err.find("mlx5_core did not bind it"), std::string::npos) << r.err;
	EXPECT_EQ(cli({"bind", "not-an-address"}).rc, 1);
	EXPECT_EQ(cli({"bind", "00:1f.7"}).rc, 2);
}

TEST_F(FakeSys, ListAll)
{
	Result plain = cli({"list"});
	EXPECT_EQ(plain.out.find("03:00.0"), std::string::npos);
	Result r = cli({"list", "--all"});
	EXPECT_EQ(r.rc, 0) << r.err;
	EXPECT_NE(r.out.find("ConnectX functions not bound to cxprm"), std::string::npos) << r.out;
	EXPECT_NE(r.out.find("mlx5_core"), std::string::npos);
	EXPECT_NE(r.out.find("eth0"), std::string::npos);
	Json j = cli({"list", "--all", "-j"}).json();
	ASSERT_EQ(j.items().size(), 1u);
	EXPECT_EQ(j.items()[0].get("driver")->as_str(), "mlx5_core");
	EXPECT_EQ(j.items()[0].get("pci_id")->as_str(), "15b3:1021");
	EXPECT_EQ(j.items()[0].get("bound")->dump(false), "false");
}

} // namespace
} // namespace cxprm::tool::test
