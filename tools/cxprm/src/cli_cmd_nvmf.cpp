// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
// cxprm nvmf ns DEV --xrq N --nsid N: counters of an NVMe-oF offload namespace.
// cxprm nvmf setup DEV ...: build the offload (PD, CQ, XRQ, backend
// controller, namespace) on one open file, use it, query it, tear it down.
#include <ostream>

#include "commands.h"
#include "errors.h"
#include "fwstatus.h"
#include "hex.h"
#include "obj_set.h"
#include "views.h"

namespace cxprm::tool {

namespace {

const CommandSpec spec = {
	.name = "nvmf ns",
	.synopsis = "DEV --xrq N --nsid N",
	.summary = "counters of an NVMe-oF target offload namespace (QUERY_NVMF_NAMESPACE_CONTEXT)",
	.description =
		"--xrq is the XRQ the namespace hangs off (24 bits), --nsid the frontend\n"
		"namespace id.  Needs CAP_NET_ADMIN.  The latencies are valid only when the\n"
		"NVMF capability last_req_latency is set ('cxprm caps DEV --type nvmf').\n"
		"The namespace must exist: one that 'cxprm nvmf setup' holds (it prints the\n"
		"XRQ number), from any process.",
	.opts = {
		{"xrq", 0, "N", "XRQ number (required)"},
		{"nsid", 0, "N", "frontend namespace id (required)"},
	},
	.min_pos = 1,
	.max_pos = 1,
	.json = true,
};

// QUERY_NVMF_NAMESPACE_CONTEXT on f, printed; FwError on a bad status.
void query_ns(Ctx &ctx, DevFile &f, uint32_t xrqn, uint32_t nsid, bool json, bool line)
{
	cxprm_nvmf_ns n = f.nvmf_ns(xrqn, nsid);
	FwResult r = FwResult::from(n.st);
	if (json) {
		Json j = Json::object();
		if (line)
			j.set("op", "query");
		j.set("pci_addr", f.where().bdf);
		j.set("xrqn", n.xrqn);
		j.set("nsid", n.nsid);
		j.set_json("status", status_json(r, true));
		if (r.ok())
			j.set_json("counters", nvmf_json(n));
		print_json(ctx, j, !line);
	} else if (r.ok()) {
		ctx.out << "namespace " << n.nsid << " on XRQ " << hex_num(n.xrqn) << " (" << f.where().bdf << ")\n";
		print_kv(ctx.out, nvmf_kv(n), 2);
	}
	check_fw(r, "QUERY_NVMF_NAMESPACE_CONTEXT xrq " + hex_num(n.xrqn) + " nsid " + std::to_string(n.nsid));
}

int run(Ctx &ctx, const Args &args)
{
	if (!args.has("xrq") || !args.has("nsid"))
		args.fail("--xrq and --nsid are required");
	uint32_t xrqn = (uint32_t)args.num("xrq", 0xffffff);
	uint32_t nsid = (uint32_t)args.num("nsid", 0xffffffff);
	auto [p, f, file] = open_dev_arg(args);
	query_ns(ctx, f, xrqn, nsid, args.json(), false);
	return 0;
}

const std::vector<Opt> kSetupOpts = {
	{"sq-addr", 0, "BUS", "the NVMe I/O SQ's bus address (4 KiB aligned; required)"},
	{"cq-addr", 0, "BUS", "its CQ's bus address (4 KiB aligned; required)"},
	{"sq-doorbell", 0, "BUS", "the SQ tail doorbell register's bus address (required)"},
	{"db-stride", 0, "N", "the NVMe device's CAP.DSTRD (default 0): CQ head doorbell at + 4 << N"},
	{"queue-depth", 0, "N", "entries of the SQ and of the CQ (default 64)"},
	{"cmd-timeout", 0, "LOG", "backend command timeout, log2 microseconds (default 20)"},
	{"nsid", 0, "N", "frontend namespace id (default 1)"},
	{"backend-nsid", 0, "N", "backend namespace id (default 1)"},
	{"lba-size", 0, "BYTES", "block size, a power of two from 512 to 32768 (default 512)"},
	opt_exec,
	{"no-query", 0, nullptr, "do not query the namespace before the teardown"},
	opt_keep_open,
	opt_hold,
};

const CommandSpec setup_spec = {
	.name = "nvmf setup",
	.synopsis =
		"DEV --sq-addr BUS --cq-addr BUS --sq-doorbell BUS [--db-stride N] [--queue-depth N] [--nsid N]\n"
		"    [--backend-nsid N] [--lba-size BYTES] [--exec CMD] [--no-query] [--keep-open [--hold S]]",
	.summary = "build an NVMe-oF target offload (PD, CQ, XRQ, backend, namespace), use it, tear it down",
	.description =
		"Objects live as long as the open file that created them, so one process runs\n"
		"the whole sequence on one file: ALLOC_PD, CREATE_CQ, CREATE_XRQ (NVMF\n"
		"offload), CREATE_NVMF_BACKEND_CTRL, ATTACH_NVMF_NAMESPACE; then --exec CMD\n"
		"The backend is an I/O queue pair of an NVMe device that firmware drives peer\n"
		"to peer: its SQ and CQ and its SQ tail doorbell, as the device's driver hands\n"
		"them over (on the emulator: 'emuctl nvme-queue 1' prints these options).\n"
		"Firmware writes to these addresses, so this needs CAP_SYS_RAWIO and the\n"
		"module parameter allow_raw_write=1.\n"
		"(a shell command, run while the objects are alive, with CXPRM_DEV,\n"
		"CXPRM_XRQN and CXPRM_NSID in its environment: simulated I/O, a test, or\n"
		"'cxprm nvmf ns $CXPRM_DEV --xrq $CXPRM_XRQN --nsid $CXPRM_NSID'); then\n"
		"--keep-open (hold everything until Ctrl-C/SIGTERM or --hold S seconds;\n"
		"the XRQ number is printed, and flushed, first); then the namespace's\n"
		"counters (QUERY_NVMF_NAMESPACE_CONTEXT, unless --no-query); then the\n"
		"teardown in dependency order (DETACH_NVMF_NAMESPACE, DESTROY_NVMF_BACKEND\n"
		"_CTRL, DESTROY_XRQ, DESTROY_CQ, DEALLOC_PD).  A failing step exits with its\n"
		"code; what was created is then destroyed by closing the file.  -j: one JSON\n"
		"object per command, one a line.  Needs CAP_NET_ADMIN and an adapter with\n"
		"NVMe-oF target offload ('cxprm caps DEV --type nvmf').",
	.opts = kSetupOpts,
	.min_pos = 1,
	.max_pos = 1,
	.json = true,
};

uint8_t log2_exact(uint64_t v)
{
	uint8_t l = 0;
	while ((1ull << l) < v)
		l++;
	return (1ull << l) == v ? l : 0;
}

int run_setup(Ctx &ctx, const Args &args)
{
	uint32_t nsid = (uint32_t)args.num("nsid", 0xfffffffe, 1);
	uint32_t backend_nsid = (uint32_t)args.num("backend-nsid", 0xfffffffe, 1);
	uint8_t lba_log = log2_exact(args.num("lba-size", 1u << CXPRM_NVMF_MAX_LOG_LBA, 512));
	if (nsid == 0 || backend_nsid == 0)
		args.fail("--nsid and --backend-nsid: 1 to 0xfffffffe");
	if (lba_log < 9)
		args.fail("--lba-size: a power of two from 512 to 32768");
	int hold_ms = hold_ms_arg(args);
	if (!args.has("sq-addr") || !args.has("cq-addr") || !args.has("sq-doorbell"))
		args.fail("--sq-addr, --cq-addr and --sq-doorbell name the NVMe queue pair: required");
	cxprm_nvmf_backend_attr nvme{};
	nvme.sq_bus = args.num("sq-addr", ~0ull);
	nvme.cq_bus = args.num("cq-addr", ~0ull);
	nvme.sqt_db_bus = args.num("sq-doorbell", ~0ull);
	nvme.db_stride = (uint8_t)args.num("db-stride", CXPRM_NVMF_BE_MAX_DB_STRIDE, 0);
	nvme.queue_depth = (uint16_t)args.num("queue-depth", CXPRM_NVMF_BE_MAX_QUEUE_DEPTH, 64);
	nvme.log_cmd_timeout_us = (uint8_t)args.num("cmd-timeout", 31, 20);
	if ((nvme.sq_bus | nvme.cq_bus) & 0xfff || (nvme.sqt_db_bus & 3) || !nvme.sq_bus || !nvme.cq_bus ||
	    !nvme.sqt_db_bus)
		args.fail("--sq-addr and --cq-addr: nonzero, 4 KiB aligned; --sq-doorbell: nonzero, 4-byte aligned");
	if (nvme.queue_depth < 2)
		args.fail("--queue-depth: 2 to " + std::to_string(CXPRM_NVMF_BE_MAX_QUEUE_DEPTH));

	auto [p, f, file] = open_dev_arg(args);
	ObjSet set(f, obj_printer(ctx, args.json()));
	uint32_t pd = set.pd();
	uint32_t cqn = set.cq(6);
	uint32_t xrqn = set.nvmf_xrq(pd, cqn, nvme.queue_depth);
	uint32_t ctrl = set.nvmf_backend(xrqn, nvme);
	set.nvmf_ns(xrqn, nsid, backend_nsid, ctrl, lba_log);
	if (args.json()) {
		Json j = Json::object();
		j.set("op", "setup");
		j.set("pci_addr", p.bdf);
		j.set("pd", pd);
		j.set("cqn", cqn);
		j.set("xrqn", xrqn);
		j.set("backend_ctrl", ctrl);
		j.set("nsid", nsid);
		print_json(ctx, j, false);
	} else {
		ctx.out << "NVMe-oF offload on " << p.bdf << ": XRQ " << hex_num(xrqn) << ", namespace " << nsid
			<< " (backend controller " << ctrl << ", backend namespace " << backend_nsid << ")\n";
	}
	use_objects(ctx, args, set, hold_ms,
		    {{"CXPRM_DEV", p.bdf}, {"CXPRM_XRQN", hex_num(xrqn)}, {"CXPRM_NSID", std::to_string(nsid)}});
	if (!args.has("no-query"))
		query_ns(ctx, f, xrqn, nsid, args.json(), true);
	set.destroy_all();
	return 0;
}

} // namespace

const Command cmd_nvmf_ns = {&spec, run};
const Command cmd_nvmf_setup = {&setup_spec, run_setup};

} // namespace cxprm::tool
