// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// The bench programs' bring-up of the core on a host (emud_rate.cpp,
// pipeline.cpp).
#pragma once

#include <cstdio>
#include <memory>

#include "cxprm/device.h"
#include "cxprm/errors.h"

namespace cxprm::bench {

// A Device brought up on host with the default configuration, or null with
// the failure printed as program prog's.
inline std::unique_ptr<Device> bring_up(const cxprm_host *host, const char *prog)
{
	auto dev = std::make_unique<Device>();
	if (int rc = dev->bringup(host, BringupConfig{}); rc) {
		std::fprintf(stderr, "%s: bring-up failed: %s\n", prog, err_name(rc));
		return nullptr;
	}
	return dev;
}

} // namespace cxprm::bench
