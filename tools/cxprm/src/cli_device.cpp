// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
// Device files, ioctl wrappers and errno messages (cli_device.h).
#include "cli_device.h"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <dirent.h>
#include <fcntl.h>
#include <fstream>
#include <sys/stat.h>

#include "errors.h"
#include "hex.h"
#include "names.h"
#include "sys.h"

#include "cxprm/capi.h"
#include "cxprm/prm/opcodes.h"

namespace cxprm::tool {

namespace {

const char *const kSeeReadme = "see tools/cxprm/README.md";

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

std::string errno_text(int err) { return errno_name(err) + " (" + std::strerror(err) + ")"; }

// "Y"/"1" when the module parameter is on, "N"/"0" off, "" when unreadable.
std::string allow_raw_write_param()
{
	std::ifstream f("/sys/module/cxprm/parameters/allow_raw_write");
	std::string v;
	if (f)
		f >> v;
	return v;
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

std::string dev_dir()
{
	const char *d = std::getenv("CXPRM_DEV_DIR");
	return d && *d ? d : "/dev/cxprm";
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
		return p;
	}
	if (!parse_bdf(arg, &p.bdf))
		throw UsageError("'" + arg + "' is not a device: give a PCI address (0000:00:03.0 or 00:03.0) or a path");
	p.path = dev_dir() + "/" + p.bdf;
	return p;
}

DevFile::DevFile(const DevPath &where) : where_(where)
{
	fd_ = sys::open(where.path.c_str(), O_RDWR);
	if (fd_ < 0 && (errno == EACCES || errno == EPERM))
		fd_ = sys::open(where.path.c_str(), O_RDONLY);
	if (fd_ >= 0)
		return;
	int err = errno;
	if (err == ENOENT) {
		std::string dir = dev_dir();
		if (where.path.rfind(dir + "/", 0) != 0)
			throw OsError("no cxprm device at " + where.path + ": no such file");
		std::string m = "no cxprm device " + where.bdf + " (" + where.path + " does not exist): is it bound to cxprm? ";
		if (!exists(dir))
			m += dir + " does not exist either: is the module loaded? ";
		throw OsError(m + kSeeReadme);
	}
	if (err == EACCES || err == EPERM)
		throw OsError("permission denied opening " + where.path +
			      ": needs read access to the device node (usually root)");
	if (err == ENXIO || err == ENODEV)
		throw OsError("cannot open " + where.path + ": " + errno_text(err) +
			      ": no device behind the node (unbound or removed?); " + kSeeReadme);
	throw OsError("cannot open " + where.path + ": " + errno_text(err));
}

DevFile::~DevFile()
{
	if (fd_ >= 0)
		sys::close(fd_);
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
		std::string m = "needs CAP_SYS_RAWIO and the module parameter allow_raw_write=1 (" +
				what + " is not a read-only query)";
		std::string v = allow_raw_write_param();
		if (v == "N" || v == "0")
			m += "; allow_raw_write is off: /sys/module/cxprm/parameters/allow_raw_write";
		return m;
	}
	default:
		return "the driver refuses " + what +
		       " as a raw command for everyone: it would break the driver's own state (HCA life cycle, "
		       "pages, ISSI, its event queue and UAR)";
	}
}

void DevFile::call(unsigned long req, void *arg, const char *what, const char *privilege, const std::string &enoent)
{
	for (;;) {
		if (sys::ioctl(fd_, req, arg) == 0)
			return;
		if (errno != EINTR)
			break;
	}
	int err = errno;
	if (err == ENOENT && !enoent.empty())
		throw OsError(what + std::string(" on ") + where_.path + " failed: " + errno_text(err) + ": " + enoent);
	throw OsError(ioctl_error(err, what, where_.path, privilege));
}

