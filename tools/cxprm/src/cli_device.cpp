// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
// Device naming, the choice of transport and errno messages (cli_device.h);
// the transports are cli_device_ko.cpp and cli_device_fwctl.cpp.
#include "cli_device.h"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <dirent.h>
#include <fcntl.h>
#include <fstream>
#include <iterator>
#include <sys/stat.h>

#include <unistd.h>

#include "errors.h"
#include "hex.h"
#include "names.h"
#include "pci_sysfs.h"

#include "cxprm/capi.h"
#include "cxprm/prm/opcodes.h"

namespace cxprm::tool {

namespace {

bool is_hex(const std::string &s, size_t len)
{
	if (s.size() != len)
		return false;
	for (char c : s)
		if (!std::isxdigit((unsigned char)c))
			return false;
	return true;
}

std::string lower(std::string s)
{
	for (char &c : s)
		c = (char)std::tolower((unsigned char)c);
	return s;
}

bool exists(const std::string &p)
{
	struct stat st;
	return ::stat(p.c_str(), &st) == 0;
}

std::string advice(int err)
{
	switch (err) {
	case ENOTTY:
		return "not a cxprm device, or the driver does not know this ioctl (driver and tool from different versions?)";
	case ENODEV:
	case ENXIO:
		return "the device is gone or not brought up; see 'cxprm info' (state, health_syndrome)";
	case ETIMEDOUT:
		return "the firmware did not hand the command back in time";
	case EIO:
		return "the command could not be delivered to the firmware (delivery status error) or the device failed";
	case EINVAL:
		return "the driver rejected the arguments (a reserved field set, or a value out of range)";
	case EBUSY:
		return "the device is busy (no free command slot in time); try again";
	case ESHUTDOWN:
		return "the device is being torn down";
	case EPROTO:
		return "the firmware's output violates the protocol (the driver did not trust it)";
	case EBADMSG:
		return "bad signature on the firmware's output";
	case EOVERFLOW:
		return "the firmware claims more output than was asked for";
	case EHOSTDOWN:
		return "the firmware is dead (health failure; see 'cxprm info' health_syndrome)";
	case EFAULT:
		return "an argument could not be copied (bad address)";
	case EOPNOTSUPP:
		return "the device does not support this (capability missing)";
	case ENOMEM:
		return "the kernel is out of memory";
	case ENOENT:
		return "no such object";
	case ENOSPC:
		return "a limit of the driver is reached (e.g. DCTs or objects per open file)";
	default:
		return "";
	}
}

} // namespace

std::string errno_text(int err) { return errno_name(err) + " (" + std::strerror(err) + ")"; }

std::string allow_raw_write_param()
{
	std::ifstream f("/sys/module/cxprm/parameters/allow_raw_write");
	std::string v;
	if (f)
		f >> v;
	return v;
}

// The kernel's lockdown level ("integrity", "confidentiality"), "" when
// none or unknown (/sys/kernel/security/lockdown: "none [integrity] ...").
std::string kernel_lockdown()
{
	std::ifstream f("/sys/kernel/security/lockdown");
	std::string w;
	while (f >> w)
		if (w.size() > 2 && w.front() == '[' && w.back() == ']')
			return w == "[none]" ? "" : w.substr(1, w.size() - 2);
	return "";
}

std::string dev_dir()
{
	const char *d = std::getenv("CXPRM_DEV_DIR");
	return d && *d ? d : "/dev/cxprm";
}

std::string fwctl_dir()
{
	const char *d = std::getenv("CXPRM_FWCTL_DIR");
	return d && *d ? d : "/dev/fwctl";
}

std::string fwctl_of(const std::string &bdf)
{
	// fwctl_alloc_device() parents the fwctl device on the PCI device:
	// sysfs lists it under the function's "fwctl" class directory.
	DIR *d = opendir((sysfs_root() + "/bus/pci/devices/" + bdf + "/fwctl").c_str());
	if (!d)
		return "";
	std::string found;
	while (struct dirent *e = readdir(d)) {
		std::string n = e->d_name;
		if (n.rfind("fwctl", 0) == 0 && (found.empty() || n < found))
			found = n;
	}
	closedir(d);
	return found;
}

bool device_names(std::vector<std::string> *out)
{
	DIR *d = opendir(dev_dir().c_str());
	if (!d)
		return false;
	while (struct dirent *e = readdir(d)) {
		std::string n = e->d_name;
		if (n != "." && n != "..")
			out->push_back(n);
	}
	closedir(d);
	std::sort(out->begin(), out->end());
	return true;
}

bool parse_bdf(const std::string &s, std::string *out)
{
	// [dddd:]bb:dd.f
	std::string dom = "0000", rest = s;
	size_t c1 = s.find(':');
	if (c1 == std::string::npos)
		return false;
	if (s.find(':', c1 + 1) != std::string::npos) {
		dom = s.substr(0, c1);
		rest = s.substr(c1 + 1);
		if (!is_hex(dom, 4))
			return false;
	}
	size_t c = rest.find(':'), dot = rest.find('.');
	if (c == std::string::npos || dot == std::string::npos || dot < c)
		return false;
	std::string bus = rest.substr(0, c), dev = rest.substr(c + 1, dot - c - 1), fn = rest.substr(dot + 1);
	if (!is_hex(bus, 2) || !is_hex(dev, 2) || fn.size() != 1 || fn[0] < '0' || fn[0] > '7')
		return false;
	if (std::strtoul(dev.c_str(), nullptr, 16) > 0x1f)
		return false;
	*out = lower(dom + ":" + bus + ":" + dev + "." + fn);
	return true;
}

DevPath resolve_device(const std::string &arg)
{
	DevPath p;
	if (arg.find('/') != std::string::npos) {
		p.path = arg;
		p.bdf = arg.substr(arg.rfind('/') + 1);
		if (arg.rfind(fwctl_dir() + "/", 0) == 0 || p.bdf.rfind("fwctl", 0) == 0) {
			p.via = Via::FWCTL;
			// The function the fwctl device belongs to, when sysfs says.
			char real[4096];
			std::string link = sysfs_root() + "/class/fwctl/" + p.bdf + "/device";
			ssize_t n = ::readlink(link.c_str(), real, sizeof(real) - 1);
			if (n > 0) {
				real[n] = 0;
				std::string r = real;
				p.bdf = r.substr(r.rfind('/') + 1);
			}
		}
		return p;
	}
	if (!parse_bdf(arg, &p.bdf))
		throw UsageError("'" + arg + "' is not a device: give a PCI address (0000:00:03.0 or 00:03.0) or a path");
	p.path = dev_dir() + "/" + p.bdf;
	if (exists(p.path))
		return p;
	std::string fw = fwctl_of(p.bdf);
	if (!fw.empty()) {
		p.path = fwctl_dir() + "/" + fw;
		p.via = Via::FWCTL;
	}
	return p;
}

std::unique_ptr<DevFile> open_device(const DevPath &where)
{
	return where.via == Via::FWCTL ? open_fwctl(where) : open_ko(where);
}

cxprm_nvmf_ns DevFile::nvmf_ns(uint32_t xrqn, uint32_t nsid)
{
	cxprm_nvmf_ns n;
	std::memset(&n, 0, sizeof(n));
	n.xrqn = xrqn;
	n.nsid = nsid;
	nvmf_ns(n);
	return n;
}

std::string not_over_fwctl(const DevPath &where, const std::string &what, const std::string &why)
{
	return what + " on " + where.path + ": not possible over fwctl (" + why +
	       "); to do it, give the function to cxprm: cxprm bind " + where.bdf +
	       " (this takes it from mlx5_core: its network interfaces go down; cxprm unbind " + where.bdf +
	       " --restore gives it back)";
}

namespace {

// The scopes' names, in the order of their values (0..3).
const char *const kFwctlScopeNames[] = {"configuration", "debug-read-only", "debug-write",
					"debug-write-full"};
static_assert((uint32_t)FwctlScope::DEBUG_WRITE_FULL + 1 == std::size(kFwctlScopeNames));

} // namespace

bool parse_fwctl_scope(const std::string &s, FwctlScope *out)
{
	for (uint32_t v = 0; v < std::size(kFwctlScopeNames); v++)
		if (s == kFwctlScopeNames[v]) {
			*out = (FwctlScope)v;
			return true;
		}
	return false;
}

const char *fwctl_scope_name(FwctlScope s)
{
	uint32_t v = (uint32_t)s;
	return v < std::size(kFwctlScopeNames) ? kFwctlScopeNames[v] : "?";
}

std::string ioctl_error(int err, const std::string &what, const std::string &path, const std::string &privilege)
{
	std::string m = what + " on " + path + " failed: " + errno_text(err);
	if (err == EPERM || err == EACCES) {
		m += ": permission denied: " + privilege;
		return m;
	}
	std::string a = advice(err);
	if (!a.empty())
		m += ": " + a;
	return m;
}

std::string raw_privilege(uint16_t opcode, uint16_t op_mod)
{
	// The driver's policy, from the core (capi.h) so the two cannot differ.
	std::string what = opcode_label(opcode);
	if (cxprm_core_raw_scope(opcode, 0) != cxprm_core_raw_scope(opcode, 1)) // op_mod decides
		what += " with op_mod " + std::to_string(op_mod);
	switch (cxprm_core_raw_scope(opcode, op_mod)) {
	case CXPRM_RAW_SCOPE_QUERY:
		return std::string(PRIV_NET_ADMIN) + " (" + what + " is a read-only query)";
	case CXPRM_RAW_SCOPE_WRITE: {
		std::string m = "needs CAP_SYS_RAWIO, the module parameter allow_raw_write=1 and a kernel not locked down (" +
				what + " is not a read-only query)";
		std::string v = allow_raw_write_param();
		if (v == "N" || v == "0")
			m += "; allow_raw_write is off: /sys/module/cxprm/parameters/allow_raw_write";
		std::string l = kernel_lockdown();
		if (!l.empty())
			m += "; the kernel is locked down (" + l +
			     "): raw writes are refused whatever the privileges, queries still work";
		return m;
	}
	default:
		return "the driver refuses " + what +
		       " as a raw command for everyone: it would break the driver's own state (HCA life cycle, "
		       "pages, ISSI, its event queue and UAR)";
	}
}

std::string dct_not_owned(uint32_t dctn)
{
	return "DCT " + hex_num(dctn) +
	       " is not a DCT of this open file: a DCT belongs to the file that created it and is destroyed "
	       "when that file is closed, so drain/destroy must run in the creating process "
	       "(use 'cxprm dct session' or 'cxprm dct create ... --then query,drain,wait,destroy')";
}

std::string obj_not_owned(const std::string &obj)
{
	return obj + " is not an object of this open file: objects belong to the file that created them and "
		     "are destroyed when it is closed, so modify/destroy must run in the creating process "
		     "(use 'cxprm dct create' without --pd/--cqn, 'cxprm nvmf setup' or 'cxprm bench connect')";
}

void check_batch(const DevFile &f, const std::vector<cxprm_batch_op> &ops, const char *ioctl)
{
	for (size_t i = 0; i < ops.size(); i++)
		if (ops[i].result)
			throw OsError(ioctl_error(-ops[i].result,
						  "CXPRM_IOC_BATCH op " + std::to_string(i) + " (" + ioctl + ")",
						  f.where().path, PRIV_NET_ADMIN));
}

} // namespace cxprm::tool
