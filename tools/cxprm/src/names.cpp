// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
// Names and name parsing (names.h).
#include "names.h"

#include <cerrno>
#include <cstring>

#include "cli.h"
#include "errors.h"
#include "hex.h"

#include "cxprm/prm/opcodes.h"

#include <uapi/linux/cxprm.h>

namespace cxprm::tool {

namespace {

std::string upper(std::string s)
{
	for (char &c : s)
		if (c >= 'a' && c <= 'z')
			c = (char)(c - 'a' + 'A');
	return s;
}

struct NamedValue {
	const char *name;
	uint16_t value;
};

// s as a number up to max, else as a name in any case, prefix optional,
// that known(NAME, &value) finds; else a UsageError naming kind, with hint.
template <class Known>
uint64_t parse_named(const std::string &s, const std::string &what, uint64_t max, const std::string &prefix,
		     Known known, const std::string &kind, const std::string &hint)
{
	if (looks_numeric(s))
		return parse_num(s, what, max);
	std::string u = upper(s);
	if (!prefix.empty() && u.rfind(prefix, 0) == 0)
		u.erase(0, prefix.size());
	uint16_t v = 0;
	if (known(u, &v))
		return v;
	throw UsageError(what + ": unknown " + kind + " '" + s + "' (" + hint + ", or a number)");
}

#define CXPRM_TOOL_EV_(n, v) {#n, v},
const NamedValue kEvents[] = {CXPRM_EVENTS(CXPRM_TOOL_EV_)};
#undef CXPRM_TOOL_EV_

#define E_(n) {#n, n},
struct ErrnoName {
	const char *name;
	int value;
};
const ErrnoName kErrnos[] = {
	E_(EPERM) E_(ENOENT) E_(ESRCH) E_(EINTR) E_(EIO) E_(ENXIO) E_(E2BIG) E_(ENOEXEC)
	E_(EBADF) E_(ECHILD) E_(EAGAIN) E_(ENOMEM) E_(EACCES) E_(EFAULT) E_(EBUSY)
	E_(EEXIST) E_(EXDEV) E_(ENODEV) E_(ENOTDIR) E_(EISDIR) E_(EINVAL) E_(ENFILE)
	E_(EMFILE) E_(ENOTTY) E_(EFBIG) E_(ENOSPC) E_(ESPIPE) E_(EROFS) E_(EPIPE)
	E_(EDOM) E_(ERANGE) E_(EDEADLK) E_(ENAMETOOLONG) E_(ENOSYS) E_(ENOTEMPTY)
	E_(ELOOP) E_(ENOMSG) E_(ENODATA) E_(ETIME) E_(ENOLINK) E_(EPROTO) E_(EBADMSG)
	E_(EOVERFLOW) E_(EILSEQ) E_(EOPNOTSUPP) E_(ESHUTDOWN) E_(ETIMEDOUT)
	E_(ECONNREFUSED) E_(EHOSTDOWN) E_(EALREADY) E_(EINPROGRESS) E_(EREMOTEIO)
	E_(ECANCELED) E_(ENOTRECOVERABLE) E_(EMSGSIZE) E_(ENOBUFS)
};
#undef E_

} // namespace

std::string opcode_label(uint16_t opcode)
{
	const char *n = prm::opcode_name(opcode);
	return n ? n : hex_num(opcode);
}

uint16_t parse_opcode(const std::string &s, const std::string &what)
{
	auto known = [](const std::string &u, uint16_t *v) {
		uint32_t n = 0;
		const prm::OpcodeInfo *t = prm::opcode_table(&n);
		for (uint32_t i = 0; i < n; i++)
			if (u == t[i].name) {
				*v = t[i].value;
				return true;
			}
		return false;
	};
	return (uint16_t)parse_named(s, what, 0xffff, "MLX5_CMD_OP_", known, "opcode",
				     "a PRM name like QUERY_HCA_CAP");
}

std::vector<std::string> opcode_names()
{
	std::vector<std::string> v;
	uint32_t n = 0;
	const prm::OpcodeInfo *t = prm::opcode_table(&n);
	for (uint32_t i = 0; i < n; i++)
		v.push_back(t[i].name);
	return v;
}

std::vector<std::string> event_names()
{
	std::vector<std::string> v;
	for (const NamedValue &e : kEvents)
		v.push_back(e.name);
	return v;
}

uint16_t parse_cap_type(const std::string &s, const std::string &what)
{
	auto known = [](const std::string &u, uint16_t *v) {
		uint32_t n = 0;
		const prm::CapTypeInfo *t = prm::cap_type_table(&n);
		for (uint32_t i = 0; i < n; i++)
			if (u == upper(t[i].alias) || u == t[i].name) {
				*v = t[i].value;
				return true;
			}
		return false;
	};
	return (uint16_t)parse_named(s, what, 0x7fff, "", known, "capability type",
				     "one of " + cap_type_aliases());
}

std::string cap_type_label(uint16_t type)
{
	const char *n = prm::cap_type_name(type);
	return n ? n : hex_num(type);
}

std::string cap_type_aliases()
{
	std::string out;
	uint32_t n = 0;
	const prm::CapTypeInfo *t = prm::cap_type_table(&n);
	for (uint32_t i = 0; i < n; i++) {
		if (!out.empty())
			out += ", ";
		out += t[i].alias;
	}
	return out;
}

uint8_t parse_event(const std::string &s, const std::string &what)
{
	auto known = [](const std::string &u, uint16_t *v) {
		for (const NamedValue &e : kEvents)
			if (u == e.name) {
				*v = e.value;
				return true;
			}
		return false;
	};
	return (uint8_t)parse_named(s, what, 0xff, "MLX5_EVENT_TYPE_", known, "event type",
				    "a name like ESW_FUNCTIONS_CHANGED");
}

std::string event_label(uint8_t type)
{
	const char *n = prm::event_name(type);
	return n ? n : hex_num(type);
}

std::string errno_name(int err)
{
	for (const ErrnoName &e : kErrnos)
		if (e.value == err)
			return e.name;
	std::string s = "E"; // (not "E" + to_string(): a GCC 12 -Wrestrict false positive)
	s += std::to_string(err);
	return s;
}

std::string recovery_name(uint32_t r)
{
	static const char *const names[] = {"NONE",  "RUNNING",   "DONE",    "OFF",  "GRACE",
					    "GONE",  "NOT_READY", "BRINGUP", "AGAIN", "CANCELED"};
	return r < sizeof(names) / sizeof(names[0]) ? names[r] : std::to_string(r);
}

std::string state_name(uint32_t state)
{
	static const char *const names[] = {"DOWN", "UP", "ERROR", "GONE"};
	if (state < 4)
		return names[state];
	std::string s = "STATE_";
	s += std::to_string(state);
	return s;
}

std::string dct_state_name(uint32_t state)
{
	static const char *const names[] = {"ACTIVE", "DRAINING", "DRAINED"};
	return state < 3 ? names[state] : std::to_string(state);
}

uint32_t mtu_bytes(uint32_t code) { return code >= 1 && code <= 5 ? 128u << code : 0; }

uint8_t mtu_code(uint32_t bytes)
{
	for (uint8_t c = 1; c <= 5; c++)
		if (mtu_bytes(c) == bytes)
			return c;
	return 0;
}

std::string obj_type_name(uint32_t type)
{
	static const char *const names[] = {nullptr, "PD", "CQ", "SRQ", "QP", "XRQ", "NVMF backend", "NVMF namespace"};
	if (type < sizeof(names) / sizeof(names[0]) && names[type])
		return names[type];
	return "object type " + std::to_string(type);
}

std::string obj_label(uint32_t type, uint32_t id)
{
	return obj_type_name(type) + " " + (type == CXPRM_OBJ_NVMF_NS ? std::to_string(id) : hex_num(id));
}

namespace {

// names[v], or v in decimal where the table has no name.
template <size_t N> std::string name_or_number(const char *const (&names)[N], uint32_t v)
{
	return v < N && names[v] ? names[v] : std::to_string(v);
}

} // namespace

std::string qp_state_name(uint32_t state)
{
	// mlx5_ifc.h: MLX5_QPC_STATE_RST .. MLX5_QPC_STATE_SUSPENDED
	static const char *const names[] = {"RST", "INIT", "RTR", "RTS", "SQER", nullptr, "ERR", "SQD", nullptr, "SUSPENDED"};
	return name_or_number(names, state);
}

std::string qp_transition_name(uint32_t transition)
{
	static const char *const names[] = {nullptr, "RST2INIT", "INIT2RTR", "RTR2RTS", "2RST"};
	static_assert(CXPRM_QP_RST2INIT == 1 && CXPRM_QP_INIT2RTR == 2 && CXPRM_QP_RTR2RTS == 3 && CXPRM_QP_2RST == 4);
	return name_or_number(names, transition);
}

} // namespace cxprm::tool
