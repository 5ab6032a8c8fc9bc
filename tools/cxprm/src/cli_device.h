// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// A device the tool talks to: naming (PCI address or path), and the
// transport behind it -- one interface (DevFile), two implementations:
//   cxprm.ko   /dev/cxprm/<bdf>: the ioctls of include/uapi/linux/cxprm.h
//              (cli_device_ko.cpp); the function is cxprm's
//   fwctl      /dev/fwctl/fwctlN of a function mlx5_core keeps
//              (FWCTL_INFO, FWCTL_RPC; cli_device_fwctl.cpp): the typed
//              queries become their PRM commands (the core's
//              cxprm_core_typed_encode/decode), what fwctl cannot do is
//              one OsError naming `cxprm bind`
// No subcommand knows which one it has.  Failures throw OsError (exit 2);
// firmware statuses are not failures here: the callers look at the
// cxprm_cmd_status.  Errno turned into a message says what to do.
//
// The device directories are /dev/cxprm and /dev/fwctl, or $CXPRM_DEV_DIR
// and $CXPRM_FWCTL_DIR when set (tests).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include <uapi/linux/cxprm.h>

namespace cxprm::tool {

std::string dev_dir();
std::string fwctl_dir();
// The node names in dev_dir(), sorted; false when it cannot be read.
bool device_names(std::vector<std::string> *out);

enum class Via { KO, FWCTL };

struct DevPath {
	std::string bdf;  // "0000:00:03.0" (or the file name of a path argument)
	std::string path; // "/dev/cxprm/0000:00:03.0", "/dev/fwctl/fwctl0"
	Via via = Via::KO;
};

// "0000:00:03.0", "00:03.0" (domain 0000), upper or lower case, or a path
// (anything with a '/'; under fwctl_dir() or named fwctlN: fwctl).  A PCI
// address is cxprm's node when there is one, else the function's fwctl
// device when it has one (sysfs: <function>/fwctl/fwctlN), else cxprm's
// node (whose absence open_device() explains).  UsageError for anything else.
DevPath resolve_device(const std::string &arg);
// The fwctl device of a PCI function ("fwctl0"), or "".
std::string fwctl_of(const std::string &bdf);
// Whether s is a PCI address in one of the accepted forms (normalised to *out).
bool parse_bdf(const std::string &s, std::string *out);

// The fwctl RPC scopes (include/uapi/fwctl/fwctl.h enum fwctl_rpc_scope).
enum class FwctlScope : uint32_t { CONFIGURATION = 0, DEBUG_READ_ONLY = 1, DEBUG_WRITE = 2, DEBUG_WRITE_FULL = 3 };
// "configuration", "debug-write", "debug-write-full", "debug-read-only"; false otherwise.
bool parse_fwctl_scope(const std::string &s, FwctlScope *out);
const char *fwctl_scope_name(FwctlScope s);

class DevFile {
public:
	virtual ~DevFile() = default;
	DevFile(const DevFile &) = delete;
	DevFile &operator=(const DevFile &) = delete;

	const DevPath &where() const { return where_; }
	Via via() const { return where_.via; }
	// "cxprm.ko" or "fwctl".
	const char *transport() const { return where_.via == Via::FWCTL ? "fwctl" : "cxprm.ko"; }

