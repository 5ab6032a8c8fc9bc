// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include "ivshmem_server.h"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <poll.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include "ivshmem_msg.h"
#include "log.h"

namespace cxprm::emud {

namespace {

std::string errstr(const std::string &what) { return what + ": " + std::strerror(errno); }

bool make_addr(const std::string &path, struct sockaddr_un *sa, std::string *err)
{
	std::memset(sa, 0, sizeof(*sa));
	sa->sun_family = AF_UNIX;
	if (path.empty() || path.size() >= sizeof(sa->sun_path)) {
		*err = "ivshmem socket path '" + path + "' is empty or longer than " +
		       std::to_string(sizeof(sa->sun_path) - 1) + " bytes";
		return false;
	}
	std::memcpy(sa->sun_path, path.c_str(), path.size());
	return true;
}

} // namespace

IvshmemServer::~IvshmemServer()
{
	if (client_ >= 0)
		::close(client_);
	if (listen_ >= 0)
		::close(listen_);
	if (bound_)
		::unlink(path_.c_str());
	for (int fd : efds_)
		::close(fd);
}

bool IvshmemServer::start(const std::string &path, int shm_fd, uint32_t vectors, std::string *err)
{
	struct sockaddr_un sa;
	if (!make_addr(path, &sa, err))
		return false;
	if (vectors < 1 || vectors > MAX_VECTORS) {
		*err = "--vectors " + std::to_string(vectors) + ": need 1.." + std::to_string(MAX_VECTORS);
		return false;
	}
	path_ = path;
	shm_fd_ = shm_fd;
	for (uint32_t i = 0; i < vectors; i++) {
		int fd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
		if (fd < 0) {
			*err = errstr("eventfd");
			return false;
		}
		efds_.push_back(fd);
	}

	struct stat st;
	if (lstat(path.c_str(), &st) == 0) {
		if (!S_ISSOCK(st.st_mode)) {
			*err = "ivshmem socket " + path + " exists and is not a socket: not touching it";
			return false;
		}
		// Someone listening there is another server: never steal its path.
		int probe = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
		if (probe < 0) {
			*err = errstr("socket");
			return false;
		}
		int r = connect(probe, (struct sockaddr *)&sa, sizeof(sa));
		int e = errno;
		::close(probe);
		if (r == 0) {
			*err = "ivshmem socket " + path + " is in use: another server listens there";
			return false;
		}
		if (e != ECONNREFUSED) {
			errno = e;
			*err = errstr("ivshmem socket " + path);
			return false;
		}
		if (::unlink(path.c_str()) != 0) {
			*err = errstr("removing the stale ivshmem socket " + path);
			return false;
		}
	}
	listen_ = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
	if (listen_ < 0) {
		*err = errstr("socket");
		return false;
	}
	if (bind(listen_, (struct sockaddr *)&sa, sizeof(sa)) != 0) {
		*err = errstr("ivshmem socket " + path + ": bind");
		return false;
	}
	bound_ = true;
	if (listen(listen_, 2) != 0) {
		*err = errstr("ivshmem socket " + path + ": listen");
		return false;
	}
	log_.info("ivshmem server on %s: %u MSI-X vectors (ivshmem-doorbell,vectors=%u)", path.c_str(), vectors,
		  vectors);
	return true;
}

bool IvshmemServer::send_msg(int64_t v, int fd)
{
	IvshmemMsg m;
	for (int i = 0; i < 8; i++)
		m.bytes[i] = (uint8_t)((uint64_t)v >> (8 * i)); // little endian
	if (fd >= 0)
		m.with_fd(fd);
	// The socket buffer takes the whole setup (a few hundred bytes): a
	// short or failed send is a client that is gone.
	ssize_t n;
	do
		n = sendmsg(client_, m.hdr(), MSG_NOSIGNAL);
	while (n < 0 && errno == EINTR);
	return n == (ssize_t)sizeof(m.bytes);
}

void IvshmemServer::accept_client()
{
	int fd = accept4(listen_, nullptr, nullptr, SOCK_CLOEXEC);
	if (fd < 0)
		return;
	if (client_ >= 0) {
		log_.info("ivshmem: a second client connected to %s: refused (one QEMU per server)", path_.c_str());
		::close(fd);
		return;
	}
	client_ = fd;
	// Blocking for the setup: the messages are tiny.
	int fl = fcntl(fd, F_GETFL);
	if (fl >= 0)
		fcntl(fd, F_SETFL, fl & ~O_NONBLOCK);
	const int64_t id = 0;
	bool ok = send_msg(0, -1) && send_msg(id, -1) && send_msg(-1, shm_fd_);
	for (size_t v = 0; ok && v < efds_.size(); v++)
		ok = send_msg(id, efds_[v]);
	if (!ok) {
		drop_client("failed to send the setup");
		return;
	}
	had_client_ = true;
	log_.info("ivshmem: QEMU connected: protocol 0, peer id %lld, shared memory fd (BAR file)",
		  (long long)id);
	for (size_t v = 0; v < efds_.size(); v++)
		log_.info("ivshmem: vector %zu = eventfd %d", v, efds_[v]);
}

void IvshmemServer::drop_client(const char *why)
{
	log_.info("ivshmem: client on %s %s", path_.c_str(), why);
	::close(client_);
	client_ = -1;
}

bool IvshmemServer::poll()
{
	if (listen_ < 0)
		return true;
	struct pollfd p[2] = {{listen_, POLLIN, 0}, {client_, POLLIN, 0}};
	int n = ::poll(p, client_ >= 0 ? 2 : 1, 0);
	if (n <= 0)
		return true;
	if (p[0].revents & POLLIN)
		accept_client();
	if (client_ >= 0 && p[1].fd == client_ && p[1].revents) {
		// The protocol is one-way: QEMU never sends anything, so readable
		// means end of file (QEMU exited or closed the chardev).
		char c;
		ssize_t r = recv(client_, &c, 1, MSG_DONTWAIT);
		if (r > 0) {
			log_.info("ivshmem: client sent data (not part of the protocol): ignored");
			return true;
		}
		if (r < 0 && (errno == EAGAIN || errno == EINTR))
			return true;
		drop_client("disconnected (QEMU exited)");
		return false;
	}
	return true;
}

void IvshmemServer::raise(uint32_t vec)
{
	if (vec >= efds_.size()) {
		dropped_++;
		if (!warned_.exchange(true))
			log_.info("ivshmem: interrupt on vector %u, but the server has only %zu (--vectors): dropped; "
				  "counted in the exit line",
				  vec, efds_.size());
		return;
	}
	const uint64_t one = 1;
	ssize_t n;
	do
		n = write(efds_[vec], &one, sizeof(one));
	while (n < 0 && errno == EINTR);
	if (n == (ssize_t)sizeof(one))
		raised_++;
	else
		dropped_++;
}

} // namespace cxprm::emud
