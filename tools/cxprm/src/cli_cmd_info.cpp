// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
// cxprm info DEV: everything in struct cxprm_info.
#include <ostream>
#include "commands.h"
#include "views.h"

namespace cxprm::tool {

namespace {

const CommandSpec spec = {
	.name = "info",
	.synopsis = "DEV",
	.summary = "show what the driver knows about an adapter (CXPRM_IOC_INFO)",
	.description =
		"PCI ids, firmware version, state, command queue, ISSI, health syndrome,\n"
		"firmware pages given/reclaimed, commands completed, async EQ.  Needs only\n"
		"the right to open the device node.\n"
		"Over fwctl (a function mlx5_core keeps): PCI ids, firmware version (MGIR),\n"
		"the driver, and the file's firmware user context (FWCTL_INFO: uid and\n"
		"uctx caps).",
	.min_pos = 1,
	.max_pos = 1,
	.json = true,
};

int run(Ctx &ctx, const Args &args)
{
	auto [p, f, file] = open_dev_arg(args);
	DevFile::FwctlInfo u;
	cxprm_info i = f.info(&u);
	if (f.via() == Via::FWCTL) {
		if (args.json())
			print_json(ctx, fwctl_info_json(i, f.where(), u));
		else
			print_kv(ctx.out, fwctl_info_kv(i, f.where(), u));
	} else if (args.json())
		print_json(ctx, info_json(i, p));
	else
		print_kv(ctx.out, info_kv(i, p));
	return 0;
}

} // namespace

const Command cmd_info = {&spec, run};

} // namespace cxprm::tool
