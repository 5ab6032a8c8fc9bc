// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
// Helpers shared by the subcommands (commands.h).
#include <ostream>

#include "commands.h"
#include "errors.h"

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

} // namespace cxprm::tool
