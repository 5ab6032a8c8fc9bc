// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
// cxprm nvmf ns DEV --xrq N --nsid N: counters of an NVMe-oF offload namespace.
#include <ostream>
#include <cstring>

#include "commands.h"
#include "errors.h"
#include "fwstatus.h"
#include "hex.h"
#include "views.h"

namespace cxprm::tool {

namespace {

const CommandSpec spec = {
	"nvmf ns",
	"DEV --xrq N --nsid N",
	"counters of an NVMe-oF target offload namespace (QUERY_NVMF_NAMESPACE_CONTEXT)",
	"--xrq is the XRQ the namespace hangs off (24 bits), --nsid the frontend\n"
	"namespace id.  Needs CAP_NET_ADMIN.  The latencies are valid only when the\n"
	"NVMF capability last_req_latency is set ('cxprm caps DEV --type nvmf').",
	{
		{"xrq", 0, "N", "XRQ number (required)"},
		{"nsid", 0, "N", "frontend namespace id (required)"},
	},
	1,
	1,
	true,
};

int run(Ctx &ctx, const Args &args)
{
	if (!args.has("xrq") || !args.has("nsid"))
		args.fail("--xrq and --nsid are required");
	cxprm_nvmf_ns n;
	std::memset(&n, 0, sizeof(n));
	n.xrqn = (uint32_t)args.num("xrq", 0xffffff);
	n.nsid = (uint32_t)args.num("nsid", 0xffffffff);
	DevPath p = dev_arg(args);
	DevFile f(p);
	f.nvmf_ns(n);
	FwResult r = FwResult::from(n.st);
	if (args.json()) {
		Json j = Json::object();
		j.set("pci_addr", p.bdf);
		j.set("xrqn", n.xrqn);
		j.set("nsid", n.nsid);
		j.set_json("status", status_json(r, true));
		if (r.ok())
			j.set_json("counters", nvmf_json(n));
		print_json(ctx, j);
	} else if (r.ok()) {
		ctx.out << "namespace " << n.nsid << " on XRQ " << hex_num(n.xrqn) << " (" << p.bdf << ")\n";
		print_kv(ctx.out, nvmf_kv(n), 2);
	}
	check_fw(r, "QUERY_NVMF_NAMESPACE_CONTEXT xrq " + hex_num(n.xrqn) + " nsid " + std::to_string(n.nsid));
	return 0;
}

} // namespace

const Command cmd_nvmf_ns = {&spec, run};

} // namespace cxprm::tool
