// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* Names and sentences for firmware codes (status.h) and for Err (errors.h). */
#include "cxprm/errors.h"
#include "cxprm/status.h"

namespace cxprm {

namespace {
struct Code {
	u8 value;
	const char *name;
	const char *text;
};

constexpr Code cmd_statuses[] = {
#define CXPRM_CMD_STATUS_ROW(n, v, s) {v, #n, s},
#include "cxprm/status_codes.def"
};
constexpr Code delivery_statuses[] = {
#define CXPRM_DELIVERY_STATUS_ROW(n, v, s) {v, #n, s},
#include "cxprm/status_codes.def"
};
constexpr Code health_syndromes[] = {
#define CXPRM_HEALTH_SYND_ROW(n, v, s) {v, #n, s},
#include "cxprm/status_codes.def"
};

template <usize N> const Code *find(const Code (&t)[N], u8 v)
{
	return find_row<&Code::value>(t, v);
}

template <usize N> const char *name_in(const Code (&t)[N], u8 v)
{
	const Code *c = find(t, v);
	return c ? c->name : "UNKNOWN";
}

template <usize N> const char *text_in(const Code (&t)[N], u8 v, const char *unknown)
{
	const Code *c = find(t, v);
	return c ? c->text : unknown;
}
} // namespace

const char *cmd_status_name(u8 s) { return name_in(cmd_statuses, s); }
const char *delivery_status_name(u8 s) { return name_in(delivery_statuses, s); }
const char *health_syndrome_name(u8 s) { return name_in(health_syndromes, s); }

const char *cmd_status_text(u8 s)
{
	return text_in(cmd_statuses, s, "unknown command status (not a PRM status code)");
}

const char *delivery_status_text(u8 s)
{
	return text_in(delivery_statuses, s, "unknown delivery status (not a PRM delivery code)");
}

const char *health_syndrome_text(u8 s)
{
	if (s == 0)
		return "no health syndrome";
	return text_in(health_syndromes, s, "unknown health syndrome (not a PRM syndrome code)");
}

const char *err_name(int err)
{
	switch (err) {
	case OK: return "OK";
	case E_PERM: return "EPERM";
	case E_NOENT: return "ENOENT";
	case E_IO: return "EIO";
	case E_NOMEM: return "ENOMEM";
	case E_BUSY: return "EBUSY";
	case E_NOTTY: return "ENOTTY";
	case E_NOSPC: return "ENOSPC";
	case E_NODEV: return "ENODEV";
	case E_INVAL: return "EINVAL";
	case E_RANGE: return "ERANGE";
	case E_NOTSUP: return "EOPNOTSUPP";
	case E_PROTO: return "EPROTO";
	case E_BADMSG: return "EBADMSG";
	case E_OVERFLOW: return "EOVERFLOW";
	case E_TIMEDOUT: return "ETIMEDOUT";
	case E_REMOTEIO: return "EREMOTEIO";
	case E_SHUTDOWN: return "ESHUTDOWN";
	case E_HOSTDOWN: return "EHOSTDOWN";
	case E_STALE: return "ESTALE";
	}
	return "UNKNOWN";
}

} // namespace cxprm
