// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
// cxprm list: every adapter bound to cxprm (/dev/cxprm/*), CXPRM_IOC_INFO on each.
#include <algorithm>
#include <cstdlib>
#include <ostream>

#include "commands.h"
#include "errors.h"
#include "names.h"
#include "pci_sysfs.h"
#include "table.h"
#include "views.h"

namespace cxprm::tool {

namespace {

const CommandSpec spec = {
	.name = "list",
	.synopsis = "[--all]",
	.summary = "list the adapters bound to cxprm",
	.description =
		"Scans the device directory (/dev/cxprm, or $CXPRM_DEV_DIR) and asks each\n"
		"device for CXPRM_IOC_INFO (no privilege beyond opening the node).\n"
		"JSON: an array of 'cxprm info' objects; a device that cannot be queried\n"
		"appears as {\"path\", \"pci_addr\", \"error\"} and makes the exit code 2.\n"
		"No devices: an empty list (JSON []), exit 0.\n"
		"--all adds the ConnectX functions (PCI vendor 15b3, or held by mlx5_core)\n"
		"that cxprm does not hold, from sysfs: their driver, network interfaces,\n"
		"RDMA devices and how\n"
		"the tool reaches them: over fwctl (/dev/fwctl/fwctlN, queries, the\n"
		"function stays its driver's) or only after 'cxprm bind' (JSON: objects\n"
		"with \"bound\": false, \"reach\": \"fwctl\" or \"bind\", \"fwctl\").",
	.opts = {
		{"all", 'a', nullptr, "also the ConnectX functions other drivers (or none) hold"},
	},
	.json = true,
};

int run(Ctx &ctx, const Args &args)
{
	std::string dir = dev_dir();
	std::vector<std::string> names;
	if (!device_names(&names) && !args.json())
		ctx.err << "cxprm: no cxprm devices: " << dir
			<< " does not exist (is the module loaded and a device bound? see tools/cxprm/README.md)\n";
	Json arr = Json::array();
	Table t({{"PCI ADDRESS"}, {"PCI ID"}, {"MODEL"}, {"FIRMWARE"}, {"STATE"}, {"FLAGS"}});
	int rc = EXIT_OK;
	for (const std::string &n : names) {
		DevPath p{n, dir + "/" + n};
		try {
			auto fp = open_device(p);
			DevFile &f = *fp;
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
	Table others({{"PCI ADDRESS"}, {"PCI ID"}, {"MODEL"}, {"DRIVER"}, {"NETDEVS"}, {"RDMA"}, {"REACH"}});
	if (args.has("all"))
		for (const PciFunction &f : connectx_functions()) {
			if (f.driver == "cxprm")
				continue;
			std::vector<std::string> nets = f.netdevs_up;
			for (const std::string &n : f.netdevs_down)
				nets.push_back(n + "(down)");
			Json j = Json::object();
			j.set("pci_addr", f.bdf);
			j.set("pci_id", f.vendor + ":" + f.device);
			j.set("bound", false);
			j.set("driver", f.driver);
			std::string fw = fwctl_of(f.bdf);
			j.set("reach", fw.empty() ? "bind" : "fwctl");
			j.set_json("fwctl", fw.empty() ? Json::null() : Json::str(fwctl_dir() + "/" + fw));
			Json jn = Json::array(), jr = Json::array();
			for (const std::string &n : f.netdevs_up)
				jn.push(n);
			for (const std::string &n : f.rdma)
				jr.push(n);
			j.set_json("netdevs_up", jn);
			j.set_json("rdma", jr);
			arr.push_json(j);
			std::string nl, rl;
			for (const std::string &n : nets)
				nl += (nl.empty() ? "" : ",") + n;
			for (const std::string &n : f.rdma)
				rl += (rl.empty() ? "" : ",") + n;
			others.row({f.bdf, f.vendor + ":" + f.device,
				    model_name(0x15b3, (uint16_t)std::strtoul(f.device.c_str(), nullptr, 16)),
				    f.driver.empty() ? "-" : f.driver, nl.empty() ? "-" : nl, rl.empty() ? "-" : rl,
				    fw.empty() ? "cxprm bind" : "fwctl (" + fw + ")"});
		}
	if (args.json())
		print_json(ctx, arr);
	else if (!t.empty())
		t.print(ctx.out);
	else if (!names.empty())
		ctx.err << "cxprm: no device in " << dir << " answered\n";
	if (!args.json() && !others.empty()) {
		ctx.out << (t.empty() ? "" : "\n") << "ConnectX functions not bound to cxprm:\n";
		others.print(ctx.out);
	}
	return rc;
}

} // namespace

const Command cmd_list = {&spec, run};

} // namespace cxprm::tool