cxprm_info DevFile::info()
{
	cxprm_info i;
	std::memset(&i, 0, sizeof(i));
	call(CXPRM_IOC_INFO, &i, "CXPRM_IOC_INFO", "needs read access to the device node");
	i.pci_addr[sizeof(i.pci_addr) - 1] = 0;
	i.dev_name[sizeof(i.dev_name) - 1] = 0;
	return i;
}

void DevFile::query_caps(cxprm_caps &c) { call(CXPRM_IOC_QUERY_CAPS, &c, "CXPRM_IOC_QUERY_CAPS", PRIV_NET_ADMIN); }
void DevFile::nvmf_ns(cxprm_nvmf_ns &n) { call(CXPRM_IOC_NVMF_NS, &n, "CXPRM_IOC_NVMF_NS", PRIV_NET_ADMIN); }
cxprm_nvmf_ns DevFile::nvmf_ns(uint32_t xrqn, uint32_t nsid)
{
	cxprm_nvmf_ns n;
	std::memset(&n, 0, sizeof(n));
	n.xrqn = xrqn;
	n.nsid = nsid;
	nvmf_ns(n);
	return n;
}
void DevFile::esw_functions(cxprm_esw_functions &f)
{
	for (;;) {
		if (sys::ioctl(fd_, CXPRM_IOC_ESW_FUNCTIONS, &f) == 0)
			return;
		if (errno != EINTR)
			break;
	}
	int err = errno;
	/* The driver refuses before asking firmware (as Linux's eswitch.c does). */
	if (err == EOPNOTSUPP)
		throw OsError("CXPRM_IOC_ESW_FUNCTIONS on " + where_.path +
			      ": not an ECPF eswitch manager: QUERY_ESW_FUNCTIONS and "
			      "ESW_FUNCTIONS_CHANGED exist only on a BlueField's embedded CPU "
			      "function that manages the eswitch (cxprm info shows flag ECPF); "
			      "this is a host function");
	throw OsError(ioctl_error(err, "CXPRM_IOC_ESW_FUNCTIONS", where_.path, PRIV_NET_ADMIN));
}
void DevFile::stats(cxprm_stats &s) { call(CXPRM_IOC_STATS, &s, "CXPRM_IOC_STATS", PRIV_NET_ADMIN); }
int DevFile::raw(cxprm_raw_cmd &r)
{
	for (;;) {
		if (sys::ioctl(fd_, CXPRM_IOC_RAW, &r) == 0)
			return 0;
		if (errno != EINTR)
			return errno;
	}
}

std::string DevFile::raw_error(int err, uint16_t opcode, uint16_t op_mod) const
{
	return ioctl_error(err, "CXPRM_IOC_RAW (" + opcode_label(opcode) + ")", where_.path,
			   raw_privilege(opcode, op_mod));
}

void DevFile::subscribe(const cxprm_subscribe &s)
{
	cxprm_subscribe copy = s;
	call(CXPRM_IOC_SUBSCRIBE, &copy, "CXPRM_IOC_SUBSCRIBE", PRIV_NET_ADMIN);
}

std::string dct_not_owned(uint32_t dctn)
{
	return "DCT " + hex_num(dctn) +
	       " is not a DCT of this open file: a DCT belongs to the file that created it and is destroyed "
	       "when that file is closed, so drain/destroy must run in the creating process "
	       "(use 'cxprm dct session' or 'cxprm dct create ... --then query,drain,wait,destroy')";
}

void DevFile::dct_create(cxprm_dct &d) { call(CXPRM_IOC_DCT_CREATE, &d, "CXPRM_IOC_DCT_CREATE", PRIV_NET_ADMIN); }
void DevFile::dct_query(cxprm_dct &d)
{
	call(CXPRM_IOC_DCT_QUERY, &d, "CXPRM_IOC_DCT_QUERY", PRIV_NET_ADMIN, dct_not_owned(d.dctn));
}
void DevFile::dct_drain(cxprm_dct &d)
{
	call(CXPRM_IOC_DCT_DRAIN, &d, "CXPRM_IOC_DCT_DRAIN", PRIV_NET_ADMIN, dct_not_owned(d.dctn));
}
void DevFile::dct_destroy(cxprm_dct &d)
{
	call(CXPRM_IOC_DCT_DESTROY, &d, "CXPRM_IOC_DCT_DESTROY", PRIV_NET_ADMIN, dct_not_owned(d.dctn));
}

