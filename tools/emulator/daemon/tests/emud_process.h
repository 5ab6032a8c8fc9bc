// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// The cross-process test's side of cxprm-emud: temp files, spawning the
// daemon and waiting for it, the test control page (Control), a running
// daemon over guest-RAM and BAR files (Daemon), and waits on the core's
// state and event ring.  Used by emud_cross_process_test.cpp.
#ifndef CXPRM_EMUD_TESTS_EMUD_PROCESS_H
#define CXPRM_EMUD_TESTS_EMUD_PROCESS_H

#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <fstream>
#include <spawn.h>
#include <sstream>
#include <string>
#include <sys/stat.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>
#include <vector>

#include "control.h"
#include "cxprm/commands/esw.h"
#include "cxprm/commands/eq.h"
#include "cxprm/commands/issi.h"
#include "cxprm/device.h"
#include "cxprm/eq_ring.h"
#include "cxprm/errors.h"
#include "cxprm/prm/eq.h"
#include "cxprm/prm/opcodes.h"
#include "cxprm/prm/transport.h"
#include "cxprm/status.h"
#include "file_host.h"
#include "file_platform.h"
#include "guest_ram.h"


namespace cxprm::emud::test {

using namespace std::chrono_literals;

inline constexpr uint64_t MiB = 1ull << 20;
inline constexpr uint64_t MS = 1000 * 1000;
inline constexpr uint32_t UAR_BASE = 0x10000, UAR_SIZE = 0x1000; // emu::bar_map

inline std::string emud_bin()
{
	const char *e = std::getenv("CXPRM_EMUD");
	return e ? e : CXPRM_EMUD_BIN;
}

inline std::string temp_dir()
{
	std::string base = "/dev/shm";
	if (access(base.c_str(), W_OK) != 0)
		base = std::getenv("TMPDIR") ? std::getenv("TMPDIR") : "/tmp";
	std::string t = base + "/cxprm-emud-test.XXXXXX";
	std::vector<char> buf(t.begin(), t.end());
	buf.push_back(0);
	if (!mkdtemp(buf.data()))
		return "";
	return buf.data();
}

inline bool make_file(const std::string &path, uint64_t size)
{
	int fd = open(path.c_str(), O_RDWR | O_CREAT | O_TRUNC, 0600);
	if (fd < 0)
		return false;
	bool ok = ftruncate(fd, (off_t)size) == 0;
	close(fd);
	return ok;
}

inline std::string slurp(const std::string &path)
{
	std::ifstream f(path);
	std::stringstream ss;
	ss << f.rdbuf();
	return ss.str();
}

// Spawns argv, returns the pid (or -1).
inline pid_t spawn(const std::vector<std::string> &args, const std::string &out_path)
{
	std::vector<char *> argv;
	for (auto &a : args)
		argv.push_back(const_cast<char *>(a.c_str()));
	argv.push_back(nullptr);
	posix_spawn_file_actions_t fa;
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
	posix_spawn_file_actions_addopen(&fa, 1, out_path.c_str(), O_WRONLY | O_CREAT | O_APPEND, 0644);
	posix_spawn_file_actions_adddup2(&fa, 1, 2);
	pid_t pid = -1;
	int rc = posix_spawn(&pid, argv[0], &fa, nullptr, argv.data(), environ);
	posix_spawn_file_actions_destroy(&fa);
	return rc == 0 ? pid : -1;
}

// Waits for pid; exit status, 128 + signal, or -1 on timeout.
inline int wait_exit(pid_t pid, std::chrono::milliseconds limit)
{
	auto end = std::chrono::steady_clock::now() + limit;
	for (;;) {
		int st = 0;
		pid_t r = waitpid(pid, &st, WNOHANG);
		if (r == pid)
			return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
		if (r < 0)
			return -2;
		if (std::chrono::steady_clock::now() > end)
			return -1;
		std::this_thread::sleep_for(5ms);
	}
}

// The client side of the control page.
class Control {
public:
	explicit Control(uint8_t *page) : p_(page) {}
	uint32_t rd(uint32_t off) const
	{
		return le32toh(__atomic_load_n(reinterpret_cast<uint32_t *>(p_ + off), __ATOMIC_ACQUIRE));
	}
	void wr(uint32_t off, uint32_t v)
	{
		__atomic_store_n(reinterpret_cast<uint32_t *>(p_ + off), htole32(v), __ATOMIC_RELEASE);
	}
	struct Answer {
		bool acked = false;
		uint32_t status = 0xffffffff;
		uint64_t value = 0;
	};
	Answer exec(uint32_t cmd, std::initializer_list<uint32_t> args = {})
	{
		uint32_t seq = rd(CXPRM_EMUD_CTRL_ACK) + 1;
		if (seq == 0)
			seq = 1;
		uint32_t i = 0;
		for (uint32_t a : args)
			wr(CXPRM_EMUD_CTRL_ARG(i++), a);
		for (; i < CXPRM_EMUD_CTRL_NARGS; i++)
			wr(CXPRM_EMUD_CTRL_ARG(i), 0);
		wr(CXPRM_EMUD_CTRL_CMD, cmd);
		wr(CXPRM_EMUD_CTRL_SEQ, seq);
		Answer a;
		auto end = std::chrono::steady_clock::now() + 5s;
		while (rd(CXPRM_EMUD_CTRL_ACK) != seq) {
			if (std::chrono::steady_clock::now() > end)
				return a;
			std::this_thread::sleep_for(50us);
		}
		a.acked = true;
		a.status = rd(CXPRM_EMUD_CTRL_STATUS);
		a.value = (uint64_t)rd(CXPRM_EMUD_CTRL_RESULT_HI) << 32 | rd(CXPRM_EMUD_CTRL_RESULT_LO);
		return a;
	}
	// QUERY that must succeed.
	uint64_t query(uint32_t what, uint32_t a1 = 0, uint32_t a2 = 0, uint32_t a3 = 0)
	{
		Answer a = exec(CXPRM_EMUD_CMD_QUERY, {what, a1, a2, a3});
		EXPECT_TRUE(a.acked) << "query " << what;
		EXPECT_EQ(a.status, (uint32_t)CXPRM_EMUD_ST_OK) << "query " << what;
		return a.value;
	}
	uint32_t fault(uint32_t knob, uint32_t v, uint32_t v2 = 0)
	{
		Answer a = exec(CXPRM_EMUD_CMD_FAULT, {knob, v, v2});
		EXPECT_TRUE(a.acked);
		return a.status;
	}

private:
	uint8_t *p_;
};

// One daemon on a fresh pair of files.
class Daemon {
public:
	~Daemon()
	{
		if (pid_ > 0) {
			kill(pid_, SIGKILL);
			wait_exit(pid_, 2000ms);
		}
		ram_.close();
		bar_.close();
		for (auto f : {ram_path, bar_path, log_path, out_path, ready_path})
			if (!f.empty())
				unlink(f.c_str());
		if (!dir_.empty())
			rmdir(dir_.c_str());
	}

