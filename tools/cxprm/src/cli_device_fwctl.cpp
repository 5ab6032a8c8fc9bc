// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
// The fwctl transport (cli_device.h): /dev/fwctl/fwctlN of a function
// mlx5_core keeps.  Each query is the PRM command the driver would send
// (cxprm_core_typed_encode/decode), run with FWCTL_RPC; mlx5_fwctl puts
// the file's user context (uid) in every command header and lets through
// only what drivers/fwctl/mlx5/main.c mlx5ctl_validate_rpc allows.
#include <chrono>
#include <cerrno>
#include <cstring>
#include <fcntl.h>

#include "cli_device.h"
#include "errors.h"
#include "fwctl_uapi.h"
#include "names.h"
#include "pci_sysfs.h"
#include "sys.h"

#include "cxprm/capi.h"
#include "cxprm/commands/issi.h"
#include "cxprm/prm/issi.h"
#include "cxprm/layout.h"
#include "cxprm/prm/opcodes.h"
#include "cxprm/prm/reg.h"
#include "cxprm/prm/transport.h"

namespace cxprm::tool {

namespace {

const char *const kPriv = "needs root (a fwctl node is 0600, root's)";

uint16_t in_op_mod(const void *in) { return (uint16_t)prm::get<prm::cmd_in::op_mod>(prm::CRef<prm::cmd_in>(in)); }

class FwctlFile final : public DevFile {
public:
	explicit FwctlFile(const DevPath &where);
	~FwctlFile() override
	{
		if (fd_ >= 0)
			sys::close(fd_);
	}

	cxprm_info info(FwctlInfo *uctx) override;
	void query_caps(cxprm_caps &c) override { typed(CXPRM_IOC_QUERY_CAPS, &c, "QUERY_HCA_CAP"); }
	void nvmf_ns(cxprm_nvmf_ns &n) override { typed(CXPRM_IOC_NVMF_NS, &n, "QUERY_NVMF_NAMESPACE_CONTEXT"); }
	void esw_functions(cxprm_esw_functions &f) override
	{
		typed(CXPRM_IOC_ESW_FUNCTIONS, &f, "QUERY_ESW_FUNCTIONS");
	}
	void dct_query(cxprm_dct &d) override { typed(CXPRM_IOC_DCT_QUERY, &d, "QUERY_DCT"); }
	void dct_create(cxprm_dct &) override { refuse_create("creating a DCT"); }
	void dct_drain(cxprm_dct &) override { refuse_create("draining a DCT"); }
	void dct_destroy(cxprm_dct &) override { refuse_create("destroying a DCT"); }
	void obj_create(cxprm_obj &) override { refuse_create("creating an object"); }
	void obj_query(cxprm_obj &) override { refuse_create("an object of this file"); }
	void obj_destroy(cxprm_obj &) override { refuse_create("destroying an object"); }
	void qp_modify(cxprm_qp_modify &) override { refuse_create("modifying a QP"); }
	uint32_t batch(std::vector<cxprm_batch_op> &) override
	{
		refuse_create("a batch of ioctls");
		return 0;
	}
	void stats(cxprm_stats &) override
	{
		throw OsError(not_over_fwctl(where_, "the driver's command statistics",
					     "they are cxprm.ko's own; mlx5_core keeps its own in debugfs"));
	}
	int raw(cxprm_raw_cmd &r) override;
	std::string raw_error(int err, uint16_t opcode, uint16_t op_mod) const override;
	void set_write_scope(FwctlScope s) override { write_scope_ = s, have_write_scope_ = true; }
	void subscribe(const cxprm_subscribe &) override { refuse_events(); }
	bool read_events(std::vector<cxprm_event> &, int) override { refuse_events(); }

private:
	// FWCTL_RPC: 0 or the errno; *out_len the driver's answer length.
	int rpc(FwctlScope scope, const void *in, uint32_t inlen, void *out, uint32_t *out_len, uint64_t *ns);
	void typed(unsigned int ioc, void *arg, const char *opname);
	[[noreturn]] void refuse_create(const std::string &what) const
	{
		throw OsError(not_over_fwctl(where_, what,
					     "mlx5_fwctl allows no command that makes or changes a firmware object: "
					     "nothing would free it when the file closes"));
	}
	[[noreturn]] void refuse_events() const
	{
		throw OsError(not_over_fwctl(where_, "reading firmware events",
					     "fwctl has no events; mlx5_core's event queue takes them"));
	}

