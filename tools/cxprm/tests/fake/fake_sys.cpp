// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
// The system-call seam (src/sys.h) for the host tests: real calls, except
// on fake device files (fake_dev_node.h).
#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <fstream>
#include <string>
#include <sys/ioctl.h>
#include <unistd.h>

#include "fake_dev_node.h"
#include "sys.h"

namespace cxprm::tool::sys {

int open(const char *path, int flags)
{
	int fd = ::open(path, flags | O_CLOEXEC);
	if (fd < 0)
		return fd;
	std::ifstream f(path);
	std::string first;
	if (f && std::getline(f, first) && first == "cxprm-fake")
		fake::attach(fd, path);
	return fd;
}

int close(int fd)
{
	fake::detach(fd);
	return ::close(fd);
}

int ioctl(int fd, unsigned long request, void *arg)
{
	if (fake::is_fake(fd))
		return fake::ioctl(fd, request, arg);
	return ::ioctl(fd, request, arg);
}

ssize_t read(int fd, void *buf, size_t n)
{
	if (fake::is_fake(fd))
		return fake::read(fd, buf, n);
	return ::read(fd, buf, n);
}

int poll(struct pollfd *fds, nfds_t n, int timeout_ms)
{
	if (n == 1 && fake::is_fake(fds[0].fd))
		return fake::poll_one(fds[0].fd, timeout_ms, &fds[0].revents);
	return ::poll(fds, n, timeout_ms);
}

} // namespace cxprm::tool::sys