	// Creates the files and starts the daemon; false (with a message) if it
	// did not become ready.
	::testing::AssertionResult start(std::vector<std::string> extra = {}, uint64_t ram_bytes = 64 * MiB,
					 uint64_t bar_bytes = 1 * MiB, uint64_t below_4g = 0)
	{
		dir_ = temp_dir();
		if (dir_.empty())
			return ::testing::AssertionFailure() << "mkdtemp: " << strerror(errno);
		ram_path = dir_ + "/ram";
		bar_path = dir_ + "/bar";
		log_path = dir_ + "/log";
		out_path = dir_ + "/out";
		ready_path = dir_ + "/ready";
		if (!make_file(ram_path, ram_bytes) || !make_file(bar_path, bar_bytes))
			return ::testing::AssertionFailure() << "cannot create the files in " << dir_;
		std::vector<std::string> args = {emud_bin(), "--ram",  ram_path,   "--bar", bar_path,
						 "--log",    log_path, "--ready-file", ready_path};
		if (below_4g)
			args.insert(args.end(), {"--below-4g", std::to_string(below_4g)});
		args.insert(args.end(), extra.begin(), extra.end());
		start_time_ = std::chrono::steady_clock::now();
		pid_ = spawn(args, out_path);
		if (pid_ < 0)
			return ::testing::AssertionFailure() << "cannot start " << emud_bin();
		auto end = std::chrono::steady_clock::now() + 10s;
		while (access(ready_path.c_str(), F_OK) != 0) {
			int st = wait_exit(pid_, 0ms);
			if (st >= 0 || st == -2) {
				pid_ = -1;
				return ::testing::AssertionFailure() << "daemon exited with " << st << "\n"
								     << slurp(out_path) << slurp(log_path);
			}
			if (std::chrono::steady_clock::now() > end)
				return ::testing::AssertionFailure() << "daemon not ready after 10 s\n"
								     << slurp(log_path);
			std::this_thread::sleep_for(2ms);
		}
		std::string err;
		if (!ram_.open(ram_path, &err) || !bar_.open(bar_path, &err))
			return ::testing::AssertionFailure() << err;
		return ::testing::AssertionSuccess();
	}

