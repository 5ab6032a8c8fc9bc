// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
// cxprm bind DEV / cxprm unbind DEV [--restore]: hand a PCI function from
// its driver (mlx5_core, or none) to cxprm through driver_override, and back.
#include <cerrno>
#include <cstring>
#include <fstream>
#include <ostream>
#include <sys/stat.h>
#include <unistd.h>

#include "commands.h"
#include "errors.h"
#include "pci_sysfs.h"

namespace cxprm::tool {

namespace {

const CommandSpec bind_spec = {
	.name = "bind",
	.synopsis = "DEV [--force]",
	.summary = "hand a PCI function to cxprm (from mlx5_core or no driver)",
	.description =
		"Sets the function's driver_override to cxprm, unbinds it from its driver\n"
		"and binds it to cxprm (the module must be loaded).  Refuses when the\n"
		"function has a network interface that is up or an RDMA device a process\n"
		"holds open, unless --force.  The previous driver and override are kept in\n"
		"/run/cxprm/<pci-address>.driver for 'cxprm unbind --restore'.  Needs root.",
	.opts = {
		{"force", 'f', nullptr, "take the function even while its interfaces are in use"},
	},
	.min_pos = 1,
	.max_pos = 1,
};

const CommandSpec unbind_spec = {
	.name = "unbind",
	.synopsis = "DEV [--restore]",
	.summary = "release a PCI function from cxprm (and give it back with --restore)",
	.description =
		"Unbinds the function from cxprm and clears its driver_override.  With\n"
		"--restore, binds it again to the driver it had before 'cxprm bind' (with\n"
		"that driver_override), or, without a record, lets the kernel's id tables\n"
		"choose (drivers_probe).  Needs root.",
	.opts = {
		{"restore", 'r', nullptr, "give the function back to its previous driver"},
	},
	.min_pos = 1,
	.max_pos = 1,
};

std::string join(const std::vector<std::string> &v)
{
	std::string s;
	for (const std::string &w : v)
		s += (s.empty() ? "" : ", ") + w;
	return s;
}

int run_bind(Ctx &ctx, const Args &args)
{
	PciFunction f = pci_function(args.pos()[0]);
	if (f.driver == "cxprm") {
		ctx.out << f.bdf << ": already bound to cxprm\n";
		return EXIT_OK;
	}
	if (!args.has("force")) {
		if (!f.netdevs_up.empty())
			throw OsError(f.bdf + ": network interface(s) " + join(f.netdevs_up) +
				      " are up (ip link set DEV down first, or --force)");
		if (!f.rdma_open.empty())
			throw OsError(f.bdf + ": RDMA device(s) " + join(f.rdma) + " in use (" + join(f.rdma_open) +
				      " open; stop their users first, or --force)");
	}
	std::string dir = handover_file(f.bdf);
	dir = dir.substr(0, dir.rfind('/'));
	for (size_t i = 1; i <= dir.size(); i++) // mkdir -p
		if (i == dir.size() || dir[i] == '/')
			mkdir(dir.substr(0, i).c_str(), 0755);
	std::string dev = sysfs_root() + "/bus/pci/devices/" + f.bdf;
	std::string prev_override;
	{
		std::ifstream o(dev + "/driver_override");
		std::getline(o, prev_override);
		if (prev_override == "(null)")
			prev_override.clear();
	}
	{
		std::ofstream rec(handover_file(f.bdf));
		rec << (f.driver.empty() ? "-" : f.driver) << " " << (prev_override.empty() ? "-" : prev_override)
		    << "\n";
		if (!rec)
			throw OsError("cannot write " + handover_file(f.bdf) + ": " + std::strerror(errno));
	}
	pci_rebind(f.bdf, "cxprm", "cxprm");
	ctx.out << f.bdf << ": bound to cxprm (was: " << (f.driver.empty() ? "no driver" : f.driver) << ")\n";
	return EXIT_OK;
}

int run_unbind(Ctx &ctx, const Args &args)
{
	PciFunction f = pci_function(args.pos()[0]);
	if (f.driver != "cxprm" && !f.driver.empty())
		throw OsError(f.bdf + ": bound to " + f.driver + ", not cxprm");
	std::string drv, ovr;
	bool have = false;
	{
		std::ifstream rec(handover_file(f.bdf));
		have = bool(rec >> drv >> ovr);
	}
	if (!args.has("restore")) {
		pci_rebind(f.bdf, "", "");
		ctx.out << f.bdf << ": released by cxprm (no driver now)\n";
		return EXIT_OK;
	}
	if (!have) {
		pci_rebind(f.bdf, "", "");
		std::ofstream(sysfs_root() + "/bus/pci/drivers_probe") << f.bdf << "\n";
		PciFunction now = pci_function(f.bdf);
		ctx.out << f.bdf << ": released by cxprm; the kernel gave it to "
			<< (now.driver.empty() ? "no driver" : now.driver) << "\n";
		return EXIT_OK;
	}
	pci_rebind(f.bdf, ovr == "-" ? "" : ovr, drv == "-" ? "" : drv);
	std::remove(handover_file(f.bdf).c_str());
	ctx.out << f.bdf << ": given back to " << (drv == "-" ? "no driver" : drv) << "\n";
	return EXIT_OK;
}

} // namespace

const Command cmd_bind = {&bind_spec, run_bind};
const Command cmd_unbind = {&unbind_spec, run_unbind};

} // namespace cxprm::tool
