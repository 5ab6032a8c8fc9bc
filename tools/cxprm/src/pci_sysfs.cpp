// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
// PCI functions through sysfs (pci_sysfs.h).
#include "pci_sysfs.h"

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <dirent.h>
#include <fstream>
#include <unistd.h>

#include "cli_device.h"
#include "errors.h"

namespace cxprm::tool {

namespace {

std::string env_or(const char *name, const char *def)
{
	const char *v = std::getenv(name);
	return v && *v ? v : def;
}

std::vector<std::string> entries(const std::string &dir)
{
	std::vector<std::string> v;
	if (DIR *d = opendir(dir.c_str())) {
		while (struct dirent *e = readdir(d)) {
			std::string n = e->d_name;
			if (n != "." && n != "..")
				v.push_back(n);
		}
		closedir(d);
	}
	std::sort(v.begin(), v.end());
	return v;
}

std::string read_line(const std::string &path)
{
	std::ifstream f(path);
	std::string l;
	std::getline(f, l);
	return l;
}

std::string link_base(const std::string &path)
{
	char b[4096];
	ssize_t n = readlink(path.c_str(), b, sizeof(b) - 1);
	if (n <= 0)
		return "";
	std::string s(b, (size_t)n);
	return s.substr(s.rfind('/') + 1);
}

std::string strip0x(std::string s)
{
	return s.rfind("0x", 0) == 0 ? s.substr(2) : s;
}

void write_attr(const std::string &path, const std::string &value)
{
	std::ofstream f(path);
	f << value << "\n";
	f.flush();
	if (!f)
		throw OsError("writing '" + value + "' to " + path + " failed: " + std::strerror(errno) +
			      (errno == EACCES || errno == EPERM ? " (needs root)" : ""));
}

// Whether a process holds /dev/infiniband/<node> open.
bool node_open(const std::string &node)
{
	std::string proc = env_or("CXPRM_PROCFS", "/proc");
	std::string want = "/dev/infiniband/" + node;
	for (const std::string &pid : entries(proc)) {
		if (pid.find_first_not_of("0123456789") != std::string::npos)
			continue;
		for (const std::string &fd : entries(proc + "/" + pid + "/fd")) {
			char b[256];
			ssize_t n = readlink((proc + "/" + pid + "/fd/" + fd).c_str(), b, sizeof(b) - 1);
			if (n > 0 && std::string(b, (size_t)n) == want)
				return true;
		}
	}
	return false;
}

PciFunction read_function(const std::string &bdf)
{
	std::string d = sysfs_root() + "/bus/pci/devices/" + bdf;
	PciFunction f;
	f.bdf = bdf;
	f.vendor = strip0x(read_line(d + "/vendor"));
	f.device = strip0x(read_line(d + "/device"));
	f.driver = link_base(d + "/driver");
	for (const std::string &n : entries(d + "/net")) {
		unsigned long flags = std::strtoul(read_line(d + "/net/" + n + "/flags").c_str(), nullptr, 16);
		(flags & 1 ? f.netdevs_up : f.netdevs_down).push_back(n); // IFF_UP
	}
	f.rdma = entries(d + "/infiniband");
	for (const std::string &v : entries(d + "/infiniband_verbs"))
		if (node_open(v))
			f.rdma_open.push_back(v);
	return f;
}

} // namespace

std::string sysfs_root() { return env_or("CXPRM_SYSFS", "/sys"); }

std::string handover_file(const std::string &bdf)
{
	return env_or("CXPRM_RUN_DIR", "/run/cxprm") + "/" + bdf + ".driver";
}

PciFunction pci_function(const std::string &arg)
{
	std::string bdf;
	if (!parse_bdf(arg, &bdf))
		throw UsageError("'" + arg + "' is not a PCI address (0000:00:03.0 or 00:03.0)");
	if (access((sysfs_root() + "/bus/pci/devices/" + bdf).c_str(), F_OK) != 0)
		throw OsError("no PCI function " + bdf + " (" + sysfs_root() + "/bus/pci/devices/" + bdf + ")");
	return read_function(bdf);
}

std::vector<PciFunction> connectx_functions()
{
	std::vector<PciFunction> v;
	for (const std::string &bdf : entries(sysfs_root() + "/bus/pci/devices")) {
		PciFunction f = read_function(bdf);
		// By vendor id, or by a ConnectX driver holding it under another
		// id (the emulated device, or a new_id binding).
		if (f.vendor == "15b3" || f.driver == "mlx5_core" || f.driver == "cxprm")
			v.push_back(f);
	}
	return v;
}

void pci_rebind(const std::string &bdf, const std::string &override_to, const std::string &driver)
{
	std::string sys = sysfs_root();
	std::string d = sys + "/bus/pci/devices/" + bdf;
	// "\n" clears an override; the override first, so nothing else grabs
	// the function between the unbind and the bind.
	write_attr(d + "/driver_override", override_to);
	std::string cur = link_base(d + "/driver");
	if (!cur.empty() && cur != driver)
		write_attr(d + "/driver/unbind", bdf);
	if (driver.empty() || cur == driver)
		return;
	if (access((sys + "/bus/pci/drivers/" + driver).c_str(), F_OK) != 0)
		throw OsError("driver " + driver + " is not loaded (modprobe " + driver + ")");
	write_attr(sys + "/bus/pci/drivers/" + driver + "/bind", bdf);
	std::string now = link_base(d + "/driver");
	if (now != driver)
		throw OsError(bdf + ": " + driver + " did not bind it (now: " + (now.empty() ? "no driver" : now) +
			      "; see dmesg)");
}

} // namespace cxprm::tool
