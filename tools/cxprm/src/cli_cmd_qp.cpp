// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
// cxprm qp connect DEV [path options]: an RC QP on a PD and CQ of its own,
// driven RST -> INIT -> RTR -> RTS (CXPRM_IOC_QP_MODIFY) with the address
// path a real driver's user sets when connecting (mlx5_ib mlx5_set_path),
// then used (--exec, --keep-open) and torn down.
#include <cstring>
#include <list>
#include <ostream>
#include <sstream>

#include "addr.h"
#include "commands.h"
#include "errors.h"
#include "hex.h"
#include "names.h"
#include "obj_set.h"

#include "cxprm/prm/qp.h"

namespace cxprm::tool {

namespace {

using ads = prm::ads;
using qpc = prm::qpc;

// The defaults, all from qp_path() (what 'bench connect' sends).
const cxprm_qp_modify kDefault = qp_path(0);

// Option help "TEXT (default N)" with N from kDefault; the strings live
// as long as the program (CommandSpec holds pointers).
const char *dflt(const char *text, const std::string &v)
{
	static std::list<std::string> held;
	return held.emplace_back(std::string(text) + " (default " + v + ")").c_str();
}
const char *dflt(const char *text, uint64_t v) { return dflt(text, std::to_string(v)); }

std::string access_text(const cxprm_qp_modify &m)
{
	std::string s = std::string(m.rre ? "r," : "") + (m.rwe ? "w," : "") + (m.rae ? "a," : "");
	return s.empty() ? "none" : s.substr(0, s.size() - 1);
}

const std::vector<Opt> kOpts = {
	{"port", 0, "N", dflt("port (vhca_port_num), 1..255", kDefault.port)},
	{"mtu", 0, "BYTES", dflt("path MTU: 256, 512, 1024, 2048 or 4096", mtu_bytes(kDefault.mtu))},
	{"pkey-index", 0, "N", dflt("P_Key index, 16 bits", kDefault.pkey_index)},
	{"remote-qpn", 0, "N", "the remote QP, 24 bits (default: the QP itself, a loopback)"},
	{"rq-psn", 0, "N", dflt("next receive PSN (INIT2RTR), 24 bits", kDefault.rq_psn)},
	{"sq-psn", 0, "N", dflt("next send PSN (RTR2RTS), 24 bits", kDefault.sq_psn)},
	{"rgid", 0, "GID", "remote GID: IPv6 text, an IPv4 address (::ffff:a.b.c.d) or 32 hex digits (default ::)"},
	{"rmac", 0, "MAC", "remote MAC, aa:bb:cc:dd:ee:ff (RoCE; default 00:00:00:00:00:00)"},
	{"gid-index", 0, "N", dflt("source GID index (src_addr_index), 8 bits", kDefault.src_addr_index)},
	{"hop-limit", 0, "N", dflt("hop limit, 8 bits", kDefault.hop_limit)},
	{"rlid", 0, "N", dflt("remote LID, 16 bits (InfiniBand port)", kDefault.rlid)},
	{"sl", 0, "N", dflt("service level, 4 bits (RoCE: eth_prio = sl & 7)", kDefault.sl)},
	{"tclass", 0, "N", dflt("traffic class, 8 bits (RoCE v2: dscp = tclass >> 2)", kDefault.tclass)},
	{"flow-label", 0, "N", dflt("flow label, 20 bits (0: derived from the QP numbers)", kDefault.flow_label)},
	{"retry-count", 0, "N", dflt("transport retries, 3 bits", kDefault.retry_count)},
	{"rnr-retry", 0, "N", dflt("RNR retries, 3 bits (7: infinite)", kDefault.rnr_retry)},
	{"min-rnr-nak", 0, "N", dflt("minimum RNR NAK timer code, 5 bits", kDefault.min_rnr_nak)},
	{"ack-timeout", 0, "N", dflt("local ACK timeout code, 5 bits", kDefault.ack_timeout)},
	{"access", 0, "LIST", dflt("remote access: a comma list of r (read), w (write), a (atomic), or none",
				   access_text(kDefault))},
	opt_exec,
	opt_keep_open,
	opt_hold,
};

const CommandSpec spec = {
	.name = "qp connect",
	.synopsis = "DEV [path options] [--exec CMD] [--keep-open [--hold S]]",
	.summary = "connect an RC QP (RST2INIT, INIT2RTR, RTR2RTS) with a given address path",
	.description =
		"Objects live as long as the open file that created them, so one process runs\n"
		"the whole sequence on one file: ALLOC_PD, CREATE_CQ, CREATE_QP (RC, a regular\n"
		"RQ), then RST2INIT_QP (port, P_Key index, access), INIT2RTR_QP (MTU, remote\n"
		"QP, receive PSN, the address path: remote GID and MAC, GID index, hop limit,\n"
		"traffic class, flow label, SL, remote LID) and RTR2RTS_QP (send PSN, retries,\n"
		"ACK timeout), printing the QP's state after each; then --exec CMD (a shell\n"
		"command, run while the QP is alive, with CXPRM_DEV and CXPRM_QPN in its\n"
		"environment); then --keep-open (hold everything until Ctrl-C/SIGTERM or\n"
		"--hold S seconds; the QP number is printed, and flushed, first); then the\n"
		"teardown in dependency order (DESTROY_QP, DESTROY_CQ, DEALLOC_PD).  The\n"
		"defaults are those of 'bench connect' (a loopback on port 1 as mlx5_ib\n"
		"sets RC over RoCE).  On an Ethernet (RoCE) port the driver checks that\n"
		"--gid-index names one of its default GID entries (EINVAL, exit 2); a step\n"
		"the firmware refuses exits 3 with its status and syndrome, and closing the\n"
		"file destroys what was created.  -j: one JSON object per command, one a\n"
		"line.  Needs CAP_NET_ADMIN.",
	.opts = kOpts,
	.min_pos = 1,
	.max_pos = 1,
	.json = true,
};

template <class F> uint64_t field_arg(const Args &a, const char *name, uint64_t def)
{
	return a.num(name, field_max(F::width), def);
}

void access_arg(const Args &a, cxprm_qp_modify &m)
{
	if (!a.has("access"))
		return;
	if (a.str("access").empty())
		a.fail("--access: give r, w, a (a comma list) or none");
	m.rre = m.rwe = m.rae = 0;
	std::stringstream ss(a.str("access"));
	std::string w;
	while (std::getline(ss, w, ','))
		if (w == "r")
			m.rre = 1;
		else if (w == "w")
			m.rwe = 1;
		else if (w == "a")
			m.rae = 1;
		else if (w != "none" || a.str("access") != "none")
			a.fail("--access: '" + w + "' is not one of r, w, a (a comma list), or none");
}

// The path from the options, checked before any ioctl; remote_qpn 0 when
// --remote-qpn is absent (the caller loops the QP back to itself).
cxprm_qp_modify path_args(const Args &a)
{
	cxprm_qp_modify m = kDefault;
	m.port = (uint8_t)field_arg<ads::vhca_port_num>(a, "port", kDefault.port);
	if (!m.port)
		a.fail("--port: ports are numbered from 1");
	m.mtu = mtu_arg(a, mtu_bytes(kDefault.mtu));
	m.pkey_index = (uint16_t)field_arg<ads::pkey_index>(a, "pkey-index", kDefault.pkey_index);
	m.remote_qpn = (uint32_t)field_arg<qpc::remote_qpn>(a, "remote-qpn", 0);
	m.rq_psn = (uint32_t)field_arg<qpc::next_rcv_psn>(a, "rq-psn", kDefault.rq_psn);
	m.sq_psn = (uint32_t)field_arg<qpc::next_send_psn>(a, "sq-psn", kDefault.sq_psn);
	try {
		if (a.has("rgid")) {
			Gid g = parse_gid(a.str("rgid"), "--rgid");
			std::memcpy(m.rgid, g.data(), g.size());
		}
		if (a.has("rmac")) {
			Mac mac = parse_mac(a.str("rmac"), "--rmac");
			std::memcpy(m.rmac, mac.data(), mac.size());
		}
	} catch (const UsageError &e) {
		a.fail(e.what());
	}
	m.src_addr_index = (uint8_t)field_arg<ads::src_addr_index>(a, "gid-index", kDefault.src_addr_index);
	m.hop_limit = (uint8_t)field_arg<ads::hop_limit>(a, "hop-limit", kDefault.hop_limit);
	m.rlid = (uint16_t)field_arg<ads::rlid>(a, "rlid", kDefault.rlid);
	m.sl = (uint8_t)field_arg<ads::sl>(a, "sl", kDefault.sl);
	m.tclass = (uint8_t)field_arg<ads::tclass>(a, "tclass", kDefault.tclass);
	m.flow_label = (uint32_t)field_arg<ads::flow_label>(a, "flow-label", kDefault.flow_label);
	m.retry_count = (uint8_t)field_arg<qpc::retry_count>(a, "retry-count", kDefault.retry_count);
	m.rnr_retry = (uint8_t)field_arg<qpc::rnr_retry>(a, "rnr-retry", kDefault.rnr_retry);
	m.min_rnr_nak = (uint8_t)field_arg<qpc::min_rnr_nak>(a, "min-rnr-nak", kDefault.min_rnr_nak);
	m.ack_timeout = (uint8_t)field_arg<ads::ack_timeout>(a, "ack-timeout", kDefault.ack_timeout);
	access_arg(a, m);
	return m;
}

Gid gid_of(const cxprm_qp_modify &m)
{
	Gid g;
	std::memcpy(g.data(), m.rgid, g.size());
	return g;
}

Mac mac_of(const cxprm_qp_modify &m)
{
	Mac mac;
	std::memcpy(mac.data(), m.rmac, mac.size());
	return mac;
}

Json path_json(const cxprm_qp_modify &m)
{
	const std::pair<const char *, uint64_t> nums[] = {
		{"port", m.port},	       {"mtu", mtu_bytes(m.mtu)},   {"mtu_code", m.mtu},
		{"pkey_index", m.pkey_index},  {"remote_qpn", m.remote_qpn}, {"rq_psn", m.rq_psn},
		{"sq_psn", m.sq_psn},
	};
	const std::pair<const char *, uint64_t> grh[] = {
		{"gid_index", m.src_addr_index}, {"hop_limit", m.hop_limit},	 {"rlid", m.rlid},
		{"sl", m.sl},			 {"tclass", m.tclass},		 {"flow_label", m.flow_label},
		{"retry_count", m.retry_count},	 {"rnr_retry", m.rnr_retry},	 {"min_rnr_nak", m.min_rnr_nak},
		{"ack_timeout", m.ack_timeout},
	};
	Json j = Json::object();
	for (const auto &n : nums)
		j.set(n.first, n.second);
	j.set("rgid", gid_text(gid_of(m)));
	j.set("rmac", mac_text(mac_of(m)));
	for (const auto &n : grh)
		j.set(n.first, n.second);
	j.set("access", access_text(m));
	return j;
}

int run(Ctx &ctx, const Args &args)
{
	cxprm_qp_modify path = path_args(args);
	int hold_ms = hold_ms_arg(args);
	auto [p, f, file] = open_dev_arg(args);
	const std::string &bdf = f.where().bdf;
	ObjSet set(f, obj_printer(ctx, args.json()));
	uint32_t pd = set.pd(), cqn = set.cq(6), qpn = set.rc_qp(pd, cqn, 0);
	if (!args.has("remote-qpn"))
		path.remote_qpn = qpn;
	uint8_t state = 0;
	for (uint32_t t : {CXPRM_QP_RST2INIT, CXPRM_QP_INIT2RTR, CXPRM_QP_RTR2RTS})
		state = set.modify_qp(qpn, t, path);
	if (args.json()) {
		Json j = Json::object();
		j.set("op", "connect");
		j.set("pci_addr", bdf);
		j.set("pd", pd);
		j.set("cqn", cqn);
		j.set("qpn", qpn);
		j.set("state", qp_state_name(state));
		j.set_json("path", path_json(path));
		print_json(ctx, j, false);
	} else {
		ctx.out << "RC QP " << hex_num(qpn) << " on " << bdf << ": " << qp_state_name(state) << ", remote QP "
			<< hex_num(path.remote_qpn) << (path.remote_qpn == qpn ? " (loopback)" : "") << ", port "
			<< (unsigned)path.port << ", MTU " << mtu_bytes(path.mtu) << ", GID index "
			<< (unsigned)path.src_addr_index << ", rgid " << gid_text(gid_of(path)) << ", rmac "
			<< mac_text(mac_of(path)) << ", access " << access_text(path) << "\n";
	}
	use_objects(ctx, args, set, hold_ms, {{"CXPRM_DEV", bdf}, {"CXPRM_QPN", hex_num(qpn)}});
	set.destroy_all();
	return 0;
}

} // namespace

const Command cmd_qp_connect = {&spec, run};

} // namespace cxprm::tool