	// Signals the daemon and returns its exit status (-1: did not exit).
	int stop(int sig = SIGTERM)
	{
		if (pid_ <= 0)
			return -3;
		kill(pid_, sig);
		int st = wait_exit(pid_, 5000ms);
		if (st != -1)
			pid_ = -1;
		return st;
	}

	pid_t pid() const { return pid_; }
	uint8_t *ram() { return ram_.data(); }
	uint8_t *bar() { return bar_.data(); }
	size_t bar_size() const { return bar_.size(); }
	uint8_t *control_page() { return bar_.data() + CXPRM_EMUD_CTRL_OFFSET(bar_.size()); }
	std::string log() const { return slurp(log_path); }
	std::chrono::steady_clock::time_point started() const { return start_time_; }

	// Big-endian init-segment dword, as the driver's ioread32be sees it.
	uint32_t iseg(uint32_t off) const
	{
		return __builtin_bswap32(__atomic_load_n(reinterpret_cast<uint32_t *>(bar_.data() + off), __ATOMIC_ACQUIRE));
	}

	std::string ram_path, bar_path, log_path, out_path, ready_path;

private:
	std::string dir_;
	pid_t pid_ = -1;
	MappedFile ram_, bar_;
	std::chrono::steady_clock::time_point start_time_;
};

inline BringupConfig config()
{
	BringupConfig cfg;
	cfg.cmdq.timeout_ns = 10000 * MS;
	cfg.cmdq.slot_wait_ns = 10000 * MS;
	cfg.init_timeout_ns = 10000 * MS;
	cfg.init_poll_us = 200;
	cfg.reclaim_timeout_ns = 2000 * MS;
	return cfg;
}

inline bool wait_initialized(Daemon &d, std::chrono::milliseconds limit)
{
	auto end = std::chrono::steady_clock::now() + limit;
	while (prm::from_dword<prm::initial_seg::initializing>(d.iseg(prm::iseg::INITIALIZING))) {
		if (std::chrono::steady_clock::now() > end)
			return false;
		std::this_thread::sleep_for(100us);
	}
	return true;
}

// Starts d with no init delay and waits until 'initializing' clears.
inline ::testing::AssertionResult start_initialized(Daemon &d)
{
	::testing::AssertionResult r = d.start({"--init-delay-ms", "0"});
	if (r && !wait_initialized(d, 20000ms))
		return ::testing::AssertionFailure() << "initializing never cleared\n" << d.log();
	return r;
}

// Stops d, expecting exit status 0, and returns its log.
inline std::string stop_and_log(Daemon &d)
{
	EXPECT_EQ(d.stop(), 0);
	return d.log();
}

// Polls the ring (bounded) for an event of 'type'; other events are skipped.
inline bool wait_event(EqRing &ring, uint8_t type, uint8_t *data28 = nullptr, std::chrono::milliseconds limit = 20000ms)
{
	auto end = std::chrono::steady_clock::now() + limit;
	for (;;) {
		EqEvent ev;
		while (ring.peek(&ev)) {
			bool hit = ev.type == type;
			if (hit && data28)
				std::memcpy(data28, ev.data, 28);
			ring.pop();
			if (hit) {
				ring.doorbell(true);
				return true;
			}
		}
		if (std::chrono::steady_clock::now() > end)
			return false;
		std::this_thread::sleep_for(200us);
	}
}

} // namespace cxprm::emud::test

#endif
