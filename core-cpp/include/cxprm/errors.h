/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Error codes returned by the core: negative Linux errno values, so the
 * kernel shim passes them through unchanged and userspace prints them with
 * strerror().  Every failure path of the core returns one of these.
 */
#pragma once

namespace cxprm {

enum Err : int {
	OK = 0,
	E_PERM = -1,      /* EPERM */
	E_NOENT = -2,     /* ENOENT: no such object (e.g. unknown DCT) */
	E_IO = -5,        /* EIO: delivery failure reported by firmware */
	E_AGAIN = -11,    /* EAGAIN: no free slot now (Cmdq::submit, EXEC_NO_WAIT) */
	E_NOMEM = -12,    /* ENOMEM: host allocation failed */
	E_FAULT = -14,    /* EFAULT: the caller's copy from or to user memory failed */
	E_BUSY = -16,     /* EBUSY: no free slot in time, or device busy */
	E_NOTTY = -25,    /* ENOTTY: not an ioctl of this device */
	E_NOSPC = -28,    /* ENOSPC: a file's DCT table is full */
	E_NODEV = -19,    /* ENODEV: device gone (reads 0xffffffff) */
	E_INVAL = -22,    /* EINVAL: bad argument from the caller */
	E_RANGE = -34,    /* ERANGE: value does not fit a PRM field */
	E_NOTSUP = -95,   /* EOPNOTSUPP: capability missing */
	E_PROTO = -71,    /* EPROTO: firmware output violates the protocol */
	E_BADMSG = -74,   /* EBADMSG: bad signature on firmware output */
	E_OVERFLOW = -75, /* EOVERFLOW: firmware claims more output than asked */
	E_TIMEDOUT = -110,/* ETIMEDOUT: owner bit never returned */
	E_REMOTEIO = -121,/* EREMOTEIO: command executed, status != OK */
	E_SHUTDOWN = -108,/* ESHUTDOWN: queue is being torn down */
	E_HOSTDOWN = -112,  /* EHOSTDOWN: firmware declared itself dead (health syndrome) */
	E_STALE = -116,   /* ESTALE: the object was lost with the firmware state (recovery) */
};

/* "EPROTO" style name of an Err, for logs. */
const char *err_name(int err);

} // namespace cxprm
