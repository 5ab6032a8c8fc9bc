// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// The system calls the tool makes on a cxprm device file, behind one seam:
// the cxprm binary links sys_linux.cpp (the real calls); the host tests
// link a fake device instead (tests/fake/fake_sys.cpp).  Same contract as
// the libc calls: -1 and errno on failure.
#pragma once

#include <poll.h>
#include <sys/types.h>

namespace cxprm::tool::sys {

int open(const char *path, int flags);
int close(int fd);
int ioctl(int fd, unsigned long request, void *arg);
ssize_t read(int fd, void *buf, size_t n);
int poll(struct pollfd *fds, nfds_t n, int timeout_ms);

} // namespace cxprm::tool::sys
