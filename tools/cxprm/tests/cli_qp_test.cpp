// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// 'qp connect' against fake devices (the core over the strict emulator):
// RST -> INIT -> RTR -> RTS with each state printed, the address path as
// the QP_MODIFY ioctls carried it (the fake's record), usage errors
// before any ioctl, a firmware refusal with its syndrome; and that
// 'bench connect' still sends the path it always sent.  The GID and MAC
// parsers on their own.
#include <gtest/gtest.h>

#include <cstring>

#include "addr.h"
#include "cli_run.h"
#include "errors.h"
#include "fake_dev_node.h"

using namespace cxprm::tool;
using namespace cxprm::tool::test;

namespace {

std::vector<std::string> ops_of(const std::vector<Json> &lines)
{
	std::vector<std::string> v;
	for (const Json &l : lines) {
		std::string op = l.get("op")->as_str();
		if (l.get("transition"))
			op += " " + l.get("transition")->as_str() + " " + l.get("state")->as_str();
		else if (l.get("object"))
			op += " " + l.get("object")->as_str();
		v.push_back(op);
	}
	return v;
}

class QpConnect : public DevDir {
protected:
	void SetUp() override
	{
		DevDir::SetUp();
		fake("0000:00:03.0");
		fake::record() = {};
	}
};

TEST_F(QpConnect, ReachesRtsPrintingEachStateThenTearsDown)
{
	Result r = cli({"qp", "connect", "00:03.0", "-j"});
	ASSERT_EQ(r.rc, 0) << r.err;
	std::vector<Json> l = r.lines();
	std::vector<std::string> want = {"obj_create PD",
					 "obj_create CQ",
					 "obj_create QP",
					 "qp_modify RST2INIT INIT",
					 "qp_modify INIT2RTR RTR",
					 "qp_modify RTR2RTS RTS",
					 "connect",
					 "obj_destroy QP",
					 "obj_destroy CQ",
					 "obj_destroy PD"};
	ASSERT_EQ(ops_of(l), want);
	uint64_t qpn = l[2].get("id")->as_uint();
	for (size_t i = 3; i < 6; i++) {
		EXPECT_EQ(l[i].get("id")->as_uint(), qpn);
		EXPECT_EQ(l[i].get("state_code")->as_uint(), i - 2); // INIT 1, RTR 2, RTS 3
		EXPECT_EQ(l[i].get("status")->get("status")->as_str(), "OK");
	}
	const Json &c = l[6];
	EXPECT_EQ(c.get("pci_addr")->as_str(), "0000:00:03.0");
	EXPECT_EQ(c.get("pd")->as_uint(), l[0].get("id")->as_uint());
	EXPECT_EQ(c.get("cqn")->as_uint(), l[1].get("id")->as_uint());
	EXPECT_EQ(c.get("qpn")->as_uint(), qpn);
	EXPECT_EQ(c.get("state")->as_str(), "RTS");
	EXPECT_EQ(c.get("path")->get("remote_qpn")->as_uint(), qpn); // a loopback by default
	EXPECT_EQ(c.get("path")->get("mtu")->as_uint(), 1024u);
	EXPECT_EQ(c.get("path")->get("access")->as_str(), "r,w");
	EXPECT_TRUE(r.err.empty()) << r.err;

	// Human output: one line a state, then the summary.
	Result h = cli({"qp", "connect", "00:03.0", "--exec", "test -n \"$CXPRM_QPN\" && test \"$CXPRM_DEV\" = 0000:00:03.0"});
	ASSERT_EQ(h.rc, 0) << h.err;
	for (const char *s : {"created QP 0x", ": RST2INIT -> INIT\n", ": INIT2RTR -> RTR\n", ": RTR2RTS -> RTS\n",
			      ": RTS, remote QP 0x", "(loopback), port 1, MTU 1024, GID index 0", "destroyed PD"})
		EXPECT_NE(h.out.find(s), std::string::npos) << s << "\n" << h.out;
	EXPECT_LT(h.out.find("RTR2RTS"), h.out.find("destroyed QP"));
}

TEST_F(QpConnect, EveryPathOptionReachesTheIoctl)
{
	Result r = cli({"qp", "connect", "00:03.0", "--mtu", "4096", "--pkey-index", "3", "--remote-qpn", "0x1234",
			"--rq-psn", "0xabcdef", "--sq-psn", "0x123456", "--rgid", "10.1.2.3", "--rmac",
			"02:11:22:33:44:5f", "--gid-index", "1", "--hop-limit", "32", "--rlid", "0x77", "--sl", "5",
			"--tclass", "0x68", "--flow-label", "0xfffff", "--retry-count", "6", "--rnr-retry", "3",
			"--min-rnr-nak", "20", "--ack-timeout", "18", "--access", "r,a", "-j"});
	ASSERT_EQ(r.rc, 0) << r.err;
	const std::vector<cxprm_qp_modify> &got = fake::record().qp_modify;
	ASSERT_EQ(got.size(), 3u);
	const uint8_t rgid[16] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff, 10, 1, 2, 3};
	const uint8_t rmac[6] = {0x02, 0x11, 0x22, 0x33, 0x44, 0x5f};
	for (size_t i = 0; i < got.size(); i++) {
		const cxprm_qp_modify &m = got[i];
		EXPECT_EQ(m.transition, i + 1); // RST2INIT, INIT2RTR, RTR2RTS
		EXPECT_EQ(m.state, i + 1);      // INIT, RTR, RTS
		EXPECT_EQ(m.st.status, 0u);
		EXPECT_EQ(m.port, 1u);
		EXPECT_EQ(m.mtu, 5u);
		EXPECT_EQ(m.pkey_index, 3u);
		EXPECT_EQ(m.remote_qpn, 0x1234u);
		EXPECT_EQ(m.rq_psn, 0xabcdefu);
		EXPECT_EQ(m.sq_psn, 0x123456u);
		EXPECT_EQ(std::memcmp(m.rgid, rgid, 16), 0);
		EXPECT_EQ(std::memcmp(m.rmac, rmac, 6), 0);
		EXPECT_EQ(m.src_addr_index, 1u);
		EXPECT_EQ(m.hop_limit, 32u);
		EXPECT_EQ(m.rlid, 0x77u);
		EXPECT_EQ(m.sl, 5u);
		EXPECT_EQ(m.tclass, 0x68u);
		EXPECT_EQ(m.flow_label, 0xfffffu);
		EXPECT_EQ(m.retry_count, 6u);
		EXPECT_EQ(m.rnr_retry, 3u);
		EXPECT_EQ(m.min_rnr_nak, 20u);
		EXPECT_EQ(m.ack_timeout, 18u);
		EXPECT_EQ(m.rre, 1u);
		EXPECT_EQ(m.rwe, 0u);
		EXPECT_EQ(m.rae, 1u);
	}
	// The JSON summary says the same.
	Json path = *r.lines()[6].get("path");
	EXPECT_EQ(path.get("rgid")->as_str(), "::ffff:10.1.2.3");
	EXPECT_EQ(path.get("rmac")->as_str(), "02:11:22:33:44:5f");
	EXPECT_EQ(path.get("flow_label")->as_uint(), 0xfffffu);
	EXPECT_EQ(path.get("access")->as_str(), "r,a");
}

