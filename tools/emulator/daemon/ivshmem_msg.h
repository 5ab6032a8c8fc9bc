// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// The buffers of one message of QEMU's ivshmem protocol (ivshmem_server.h):
// an 8-byte number and at most one descriptor (SCM_RIGHTS), for sendmsg()
// and recvmsg().  The number's byte order is the caller's business (the
// server encodes it, the tests decode it on their own).
#pragma once

#include <cstdint>
#include <cstring>
#include <sys/socket.h>
#include <sys/uio.h>

namespace cxprm::emud {

class IvshmemMsg {
public:
	uint8_t bytes[8] = {};

	IvshmemMsg()
	{
		msg_.msg_iov = &iov_;
		msg_.msg_iovlen = 1;
	}
	IvshmemMsg(const IvshmemMsg &) = delete;
	IvshmemMsg &operator=(const IvshmemMsg &) = delete;

	// Room for a descriptor: to receive one, or (fd >= 0) to send fd.
	void with_fd(int fd = -1)
	{
		std::memset(ctl_, 0, sizeof(ctl_));
		msg_.msg_control = ctl_;
		msg_.msg_controllen = sizeof(ctl_);
		if (fd < 0)
			return;
		struct cmsghdr *c = CMSG_FIRSTHDR(&msg_);
		c->cmsg_level = SOL_SOCKET;
		c->cmsg_type = SCM_RIGHTS;
		c->cmsg_len = CMSG_LEN(sizeof(int));
		std::memcpy(CMSG_DATA(c), &fd, sizeof(int));
	}

	// The descriptor a received message carried, else -1.
	int received_fd() const
	{
		int fd = -1;
		struct cmsghdr *c = msg_.msg_control ? CMSG_FIRSTHDR(&msg_) : nullptr;
		if (c && c->cmsg_level == SOL_SOCKET && c->cmsg_type == SCM_RIGHTS)
			std::memcpy(&fd, CMSG_DATA(c), sizeof(int));
		return fd;
	}

	struct msghdr *hdr() { return &msg_; }

private:
	struct iovec iov_ = {bytes, sizeof(bytes)};
	struct msghdr msg_ = {};
	alignas(struct cmsghdr) char ctl_[CMSG_SPACE(sizeof(int))];
};

} // namespace cxprm::emud
