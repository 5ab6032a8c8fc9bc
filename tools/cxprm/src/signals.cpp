// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
// Signal-driven stop for long-running commands (signals.h).
#include "signals.h"

#include <ctime>

namespace cxprm::tool {

namespace {
volatile std::sig_atomic_t g_stop = 0;
void on_signal(int) { g_stop = 1; }
} // namespace

StopOnSignal::StopOnSignal()
{
	g_stop = 0;
	struct sigaction sa {};
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	sa.sa_flags = 0; // no SA_RESTART: poll() returns EINTR
	sigaction(SIGINT, &sa, &old_int_);
	sigaction(SIGTERM, &sa, &old_term_);
}

StopOnSignal::~StopOnSignal()
{
	sigaction(SIGINT, &old_int_, nullptr);
	sigaction(SIGTERM, &old_term_, nullptr);
}

bool StopOnSignal::stopped() { return g_stop != 0; }

long long now_ms()
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

} // namespace cxprm::tool
