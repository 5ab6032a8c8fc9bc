// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// Dispatch: global options, the command list and help, subcommand lookup
// ("dct create" is two words), and the one place failures become exit codes.
#include <algorithm>
#include <iostream>
#include <sstream>

#include "commands.h"
#include "errors.h"

namespace cxprm::tool {

const std::vector<const Command *> &all_commands()
{
	static const std::vector<const Command *> cmds = {
		&cmd_list,	 &cmd_info,	     &cmd_caps,	 &cmd_reg,      &cmd_nvmf_ns,	&cmd_nvmf_setup,	&cmd_esw_functions,
		&cmd_esw_watch,	 &cmd_dct_create,    &cmd_dct_query,  &cmd_dct_drain,	&cmd_dct_destroy,
			 &cmd_dct_session,   &cmd_raw,	      &cmd_stats,	&cmd_qp_connect, &cmd_bench_connect, &cmd_probe,
		&cmd_decode,	 &cmd_export,	     &cmd_bind,	      &cmd_unbind,
	};
	return cmds;
}

namespace {

const char kVersion[] = "cxprm " CXPRM_VERSION;

} // namespace

std::string top_usage(const std::string &group)
{
	std::ostringstream o;
	if (group.empty())
		o << "usage: cxprm [-j|--json] COMMAND [ARGS...]\n"
		     "       cxprm COMMAND --help\n\n"
		     "Inspect and drive NVIDIA ConnectX (mlx5) adapters bound to the cxprm driver\n"
		     "(/dev/cxprm/<pci-address>).  DEV is a PCI address (0000:00:03.0 or 00:03.0)\n"
		     "or a path.\n\n"
		     "commands:\n";
	else
		o << "usage: cxprm " << group << " COMMAND [ARGS...]\n\ncommands:\n";
	size_t w = 0;
	std::vector<std::pair<std::string, std::string>> rows;
	for (const Command *c : all_commands()) {
		std::string n = c->spec->name;
		if (!group.empty() && n.rfind(group + " ", 0) != 0)
			continue;
		std::string left = n + " " + c->spec->synopsis;
		if (left.size() > 44)
			left = n + " ...";
		rows.emplace_back(left, c->spec->summary);
		w = std::max(w, left.size());
	}
	for (const auto &r : rows)
		o << "  " << r.first << std::string(w - r.first.size() + 2, ' ') << r.second << "\n";
	if (group.empty())
		o << "\n"
		     "-j/--json works on every query (before or after COMMAND).\n\n"
		     "exit codes: 0 ok, 1 usage error, 2 device/OS error (no device, permission,\n"
		     "ioctl errno), 3 firmware answered a bad status (or the command was not\n"
		     "delivered), 4 timed out waiting for events.\n\n"
		     "environment: CXPRM_DEV_DIR replaces /dev/cxprm (tests).\n";
	return o.str();
}

namespace {

bool is_group(const std::string &w)
{
	for (const Command *c : all_commands())
		if (std::string(c->spec->name).rfind(w + " ", 0) == 0)
			return true;
	return false;
}

} // namespace

int run_cli(const std::vector<std::string> &argv, std::ostream &out, std::ostream &err, std::istream &in)
{
	std::vector<std::string> args = argv;
	bool global_json = false;
	while (!args.empty() && !args[0].empty() && args[0][0] == '-') {
		const std::string a = args[0];
		if (a == "-j" || a == "--json") {
			global_json = true;
		} else if (a == "-h" || a == "--help") {
			out << top_usage();
			return EXIT_OK;
		} else if (a == "-V" || a == "--version") {
			out << kVersion << "\n";
			return EXIT_OK;
		} else {
			err << "cxprm: unknown option '" << a << "'\n" << top_usage();
			return EXIT_USAGE;
		}
		args.erase(args.begin());
	}
	if (args.empty()) {
		err << top_usage();
		return EXIT_USAGE;
	}
	if (args[0] == "help") {
		if (args.size() == 1) {
			out << top_usage();
			return EXIT_OK;
		}
		args.erase(args.begin());
		args.push_back("--help");
	}

	std::string name = args[0];
	size_t used = 1;
	if (is_group(name)) {
		if (args.size() < 2 || args[1] == "-h" || args[1] == "--help") {
			(args.size() < 2 ? err : out) << top_usage(name);
			return args.size() < 2 ? EXIT_USAGE : EXIT_OK;
		}
		name += " " + args[1];
		used = 2;
	}
	const Command *cmd = nullptr;
	for (const Command *c : all_commands())
		if (name == c->spec->name)
			cmd = c;
	if (!cmd) {
		err << "cxprm: unknown command '" << name << "'\n\n" << top_usage();
		return EXIT_USAGE;
	}
	std::vector<std::string> rest(args.begin() + (long)used, args.end());
	if (global_json) {
		if (!cmd->spec->json) {
			err << "cxprm: " << cmd->spec->name << " has no JSON output\n";
			return EXIT_USAGE;
		}
		rest.insert(rest.begin(), "--json");
	}
	try {
		Args parsed(*cmd->spec, rest);
		if (parsed.help()) {
			out << usage_text(*cmd->spec);
			return EXIT_OK;
		}
		Ctx ctx{out, err, in};
		int rc = cmd->run(ctx, parsed);
		out.flush();
		return rc;
	} catch (const UsageError &e) {
		out.flush();
		err << "cxprm: " << e.what() << "\n"
		    << "usage: cxprm " << cmd->spec->name << " " << cmd->spec->synopsis << "  (--help for more)\n";
		return EXIT_USAGE;
	} catch (const Failure &e) {
		out.flush();
		err << "cxprm: " << e.what() << "\n";
		return e.code();
	} catch (const std::exception &e) {
		out.flush();
		err << "cxprm: " << e.what() << "\n";
		return EXIT_OS;
	}
}

} // namespace cxprm::tool
