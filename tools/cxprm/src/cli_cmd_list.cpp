// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
// cxprm list: every adapter bound to cxprm (/dev/cxprm/*), CXPRM_IOC_INFO on each.
#include <algorithm>
#include <dirent.h>
#include <ostream>

#include "commands.h"
#include "errors.h"
#include "names.h"
#include "table.h"
#include "views.h"

namespace cxprm::tool {

namespace {

const CommandSpec spec = {
	"list",
	"",
	"list the adapters bound to cxprm",
	"Scans the device directory (/dev/cxprm, or $CXPRM_DEV_DIR) and asks each\n"
	"device for CXPRM_IOC_INFO (no privilege beyond opening the node).\n"
	"JSON: an array of 'cxprm info' objects; a device that cannot be queried\n"
	"appears as {\"path\", \"pci_addr\", \"error\"} and makes the exit code 2.\n"
	"No devices: an empty list (JSON []), exit 0.",
	{},
	0,
	0,
	true,
};

int run(Ctx &ctx, const Args &args)
{
	std::string dir = dev_dir();
	std::vector<std::string> names;
	if (DIR *d = opendir(dir.c_str())) {
		while (struct dirent *e = readdir(d)) {
			std::string n = e->d_name;
			if (n != "." && n != "..")
				names.push_back(n);
		}
		closedir(d);
	} else if (!args.json()) {
		ctx.err << "cxprm: no cxprm devices: " << dir
			<< " does not exist (is the module loaded and a device bound? see tools/cxprm/README.md)\n";
	}
	std::sort(names.begin(), names.end());

	Json arr = Json::array();
	Table t({{"PCI ADDRESS"}, {"PCI ID"}, {"MODEL"}, {"FIRMWARE"}, {"STATE"}, {"FLAGS"}});
	int rc = EXIT_OK;
	for (const std::string &n : names) {
		DevPath p{n, dir + "/" + n};
		try {
			DevFile f(p);
			cxprm_info i = f.info();
			Json j = info_json(i, p);
			arr.push_json(j);
			std::string flags;
			for (const Json &fl : j.get("flags")->items())
				flags += (flags.empty() ? "" : ",") + fl.as_str();
			t.row({i.pci_addr, j.get("pci_id")->as_str(), model_name(i.vendor_id, i.device_id),
			       fw_version(i), state_name(i.state), flags.empty() ? "-" : flags});
		} catch (const Failure &e) {
			rc = EXIT_OS;
			Json j = Json::object();
			j.set("path", p.path);
			j.set("pci_addr", n);
			j.set("error", e.what());
			arr.push_json(j);
			if (!args.json())
				ctx.err << "cxprm: " << e.what() << "\n";
		}
	}
	if (args.json())
		print_json(ctx, arr);
	else if (!t.empty())
		t.print(ctx.out);
	else if (!names.empty())
		ctx.err << "cxprm: no device in " << dir << " answered\n";
	return rc;
}

} // namespace

const Command cmd_list = {&spec, run};

} // namespace cxprm::tool
