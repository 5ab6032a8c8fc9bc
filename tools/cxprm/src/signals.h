// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// Ctrl-C for the long-running commands (esw watch, dct --keep-open, dct
// wait): while a StopOnSignal lives, SIGINT/SIGTERM set a flag and
// interrupt poll() (no SA_RESTART) instead of killing the process, so the
// command can finish its output and close the device cleanly.
#pragma once

#include <csignal>

namespace cxprm::tool {

class StopOnSignal {
public:
	StopOnSignal();
	~StopOnSignal();
	StopOnSignal(const StopOnSignal &) = delete;
	StopOnSignal &operator=(const StopOnSignal &) = delete;

	static bool stopped();

private:
	struct sigaction old_int_ {}, old_term_ {};
};

// Monotonic milliseconds (for deadlines).
long long now_ms();

} // namespace cxprm::tool
