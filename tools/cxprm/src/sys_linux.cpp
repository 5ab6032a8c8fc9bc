// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
// The real system calls (sys.h).
#include "sys.h"

#include <fcntl.h>
#include <sys/ioctl.h>
#include <unistd.h>

namespace cxprm::tool::sys {

int open(const char *path, int flags) { return ::open(path, flags | O_CLOEXEC); }
int close(int fd) { return ::close(fd); }
int ioctl(int fd, unsigned long request, void *arg) { return ::ioctl(fd, request, arg); }
ssize_t read(int fd, void *buf, size_t n) { return ::read(fd, buf, n); }
int poll(struct pollfd *fds, nfds_t n, int timeout_ms) { return ::poll(fds, n, timeout_ms); }

} // namespace cxprm::tool::sys
