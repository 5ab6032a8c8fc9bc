// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// A cxprm device file: naming (PCI address or path), open, the ioctls of
// include/uapi/linux/cxprm.h, event records, and errno turned into a
// message that says what to do (which capability is missing, whether the
// device is bound...).  Failures throw OsError (exit 2).  Firmware statuses
// are not failures here: the callers look at the cxprm_cmd_status.
//
// The device directory is /dev/cxprm, or $CXPRM_DEV_DIR when set (tests).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <uapi/linux/cxprm.h>

namespace cxprm::tool {

std::string dev_dir();
// The node names in dev_dir(), sorted; false when it cannot be read.
bool device_names(std::vector<std::string> *out);

struct DevPath {
	std::string bdf;  // "0000:00:03.0" (or the file name of a path argument)
	std::string path; // "/dev/cxprm/0000:00:03.0"
};

// "0000:00:03.0", "00:03.0" (domain 0000), upper or lower case, or a path
// (anything with a '/').  UsageError for anything else.
DevPath resolve_device(const std::string &arg);
// Whether s is a PCI address in one of the accepted forms (normalised to *out).
bool parse_bdf(const std::string &s, std::string *out);

class DevFile {
public:
	// Opens read-write (read-only when write access is denied: INFO still works).
	explicit DevFile(const DevPath &where);
	~DevFile();
	DevFile(const DevFile &) = delete;
	DevFile &operator=(const DevFile &) = delete;

	const DevPath &where() const { return where_; }
	int fd() const { return fd_; }

	cxprm_info info();
	void query_caps(cxprm_caps &c);
	void nvmf_ns(cxprm_nvmf_ns &n);
	// QUERY_NVMF_NAMESPACE_CONTEXT of one namespace: the struct filled in.
	cxprm_nvmf_ns nvmf_ns(uint32_t xrqn, uint32_t nsid);
	void esw_functions(cxprm_esw_functions &f);
	void dct_create(cxprm_dct &d);
	void dct_query(cxprm_dct &d);
	void dct_drain(cxprm_dct &d);
	void dct_destroy(cxprm_dct &d);
	// The object ioctls (PD, CQ, SRQ, QP, XRQ, NVMF backend and namespace).
	void obj_create(cxprm_obj &o);
	void obj_query(cxprm_obj &o);
	void obj_destroy(cxprm_obj &o);
	void qp_modify(cxprm_qp_modify &m);
	void stats(cxprm_stats &s);
	// The driver copies status and wire dump back on transport errors too:
	// returns 0 or the errno (r filled either way); raw_error() words it.
	int raw(cxprm_raw_cmd &r);
	std::string raw_error(int err, uint16_t opcode, uint16_t op_mod) const;
	void subscribe(const cxprm_subscribe &s);

	// Waits up to timeout_ms (< 0: forever) for event records and reads
	// what is queued.  Returns false on timeout or when interrupted by a
	// signal (check the caller's flag); records are appended to out.
	bool read_events(std::vector<cxprm_event> &out, int timeout_ms);

private:
	void call(unsigned long req, void *arg, const char *what, const char *privilege,
		  const std::string &enoent = {});

	DevPath where_;
	int fd_ = -1;
};

// The message for an ioctl failure: "<what> on <path>: <ERRNO> (<strerror>)
// + advice".  'privilege' says what the ioctl needs, for EPERM/EACCES
// ("needs CAP_NET_ADMIN").
std::string ioctl_error(int err, const std::string &what, const std::string &path,
			const std::string &privilege);

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