// The defaults are mlx5_ib's RC over RoCE port 1, as 'bench connect' has
// always sent them; 'qp connect' without options sends the same.
TEST_F(QpConnect, DefaultsAreBenchConnectsPath)
{
	ASSERT_EQ(cli({"bench", "connect", "00:03.0", "--count", "1"}).rc, 0);
	ASSERT_EQ(cli({"qp", "connect", "00:03.0"}).rc, 0);
	const std::vector<cxprm_qp_modify> &got = fake::record().qp_modify;
	ASSERT_EQ(got.size(), 6u);
	for (const cxprm_qp_modify &m : got) {
		EXPECT_EQ(m.remote_qpn, m.qpn);
		EXPECT_EQ(m.port, 1u);
		EXPECT_EQ(m.mtu, 3u);
		EXPECT_EQ(m.pkey_index, 0u);
		EXPECT_EQ(m.rre + m.rwe * 2 + m.rae * 4, 3);
		EXPECT_EQ(m.hop_limit, 64u);
		EXPECT_EQ(m.min_rnr_nak, 12u);
		EXPECT_EQ(m.retry_count, 7u);
		EXPECT_EQ(m.rnr_retry, 7u);
		EXPECT_EQ(m.ack_timeout, 14u);
		EXPECT_EQ(m.src_addr_index + m.rq_psn + m.sq_psn + m.rlid + m.sl + m.tclass + m.flow_label, 0u);
		const uint8_t zero[16] = {};
		EXPECT_EQ(std::memcmp(m.rgid, zero, 16), 0);
		EXPECT_EQ(std::memcmp(m.rmac, zero, 6), 0);
	}
	for (size_t i = 0; i < 3; i++) { // the same but for the QP's number
		cxprm_qp_modify a = got[i], b = got[i + 3];
		b.qpn = b.remote_qpn = a.qpn;
		a.st.latency_ns = b.st.latency_ns = 0;
		EXPECT_EQ(std::memcmp(&a, &b, sizeof(a)), 0) << i;
	}
}

