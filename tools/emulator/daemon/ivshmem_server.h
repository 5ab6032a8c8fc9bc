// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// cxprm-emud as the ivshmem server of QEMU's ivshmem-doorbell device, the
// one ivshmem flavour with MSI-X (QEMU's docs/specs/ivshmem-spec.txt, "The
// ivshmem Client-Server Protocol"; Debian ships no ivshmem-server).  On
// QEMU's connect it sends, as 8-byte little-endian numbers: the protocol
// version 0, the client's id 0, -1 with the BAR file's descriptor (QEMU maps
// it as BAR2), then the client's id N times, each with one eventfd: the
// client's interrupt vectors 0..N-1.  Raising vector v is writing 1 to
// eventfd v; QEMU turns it into msix_notify(v) (under TCG, with no irqfd,
// its own handler reads the eventfd).  One client at a time.
#pragma once

#include <atomic>
#include <cstdint>
#include <string>
#include <vector>

namespace cxprm::emud {

class Log;

class IvshmemServer {
public:
	// The most vectors a server offers (ivshmem-doorbell allows up to 1024;
	// a ConnectX function has far more, but the guest needs only a few).
	static constexpr uint32_t MAX_VECTORS = 64;

	IvshmemServer(Log &log) : log_(log) {}
	~IvshmemServer();
	IvshmemServer(const IvshmemServer &) = delete;
	IvshmemServer &operator=(const IvshmemServer &) = delete;

	// Creates the eventfds and listens on 'path' (a stale socket nobody
	// listens on is replaced; a live one or any other file is an error).
	// shm_fd stays owned by the caller and must stay open.  False with a
	// message in *err.
	bool start(const std::string &path, int shm_fd, uint32_t vectors, std::string *err);

	// Non-blocking: accepts QEMU, sends it the setup, notices it going.
	// Returns false once the connected client has gone (the guest is over).
	bool poll();

	// Thread-safe (the emulator thread): write eventfd 'vec'.
	void raise(uint32_t vec);

	bool connected() const { return client_ >= 0; }
	bool had_client() const { return had_client_; }
	uint32_t vectors() const { return (uint32_t)efds_.size(); }
	uint64_t raised() const { return raised_.load(); }
	// Raises for a vector the server does not have, or whose write failed.
	uint64_t dropped() const { return dropped_.load(); }
	const std::string &path() const { return path_; }

private:
	bool send_msg(int64_t v, int fd);
	void accept_client();
	void drop_client(const char *why);

	Log &log_;
	std::string path_;
	int listen_ = -1, client_ = -1, shm_fd_ = -1;
	bool had_client_ = false, bound_ = false;
	std::vector<int> efds_;
	std::atomic<uint64_t> raised_{0}, dropped_{0};
	std::atomic<bool> warned_{false};
};

} // namespace cxprm::emud
