// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// The whole tool, in-process (run_cli), against a device directory:
// device-missing errors, and every subcommand end to end against fake
// devices (fake/fake_dev_node.h: the UAPI over the core and the emulator).
#include <gtest/gtest.h>

#include "cli_run.h"

#include "cxprm/prm/dct.h"
#include "cxprm/prm/hca_cap.h"
#include "cxprm/prm/nvmf.h"
#include "cxprm/prm/opcodes.h"

using namespace cxprm::tool;
using namespace cxprm::tool::test;
namespace prm = cxprm::prm;

namespace {

TEST_F(DevDir, DeviceMissingExitsTwo)
{
	for (std::vector<std::string> args : {
		     std::vector<std::string>{"info", "0000:00:09.0"},
		     {"caps", "00:09.0"},
		     {"stats", "00:09.0", "-j"},
		     {"dct", "session", "00:09.0"},
		     {"probe", "00:09.0"},
		     {"raw", "00:09.0", "--opcode", "QUERY_ISSI"},
	     }) {
		Result r = cli(args);
		EXPECT_EQ(r.rc, 2) << args[0];
		EXPECT_NE(r.err.find("no cxprm device 0000:00:09.0"), std::string::npos) << r.err;
		EXPECT_NE(r.err.find("is it bound"), std::string::npos) << r.err;
		EXPECT_NE(r.err.find("README"), std::string::npos) << r.err;
		EXPECT_TRUE(r.out.empty());
	}
	Result p = cli({"info", "/tmp/cxprm-no-such-dir/0000:00:09.0"});
	EXPECT_EQ(p.rc, 2);
	EXPECT_NE(p.err.find("no cxprm device at"), std::string::npos);
}

TEST_F(DevDir, NotACxprmDevice)
{
	std::ofstream(dir_ + "/0000:00:04.0") << "just a file\n";
	Result r = cli({"info", "00:04.0"});
	EXPECT_EQ(r.rc, 2);
	EXPECT_NE(r.err.find("ENOTTY"), std::string::npos) << r.err;
	EXPECT_NE(r.err.find("not a cxprm device"), std::string::npos) << r.err;
}

// ---- against fake devices ---------------------------------------------------

TEST_F(DevDir, ListEmptyAndWithDevices)
{
	Result e = cli({"list", "-j"});
	EXPECT_EQ(e.rc, 0);
	EXPECT_EQ(e.json().kind(), Json::Kind::ARR);
	EXPECT_EQ(e.json().size(), 0u);

	fake("0000:00:03.0");
	fake("0000:00:04.0", "profile=connectx5\n");
	Result r = cli({"list", "-j"});
	ASSERT_EQ(r.rc, 0) << r.err;
	Json j = r.json();
	ASSERT_EQ(j.size(), 2u);
	EXPECT_EQ(j.items()[0].get("pci_addr")->as_str(), "0000:00:03.0");
	EXPECT_EQ(j.items()[0].get("model")->as_str(), "ConnectX-7");
	EXPECT_EQ(j.items()[1].get("model")->as_str(), "ConnectX-5");
	EXPECT_EQ(j.items()[1].get("fw_version")->as_str(), "16.35.2000");
	EXPECT_EQ(j.items()[0].get("state")->as_str(), "UP");
	Result t = cli({"list"});
	EXPECT_EQ(t.rc, 0);
	EXPECT_NE(t.out.find("PCI ADDRESS"), std::string::npos);
	EXPECT_NE(t.out.find("28.39.1002"), std::string::npos);
}

TEST_F(DevDir, Info)
{
	fake("0000:00:03.0", "nvmf_ns=none\n"); // no objects: the driver's EQ is not started
	Result r = cli({"info", "00:03.0", "--json"});
	ASSERT_EQ(r.rc, 0) << r.err;
	Json j = r.json();
	const char *keys[] = {"pci_addr", "dev_name", "path", "transport", "pci_id", "vendor_id", "device_id", "model",
			      "fw_version", "cmdif_rev", "state", "state_code", "flags", "ecpf", "cmdq_entries",
			      "cmdq_log_stride", "issi", "cmd_checksum", "health_syndrome", "health", "pages_given",
			      "pages_reclaimed", "commands", "async_eqn", "comp_eqn", "recovery", "recoveries",
			      "recovery_attempts", "recovery_errno"};
	ASSERT_EQ(j.members().size(), sizeof(keys) / sizeof(keys[0]));
	for (size_t i = 0; i < j.members().size(); i++)
		EXPECT_EQ(j.members()[i].first, keys[i]); // stable order
	EXPECT_EQ(j.get("pci_id")->as_str(), "15b3:1021");
	EXPECT_EQ(j.get("recovery")->as_str(), "NONE");
	EXPECT_EQ(j.get("flags")->items()[0].as_str(), "EMULATED");
	EXPECT_EQ(j.get("ecpf")->kind(), Json::Kind::BOOL);
	EXPECT_EQ(j.get("ecpf")->as_uint(), 0u);
	EXPECT_TRUE(j.get("async_eqn")->is_null());
	EXPECT_TRUE(j.get("comp_eqn")->is_null());
	Result t = cli({"info", dir_ + "/0000:00:03.0"}); // by path
	EXPECT_EQ(t.rc, 0);
	EXPECT_NE(t.out.find("firmware:"), std::string::npos);
}

TEST_F(DevDir, CapsGeneralEveryFieldAndOtherTypes)
{
	fake("0000:00:03.0");
	Result r = cli({"caps", "00:03.0", "-j"});
	ASSERT_EQ(r.rc, 0) << r.err;
	Json j = r.json();
	EXPECT_EQ(j.get("cap_type")->as_str(), "GENERAL");
	EXPECT_EQ(j.get("mode")->as_str(), "CUR");
	EXPECT_EQ(j.get("layout")->as_str(), "cmd_hca_cap");
	EXPECT_EQ(j.get("status")->get("status")->as_str(), "OK");
	ASSERT_EQ(j.get("fields")->size(), (size_t)prm::cmd_hca_cap::nfields);
	EXPECT_EQ(j.get("fields")->get("dct")->as_uint(), 1u);
	EXPECT_EQ(j.get("fields")->get("log_max_qp")->as_uint(), 20u); // the ConnectX-7 profile
	EXPECT_EQ(j.get("image"), nullptr);

	Json m = cli({"caps", "00:03.0", "--max", "-j"}).json();
	EXPECT_EQ(m.get("mode")->as_str(), "MAX");

	Json n = cli({"caps", "00:03.0", "--type", "nvmf", "-j"}).json();
	EXPECT_EQ(n.get("layout")->as_str(), "nvmf_cap");
	EXPECT_EQ(n.get("fields")->get("frontend_namespace_context")->as_uint(), 1u);

	// A type the core has no layout for: the one generated from mlx5_ifc.h.
	Json e = cli({"caps", "00:03.0", "--type", "eth", "-j"}).json();
	EXPECT_EQ(e.get("layout")->as_str(), "per_protocol_networking_offload_caps");
	EXPECT_EQ(e.get("layout_source")->as_str(), "mlx5_ifc.h");
	ASSERT_NE(e.get("fields"), nullptr);
	EXPECT_NE(e.get("fields")->get("csum_cap"), nullptr);
	EXPECT_NE(e.get("fields")->get("lro_cap"), nullptr);
	EXPECT_EQ(e.get("image"), nullptr);
	EXPECT_EQ(n.get("layout_source")->as_str(), "core");
	Result et = cli({"caps", "00:03.0", "--type", "eth"});
	ASSERT_EQ(et.rc, 0) << et.err;
	EXPECT_NE(et.out.find("layout per_protocol_networking_offload_caps (mlx5_ifc.h)"), std::string::npos)
		<< et.out;
	EXPECT_NE(et.out.find("  csum_cap:"), std::string::npos) << et.out;
	EXPECT_EQ(et.out.find("image ("), std::string::npos);
	// --hex still adds the image.
	Json eh = cli({"caps", "00:03.0", "--type", "eth", "--hex", "-j"}).json();
	EXPECT_EQ(eh.get("image")->size(), 256u); // 4096 bytes, 16 a line

	Result t = cli({"caps", "00:03.0", "--nonzero"});
	EXPECT_EQ(t.rc, 0);
	EXPECT_NE(t.out.find("layout cmd_hca_cap"), std::string::npos);
	EXPECT_EQ(t.out.find(": 0\n"), std::string::npos);
}

TEST_F(DevDir, FirmwareErrorExitsThreeWithStatusAndSyndrome)
{
	fake("0000:00:03.0");
	Result r = cli({"caps", "00:03.0", "--type", "0x77"});
	EXPECT_EQ(r.rc, 3);
	EXPECT_NE(r.err.find("BAD_PARAM_ERR (0x03)"), std::string::npos) << r.err;
	EXPECT_NE(r.err.find("bad parameter"), std::string::npos) << r.err; // the sentence
	EXPECT_NE(r.err.find("syndrome 0xe3010008"), std::string::npos) << r.err;
	EXPECT_NE(r.err.find("emulator QUERY_CAP_BAD_TYPE"), std::string::npos) << r.err;
	Result j = cli({"caps", "00:03.0", "--type", "0x77", "-j"});
	EXPECT_EQ(j.rc, 3);
	Json st = *j.json().get("status");
	EXPECT_EQ(st.get("status")->as_str(), "BAD_PARAM_ERR");
	EXPECT_EQ(st.get("status_code")->as_uint(), 3u);
	EXPECT_EQ(st.get("syndrome")->as_uint(), 0xe3010008u);
	EXPECT_EQ(st.get("syndrome_name")->as_str(), "emulator:QUERY_CAP_BAD_TYPE");
}

TEST_F(DevDir, PermissionMessagesNameTheCapability)
{
	fake("0000:00:03.0", "net_admin=0\n");
	Result r = cli({"caps", "00:03.0"});
	EXPECT_EQ(r.rc, 2);
	EXPECT_NE(r.err.find("EPERM"), std::string::npos) << r.err;
	EXPECT_NE(r.err.find("needs CAP_NET_ADMIN"), std::string::npos) << r.err;
	EXPECT_EQ(cli({"info", "00:03.0"}).rc, 0); // INFO needs no capability

	fake("0000:00:04.0");
	Result w = cli({"raw", "00:04.0", "--opcode", "ALLOC_UAR"});
	EXPECT_EQ(w.rc, 2);
	EXPECT_NE(w.err.find("CAP_SYS_RAWIO"), std::string::npos) << w.err;
	EXPECT_NE(w.err.find("allow_raw_write=1"), std::string::npos) << w.err;
	// A register read (ACCESS_REG op_mod 1) is a query; its write is not.
	std::vector<std::string> reg = {"raw", "00:04.0", "--opcode", "ACCESS_REG", "--in", "00007004",
					"--in-len", "32", "--out-len", "32", "--op-mod"};
	reg.push_back("1");
	Result rd = cli(reg);
	EXPECT_EQ(rd.rc, 0) << rd.err;
	reg.back() = "0";
	Result wr = cli(reg);
	EXPECT_EQ(wr.rc, 2);
	EXPECT_NE(wr.err.find("ACCESS_REG with op_mod 0 is not a read-only query"), std::string::npos) << wr.err;
	// Opcodes the driver never runs raw say so (whatever the privileges).
	fake("0000:00:05.0", "allow_raw_write=1\n");
	Result x = cli({"raw", "00:05.0", "--opcode", "TEARDOWN_HCA", "--dump", "-j"});
	EXPECT_EQ(x.rc, 2);
	EXPECT_NE(x.err.find("refuses TEARDOWN_HCA"), std::string::npos) << x.err;
	EXPECT_NE(x.json().get("error"), nullptr); // JSON still printed, with the error
	EXPECT_EQ(x.json().get("output"), nullptr);
}

TEST_F(DevDir, NvmfNamespace)
{
	fake("0000:00:03.0");
	Result r = cli({"nvmf", "ns", "00:03.0", "--xrq", "0x80", "--nsid", "1", "-j"});
	ASSERT_EQ(r.rc, 0) << r.err;
	Json c = *r.json().get("counters");
	EXPECT_EQ(c.get("read_cmds")->as_uint(), 10u);
	EXPECT_EQ(c.get("write_cmds")->as_uint(), 5u);
	EXPECT_EQ(c.get("read_blocks")->as_uint(), 80u);
	Result bad = cli({"nvmf", "ns", "00:03.0", "--xrq", "0x80", "--nsid", "9"});
	EXPECT_EQ(bad.rc, 3);
	EXPECT_NE(bad.err.find("NVMF_NS_UNKNOWN_QUERY"), std::string::npos) << bad.err;
	EXPECT_NE(cli({"nvmf", "ns", "00:03.0", "--xrq", "0x80", "--nsid", "1"}).out.find("read commands"),
		  std::string::npos);
}

TEST_F(DevDir, EswFunctionsAndWatch)
{
	// The eswitch functions exist on an ECPF eswitch manager (BlueField).
	fake("0000:00:03.0", "profile=bluefield3\nesw_events=2\n");
	Result f = cli({"esw", "functions", "00:03.0", "-j"});
	ASSERT_EQ(f.rc, 0) << f.err;
	EXPECT_EQ(f.json().get("functions")->get("host_total_vfs")->as_uint(), 16u);
	EXPECT_EQ(f.json().get("functions")->get("host_pci_bus")->as_uint(), 0x81u);

	Result w = cli({"esw", "watch", "00:03.0", "--count", "2", "--timeout", "20", "-j"});
	ASSERT_EQ(w.rc, 0) << w.err;
	std::vector<Json> ev = w.lines();
	ASSERT_EQ(ev.size(), 2u);
	for (size_t i = 0; i < 2; i++) {
		EXPECT_EQ(ev[i].get("type")->as_str(), "ESW_FUNCTIONS_CHANGED");
		EXPECT_EQ(ev[i].get("type_code")->as_uint(), 0x0eu);
		EXPECT_GT(ev[i].get("timestamp_ns")->as_uint(), 0u);
		EXPECT_EQ(ev[i].get("esw")->get("functions")->get("host_num_of_vfs")->as_uint(), i + 1);
	}
	Result h = cli({"esw", "watch", "00:03.0", "--count", "1", "--timeout", "20"});
	ASSERT_EQ(h.rc, 0) << h.err;
	EXPECT_NE(h.out.find("ESW_FUNCTIONS_CHANGED (0xe)"), std::string::npos) << h.out;
	EXPECT_NE(h.out.find("host VFs"), std::string::npos) << h.out;

	fake("0000:00:04.0", "profile=bluefield3\n");
	Result t = cli({"esw", "watch", "00:04.0", "--count", "1", "--timeout", "0.1"});
	EXPECT_EQ(t.rc, 4);
	EXPECT_NE(t.err.find("timed out"), std::string::npos);
	EXPECT_EQ(cli({"esw", "watch", "00:04.0", "--timeout", "0.1"}).rc, 0); // no --count: a timeout is the end
}

// A3: an ECPF says so in info (flag, function line, JSON); A8: on a plain
// PF 'cxprm esw' explains why there is nothing to show.
TEST_F(DevDir, EcpfInfoAndEswOnAPlainPf)
{
	fake("0000:00:03.0", "profile=bluefield3\n");
	Result j = cli({"info", "00:03.0", "--json"});
	ASSERT_EQ(j.rc, 0) << j.err;
	EXPECT_EQ(j.json().get("ecpf")->as_uint(), 1u);
	EXPECT_EQ(j.json().get("flags")->items()[1].as_str(), "ECPF");
	Result t = cli({"info", "00:03.0"});
	EXPECT_NE(t.out.find("ECPF (embedded CPU"), std::string::npos) << t.out;

	fake("0000:00:04.0");
	Result e = cli({"esw", "functions", "00:04.0"});
	EXPECT_EQ(e.rc, 2);
	EXPECT_NE(e.err.find("not an ECPF eswitch manager"), std::string::npos) << e.err;
	Result w = cli({"esw", "watch", "00:04.0", "--count", "1", "--timeout", "0.1"});
	EXPECT_EQ(w.rc, 2);
	EXPECT_NE(w.err.find("not an ECPF eswitch manager"), std::string::npos) << w.err;
}

// The DCT operations of JSON lines, without the object commands (PD, CQ,
// SRQ created before the DCT and destroyed after: cli_objects_test.cpp).
std::vector<Json> dct_ops(const std::vector<Json> &lines, uint64_t *pd = nullptr)
{
	std::vector<Json> v;
	for (const Json &l : lines)
		if (l.get("op")->as_str().rfind("obj_", 0) != 0)
			v.push_back(l);
		else if (pd && l.get("object")->as_str() == "PD")
			*pd = l.get("id")->as_uint();
	return v;
}

TEST_F(DevDir, DctLifecycleInOneProcess)
{
	fake("0000:00:03.0");
	Result r = cli({"dct", "create", "00:03.0", "--mtu", "4096", "--rre", "--key", "0x1122334455667788", "--then",
			"query,drain,wait,query,destroy", "-j"});
	ASSERT_EQ(r.rc, 0) << r.err;
	uint64_t pd = 0;
	std::vector<Json> ops = dct_ops(r.lines(), &pd);
	ASSERT_EQ(ops.size(), 6u);
	const char *names[] = {"create", "query", "drain", "wait", "query", "destroy"};
	for (size_t i = 0; i < 6; i++)
		EXPECT_EQ(ops[i].get("op")->as_str(), names[i]);
	uint64_t dctn = ops[0].get("dctn")->as_uint();
	EXPECT_EQ(dctn, 0x1000u);
	const Json &ctx = *ops[1].get("context");
	EXPECT_EQ(ctx.get("state")->as_str(), "ACTIVE");
	EXPECT_EQ(ctx.get("mtu")->as_uint(), 4096u);
	EXPECT_EQ(ctx.get("pd")->as_uint(), pd);
	EXPECT_NE(pd, 0u);
	EXPECT_EQ(ctx.get("dc_access_key")->as_str(), "0x1122334455667788");
	EXPECT_TRUE(ctx.get("rre")->kind() == Json::Kind::BOOL);
	EXPECT_EQ(ops[3].get("via")->as_str(), "event");
	EXPECT_EQ(ops[3].get("event")->get("fields")->get("dct_number")->as_uint(), dctn);
	EXPECT_EQ(ops[4].get("context")->get("state")->as_str(), "DRAINED");
	EXPECT_TRUE(r.err.empty()) << r.err; // nothing left alive

	// Human output, DCT left alive: the tool says the driver destroys it.
	Result h = cli({"dct", "create", "00:03.0"});
	ASSERT_EQ(h.rc, 0) << h.err;
	EXPECT_NE(h.out.find("created DCT 0x1000"), std::string::npos) << h.out;
	EXPECT_NE(h.err.find("destroys 1 DCT(s)"), std::string::npos) << h.err;
}

TEST_F(DevDir, DctSessionFromStdin)
{
	fake("0000:00:03.0");
	std::string script = "# a session\n"
			     "create\n"
			     "create --mtu 256\n"
			     "query @2\n"
			     "drain last\n"
			     "wait last --timeout 20\n"
			     "destroy 0x1001\n"
			     "destroy @1\n";
	Result r = cli({"dct", "session", "00:03.0", "-j"}, script);
	ASSERT_EQ(r.rc, 0) << r.err;
	std::vector<Json> ops = dct_ops(r.lines());
	ASSERT_EQ(ops.size(), 7u);
	EXPECT_EQ(ops[1].get("dctn")->as_uint(), 0x1001u);
	EXPECT_EQ(ops[2].get("context")->get("mtu")->as_uint(), 256u);
	EXPECT_EQ(ops[6].get("dctn")->as_uint(), 0x1000u);

	// Stops at the first failure (exit code of that failure) ...
	Result s = cli({"dct", "session", "00:03.0"}, "create --pd 1 --cqn 2\nquery last\n");
	EXPECT_EQ(s.rc, 3); // srqn 0: the emulator refuses (DCT_BAD_SRQN)
	EXPECT_NE(s.err.find("line 1"), std::string::npos) << s.err;
	EXPECT_NE(s.err.find("DCT_BAD_SRQN"), std::string::npos) << s.err;
	EXPECT_EQ(s.err.find("line 2"), std::string::npos) << s.err;
	// ... unless --keep-going.
	Result k = cli({"dct", "session", "00:03.0", "--keep-going"}, "frob\nquery 5\ncreate\n");
	EXPECT_EQ(k.rc, 1);
	EXPECT_NE(k.err.find("line 1: unknown operation"), std::string::npos) << k.err;
	EXPECT_NE(k.err.find("line 2:"), std::string::npos) << k.err;
	EXPECT_NE(k.out.find("created DCT"), std::string::npos);
}

TEST_F(DevDir, DctOfAnotherFileIsENOENTWithExplanation)
{
	fake("0000:00:03.0");
	Result r = cli({"dct", "destroy", "00:03.0", "0x1000"});
	EXPECT_EQ(r.rc, 2);
	EXPECT_NE(r.err.find("ENOENT"), std::string::npos) << r.err;
	EXPECT_NE(r.err.find("dct session"), std::string::npos) << r.err;
	EXPECT_EQ(cli({"dct", "drain", "00:03.0", "4096"}).rc, 2);
	// Any file may query: here no such DCT exists, a firmware answer.
	Result q = cli({"dct", "query", "00:03.0", "0x1000"});
	EXPECT_EQ(q.rc, 3);
	EXPECT_NE(q.err.find("DCT_UNKNOWN_QUERY"), std::string::npos) << q.err;
}

TEST_F(DevDir, DctKeepOpenHoldsThenReleases)
{
	fake("0000:00:03.0");
	Result r = cli({"dct", "create", "00:03.0", "--keep-open", "--hold", "0.2", "-j"});
	ASSERT_EQ(r.rc, 0) << r.err;
	EXPECT_EQ(dct_ops(r.lines()).size(), 1u);
	EXPECT_NE(r.err.find("holding the device file open"), std::string::npos) << r.err;
}

TEST_F(DevDir, RawQueryWithSetDecodeAndDump)
{
	fake("0000:00:03.0");
	Result r = cli({"raw", "00:03.0", "--opcode", "QUERY_HCA_CAP", "--op-mod", "1", "--dump", "-j"});
	ASSERT_EQ(r.rc, 0) << r.err;
	Json j = r.json();
	EXPECT_EQ(j.get("inlen")->as_uint(), 16u);
	EXPECT_EQ(j.get("outlen")->as_uint(), (uint64_t)prm::query_hca_cap_out::size_bytes);
	EXPECT_EQ(j.get("decoder")->as_str(), "core");
	EXPECT_EQ(j.get("decoded")->get("log_max_qp")->as_uint(), 20u);
	EXPECT_EQ(j.get("output_header")->get("status")->as_uint(), 0u);
	const Json &d = *j.get("dump");
	EXPECT_EQ(d.get("in_blocks")->as_uint(), 0u);
	EXPECT_EQ(d.get("out_blocks")->as_uint(), 8u); // 4112 - 16 inline = 8 x 512
	EXPECT_EQ(d.get("output_mailboxes")->size(), 8u);
	EXPECT_EQ(d.get("entry_posted")->get("fields")->get("type")->as_uint(), 7u);
	EXPECT_EQ(d.get("entry_completed")->get("fields")->get("ownership")->as_uint(), 0u);
	EXPECT_EQ(d.get("output_mailboxes")->items()[7].get("control")->get("block_number")->as_uint(), 7u);

	// --set by field name: QUERY_NVMF_NAMESPACE_CONTEXT of the attached namespace.
	Result n = cli({"raw", "00:03.0", "--opcode", "QUERY_NVMF_NAMESPACE_CONTEXT", "--set", "xrqn=0x80", "--set",
			"frontend_namespace=1", "-j"});
	ASSERT_EQ(n.rc, 0) << n.err;
	EXPECT_EQ(n.json().get("decoded")->get("num_read_cmd")->as_uint(), 10u);
	// --in: bytes from dword 2 on (xrqn, then frontend_namespace).
	Result i = cli({"raw", "00:03.0", "--opcode", "QUERY_NVMF_NAMESPACE_CONTEXT", "--in", "00000080 00000001", "-j"});
	ASSERT_EQ(i.rc, 0) << i.err;
	EXPECT_EQ(i.json().get("input")->items()[0].as_str(), "07280000000000000000008000000001");
	// --in-full: the same command whole.
	Result f = cli({"raw", "00:03.0", "--in-full", "07280000000000000000008000000001", "-j"});
	ASSERT_EQ(f.rc, 0) << f.err;
	EXPECT_EQ(f.json().get("opcode_name")->as_str(), "QUERY_NVMF_NAMESPACE_CONTEXT");

	// Human output with a bad firmware status: everything printed, exit 3.
	Result b = cli({"raw", "00:03.0", "--opcode", "QUERY_DCT", "--set", "dctn=0x42", "--dump"});
	EXPECT_EQ(b.rc, 3);
	EXPECT_NE(b.out.find("BAD_RES_ERR"), std::string::npos) << b.out;
	EXPECT_NE(b.out.find("queue entry as completed:"), std::string::npos) << b.out;
	EXPECT_NE(b.err.find("DCT_UNKNOWN_QUERY"), std::string::npos) << b.err;
}

TEST_F(DevDir, RawWriteNeedsTheModuleParameter)
{
	fake("0000:00:03.0", "allow_raw_write=1\n");
	Result r = cli({"raw", "00:03.0", "--opcode", "ALLOC_UAR", "-j"});
	ASSERT_EQ(r.rc, 0) << r.err;
	EXPECT_EQ(r.json().get("decoder")->as_str(), "core");
	EXPECT_NE(r.json().get("decoded")->get("uar"), nullptr);
}

// ACCESS_REG through raw: --set names access_register_in's fields, the
// register follows the 16-byte header (--in-len/--out-len size it), the
// core shows its words, then the register's own layout its fields.  MCAM
// group 0 read: 88/88 as mlx5_core sends it.
TEST_F(DevDir, RawAccessReg)
{
	fake("0000:00:03.0", "allow_raw_write=1\n");
	Result r = cli({"raw", "00:03.0", "--opcode", "ACCESS_REG", "--op-mod", "1", "--set", "register_id=0x907f",
			"--in-len", "88", "--out-len", "88", "-j"});
	ASSERT_EQ(r.rc, 0) << r.err << r.out;
	Json j = r.json();
	EXPECT_EQ(j.get("inlen")->as_uint(), 88u);
	EXPECT_EQ(j.get("outlen")->as_uint(), 88u);
	EXPECT_EQ(j.get("decoder")->as_str(), "core+layout:mcam_reg");
	EXPECT_EQ(j.get("decoded")->get("register_bytes")->as_uint(), 72u);
	ASSERT_NE(j.get("decoded")->get("register"), nullptr) << r.out;
	EXPECT_NE(j.get("decoded")->get("register")->get("feature_group"), nullptr) << r.out;
	// An unknown register: BAD_PARAM with the emulator's syndrome, exit 3.
	Result u = cli({"raw", "00:03.0", "--opcode", "ACCESS_REG", "--op-mod", "1", "--set", "register_id=0x5002",
			"--in-len", "32", "--out-len", "32"});
	EXPECT_EQ(u.rc, 3) << u.out << u.err;
	EXPECT_NE(u.out.find("BAD_PARAM_ERR"), std::string::npos) << u.out;
	EXPECT_NE(u.err.find("REG_UNKNOWN"), std::string::npos) << u.err;
	// The input decodes offline with the register named.
	Result d = cli({"decode", "--in", "08050000000000010000907f00000000", "-j"});
	ASSERT_EQ(d.rc, 0) << d.err << d.out;
	EXPECT_EQ(d.json().get("decoded")->get("register")->as_str(), "MCAM");
	EXPECT_EQ(d.json().get("decoded")->get("access")->as_str(), "READ");
}

TEST_F(DevDir, Stats)
{
	fake("0000:00:03.0");
	Result r = cli({"stats", "00:03.0", "-j"});
	ASSERT_EQ(r.rc, 0) << r.err;
	Json j = r.json();
	EXPECT_GT(j.get("total")->as_uint(), 5u); // bring-up commands
	bool caps = false;
	for (const Json &o : j.get("opcodes")->items())
		if (o.get("name")->as_str() == "QUERY_HCA_CAP") {
			caps = true;
			EXPECT_GE(o.get("count")->as_uint(), 2u);
			EXPECT_GE(o.get("lat_max_ns")->as_uint(), o.get("lat_min_ns")->as_uint());
		}
	EXPECT_TRUE(caps);
	Result t = cli({"stats", "00:03.0"});
	EXPECT_NE(t.out.find("INIT_HCA"), std::string::npos);
}

TEST_F(DevDir, ProbeIsDiffable)
{
	fake("0000:00:03.0", "profile=bluefield3\n"); // an ECPF: the eswitch query is in the set
	Result a = cli({"probe", "00:03.0", "--xrq", "0x80", "--nsid", "1", "-j"});
	ASSERT_EQ(a.rc, 0) << a.err;
	Result b = cli({"probe", "00:03.0", "--xrq", "0x80", "--nsid", "1", "-j"});
	EXPECT_EQ(a.out, b.out); // nothing that changes between runs
	Json j = a.json();
	EXPECT_EQ(j.get("device")->get("fw_version")->as_str(), "32.39.1002");
	const Json &cmds = *j.get("commands");
	ASSERT_EQ(cmds.size(), 6u);
	EXPECT_EQ(cmds.items()[2].get("name")->as_str(), "query_hca_cap_general_cur");
	EXPECT_EQ(cmds.items()[2].get("output")->size(), (size_t)prm::query_hca_cap_out::size_bytes / 16);
	EXPECT_EQ(cmds.items()[3].get("decoded")->get("cap_mode")->as_str(), "MAX");
	EXPECT_EQ(cmds.items()[4].get("params")->get("xrqn")->as_uint(), 0x80u);
	EXPECT_EQ(cmds.items()[4].get("decoded")->get("num_read_cmd")->as_uint(), 10u);
	EXPECT_EQ(cmds.items()[2].get("status")->get("latency_ns"), nullptr);
	EXPECT_EQ(a.out.find("latency_ns"), std::string::npos);

	Json l = cli({"probe", "00:03.0", "--xrq", "0x80", "-j", "--with-latency"}).json();
	EXPECT_NE(l.get("commands")->items()[0].get("status")->get("latency_ns"), nullptr);

	// Default xrq 0 does not exist here: reported, exit 3.
	Result d = cli({"probe", "00:03.0"});
	EXPECT_EQ(d.rc, 3);
	EXPECT_NE(d.out.find("NVMF_BAD_XRQN"), std::string::npos) << d.out;
	EXPECT_NE(d.out.find("| log_max_qp:"), std::string::npos) << d.out; // decoding next to the hex
	EXPECT_EQ(cli({"probe", "00:03.0", "--no-nvmf", "--no-esw", "-j"}).json().get("commands")->size(), 4u);
	// A plain PF is asked no QUERY_ESW_FUNCTIONS (A8).
	fake("0000:00:04.0");
	Result pf = cli({"probe", "00:04.0", "--xrq", "0x80", "-j"});
	EXPECT_EQ(pf.rc, 0) << pf.err;
	EXPECT_EQ(pf.json().get("commands")->size(), 5u);
}

} // namespace