	// Over fwctl: the identity from sysfs, state UP, the firmware version
	// from MGIR, and the fwctl user context in *uctx (may be null).
	struct FwctlInfo {
		uint32_t uid = 0, uctx_caps = 0, device_type = 0;
		std::string driver; // the function's driver (mlx5_core)
	};
	virtual cxprm_info info(FwctlInfo *uctx = nullptr) = 0;
	virtual void query_caps(cxprm_caps &c) = 0;
	virtual void nvmf_ns(cxprm_nvmf_ns &n) = 0;
	// QUERY_NVMF_NAMESPACE_CONTEXT of one namespace: the struct filled in.
	cxprm_nvmf_ns nvmf_ns(uint32_t xrqn, uint32_t nsid);
	virtual void esw_functions(cxprm_esw_functions &f) = 0;
	virtual void dct_query(cxprm_dct &d) = 0;
	// Only over cxprm.ko (fwctl: OsError naming `cxprm bind`).
	virtual void dct_create(cxprm_dct &d) = 0;
	virtual void dct_drain(cxprm_dct &d) = 0;
	virtual void dct_destroy(cxprm_dct &d) = 0;
	// The object ioctls (PD, CQ, SRQ, QP, XRQ, NVMF backend and namespace).
	virtual void obj_create(cxprm_obj &o) = 0;
	virtual void obj_query(cxprm_obj &o) = 0;
	virtual void obj_destroy(cxprm_obj &o) = 0;
	virtual void qp_modify(cxprm_qp_modify &m) = 0;
	// CXPRM_IOC_BATCH: ops (at most CXPRM_BATCH_MAX) with their commands
	// in flight together; each op's result filled in, their structs
	// written as each op's own ioctl would.  Returns how many returned 0.
	// Only over cxprm.ko.
	virtual uint32_t batch(std::vector<cxprm_batch_op> &ops) = 0;
	virtual void stats(cxprm_stats &s) = 0;
	// The status (and, over cxprm.ko, the wire dump) come back on
	// transport errors too: returns 0 or the errno (r filled either way);
	// raw_error() words it.  Over fwctl a command outside the read scope
	// needs set_write_scope() first (EPERM otherwise), and CXPRM_RAW_DUMP
	// is EOPNOTSUPP.
	virtual int raw(cxprm_raw_cmd &r) = 0;
	virtual std::string raw_error(int err, uint16_t opcode, uint16_t op_mod) const = 0;
	// The fwctl scope for commands outside the read scope (raw, reg
	// --write); over cxprm.ko a UsageError (its policy is the driver's).
	virtual void set_write_scope(FwctlScope s) = 0;
	virtual void subscribe(const cxprm_subscribe &s) = 0;

	// Waits up to timeout_ms (< 0: forever) for event records and reads
	// what is queued.  Returns false on timeout or when interrupted by a
	// signal (check the caller's flag); records are appended to out.
	virtual bool read_events(std::vector<cxprm_event> &out, int timeout_ms) = 0;

protected:
	explicit DevFile(const DevPath &where) : where_(where) {}
	DevPath where_;
};

// Opens the device by its transport (read-write; a cxprm node read-only
// when write access is denied: INFO still works).  OsError when it cannot.
std::unique_ptr<DevFile> open_device(const DevPath &where);
std::unique_ptr<DevFile> open_ko(const DevPath &where);
std::unique_ptr<DevFile> open_fwctl(const DevPath &where);

// "<what> on <path>: not possible over fwctl ...: use `cxprm bind <bdf>`".
std::string not_over_fwctl(const DevPath &where, const std::string &what, const std::string &why);

// The message for an ioctl failure: "<what> on <path>: <ERRNO> (<strerror>)
// + advice".  'privilege' says what the ioctl needs, for EPERM/EACCES
// ("needs CAP_NET_ADMIN").
std::string ioctl_error(int err, const std::string &what, const std::string &path,
			const std::string &privilege);

// Throws OsError for the first op of a CXPRM_IOC_BATCH the driver refused
// ("CXPRM_IOC_BATCH op N (<ioctl>) on <path>: ..."); ioctl names the ops'.
void check_batch(const DevFile &f, const std::vector<cxprm_batch_op> &ops, const char *ioctl);

// "ENOENT (No such file or directory)".
std::string errno_text(int err);
// "Y"/"1" when cxprm's module parameter allow_raw_write is on, "N"/"0" off,
// "" when unreadable.
std::string allow_raw_write_param();

// Privileges (from the UAPI header).
inline constexpr const char *PRIV_NET_ADMIN = "needs CAP_NET_ADMIN";
// The message of a raw command's EPERM depends on the opcode (and op_mod for
// ACCESS_REG): the driver's policy (cxprm_core_raw_scope): query, write, or never.
std::string raw_privilege(uint16_t opcode, uint16_t op_mod);
// The ENOENT explanation of the DCT ioctls.
std::string dct_not_owned(uint32_t dctn);
// The ENOENT explanation of the object ioctls ("PD 0x3", "QP 0x200").
std::string obj_not_owned(const std::string &obj);

} // namespace cxprm::tool