	int fd_ = -1;
	fwctl::InfoMlx5 uctx_{};
	uint32_t device_type_ = 0;
	FwctlScope write_scope_ = FwctlScope::CONFIGURATION;
	bool have_write_scope_ = false;
};

FwctlFile::FwctlFile(const DevPath &where) : DevFile(where)
{
	fd_ = sys::open(where.path.c_str(), O_RDWR);
	if (fd_ < 0) {
		int err = errno;
		if (err == ENOENT)
			throw OsError("no fwctl device at " + where.path +
				      ": is mlx5_fwctl loaded (Linux 6.15+, CONFIG_FWCTL_MLX5)? Without fwctl, "
				      "cxprm reaches a function only by taking it: cxprm bind " + where.bdf);
		if (err == EACCES || err == EPERM)
			throw OsError("permission denied opening " + where.path + ": " + kPriv);
		throw OsError("cannot open " + where.path + ": " + errno_text(err) +
			      (err == ENODEV ? ": the fwctl device is unregistered (mlx5_core unbound?)" : ""));
	}
	fwctl::Info i{};
	i.size = sizeof(i);
	i.device_data_len = sizeof(uctx_);
	i.out_device_data = (uint64_t)(uintptr_t)&uctx_;
	std::string why;
	if (sys::ioctl(fd_, fwctl::IOC_INFO, &i) != 0)
		why = ioctl_error(errno, "FWCTL_INFO", where.path, kPriv);
	else if ((device_type_ = i.out_device_type) != fwctl::DEVICE_TYPE_MLX5)
		why = where.path + " is not an mlx5 fwctl device (FWCTL_INFO device type " +
		      std::to_string(device_type_) + ", mlx5 is 1)";
	if (!why.empty()) { // no destructor runs for a constructor that throws
		sys::close(fd_);
		fd_ = -1;
		throw OsError(why);
	}
}

int FwctlFile::rpc(FwctlScope scope, const void *in, uint32_t inlen, void *out, uint32_t *out_len, uint64_t *ns)
{
	fwctl::Rpc r{};
	r.size = sizeof(r);
	r.scope = (uint32_t)scope;
	r.in_len = inlen;
	r.out_len = *out_len;
	r.in = (uint64_t)(uintptr_t)in;
	r.out = (uint64_t)(uintptr_t)out;
	auto t0 = std::chrono::steady_clock::now();
	int rc;
	while ((rc = sys::ioctl(fd_, fwctl::IOC_RPC, &r)) != 0 && errno == EINTR) {
	}
	if (ns)
		*ns = (uint64_t)std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now() - t0)
			      .count();
	if (rc != 0)
		return errno;
	// fwctl reports the driver's length, which may exceed the buffer
	// (it copied only what fits): never read past what was copied.
	if (r.out_len < *out_len)
		*out_len = r.out_len;
	return 0;
}

void FwctlFile::typed(unsigned int ioc, void *arg, const char *opname)
{
	uint8_t in[CXPRM_CORE_TYPED_IN_MAX];
	uint32_t inlen = 0, outlen = 0;
	int err = -cxprm_core_typed_encode(ioc, arg, in, sizeof(in), &inlen, &outlen);
	if (err)
		throw OsError(ioctl_error(err, opname, where_.path, kPriv));
	std::vector<uint8_t> out(outlen, 0);
	uint32_t got = outlen;
	uint64_t ns = 0;
	err = rpc(FwctlScope::DEBUG_READ_ONLY, in, inlen, out.data(), &got, &ns);
	if (err)
		throw OsError(raw_error(err, cxprm_core_in_opcode(in), in_op_mod(in)));
	if (got < prm::INLINE_BYTES)
		throw OsError(std::string("FWCTL_RPC (") + opname + ") on " + where_.path + ": " +
			      std::to_string(got) + " output bytes, less than a command's header");
	err = -cxprm_core_typed_decode(ioc, arg, out.data(), got);
	if (err)
		throw OsError(ioctl_error(err, std::string("FWCTL_RPC (") + opname + ")", where_.path, kPriv));
	// Over fwctl the whole call is all that can be timed (the device time
	// is mlx5_core's): st.latency_ns is that (Documentation/fwctl.rst).
	cxprm_cmd_status *st = ioc == CXPRM_IOC_QUERY_CAPS     ? &((cxprm_caps *)arg)->st
			       : ioc == CXPRM_IOC_NVMF_NS      ? &((cxprm_nvmf_ns *)arg)->st
			       : ioc == CXPRM_IOC_ESW_FUNCTIONS ? &((cxprm_esw_functions *)arg)->st
								: &((cxprm_dct *)arg)->st;
	st->latency_ns = ns;
}

int FwctlFile::raw(cxprm_raw_cmd &r)
{
	r.st = {};
	if (r.flags & CXPRM_RAW_DUMP)
		return EOPNOTSUPP;
	if (r.flags || r.inlen < prm::INLINE_BYTES || r.outlen < prm::INLINE_BYTES || r.inlen > fwctl::MAX_RPC_LEN ||
	    r.outlen > fwctl::MAX_RPC_LEN)
		return EINVAL;
	const void *in = (const void *)(uintptr_t)r.in;
	FwctlScope scope = FwctlScope::DEBUG_READ_ONLY;
	if (cxprm_core_raw_scope_in(in) != CXPRM_RAW_SCOPE_QUERY) {
		if (!have_write_scope_)
			return EPERM;
		scope = write_scope_;
	}
	uint32_t got = r.outlen;
	uint64_t ns = 0;
	int err = rpc(scope, in, r.inlen, (void *)(uintptr_t)r.out, &got, &ns);
	r.st.latency_ns = ns;
	if (err)
		return err;
	if (got < prm::INLINE_BYTES)
		return EPROTO;
	const void *out = (const void *)(uintptr_t)r.out;
	r.st.opcode = cxprm_core_in_opcode(in);
	r.st.status = cmd::out_status(out);
	r.st.syndrome = cmd::out_syndrome(out);
	return 0;
}

std::string FwctlFile::raw_error(int err, uint16_t opcode, uint16_t op_mod) const
{
	const std::string op = opcode_label(opcode);
	switch (err) {
	case EOPNOTSUPP:
		return not_over_fwctl(where_, "the wire dump of " + op,
				      "fwctl hands over a command's input and output only; the queue entry and "
				      "mailboxes are mlx5_core's");
	case EBADMSG:
		return "FWCTL_RPC (" + op + ") on " + where_.path + ": refused by mlx5_fwctl (EBADMSG): it allows " +
		       (have_write_scope_ ? std::string("no such command at scope ") + fwctl_scope_name(write_scope_)
					  : std::string("queries, register reads and a few settings")) +
		       "; " + not_over_fwctl(where_, op, "not in mlx5_fwctl's list of commands");
	case EPERM:
		if (!have_write_scope_ && cxprm_core_raw_scope(opcode, op_mod) != CXPRM_RAW_SCOPE_QUERY)
			return op + (op_mod ? " with op_mod " + std::to_string(op_mod) : std::string()) +
			       " is not a read-only query: over fwctl give --scope configuration, debug-write or "
			       "debug-write-full (debug-write and debug-write-full taint the kernel, "
			       "TAINT_FWCTL; debug-write-full needs CAP_SYS_RAWIO)";
		return ioctl_error(err, "FWCTL_RPC (" + op + ")", where_.path,
				   have_write_scope_ && write_scope_ == FwctlScope::DEBUG_WRITE_FULL
					   ? "scope debug-write-full needs CAP_SYS_RAWIO"
					   : kPriv);
	default:
		return ioctl_error(err, "FWCTL_RPC (" + op + ")", where_.path, kPriv);
	}
}

cxprm_info FwctlFile::info(FwctlInfo *uctx)
{
	cxprm_info i;
	std::memset(&i, 0, sizeof(i));
	std::snprintf(i.pci_addr, sizeof(i.pci_addr), "%s", where_.bdf.c_str());
	std::string node = where_.path.substr(where_.path.rfind('/') + 1);
	std::snprintf(i.dev_name, sizeof(i.dev_name), "fwctl/%s", node.c_str());
	std::string driver;
	try {
		PciFunction f = pci_function(where_.bdf);
		i.vendor_id = (uint16_t)std::strtoul(f.vendor.c_str(), nullptr, 16);
		i.device_id = (uint16_t)std::strtoul(f.device.c_str(), nullptr, 16);
		driver = f.driver;
	} catch (const Failure &) { // a path whose function sysfs does not show
	}
	// The fwctl device exists only while mlx5_core has the function up.
	i.state = CXPRM_STATE_UP;
	i.async_eqn = i.comp_eqn = ~0u;
	// The firmware version: MGIR (fwctl allows register reads).
	constexpr uint32_t hdr = prm::access_register_in::size_bytes, bytes = prm::mgir_reg::size_bytes;
	uint8_t in[hdr + bytes] = {}, out[prm::access_register_out::size_bytes + bytes] = {};
	prm::Ref<prm::access_register_in> r(in);
	prm::set<prm::access_register_in::opcode>(r, prm::op::ACCESS_REG);
	prm::set<prm::access_register_in::op_mod>(r, prm::access_reg_op::READ);
	prm::set<prm::access_register_in::register_id>(r, prm::reg_id::MGIR);
	uint32_t got = sizeof(out);
	if (rpc(FwctlScope::DEBUG_READ_ONLY, in, sizeof(in), out, &got, nullptr) == 0 && got == sizeof(out) &&
	    cmd::out_status(out) == 0) {
		prm::CRef<prm::mgir_reg> m(out + prm::access_register_out::size_bytes);
		i.fw_major = (uint16_t)prm::get<prm::mgir_reg::extended_major>(m);
		i.fw_minor = (uint16_t)prm::get<prm::mgir_reg::extended_minor>(m);
		i.fw_subminor = (uint16_t)prm::get<prm::mgir_reg::extended_sub_minor>(m);
	}
	// The ISSI mlx5_core set (fwctl allows QUERY_ISSI).
	uint8_t qin[prm::query_issi_in::size_bytes], qout[cmd::out_size<prm::query_issi_out>()] = {};
	cmd::begin_in<prm::query_issi_in>(qin, prm::op::QUERY_ISSI);
	got = sizeof(qout);
	cmd::IssiInfo issi{};
	if (rpc(FwctlScope::DEBUG_READ_ONLY, qin, sizeof(qin), qout, &got, nullptr) == 0 && got == sizeof(qout) &&
	    cmd::out_status(qout) == 0 && cmd::decode_query_issi(qout, got, &issi) == 0)
		i.issi = issi.current_issi;
	if (uctx) {
		uctx->uid = uctx_.uid;
		uctx->uctx_caps = uctx_.uctx_caps;
		uctx->device_type = device_type_;
		uctx->driver = driver;
	}
	return i;
}

} // namespace

std::unique_ptr<DevFile> open_fwctl(const DevPath &where) { return std::make_unique<FwctlFile>(where); }

} // namespace cxprm::tool
