// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
// Helpers shared by the subcommands (commands.h).
#include <algorithm>
#include <ostream>
#include <poll.h>

#include "commands.h"
#include "errors.h"
#include "signals.h"

namespace cxprm::tool {

void print_json(Ctx &ctx, const Json &j, bool pretty)
{
	ctx.out << j.dump(pretty) << "\n";
	ctx.out.flush();
}

DevPath dev_arg(const Args &args)
{
	try {
		return resolve_device(args.pos().at(0));
	} catch (const UsageError &e) {
		args.fail(e.what());
	}
}

int hold_ms_arg(const Args &args)
{
	if (args.has("hold") && !args.has("keep-open"))
		args.fail("--hold needs --keep-open");
	return args.seconds_ms("hold", -1);
}

void hold_file_open(Ctx &ctx, const std::string &held, int hold_ms)
{
	ctx.out.flush();
	ctx.err << "cxprm: holding the device file open with " << held
		<< "; Ctrl-C (or SIGTERM) closes it and the driver destroys them\n";
	StopOnSignal stop;
	long long end = hold_ms >= 0 ? now_ms() + hold_ms : -1;
	while (!StopOnSignal::stopped()) {
		long long left = end >= 0 ? end - now_ms() : 1000;
		if (left <= 0)
			break;
		::poll(nullptr, 0, (int)std::min(left, 1000LL));
	}
}

} // namespace cxprm::tool
