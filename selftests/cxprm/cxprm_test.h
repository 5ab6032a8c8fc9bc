/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Shared helpers of the cxprm selftests, one header per job:
 *
 *   cxprm_util.h      the clock, small files, polling
 *   cxprm_prm.h       firmware codes (from the core's and emulator's
 *                     X-lists), PRM byte/bit access, command headers
 *   cxprm_dev.h       the device: open, module parameters, raw and typed
 *                     ioctls, privilege dropping
 *   emuctl/emuctl.h   the emulator's test control page: the client
 *                     /bin/emuctl is built on (tools/emulator/emuctl)
 *   cxprm_profiles.h  what the emulator's adapter profiles hold
 *
 * Header-only (static functions) so every test is one .c file; include it
 * after kselftest_harness.h.
 */
#ifndef CXPRM_SELFTEST_H
#define CXPRM_SELFTEST_H

#include "cxprm_util.h"
#include "cxprm_prm.h"
#include "cxprm_dev.h"
#include "emuctl/emuctl.h"	/* tools/emulator/emuctl */
#include "cxprm_profiles.h"

#endif /* CXPRM_SELFTEST_H */
