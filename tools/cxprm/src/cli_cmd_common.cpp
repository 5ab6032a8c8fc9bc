// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
// Helpers shared by the subcommands (commands.h).
#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <ostream>
#include <poll.h>
#include <sys/wait.h>

#include "commands.h"
#include "errors.h"
#include "fields.h"
#include "names.h"
#include "obj_set.h"
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

DevArgFile open_dev_arg(const Args &args)
{
	DevPath p = dev_arg(args);
	std::unique_ptr<DevFile> file = open_device(p);
	DevFile &f = *file;
	return {p, f, std::move(file)};
}

const Opt kScopeOpt = {"scope", 0, "SCOPE",
			"over fwctl, a write's scope: configuration, debug-write or debug-write-full "
			"(the debug scopes taint the kernel)"};

void apply_scope_arg(Ctx &ctx, const Args &args, DevFile &f)
{
	if (!args.has("scope"))
		return;
	FwctlScope s;
	if (!parse_fwctl_scope(args.str("scope"), &s))
		args.fail("--scope: configuration, debug-read-only, debug-write or debug-write-full");
	try {
		f.set_write_scope(s);
	} catch (const UsageError &e) {
		args.fail(e.what());
	}
	if (s >= FwctlScope::DEBUG_WRITE)
		ctx.err << "cxprm: fwctl scope " << fwctl_scope_name(s)
			<< " taints the kernel (TAINT_FWCTL) at its first use\n";
}

void use_objects(Ctx &ctx, const Args &args, const ObjSet &set, int hold_ms,
		 const std::vector<std::pair<std::string, std::string>> &env)
{
	ctx.out.flush();
	if (args.has("exec")) {
		const std::string cmd = args.str("exec");
		for (const auto &e : env)
			::setenv(e.first.c_str(), e.second.c_str(), 1);
		int st = std::system(cmd.c_str());
		if (st == -1)
			throw OsError("--exec: cannot run a shell: " + std::string(std::strerror(errno)));
		if (!WIFEXITED(st) || WEXITSTATUS(st) != 0)
			throw OsError("--exec '" + cmd + "' failed (" +
				      (WIFEXITED(st) ? "exit " + std::to_string(WEXITSTATUS(st)) : std::string("killed")) +
				      "); closing the file destroys the objects");
	}
	if (args.has("keep-open"))
		hold_file_open(ctx, obj_list(set.alive()), hold_ms);
}

uint8_t mtu_arg(const Args &args, uint32_t def)
{
	uint64_t mtu = args.num("mtu", 4096, def);
	uint8_t code = mtu_code((uint32_t)mtu);
	if (!code)
		args.fail("--mtu: " + std::to_string(mtu) + " is not one of 256, 512, 1024, 2048, 4096");
	return code;
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

void set_layout_field(const Args &args, const prm::LayoutDesc &l, uint8_t *buf, size_t len, const std::string &name,
		      uint64_t v)
{
	const prm::FieldDesc *f = find_field(l, name);
	if (!f) {
		std::string names;
		for (uint32_t i = 0; i < l.nfields; i++)
			names += std::string(i ? ", " : "") + l.fields[i].name;
		args.fail("--set: " + std::string(l.name) + " has no field '" + name + "' (fields: " + names + ")");
	}
	field_set(buf, len, *f, v);
}

void apply_set_arg(const Args &args, const prm::LayoutDesc &l, uint8_t *buf, size_t len, const std::string &spec)
{
	size_t eq = spec.find('=');
	if (eq == std::string::npos)
		args.fail("--set '" + spec + "': expected FIELD=VALUE");
	set_layout_field(args, l, buf, len, spec.substr(0, eq),
			 parse_num(spec.substr(eq + 1), "--set " + spec.substr(0, eq), ~0ull));
}

} // namespace cxprm::tool
