// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// The userspace hosts' run_parallel (cxprm/host.h): a process-wide pool
// of threads that run the calls of a CXPRM_IOC_BATCH at once, the caller
// taking its share.  Threads are made on demand (at most kMaxThreads) and
// live until the process ends.
#pragma once

#include <cstdint>

#include "cxprm/uapi.h"

namespace cxprm::hosted {

constexpr uint32_t kMaxThreads = CXPRM_BATCH_MAX - 1; // the caller runs the other

// Runs fn(arg, i) for every i below n and returns once all have returned.
void run_parallel(uint32_t n, void (*fn)(void *arg, uint32_t i), void *arg);

} // namespace cxprm::hosted
