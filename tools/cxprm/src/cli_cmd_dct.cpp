// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
// cxprm dct create|query|drain|destroy|session: Dynamically Connected
// Targets.  A DCT lives as long as the open file that created it, so the
// useful forms keep one process: 'dct create --then ...', '--keep-open',
// and 'dct session' (operations read from stdin).
#include <cstring>
#include <iostream>
#include <ostream>
#include <poll.h>
#include <sstream>
#include <unistd.h>

#include "commands.h"
#include "dct_session.h"
#include "errors.h"
#include "hex.h"
#include "names.h"
#include "obj_set.h"
#include "signals.h"

#include "cxprm/prm/dct.h"

namespace cxprm::tool {

namespace {

using dctc = prm::dctc;

// The dctc options, shared by 'dct create' and the session's 'create'.
const std::vector<Opt> kDctcOpts = {
	{"pd", 0, "N", "protection domain (with --cqn; neither: cxprm creates its own PD, CQ and SRQ)"},
	{"cqn", 0, "N", "completion queue (with --pd)"},
	{"srqn", 0, "N", "SRQ/XRQ number (with --pd/--cqn; default 0)"},
	{"key", 0, "N", "DC access key, 64 bits (default 0)"},
	{"mtu", 0, "BYTES", "256, 512, 1024, 2048 or 4096 (default 1024)"},
	{"port", 0, "N", "port (default 1)"},
	{"hop-limit", 0, "N", "hop limit (default 0)"},
	{"flow-label", 0, "N", "flow label, 20 bits (default 0)"},
	{"tclass", 0, "N", "traffic class (default 0)"},
	{"rre", 0, nullptr, "remote read enable"},
	{"rwe", 0, nullptr, "remote write enable"},
	{"rae", 0, nullptr, "remote atomic enable"},
	{"pkey-index", 0, "N", "P_Key index (default 0)"},
	{"min-rnr-nak", 0, "N", "minimum RNR NAK timer code, 5 bits (default 0)"},
	{"user-index", 0, "N", "user index, 24 bits (default 0)"},
	{"my-addr-index", 0, "N", "source GID index (default 0)"},
	{"atomic-mode", 0, "N", "atomic mode, 4 bits (default 0)"},
	{"cs-res", 0, "N", "cs_res (default 0)"},
	{"counter-set-id", 0, "N", "counter set (default 0)"},
	{"dscp", 0, "N", "DSCP, 6 bits (default 0)"},
	{"ecn", 0, "N", "ECN, 2 bits (default 0)"},
	{"eth-prio", 0, "N", "Ethernet priority, 3 bits (default 0)"},
};

std::vector<Opt> with(std::vector<Opt> a, const std::vector<Opt> &b)
{
	a.insert(a.end(), b.begin(), b.end());
	return a;
}

#define CXPRM_DCT_OWNERSHIP                                                          \
	"A DCT belongs to the open file that created it: the driver destroys it when\n" \
	"that file is closed (the process exits), and only that file may drain or\n"    \
	"destroy it (another gets ENOENT); any file may query it.  Run a lifecycle\n"   \
	"in one process: 'dct create ... --then query,drain,wait,destroy',\n"           \
	"'dct create ... --keep-open' (hold the DCT until Ctrl-C; 'dct query' from\n"  \
	"another shell works meanwhile), or 'dct session' (operations from stdin)."
const char kOwnership[] = CXPRM_DCT_OWNERSHIP;

const CommandSpec create_spec = {
	.name = "dct create",
	.synopsis = "DEV [--pd N --cqn N [--srqn N]] [dctc options] [--then OPS] [--keep-open [--hold S]]",
	.summary = "create a DCT (CREATE_DCT) and optionally run its lifecycle",
	.description =
		"Without --pd/--cqn/--srqn the command first creates its own PD, CQ and SRQ\n"
		"on the same open file (ALLOC_PD, CREATE_CQ, CREATE_SRQ) and names them;\n"
		"when the DCT is destroyed (--then ...,destroy) it destroys them too, in\n"
		"dependency order (SRQ, CQ, PD), else closing the file does.  --pd/--cqn/\n"
		"--srqn name existing objects: firmware answers BAD_RES (exit 3) when one\n"
		"names nothing.\n\n"
		"--then OPS runs more operations on the new DCT in this process, in order:\n"
		"a comma list of query, drain, wait (for DCT_DRAINED, --wait-timeout S,\n"
		"default 10), destroy.  --keep-open then keeps the file (and so the DCT)\n"
		"open until Ctrl-C/SIGTERM or --hold S seconds; the DCT number is printed\n"
		"(and flushed) first, so a script can start this in the background and read\n"
		"it.  Without --then destroy or --keep-open the DCT is destroyed when the\n"
		"command exits, which is only useful as a test that creation works.\n"
		"-j: one JSON object per operation (and per object command), one a line.\n"
		"Needs CAP_NET_ADMIN.\n\n"
		CXPRM_DCT_OWNERSHIP,
	.opts = with(kDctcOpts,
		     {
			     {"then", 0, "OPS", "then run these operations (query,drain,wait,destroy)"},
			     {"wait-timeout", 0, "S", "how long 'wait' waits for DCT_DRAINED (default 10)"},
			     opt_keep_open,
			     opt_hold,
		     }),
	.min_pos = 1,
	.max_pos = 1,
	.json = true,
};

// 'dct query|drain|destroy DEV DCTN'.
CommandSpec one_dct_spec(const char *name, const char *summary)
{
	return {.name = name, .synopsis = "DEV DCTN", .summary = summary, .description = kOwnership,
		.min_pos = 2, .max_pos = 2, .json = true};
}

const CommandSpec query_spec = one_dct_spec("dct query", "show a DCT's context and state (QUERY_DCT)");
const CommandSpec drain_spec = one_dct_spec("dct drain", "start draining a DCT (DRAIN_DCT)");
const CommandSpec destroy_spec = one_dct_spec("dct destroy", "destroy a DCT (DESTROY_DCT)");
const CommandSpec session_spec = {
	.name = "dct session",
	.synopsis = "DEV [--keep-going]",
	.summary = "run DCT operations read from stdin on one open file",
	.description =
		"One operation a line ('#' comments, blank lines ignored):\n"
		"  create [--pd N --cqn N [--srqn N]] [dctc options of 'dct create']\n"
		"         (without --pd/--cqn: on a PD, CQ and SRQ the session creates once)\n"
		"  query DCTN | drain DCTN | destroy DCTN\n"
		"  wait DCTN [--timeout S]   wait for DCT_DRAINED (default 10 s)\n"
		"  sleep S\n"
		"DCTN: a number, 'last' (the latest create) or '@N' (the N-th create).\n"
		"Stops at the first failing line with its exit code unless --keep-going\n"
		"(then the exit code is the first failure's).  At the end the file is\n"
		"closed and the driver destroys the DCTs still alive (the session's own\n"
		"PD, CQ and SRQ are destroyed first when no DCT is left).  -j: one JSON object\n"
		"per operation, one a line.  Example:\n"
		"  printf 'create\\nquery last\\ndrain last\\n"
		"wait last\\ndestroy last\\n' | cxprm dct session 00:03.0\n",
	.opts = {{"keep-going", 'k', nullptr, "continue after a failing line"}},
	.min_pos = 1,
	.max_pos = 1,
	.json = true,
};

// Session line specs (no DEV).
const CommandSpec s_create = {.name = "create", .synopsis = "[--pd N --cqn N] [dctc options]", .summary = "",
			      .opts = kDctcOpts};
const CommandSpec s_one = {.name = "query|drain|destroy", .synopsis = "DCTN", .summary = "", .min_pos = 1,
			   .max_pos = 1};
const CommandSpec s_wait = {.name = "wait", .synopsis = "DCTN [--timeout S]", .summary = "",
			    .opts = {{"timeout", 't', "S", ""}}, .min_pos = 1, .max_pos = 1};
const CommandSpec s_sleep = {.name = "sleep", .synopsis = "S", .summary = "", .min_pos = 1, .max_pos = 1};

// Whether the DCT names objects given on the command line (else its own).
bool names_objects(const Args &a)
{
	if (a.has("pd") != a.has("cqn") || (a.has("srqn") && !a.has("pd")))
		a.fail("--pd and --cqn go together (with --srqn optionally); give none of them and "
		       "cxprm creates its own PD, CQ and SRQ");
	return a.has("pd");
}

// The DCT's own PD, CQ and SRQ, created on the session's file at the first
// create that names none.
class OwnObjects {
public:
	OwnObjects(Ctx &ctx, DevFile &f, bool json) : ctx_(ctx), set_(f, obj_printer(ctx, json)) {}
	void name(cxprm_dctc &c)
	{
		if (set_.alive().empty()) {
			pd_ = set_.pd();
			cqn_ = set_.cq(6);
			srqn_ = set_.srq(pd_, 6);
		}
		c.pd = pd_;
		c.cqn = cqn_;
		c.srqn_xrqn = srqn_;
	}
	// With no DCT left, destroys them (SRQ, CQ, PD); else closing the file will.
	void release(const DctSession &s)
	{
		if (set_.alive().empty())
			return;
		if (s.alive().empty())
			set_.destroy_all();
		else
			ctx_.err << "cxprm: closing the device file destroys the DCT(s) first, then "
				 << obj_list(set_.alive()) << "\n";
	}

private:
	Ctx &ctx_;
	ObjSet set_;
	uint32_t pd_ = 0, cqn_ = 0, srqn_ = 0;
};

cxprm_dctc dctc_from(const Args &a)
{
	names_objects(a);
	cxprm_dctc c;
	std::memset(&c, 0, sizeof(c));
	c.pd = (uint32_t)a.num("pd", field_max(dctc::pd::width));
	c.cqn = (uint32_t)a.num("cqn", field_max(dctc::cqn::width));
	c.srqn_xrqn = (uint32_t)a.num("srqn", field_max(dctc::srqn_xrqn::width));
	c.dc_access_key = a.num("key", field_max(dctc::dc_access_key::width));
	c.mtu = mtu_arg(a, 1024);
	c.port = (uint8_t)a.num("port", field_max(dctc::port::width), 1);
	c.hop_limit = (uint8_t)a.num("hop-limit", field_max(dctc::hop_limit::width));
	c.flow_label = (uint32_t)a.num("flow-label", field_max(dctc::flow_label::width));
	c.tclass = (uint8_t)a.num("tclass", field_max(dctc::tclass::width));
	c.rre = a.has("rre");
	c.rwe = a.has("rwe");
	c.rae = a.has("rae");
	c.pkey_index = (uint16_t)a.num("pkey-index", field_max(dctc::pkey_index::width));
	c.min_rnr_nak = (uint8_t)a.num("min-rnr-nak", field_max(dctc::min_rnr_nak::width));
	c.user_index = (uint32_t)a.num("user-index", field_max(dctc::user_index::width));
	c.my_addr_index = (uint8_t)a.num("my-addr-index", field_max(dctc::my_addr_index::width));
	c.atomic_mode = (uint8_t)a.num("atomic-mode", field_max(dctc::atomic_mode::width));
	c.cs_res = (uint8_t)a.num("cs-res", field_max(dctc::cs_res::width));
	c.counter_set_id = (uint8_t)a.num("counter-set-id", field_max(dctc::counter_set_id::width));
	c.dscp = (uint8_t)a.num("dscp", field_max(dctc::dscp::width));
	c.ecn = (uint8_t)a.num("ecn", field_max(dctc::ecn::width));
	c.eth_prio = (uint8_t)a.num("eth-prio", field_max(dctc::eth_prio::width));
	return c;
}

DctSession::Output output(const Args &a, bool lines)
{
	if (!a.json())
		return DctSession::Output::TEXT;
	return lines ? DctSession::Output::LINES : DctSession::Output::PRETTY;
}

void note_alive(Ctx &ctx, const DctSession &s)
{
	if (s.alive().empty())
		return;
	ctx.err << "cxprm: closing the device file: the driver destroys " << s.alive().size()
		<< " DCT(s) still alive (";
	for (size_t i = 0; i < s.alive().size(); i++)
		ctx.err << (i ? ", " : "") << hex_num(s.alive()[i]);
	ctx.err << ")\n";
}

int run_create(Ctx &ctx, const Args &args)
{
	cxprm_dctc c = dctc_from(args);
	std::vector<std::string> ops;
	if (args.has("then")) {
		std::stringstream ss(args.str("then"));
		std::string op;
		while (std::getline(ss, op, ','))
			if (op == "query" || op == "drain" || op == "wait" || op == "destroy")
				ops.push_back(op);
			else
				args.fail("--then: '" + op + "' is not one of query, drain, wait, destroy");
	}
	int wait_ms = args.seconds_ms("wait-timeout", 10000);
	int hold_ms = hold_ms_arg(args);
	// One JSON object a line when there is more than the create to print.
	bool lines = !ops.empty() || args.has("keep-open") || !names_objects(args);

	auto [p, f, file] = open_dev_arg(args);
	DctSession s(ctx, f, output(args, lines));
	OwnObjects own(ctx, f, args.json());
	if (!names_objects(args))
		own.name(c);
	uint32_t dctn = s.create(c);
	for (const std::string &op : ops) {
		if (op == "query")
			s.query(dctn);
		else if (op == "drain")
			s.drain(dctn);
		else if (op == "wait")
			s.wait_drained(dctn, wait_ms);
		else
			s.destroy(dctn);
	}
	if (args.has("keep-open") && !s.alive().empty())
		hold_file_open(ctx, std::to_string(s.alive().size()) + " DCT(s)", hold_ms);
	note_alive(ctx, s);
	own.release(s);
	return 0;
}

// Single-shot query/drain/destroy/wait on a fresh open file.
int run_single(Ctx &ctx, const Args &args, void (*op)(DctSession &, uint32_t, const Args &))
{
	uint32_t dctn;
	try {
		dctn = (uint32_t)parse_num(args.pos()[1], "DCTN", 0xffffff);
	} catch (const UsageError &e) {
		args.fail(e.what());
	}
	auto [p, f, file] = open_dev_arg(args);
	DctSession s(ctx, f, output(args, false));
	op(s, dctn, args);
	return 0;
}

int run_query(Ctx &ctx, const Args &a)
{
	return run_single(ctx, a, [](DctSession &s, uint32_t n, const Args &) { s.query(n); });
}
int run_drain(Ctx &ctx, const Args &a)
{
	return run_single(ctx, a, [](DctSession &s, uint32_t n, const Args &) { s.drain(n); });
}
int run_destroy(Ctx &ctx, const Args &a)
{
	return run_single(ctx, a, [](DctSession &s, uint32_t n, const Args &) { s.destroy(n); });
}
std::vector<std::string> split_words(const std::string &line)
{
	std::vector<std::string> w;
	std::istringstream in(line);
	std::string t;
	while (in >> t)
		w.push_back(t);
	return w;
}

// One session line; throws like the commands do.
void session_line(DctSession &s, OwnObjects &own, const std::vector<std::string> &w)
{
	const std::string &op = w[0];
	std::vector<std::string> rest(w.begin() + 1, w.end());
	if (op == "create") {
		Args a(s_create, rest);
		cxprm_dctc c = dctc_from(a);
		if (!names_objects(a))
			own.name(c);
		s.create(c);
	} else if (op == "query" || op == "drain" || op == "destroy") {
		Args a(s_one, rest);
		uint32_t n = s.resolve(a.pos()[0]);
		if (op == "query")
			s.query(n);
		else if (op == "drain")
			s.drain(n);
		else
			s.destroy(n);
	} else if (op == "wait") {
		Args a(s_wait, rest);
		s.wait_drained(s.resolve(a.pos()[0]), a.seconds_ms("timeout", 10000));
	} else if (op == "sleep") {
		Args a(s_sleep, rest);
		::poll(nullptr, 0, parse_seconds_ms(a.pos()[0], "sleep"));
	} else {
		throw UsageError("unknown operation '" + op + "' (create, query, drain, wait, destroy, sleep)");
	}
}

int run_session(Ctx &ctx, const Args &args)
{
	auto [p, f, file] = open_dev_arg(args);
	DctSession s(ctx, f, output(args, true));
	OwnObjects own(ctx, f, args.json());
	bool prompt = &ctx.in == &std::cin && isatty(0) && !args.json();
	int first_rc = 0;
	std::string line;
	for (int lineno = 1;; lineno++) {
		if (prompt)
			ctx.err << "cxprm dct> " << std::flush;
		if (!std::getline(ctx.in, line))
			break;
		if (size_t h = line.find('#'); h != std::string::npos)
			line.erase(h);
		std::vector<std::string> w = split_words(line);
		if (w.empty())
			continue;
		try {
			session_line(s, own, w);
		} catch (const Failure &e) {
			ctx.out.flush();
			ctx.err << "cxprm: line " << lineno << ": " << e.what() << "\n";
			if (!first_rc)
				first_rc = e.code();
			if (!args.has("keep-going"))
				break;
		}
	}
	note_alive(ctx, s);
	try {
		own.release(s);
	} catch (const Failure &e) {
		ctx.err << "cxprm: " << e.what() << "\n";
		if (!first_rc)
			first_rc = e.code();
	}
	return first_rc;
}

} // namespace

const Command cmd_dct_create = {&create_spec, run_create};
const Command cmd_dct_query = {&query_spec, run_query};
const Command cmd_dct_drain = {&drain_spec, run_drain};
const Command cmd_dct_destroy = {&destroy_spec, run_destroy};
const Command cmd_dct_session = {&session_spec, run_session};

} // namespace cxprm::tool
