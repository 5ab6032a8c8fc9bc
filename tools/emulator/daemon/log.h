// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// The daemon's log: one line per event, "[  12.345] cxprm-emud: ...",
// seconds since start, flushed at once (run-guest.sh shows it after the
// run, a crash must not lose it).  Thread-safe.
#pragma once

#include <chrono>
#include <cstdarg>
#include <cstdio>
#include <mutex>

namespace cxprm::emud {

class Log {
public:
	explicit Log(FILE *f = stdout) : f_(f), t0_(std::chrono::steady_clock::now()) {}

	void set_file(FILE *f) { f_ = f; }
	void set_verbose(bool v) { verbose_ = v; }
	bool verbose() const { return verbose_; }

	__attribute__((format(printf, 2, 3))) void info(const char *fmt, ...)
	{
		va_list ap;
		va_start(ap, fmt);
		vline(fmt, ap);
		va_end(ap);
	}
	__attribute__((format(printf, 2, 3))) void debug(const char *fmt, ...)
	{
		if (!verbose_)
			return;
		va_list ap;
		va_start(ap, fmt);
		vline(fmt, ap);
		va_end(ap);
	}

private:
	void vline(const char *fmt, va_list ap)
	{
		double t = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0_).count();
		std::lock_guard<std::mutex> g(mu_);
		std::fprintf(f_, "[%8.3f] cxprm-emud: ", t);
		std::vfprintf(f_, fmt, ap);
		std::fputc('\n', f_);
		std::fflush(f_);
	}

	FILE *f_;
	bool verbose_ = false;
	std::chrono::steady_clock::time_point t0_;
	std::mutex mu_;
};

} // namespace cxprm::emud