std::string obj_not_owned(const std::string &obj)
{
	return obj + " is not an object of this open file: objects belong to the file that created them and "
		     "are destroyed when it is closed, so modify/destroy must run in the creating process "
		     "(use 'cxprm dct create' without --pd/--cqn, 'cxprm nvmf setup' or 'cxprm bench connect')";
}

void DevFile::obj_create(cxprm_obj &o)
{
	// The driver's policy, from the core: a backend points firmware DMA.
	std::string priv = PRIV_NET_ADMIN;
	if (cxprm_core_obj_is_raw_write(CXPRM_IOC_OBJ_CREATE, &o)) {
		priv = "needs CAP_NET_ADMIN, CAP_SYS_RAWIO and the module parameter allow_raw_write=1 (firmware "
		       "writes to the NVMe queue addresses given)";
		std::string v = allow_raw_write_param();
		if (v == "N" || v == "0")
			priv += "; allow_raw_write is off: /sys/module/cxprm/parameters/allow_raw_write";
	}
	call(CXPRM_IOC_OBJ_CREATE, &o, "CXPRM_IOC_OBJ_CREATE", priv.c_str());
}
void DevFile::obj_query(cxprm_obj &o)
{
	call(CXPRM_IOC_OBJ_QUERY, &o, "CXPRM_IOC_OBJ_QUERY", PRIV_NET_ADMIN, obj_not_owned(obj_label(o.type, o.id)));
}
void DevFile::obj_destroy(cxprm_obj &o)
{
	call(CXPRM_IOC_OBJ_DESTROY, &o, "CXPRM_IOC_OBJ_DESTROY", PRIV_NET_ADMIN,
	     obj_not_owned(obj_label(o.type, o.id)));
}
void DevFile::qp_modify(cxprm_qp_modify &m)
{
	call(CXPRM_IOC_QP_MODIFY, &m, "CXPRM_IOC_QP_MODIFY", PRIV_NET_ADMIN, obj_not_owned("QP " + hex_num(m.qpn)));
}

bool DevFile::read_events(std::vector<cxprm_event> &out, int timeout_ms)
{
	struct pollfd p = {fd_, POLLIN, 0};
	int n = sys::poll(&p, 1, timeout_ms);
	if (n < 0) {
		if (errno == EINTR)
			return false;
		throw OsError("poll on " + where_.path + " failed: " + errno_text(errno));
	}
	if (n == 0)
		return false;
	if (p.revents & (POLLERR | POLLHUP | POLLNVAL))
		throw OsError("poll on " + where_.path + ": the device reported " +
			      std::string(p.revents & POLLNVAL ? "POLLNVAL" : p.revents & POLLHUP ? "POLLHUP" : "POLLERR") +
			      " (device removed?)");
	cxprm_event buf[64];
	ssize_t got = sys::read(fd_, buf, sizeof(buf));
	if (got < 0) {
		int err = errno;
		if (err == EAGAIN || err == EINTR)
			return true;
		throw OsError(ioctl_error(err, "reading events", where_.path, PRIV_NET_ADMIN));
	}
	if (got % (ssize_t)sizeof(cxprm_event))
		throw OsError("reading events on " + where_.path + ": got " + std::to_string(got) +
			      " bytes, not whole records of " + std::to_string(sizeof(cxprm_event)));
	out.insert(out.end(), buf, buf + got / (ssize_t)sizeof(cxprm_event));
	return true;
}

} // namespace cxprm::tool