TEST_F(QpConnect, BadArgumentsAreUsageErrorsBeforeAnyIoctl)
{
	const std::vector<std::pair<std::vector<std::string>, std::string>> cases = {
		{{"--mtu", "1000"}, "--mtu: 1000 is not one of 256, 512, 1024, 2048, 4096"},
		{{"--flow-label", "0x100000"}, "--flow-label: 0x100000 is out of range (at most 1048575, 0xfffff)"},
		{{"--rgid", "fe80::1::2"}, "--rgid: 'fe80::1::2' is not a GID"},
		{{"--rgid", "0123456789abcdef0123456789abcde"}, "is not a GID"},
		{{"--rgid", "10.1.2"}, "is not a GID"},
		{{"--rmac", "aa:bb:cc:dd:ee"}, "--rmac: 'aa:bb:cc:dd:ee' is not a MAC address"},
		{{"--rmac", "aa:bb:cc:dd:ee:gg"}, "is not a MAC address"},
		{{"--port", "0"}, "--port: ports are numbered from 1"},
		{{"--sl", "16"}, "--sl: 16 is out of range"},
		{{"--remote-qpn", "0x1000000"}, "--remote-qpn: 0x1000000 is out of range"},
		{{"--retry-count", "8"}, "--retry-count: 8 is out of range"},
		{{"--ack-timeout", "32"}, "--ack-timeout: 32 is out of range"},
		{{"--access", "r,x"}, "--access: 'x' is not one of r, w, a"},
		{{"--hold", "1"}, "--hold needs --keep-open"},
	};
	for (const auto &c : cases) {
		std::vector<std::string> argv = {"qp", "connect", "00:03.0"};
		argv.insert(argv.end(), c.first.begin(), c.first.end());
		Result r = cli(argv);
		EXPECT_EQ(r.rc, EXIT_USAGE) << c.second;
		EXPECT_NE(r.err.find(c.second), std::string::npos) << r.err;
		EXPECT_NE(r.err.find("usage: cxprm qp connect DEV"), std::string::npos) << r.err;
		EXPECT_TRUE(r.out.empty()) << r.out;
	}
	EXPECT_TRUE(fake::record().requests.empty()) << fake::record().requests.size() << " ioctls";
}

TEST_F(QpConnect, FirmwareRefusalShowsStatusAndSyndrome)
{
	// A port the device does not have: the firmware's RST2INIT check.
	Result r = cli({"qp", "connect", "00:03.0", "--port", "2", "-j"});
	EXPECT_EQ(r.rc, EXIT_FW);
	EXPECT_NE(r.err.find("RST2INIT_QP (QP 0x"), std::string::npos) << r.err;
	EXPECT_NE(r.err.find("BAD_PARAM_ERR (0x03)"), std::string::npos) << r.err;
	EXPECT_NE(r.err.find("syndrome 0xe309000c (emulator QP_BAD_PORT"), std::string::npos) << r.err;
	std::vector<Json> l = r.lines();
	ASSERT_EQ(l.size(), 4u) << r.out; // PD, CQ, QP, the refused modify; no teardown lines
	const Json &st = *l[3].get("status");
	EXPECT_EQ(l[3].get("transition")->as_str(), "RST2INIT");
	EXPECT_EQ(l[3].get("state")->as_str(), "RST");
	EXPECT_EQ(st.get("status_code")->as_uint(), 3u);
	EXPECT_EQ(st.get("syndrome")->as_uint(), 0xe309000cu);
	EXPECT_EQ(st.get("syndrome_name")->as_str(), "emulator:QP_BAD_PORT");

	// A GID index beyond the driver's default GID entries: refused by the
	// driver (EINVAL) before INIT2RTR goes out.
	fake::record() = {};
	Result g = cli({"qp", "connect", "00:03.0", "--gid-index", "7"});
	EXPECT_EQ(g.rc, EXIT_OS);
	EXPECT_NE(g.err.find("CXPRM_IOC_QP_MODIFY"), std::string::npos) << g.err;
	EXPECT_NE(g.err.find("EINVAL"), std::string::npos) << g.err;
	EXPECT_NE(g.out.find(": RST2INIT -> INIT"), std::string::npos) << g.out;
	EXPECT_EQ(fake::record().qp_modify.size(), 2u);
}

TEST(Addr, GidsAndMacs)
{
	Gid v6 = parse_gid("fe80::1", "--rgid");
	EXPECT_EQ(v6[0], 0xfe);
	EXPECT_EQ(v6[1], 0x80);
	EXPECT_EQ(v6[15], 1);
	EXPECT_EQ(gid_text(v6), "fe80::1");
	EXPECT_EQ(parse_gid("fe80000000000000000000000000000a", "g"), parse_gid("fe80::a", "g"));
	EXPECT_EQ(parse_gid("192.168.0.9", "g"), parse_gid("::ffff:192.168.0.9", "g"));
	EXPECT_EQ(gid_text(parse_gid("192.168.0.9", "g")), "::ffff:192.168.0.9");
	EXPECT_THROW(parse_gid("", "g"), UsageError);
	EXPECT_THROW(parse_gid("fe80000000000000000000000000000a0", "g"), UsageError);
	Mac m = parse_mac("AA-bb-cc-dd-ee-0f", "--rmac");
	EXPECT_EQ(mac_text(m), "aa:bb:cc:dd:ee:0f");
	EXPECT_THROW(parse_mac("aa:bb:cc:dd:ee:f", "m"), UsageError);
	EXPECT_THROW(parse_mac("aabbccddeeff00000", "m"), UsageError);
	EXPECT_THROW(parse_mac("0x:bb:cc:dd:ee:ff", "m"), UsageError);
}

} // namespace
