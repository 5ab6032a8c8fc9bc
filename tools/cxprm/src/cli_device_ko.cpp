// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
// The cxprm.ko transport (cli_device.h): /dev/cxprm/<bdf> and the ioctls
// of include/uapi/linux/cxprm.h.
#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>

#include "cli_device.h"
#include "errors.h"
#include "hex.h"
#include "names.h"
#include "sys.h"

#include "cxprm/capi.h"

namespace cxprm::tool {

namespace {

const char *const kSeeReadme = "see tools/cxprm/README.md";

bool exists(const std::string &p)
{
	struct stat st;
	return ::stat(p.c_str(), &st) == 0;
}

class KoFile final : public DevFile {
public:
	explicit KoFile(const DevPath &where);
	~KoFile() override;

	cxprm_info info(FwctlInfo *) override;
	void query_caps(cxprm_caps &c) override;
	void nvmf_ns(cxprm_nvmf_ns &n) override;
	void esw_functions(cxprm_esw_functions &f) override;
	void dct_create(cxprm_dct &d) override;
	uint32_t batch(std::vector<cxprm_batch_op> &ops) override;
	void dct_query(cxprm_dct &d) override;
	void dct_drain(cxprm_dct &d) override;
	void dct_destroy(cxprm_dct &d) override;
	void obj_create(cxprm_obj &o) override;
	void obj_query(cxprm_obj &o) override;
	void obj_destroy(cxprm_obj &o) override;
	void qp_modify(cxprm_qp_modify &m) override;
	void stats(cxprm_stats &s) override;
	int raw(cxprm_raw_cmd &r) override;
	std::string raw_error(int err, uint16_t opcode, uint16_t op_mod) const override;
	void set_write_scope(FwctlScope s) override;
	void subscribe(const cxprm_subscribe &s) override;
	bool read_events(std::vector<cxprm_event> &out, int timeout_ms) override;

private:
	void call(unsigned long req, void *arg, const char *what, const char *privilege,
		  const std::string &enoent = {});

	int fd_ = -1;
};

KoFile::KoFile(const DevPath &where) : DevFile(where)
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

KoFile::~KoFile()
{
	if (fd_ >= 0)
		sys::close(fd_);
}

void KoFile::call(unsigned long req, void *arg, const char *what, const char *privilege, const std::string &enoent)
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

cxprm_info KoFile::info(FwctlInfo *)
{
	cxprm_info i;
	std::memset(&i, 0, sizeof(i));
	call(CXPRM_IOC_INFO, &i, "CXPRM_IOC_INFO", "needs read access to the device node");
	i.pci_addr[sizeof(i.pci_addr) - 1] = 0;
	i.dev_name[sizeof(i.dev_name) - 1] = 0;
	return i;
}

void KoFile::query_caps(cxprm_caps &c) { call(CXPRM_IOC_QUERY_CAPS, &c, "CXPRM_IOC_QUERY_CAPS", PRIV_NET_ADMIN); }
void KoFile::nvmf_ns(cxprm_nvmf_ns &n) { call(CXPRM_IOC_NVMF_NS, &n, "CXPRM_IOC_NVMF_NS", PRIV_NET_ADMIN); }
void KoFile::esw_functions(cxprm_esw_functions &f)
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
void KoFile::stats(cxprm_stats &s) { call(CXPRM_IOC_STATS, &s, "CXPRM_IOC_STATS", PRIV_NET_ADMIN); }
int KoFile::raw(cxprm_raw_cmd &r)
{
	for (;;) {
		if (sys::ioctl(fd_, CXPRM_IOC_RAW, &r) == 0)
			return 0;
		if (errno != EINTR)
			return errno;
	}
}

std::string KoFile::raw_error(int err, uint16_t opcode, uint16_t op_mod) const
{
	return ioctl_error(err, "CXPRM_IOC_RAW (" + opcode_label(opcode) + ")", where_.path,
			   raw_privilege(opcode, op_mod));
}

void KoFile::subscribe(const cxprm_subscribe &s)
{
	cxprm_subscribe copy = s;
	call(CXPRM_IOC_SUBSCRIBE, &copy, "CXPRM_IOC_SUBSCRIBE", PRIV_NET_ADMIN);
}

void KoFile::dct_create(cxprm_dct &d) { call(CXPRM_IOC_DCT_CREATE, &d, "CXPRM_IOC_DCT_CREATE", PRIV_NET_ADMIN); }
void KoFile::dct_query(cxprm_dct &d)
{
	call(CXPRM_IOC_DCT_QUERY, &d, "CXPRM_IOC_DCT_QUERY", PRIV_NET_ADMIN, dct_not_owned(d.dctn));
}
void KoFile::dct_drain(cxprm_dct &d)
{
	call(CXPRM_IOC_DCT_DRAIN, &d, "CXPRM_IOC_DCT_DRAIN", PRIV_NET_ADMIN, dct_not_owned(d.dctn));
}
void KoFile::dct_destroy(cxprm_dct &d)
{
	call(CXPRM_IOC_DCT_DESTROY, &d, "CXPRM_IOC_DCT_DESTROY", PRIV_NET_ADMIN, dct_not_owned(d.dctn));
}

void KoFile::obj_create(cxprm_obj &o)
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
void KoFile::obj_query(cxprm_obj &o)
{
	call(CXPRM_IOC_OBJ_QUERY, &o, "CXPRM_IOC_OBJ_QUERY", PRIV_NET_ADMIN, obj_not_owned(obj_label(o.type, o.id)));
}
void KoFile::obj_destroy(cxprm_obj &o)
{
	call(CXPRM_IOC_OBJ_DESTROY, &o, "CXPRM_IOC_OBJ_DESTROY", PRIV_NET_ADMIN,
	     obj_not_owned(obj_label(o.type, o.id)));
}
uint32_t KoFile::batch(std::vector<cxprm_batch_op> &ops)
{
	cxprm_batch b{};
	b.count = (uint32_t)ops.size();
	b.ops = (uint64_t)(uintptr_t)ops.data();
	call(CXPRM_IOC_BATCH, &b, "CXPRM_IOC_BATCH", PRIV_NET_ADMIN);
	return b.done;
}

void KoFile::qp_modify(cxprm_qp_modify &m)
{
	call(CXPRM_IOC_QP_MODIFY, &m, "CXPRM_IOC_QP_MODIFY", PRIV_NET_ADMIN, obj_not_owned("QP " + hex_num(m.qpn)));
}

bool KoFile::read_events(std::vector<cxprm_event> &out, int timeout_ms)
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

void KoFile::set_write_scope(FwctlScope s)
{
	throw UsageError(std::string("--scope ") + fwctl_scope_name(s) + " is for fwctl devices: over cxprm.ko (" +
			 where_.path + ") the driver's own policy decides (CAP_SYS_RAWIO and allow_raw_write=1 for writes)");
}

} // namespace

std::unique_ptr<DevFile> open_ko(const DevPath &where) { return std::make_unique<KoFile>(where); }

} // namespace cxprm::tool
