// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
// cxprm esw functions DEV / cxprm esw watch DEV: the external host's
// functions behind an ECPF eswitch, and their change events.
#include <cstring>
#include <ostream>

#include "commands.h"
#include "errors.h"
#include "fwstatus.h"
#include "names.h"
#include "signals.h"
#include "views.h"

#include "cxprm/prm/opcodes.h"

namespace cxprm::tool {

namespace {

const CommandSpec functions_spec = {
	.name = "esw functions",
	.synopsis = "DEV",
	.summary = "the external host's PF, VFs and SFs (QUERY_ESW_FUNCTIONS)",
	.description =
		"Only an eswitch manager on an embedded CPU (BlueField ECPF) has an external\n"
		"host; other functions get a firmware error.  Needs CAP_NET_ADMIN.",
	.min_pos = 1,
	.max_pos = 1,
	.json = true,
};

const CommandSpec watch_spec = {
	.name = "esw watch",
	.synopsis = "DEV [--count N] [--timeout S] [--event TYPE]... [--no-query]",
	.summary = "print ESW_FUNCTIONS_CHANGED (and other) events as they arrive",
	.description =
		"Subscribes this open file (CXPRM_IOC_SUBSCRIBE) to ESW_FUNCTIONS_CHANGED, or\n"
		"to the --event types given (names as in 'cxprm decode', or numbers; 'all'\n"
		"for every type), then reads struct cxprm_event records with poll()/read()\n"
		"until Ctrl-C, --count events, or --timeout seconds.  Each event: monotonic\n"
		"timestamp, sequence number, type, the payload decoded where the core has\n"
		"its layout; ESW_FUNCTIONS_CHANGED carries no payload, so the new state is\n"
		"queried (QUERY_ESW_FUNCTIONS) and shown with it, unless --no-query.\n"
		"-j prints one JSON object per line (JSON lines), flushed per event.\n"
		"Exit: 0 after Ctrl-C, --count events, or --timeout without --count;\n"
		"4 when --timeout expires before --count events arrived.  Needs CAP_NET_ADMIN.",
	.opts = {
		{"count", 'c', "N", "stop after N events"},
		{"timeout", 't', "S", "stop after S seconds (fractions allowed)"},
		{"event", 'e', "TYPE", "subscribe to this event type instead", true},
		{"no-query", 0, nullptr, "do not re-query the eswitch on ESW_FUNCTIONS_CHANGED"},
	},
	.min_pos = 1,
	.max_pos = 1,
	.json = true,
};

int run_functions(Ctx &ctx, const Args &args)
{
	auto [p, f, file] = open_dev_arg(args);
	cxprm_esw_functions e;
	std::memset(&e, 0, sizeof(e));
	f.esw_functions(e);
	FwResult r = FwResult::from(e.st);
	if (args.json()) {
		Json j = Json::object();
		j.set("pci_addr", p.bdf);
		j.set_json("status", status_json(r, true));
		if (r.ok())
			j.set_json("functions", esw_json(e));
		print_json(ctx, j);
	} else if (r.ok()) {
		print_kv(ctx.out, esw_kv(e));
	}
	check_fw(r, "QUERY_ESW_FUNCTIONS");
	return 0;
}

int run_watch(Ctx &ctx, const Args &args)
{
	cxprm_subscribe sub;
	std::memset(&sub, 0, sizeof(sub));
	std::vector<std::string> evs = args.all("event");
	bool esw_default = evs.empty();
	if (evs.empty())
		evs.push_back("ESW_FUNCTIONS_CHANGED");
	// The driver's health records too (a recovery: RECOVERING, RECOVERED).
	if (esw_default)
		sub.mask[CXPRM_EVENT_HEALTH / 64] |= 1ull << (CXPRM_EVENT_HEALTH % 64);
	for (const std::string &s : evs) {
		if (s == "all") {
			for (auto &m : sub.mask)
				m = ~0ull;
			continue;
		}
		uint8_t t;
		try {
			t = parse_event(s, "--event");
		} catch (const UsageError &e) {
			args.fail(e.what());
		}
		sub.mask[t / 64] |= 1ull << (t % 64);
	}
	uint64_t count = args.num("count", ~0ull >> 1, 0);
	int timeout = args.seconds_ms("timeout", -1);
	bool query = !args.has("no-query");

	auto [p, f, file] = open_dev_arg(args);
	// Only an ECPF eswitch manager gets ESW_FUNCTIONS_CHANGED (Linux eq.c).
	// (Over fwctl the ECPF bit is out of reach, and subscribe() refuses.)
	if (esw_default && f.via() == Via::KO && !(f.info().flags & CXPRM_INFO_ECPF))
		throw OsError(p.bdf +
			      " is not an ECPF eswitch manager: ESW_FUNCTIONS_CHANGED is raised only "
			      "on a BlueField's embedded CPU function (cxprm info shows flag ECPF); "
			      "use --event TYPE to watch other events");
	f.subscribe(sub);
	if (!args.json()) {
		ctx.err << "cxprm: watching " << p.bdf << " (";
		for (size_t i = 0; i < evs.size(); i++)
			ctx.err << (i ? ", " : "") << evs[i];
		ctx.err << "); Ctrl-C to stop\n";
	}
	StopOnSignal stop;
	long long deadline = timeout >= 0 ? now_ms() + timeout : -1;
	uint64_t seen = 0;
	while (!StopOnSignal::stopped() && (!count || seen < count)) {
		int wait = -1;
		if (deadline >= 0) {
			long long left = deadline - now_ms();
			if (left <= 0)
				break;
			wait = (int)left;
		}
		std::vector<cxprm_event> got;
		f.read_events(got, wait);
		for (const cxprm_event &e : got) {
			if (count && seen >= count)
				break;
			seen++;
			bool esw = e.type == prm::event::ESW_FUNCTIONS_CHANGED && query;
			cxprm_esw_functions fn;
			std::memset(&fn, 0, sizeof(fn));
			FwResult r;
			if (esw) {
				f.esw_functions(fn);
				r = FwResult::from(fn.st);
			}
			if (args.json()) {
				Json j = event_json(e);
				if (esw) {
					Json q = Json::object();
					q.set_json("status", status_json(r, false));
					if (r.ok())
						q.set_json("functions", esw_json(fn));
					j.set_json("esw", q);
				}
				print_json(ctx, j, false);
			} else {
				ctx.out << event_line(e) << "\n";
				if (esw && r.ok())
					print_kv(ctx.out, esw_kv(fn), 4);
				else if (esw)
					ctx.out << "    QUERY_ESW_FUNCTIONS: " << describe(r) << "\n";
				ctx.out.flush();
			}
		}
	}
	if (StopOnSignal::stopped()) {
		if (!args.json())
			ctx.err << "cxprm: stopped after " << seen << " event(s)\n";
		return 0;
	}
	if (count && seen < count)
		throw TimeoutError("esw watch: timed out after " + args.str("timeout") + " s with " +
				   std::to_string(seen) + " of " + std::to_string(count) + " event(s)");
	return 0;
}

} // namespace

const Command cmd_esw_functions = {&functions_spec, run_functions};
const Command cmd_esw_watch = {&watch_spec, run_watch};

} // namespace cxprm::tool
