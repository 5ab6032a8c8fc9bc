// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// cxprm-emud as QEMU's ivshmem server (ivshmem_server.h): the test plays
// QEMU's ivshmem-doorbell, connects to the socket and checks the setup
// messages of QEMU's ivshmem-spec.txt (version 0, peer id, -1 with the
// shared memory, the peer id N times with one eventfd each), that raising
// vector v makes eventfd v readable, and the errors: a path in use, a
// second client, QEMU going away; then the daemon itself.
#include <gtest/gtest.h>

#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <fstream>
#include <poll.h>
#include <spawn.h>
#include <sstream>
#include <string>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>
#include <vector>

#include "ivshmem_msg.h"
#include "ivshmem_server.h"
#include "log.h"

extern char **environ;

using cxprm::emud::IvshmemServer;
using cxprm::emud::Log;
using namespace std::chrono_literals;

namespace {

std::string temp_dir()
{
	const char *t = std::getenv("TMPDIR");
	std::string s = std::string(t ? t : "/tmp") + "/cxprm-ivsh-test.XXXXXX";
	std::vector<char> buf(s.begin(), s.end());
	buf.push_back(0);
	return mkdtemp(buf.data()) ? buf.data() : "";
}

int connect_to(const std::string &path)
{
	int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	struct sockaddr_un sa = {};
	sa.sun_family = AF_UNIX;
	std::strncpy(sa.sun_path, path.c_str(), sizeof(sa.sun_path) - 1);
	if (connect(fd, (struct sockaddr *)&sa, sizeof(sa)) != 0) {
		close(fd);
		return -1;
	}
	return fd;
}

// One message: 8 bytes little endian and maybe a descriptor (else -1).
// False on end of file or timeout.
bool recv_msg(int sock, int64_t *v, int *fd, int timeout_ms = 20000)
{
	struct pollfd p = {sock, POLLIN, 0};
	if (::poll(&p, 1, timeout_ms) != 1)
		return false;
	cxprm::emud::IvshmemMsg m;
	m.with_fd();
	ssize_t n = recvmsg(sock, m.hdr(), MSG_CMSG_CLOEXEC);
	if (n != 8)
		return false;
	uint64_t u = 0;
	for (int i = 7; i >= 0; i--)
		u = u << 8 | m.bytes[i];
	*v = (int64_t)u;
	*fd = m.received_fd();
	return true;
}

// What QEMU receives on connect.
struct QemuSetup {
	int64_t version = -2, id = -2;
	int shm = -1;
	std::vector<int> vectors;
	~QemuSetup()
	{
		if (shm >= 0)
			close(shm);
		for (int fd : vectors)
			close(fd);
	}
};

::testing::AssertionResult read_setup(int sock, uint32_t n, QemuSetup *s)
{
	int fd;
	if (!recv_msg(sock, &s->version, &fd) || fd >= 0)
		return ::testing::AssertionFailure() << "no version message (without a descriptor)";
	if (!recv_msg(sock, &s->id, &fd) || fd >= 0)
		return ::testing::AssertionFailure() << "no peer id message (without a descriptor)";
	int64_t v;
	if (!recv_msg(sock, &v, &s->shm) || v != -1 || s->shm < 0)
		return ::testing::AssertionFailure() << "no -1 message with the shared memory";
	for (uint32_t i = 0; i < n; i++) {
		if (!recv_msg(sock, &v, &fd) || fd < 0 || v != s->id)
			return ::testing::AssertionFailure() << "vector " << i << ": no own-id message with an eventfd";
		s->vectors.push_back(fd);
	}
	if (recv_msg(sock, &v, &fd, 100))
		return ::testing::AssertionFailure() << "a message after the setup: " << v;
	return ::testing::AssertionSuccess();
}

uint64_t eventfd_count(int fd)
{
	uint64_t v = 0;
	if (read(fd, &v, sizeof(v)) != (ssize_t)sizeof(v))
		return 0;
	return v;
}

class IvshmemServerTest : public ::testing::Test {
protected:
	void SetUp() override
	{
		dir_ = temp_dir();
		ASSERT_FALSE(dir_.empty());
		sock_ = dir_ + "/ivshmem.sock";
		shm_path_ = dir_ + "/bar";
		shm_ = open(shm_path_.c_str(), O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
		ASSERT_GE(shm_, 0);
		ASSERT_EQ(0, ftruncate(shm_, 1 << 20));
		logf_ = std::tmpfile();
		log_.set_file(logf_);
	}
	void TearDown() override
	{
		if (shm_ >= 0)
			close(shm_);
		unlink(shm_path_.c_str());
		unlink(sock_.c_str());
		rmdir(dir_.c_str());
		if (logf_)
			std::fclose(logf_);
	}
	std::string log_text()
	{
		std::fflush(logf_);
		std::rewind(logf_);
		std::string s;
		char buf[512];
		while (std::fgets(buf, sizeof(buf), logf_))
			s += buf;
		return s;
	}
	// Polls the server until 'done' or 20 s (a loaded host).
	template <class F> bool pump(IvshmemServer &s, F done)
	{
		auto end = std::chrono::steady_clock::now() + 20s;
		while (std::chrono::steady_clock::now() < end) {
			s.poll();
			if (done())
				return true;
			std::this_thread::sleep_for(1ms);
		}
		return false;
	}

	// Starts s with that many vectors and connects a client the server has
	// taken: the client's socket, or -1 (a failure added).
	int start_connected(IvshmemServer &s, uint32_t vectors)
	{
		std::string err;
		if (!s.start(sock_, shm_, vectors, &err)) {
			ADD_FAILURE() << err;
			return -1;
		}
		int c = connect_to(sock_);
		if (c < 0 || !pump(s, [&] { return s.connected(); })) {
			ADD_FAILURE() << "the server did not take the client";
			return -1;
		}
		return c;
	}

	std::string dir_, sock_, shm_path_;
	int shm_ = -1;
	FILE *logf_ = nullptr;
	Log log_;
};

TEST_F(IvshmemServerTest, SendsTheSetupOfTheSpecAndRaisesVectors)
{
	IvshmemServer s(log_);
	int c = start_connected(s, 4);
	ASSERT_GE(c, 0);
	QemuSetup st;
	ASSERT_TRUE(read_setup(c, 4, &st));
	EXPECT_EQ(0, st.version);
	EXPECT_EQ(0, st.id);
	// The descriptor is the BAR file: same size, same bytes.
	struct stat a, b;
	ASSERT_EQ(0, fstat(st.shm, &a));
	ASSERT_EQ(0, fstat(shm_, &b));
	EXPECT_EQ(a.st_ino, b.st_ino);
	EXPECT_EQ(1 << 20, a.st_size);

	for (int fd : st.vectors)
		fcntl(fd, F_SETFL, O_NONBLOCK);
	s.raise(2);
	s.raise(2);
	s.raise(0);
	EXPECT_EQ(1u, eventfd_count(st.vectors[0]));
	EXPECT_EQ(0u, eventfd_count(st.vectors[1]));
	EXPECT_EQ(2u, eventfd_count(st.vectors[2]));
	EXPECT_EQ(0u, eventfd_count(st.vectors[3]));
	// A vector the server does not have: dropped and counted, once logged.
	s.raise(4);
	s.raise(9);
	EXPECT_EQ(3u, s.raised());
	EXPECT_EQ(2u, s.dropped());
	std::string log = log_text();
	EXPECT_NE(std::string::npos, log.find("vector 3 = eventfd")) << log;
	EXPECT_NE(std::string::npos, log.find("interrupt on vector 4, but the server has only 4")) << log;

	// QEMU goes: poll() says so once, with a log line.
	close(c);
	bool gone = false;
	auto end = std::chrono::steady_clock::now() + 20s;
	while (!gone && std::chrono::steady_clock::now() < end) {
		gone = !s.poll();
		std::this_thread::sleep_for(1ms);
	}
	EXPECT_TRUE(gone);
	EXPECT_FALSE(s.connected());
	EXPECT_TRUE(s.had_client());
	EXPECT_NE(std::string::npos, log_text().find("disconnected (QEMU exited)"));
}

TEST_F(IvshmemServerTest, SecondClientIsRefused)
{
	IvshmemServer s(log_);
	int c1 = start_connected(s, 1);
	ASSERT_GE(c1, 0);
	int c2 = connect_to(sock_);
	ASSERT_GE(c2, 0);
	ASSERT_TRUE(pump(s, [&] { return log_text().find("second client") != std::string::npos; }));
	int64_t v;
	int fd;
	EXPECT_FALSE(recv_msg(c2, &v, &fd, 500)); // closed at once, nothing sent
	QemuSetup st;
	EXPECT_TRUE(read_setup(c1, 1, &st));
	EXPECT_TRUE(s.connected());
	close(c1);
	close(c2);
}

TEST_F(IvshmemServerTest, PathInUseOrNotASocketIsAnError)
{
	IvshmemServer a(log_);
	std::string err;
	ASSERT_TRUE(a.start(sock_, shm_, 1, &err)) << err;
	IvshmemServer b(log_);
	EXPECT_FALSE(b.start(sock_, shm_, 1, &err));
	EXPECT_NE(std::string::npos, err.find("in use")) << err;
	// A regular file there is never removed.
	EXPECT_FALSE(b.start(shm_path_, shm_, 1, &err));
	EXPECT_NE(std::string::npos, err.find("not a socket")) << err;
	struct stat st;
	EXPECT_EQ(0, stat(shm_path_.c_str(), &st));
	// Bad vector counts.
	IvshmemServer c(log_);
	EXPECT_FALSE(c.start(dir_ + "/other.sock", shm_, 0, &err));
	EXPECT_FALSE(c.start(dir_ + "/other.sock", shm_, IvshmemServer::MAX_VECTORS + 1, &err));
}

TEST_F(IvshmemServerTest, StaleSocketIsReplaced)
{
	// A socket file nobody listens on (a killed server's).
	int fd = socket(AF_UNIX, SOCK_STREAM, 0);
	struct sockaddr_un sa = {};
	sa.sun_family = AF_UNIX;
	std::strncpy(sa.sun_path, sock_.c_str(), sizeof(sa.sun_path) - 1);
	ASSERT_EQ(0, bind(fd, (struct sockaddr *)&sa, sizeof(sa)));
	close(fd);
	IvshmemServer s(log_);
	int c = start_connected(s, 2);
	ASSERT_GE(c, 0);
	close(c);
}

// The daemon: it exits with status 0 and its exit line when QEMU goes, and
// with 1 and a clear message when the socket is in use.
pid_t spawn_emud(const std::vector<std::string> &args)
{
	std::vector<char *> argv;
	for (auto &a : args)
		argv.push_back(const_cast<char *>(a.c_str()));
	argv.push_back(nullptr);
	pid_t pid;
	if (posix_spawn(&pid, argv[0], nullptr, nullptr, argv.data(), environ) != 0)
		return -1;
	return pid;
}

int wait_exit(pid_t pid, int timeout_ms)
{
	for (int i = 0; i < timeout_ms; i++) {
		int st;
		if (waitpid(pid, &st, WNOHANG) == pid)
			return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
		std::this_thread::sleep_for(1ms);
	}
	kill(pid, SIGKILL);
	waitpid(pid, nullptr, 0);
	return -1;
}

std::string slurp(const std::string &path)
{
	std::ifstream f(path);
	std::stringstream ss;
	ss << f.rdbuf();
	return ss.str();
}

TEST_F(IvshmemServerTest, DaemonServesQemuAndExitsWhenItGoes)
{
	std::string ram = dir_ + "/ram", ready = dir_ + "/ready", log = dir_ + "/log";
	int fd = open(ram.c_str(), O_RDWR | O_CREAT | O_TRUNC, 0600);
	ASSERT_GE(fd, 0);
	ASSERT_EQ(0, ftruncate(fd, 64 << 20));
	close(fd);
	pid_t pid = spawn_emud({CXPRM_EMUD_BIN, "--ram", ram, "--bar", shm_path_, "--ivshmem-server", sock_,
				"--vectors", "3", "--ready-file", ready, "--log", log});
	ASSERT_GT(pid, 0);
	auto end = std::chrono::steady_clock::now() + 20s;
	while (access(ready.c_str(), F_OK) != 0 && std::chrono::steady_clock::now() < end)
		std::this_thread::sleep_for(1ms);
	ASSERT_EQ(0, access(ready.c_str(), F_OK)) << slurp(log);

	// A second daemon on the same socket: refused at once.
	pid_t pid2 = spawn_emud({CXPRM_EMUD_BIN, "--ram", ram, "--bar", shm_path_, "--ivshmem-server", sock_,
				 "--log", log + "2"});
	ASSERT_GT(pid2, 0);
	EXPECT_EQ(1, wait_exit(pid2, 5000));
	EXPECT_NE(std::string::npos, slurp(log + "2").find("is in use")) << slurp(log + "2");

	int c = connect_to(sock_);
	ASSERT_GE(c, 0);
	QemuSetup st;
	EXPECT_TRUE(read_setup(c, 3, &st));
	close(c);
	EXPECT_EQ(0, wait_exit(pid, 5000));
	std::string text = slurp(log);
	EXPECT_NE(std::string::npos, text.find("exiting on QEMU's disconnect")) << text;
	EXPECT_NE(std::string::npos, text.find("0 interrupts raised (0 dropped)")) << text;
	EXPECT_NE(std::string::npos, text.find("vector 2 = eventfd")) << text;
	// The daemon removes its socket.
	EXPECT_NE(0, access(sock_.c_str(), F_OK));
	unlink(ram.c_str());
	unlink(ready.c_str());
	unlink(log.c_str());
	unlink((log + "2").c_str());
}

TEST_F(IvshmemServerTest, VectorsNeedTheServer)
{
	pid_t pid = spawn_emud({CXPRM_EMUD_BIN, "--ram", shm_path_, "--bar", shm_path_, "--vectors", "2"});
	ASSERT_GT(pid, 0);
	EXPECT_EQ(2, wait_exit(pid, 5000));
}

} // namespace
