// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// A fake device node (/dev/cxprm/<bdf>, or /dev/fwctl/fwctlN) for the host
// tests: the UAPI of include/uapi/linux/cxprm.h served in-process by the
// core over the firmware emulator.  Each ioctl is the one call the kernel
// driver makes too, cxprm_core_ioctl() (the gate, reserved fields, errno
// mapping, the file's DCT and object tables, the raw dump); the fake's own
// parts are the copies to and from "userspace" (memcpy), the privileges
// (below) and the event records with poll/read.  The real driver is
// tested in the QEMU guest.
//
// A device is a regular file in $CXPRM_DEV_DIR whose first line is
// "cxprm-fake", followed by optional key=value lines:
//   profile=connectx5|connectx7   (default connectx7)
//   net_admin=0                   every CAP_NET_ADMIN operation: EPERM
//   allow_raw_write=1             raw write opcodes allowed (else EPERM; the
//                                 driver's forbidden ones are EPERM always)
//   esw_events=N                  the eswitch changes N times (host VFs 1..N),
//                                 one ESW_FUNCTIONS_CHANGED every 20 ms of polling
//   nvmf_ns=NSID|none             attach namespace NSID (default 1) at bring-up,
//                                 with some I/O, on a PD, CQ, XRQ and backend
//                                 controller the fake creates and holds (the
//                                 XRQ: 0x80 on ConnectX-7/BlueField-3, 0x40 on
//                                 ConnectX-5); none: no namespace, and no
//                                 event queue until an object ioctl
//   transport=fwctl               the file is a fwctl device instead
//                                 (/dev/fwctl/fwctlN; FWCTL_INFO and
//                                 FWCTL_RPC as mlx5_fwctl serves them: a
//                                 CREATE_UCTX at open, the uid forced into
//                                 every command, queries only but ACCESS_REG
//                                 writes and SET_HCA_CAP; DEBUG_WRITE_FULL
//                                 needs allow_raw_write=1)
//   uctx_cap=N                    the uctx.cap it asks for (default 0x4)
//   fwctl_out_len=N               FWCTL_RPC reports out_len N whatever it
//                                 copied (a kernel that lies)
//   provision=1                   the emulator's --provision objects
// Any other file: every ioctl fails with ENOTTY (not a cxprm device).
#pragma once

#include <cstddef>
#include <poll.h>
#include <sys/types.h>
#include <vector>

#include <uapi/linux/cxprm.h>

namespace cxprm::tool::fake {

// Called by the fake sys layer for an fd whose file says "cxprm-fake".
void attach(int fd, const char *path);
void detach(int fd);
bool is_fake(int fd);
int ioctl(int fd, unsigned long req, void *arg);
ssize_t read(int fd, void *buf, size_t n);
// revents for a fake fd after waiting up to timeout_ms (< 0: forever).
int poll_one(int fd, int timeout_ms, short *revents);

// What the tool sent, for tests to hold it to its options: every ioctl
// request any fake got and each QP_MODIFY argument as the ioctl returned
// it, in order, since the test last cleared them.
struct Record {
	std::vector<unsigned long> requests;
	std::vector<cxprm_qp_modify> qp_modify;
};
Record &record();

} // namespace cxprm::tool::fake
