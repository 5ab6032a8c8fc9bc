// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// The automatic recovery (capi_recover.h) against the in-process emulator:
// a crash the firmware restarts from is recovered (the file's objects are
// stale, new ones work), a crash with no restart ends failed with its
// reason, an error within the grace period and recovery=0 are not
// recovered, and a host's ops run in the order the kernel's need.
#include "support/capi_device.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <string>
#include <thread>
#include <vector>

#include "cxprm/capi.h"
#include "cxprm/errors.h"

using namespace cxprm;

namespace {

// fw_reset_supported: the firmware restarts when the driver asks (the
// default profile); without it only the host restarts it (emuctl fw-restart).
emu::Profile profile(bool fw_reset_supported)
{
	emu::Profile p = test::small_profile();
	p.fw_reset_supported = fw_reset_supported;
	p.fw_reset_ms = 50;
	return p;
}

struct RecoverTest : ::testing::Test, test::CapiDevice {
	explicit RecoverTest(bool fw_reset_supported = true) : CapiDevice(profile(fw_reset_supported)) {}

	cxprm_core_file file{};
	std::vector<std::string> steps;
	std::vector<uint8_t> reports;
	// Without fw_reset_supported: the host restarts the firmware at quiesce.
	std::atomic<bool> host_restart{false};
	cxprm_core_config cfg = test::quick_capi_config();

	void SetUp() override
	{
		ASSERT_NO_FATAL_FAILURE(bring_up());
		ASSERT_NO_FATAL_FAILURE(start_events());
		file.objs = objs;
	}
	void TearDown() override
	{
		close_objects();
		cxprm_core_teardown(core, nullptr);
		cxprm_core_release_stranded(core);
		finish();
	}

	void policy(bool enabled, uint32_t attempts, uint64_t grace_ms)
	{
		cxprm_core_recovery_config rc{};
		rc.enabled = enabled;
		rc.max_attempts = attempts;
		rc.grace_ns = grace_ms * 1000 * 1000;
		cxprm_core_set_recovery(core, &rc);
	}

	// The firmware dies; the poller finds it (bounded for a loaded host).
	void crash()
	{
		h.emu.faults().crash = true;
		auto end = std::chrono::steady_clock::now() + std::chrono::seconds(20);
		while (!cxprm_core_failed(core) && std::chrono::steady_clock::now() < end) {
			std::this_thread::sleep_for(std::chrono::milliseconds(1));
			cxprm_core_health_poll(core);
		}
		ASSERT_EQ(cxprm_core_failed(core), E_HOSTDOWN);
	}

	static RecoverTest *self(void *ctx) { return static_cast<RecoverTest *>(ctx); }
	static const cxprm_core_recover_ops *ops()
	{
		static const cxprm_core_recover_ops o = {
			.exclusive = [](void *c, int on) { self(c)->steps.push_back(on ? "lock" : "unlock"); },
			.quiesce =
				[](void *c) {
					RecoverTest *t = self(c);
					t->steps.push_back("quiesce");
					cxprm_core_events_stop(t->core);
					cxprm_core_file_forget(t->core, &t->file);
					if (t->host_restart)
						t->h.emu.firmware_restart(50);
				},
			.bus_master = [](void *c, int on) { self(c)->steps.push_back(on ? "master on" : "master off"); },
			.restart =
				[](void *c) {
					RecoverTest *t = self(c);
					t->steps.push_back("restart");
					cxprm_core_events_config ec{};
					EXPECT_EQ(cxprm_core_events_start(t->core, &ec), 0);
				},
			.report = [](void *c, uint8_t sub, const uint8_t *) { self(c)->reports.push_back(sub); },
		};
		return &o;
	}
	int recover() { return cxprm_core_recover(core, &cfg, ops(), this); }
	cxprm_core_info info()
	{
		cxprm_core_info i;
		cxprm_core_get_info(core, &i);
		return i;
	}
};

TEST_F(RecoverTest, CrashWithRestartIsRecoveredAndObjectsAreStale)
{
	policy(true, 2, 60000);
	ASSERT_NO_FATAL_FAILURE(make_refs());
	// A DCT the file owned (the table as a DCT_CREATE leaves it).
	dcts.dctn[dcts.n++] = 0x42;
	file.dcts = dcts;
	ASSERT_NO_FATAL_FAILURE(crash());
	EXPECT_EQ(cxprm_core_recovering(core), 1);
	EXPECT_EQ(info().recovery, (uint32_t)CXPRM_RECOVERY_RUNNING);

	ASSERT_EQ(recover(), 0);
	EXPECT_EQ(h.emu.counters().fw_restarts, 1u); // the driver asked for it
	EXPECT_EQ((std::vector<std::string>{"lock", "quiesce", "master off", "master on", "unlock", "lock",
					    "restart", "unlock"}),
		  steps);
	EXPECT_EQ((std::vector<uint8_t>{CXPRM_HEALTH_RECOVERING, CXPRM_HEALTH_RECOVERED}), reports);
	cxprm_core_info i = info();
	EXPECT_EQ(i.state, (uint32_t)CXPRM_CORE_UP);
	EXPECT_EQ(i.failed_err, 0);
	EXPECT_EQ(i.recovery, (uint32_t)CXPRM_RECOVERY_DONE);
	EXPECT_EQ(i.recoveries, 1u);
	EXPECT_EQ(i.recovery_attempts, 1u);
	EXPECT_EQ(cxprm_core_recovering(core), 0);
	EXPECT_EQ(h.emu.pages_held(), i.pages_live);

	// The objects went with the firmware: stale once, then unknown.
	cxprm_obj o = test::obj_of(CXPRM_OBJ_PD);
	o.id = pd;
	EXPECT_EQ(cxprm_core_ioc_obj(core, CXPRM_IOC_OBJ_QUERY, objs, &o), E_STALE);
	EXPECT_EQ(cxprm_core_ioc_obj(core, CXPRM_IOC_OBJ_DESTROY, objs, &o), E_STALE);
	EXPECT_EQ(cxprm_core_ioc_obj(core, CXPRM_IOC_OBJ_DESTROY, objs, &o), E_NOENT);
	cxprm_dct d{};
	d.dctn = 0x42;
	EXPECT_EQ(cxprm_core_ioc_dct(core, CXPRM_IOC_DCT_QUERY, &file.dcts, &d), E_STALE);
	EXPECT_EQ(cxprm_core_ioc_dct(core, CXPRM_IOC_DCT_DESTROY, &file.dcts, &d), E_STALE);
	EXPECT_EQ(cxprm_core_ioc_dct(core, CXPRM_IOC_DCT_DESTROY, &file.dcts, &d), E_NOENT);
	EXPECT_EQ(cxprm_core_objs_count(objs), 0u);
	dcts = {};
	// New objects work; a new one of a lost number is the new one.
	ASSERT_NO_FATAL_FAILURE(make_refs());
	o.id = pd;
	EXPECT_EQ(cxprm_core_ioc_obj(core, CXPRM_IOC_OBJ_DESTROY, objs, &o), 0);
}

// A firmware that does not offer the reset (fw_reset_supported 0).
struct RecoverNoResetTest : RecoverTest {
	RecoverNoResetTest() : RecoverTest(false) {}
};

TEST_F(RecoverNoResetTest, RestartedByTheHostIsRecovered)
{
	policy(true, 1, 60000);
	host_restart = true;
	ASSERT_NO_FATAL_FAILURE(crash());
	ASSERT_EQ(recover(), 0);
	EXPECT_EQ(info().recovery, (uint32_t)CXPRM_RECOVERY_DONE);
}

TEST_F(RecoverNoResetTest, CrashWithoutRestartEndsFailedWithItsReason)
{
	policy(true, 1, 60000);
	ASSERT_NO_FATAL_FAILURE(crash());
	// The counter never moves again: wait_vital gives up after 5 s.
	EXPECT_EQ(recover(), E_TIMEDOUT);
	EXPECT_EQ((std::vector<uint8_t>{CXPRM_HEALTH_RECOVERING, CXPRM_HEALTH_RECOVERY_FAILED}), reports);
	cxprm_core_info i = info();
	EXPECT_EQ(i.failed_err, E_HOSTDOWN);
	EXPECT_EQ(i.recovery, (uint32_t)CXPRM_RECOVERY_NOT_READY);
	EXPECT_EQ(i.recovery_err, E_TIMEDOUT);
	EXPECT_EQ(i.recoveries, 0u);
	EXPECT_EQ(cxprm_core_recovering(core), 0);
	// Nothing is due any more.
	EXPECT_EQ(recover(), E_INVAL);
	h.emu.function_reset();
}

TEST_F(RecoverTest, AnErrorWithinTheGracePeriodIsNotRecovered)
{
	policy(true, 1, 60000);
	ASSERT_NO_FATAL_FAILURE(crash());
	ASSERT_EQ(recover(), 0);
	ASSERT_NO_FATAL_FAILURE(crash());
	EXPECT_EQ(cxprm_core_recovering(core), 0);
	EXPECT_EQ(info().recovery, (uint32_t)CXPRM_RECOVERY_GRACE);
	EXPECT_EQ(recover(), E_INVAL);
	h.emu.function_reset();
}

TEST_F(RecoverTest, TwoRecoveriesWithoutAGracePeriod)
{
	policy(true, 1, 0);
	for (int n = 1; n <= 2; n++) {
		ASSERT_NO_FATAL_FAILURE(crash());
		ASSERT_EQ(recover(), 0) << n;
		EXPECT_EQ(info().recoveries, (uint32_t)n);
	}
}

TEST_F(RecoverTest, RecoveryOffLeavesTheDeviceFailed)
{
	policy(false, 3, 0);
	ASSERT_NO_FATAL_FAILURE(crash());
	EXPECT_EQ(cxprm_core_recovering(core), 0);
	EXPECT_EQ(info().recovery, (uint32_t)CXPRM_RECOVERY_OFF);
	EXPECT_EQ(recover(), E_INVAL);
	EXPECT_TRUE(steps.empty());
	h.emu.function_reset();
}

// The admin's recovery (debugfs recover, devlink health recover): whatever
// the policy and the grace period say, only for dead firmware, one at a time.
TEST_F(RecoverTest, OnDemandRecoversWhatThePolicyLeftFailed)
{
	EXPECT_EQ(cxprm_core_request_recovery(core), E_INVAL); // healthy
	policy(false, 1, 60000);
	ASSERT_NO_FATAL_FAILURE(crash());
	ASSERT_EQ(info().recovery, (uint32_t)CXPRM_RECOVERY_OFF);
	ASSERT_EQ(cxprm_core_request_recovery(core), 0);
	EXPECT_EQ(cxprm_core_recovering(core), 1);
	EXPECT_EQ(cxprm_core_request_recovery(core), E_BUSY);
	ASSERT_EQ(recover(), 0);
	EXPECT_EQ(info().recovery, (uint32_t)CXPRM_RECOVERY_DONE);
	EXPECT_EQ(info().recoveries, 1u);
	// Within the grace period: not by itself, but on demand.
	ASSERT_NO_FATAL_FAILURE(crash());
	ASSERT_EQ(cxprm_core_request_recovery(core), 0);
	ASSERT_EQ(recover(), 0);
	EXPECT_EQ(info().recoveries, 2u);
	EXPECT_EQ(cxprm_core_failed(core), 0);
}

TEST_F(RecoverTest, ADueRecoveryThatNeverRunsIsCanceled)
{
	policy(false, 1, 0);
	cxprm_core_recovery_cancel(core); // nothing due: no change
	EXPECT_EQ(info().recovery, (uint32_t)CXPRM_RECOVERY_NONE);
	ASSERT_NO_FATAL_FAILURE(crash());
	ASSERT_EQ(cxprm_core_request_recovery(core), 0);
	cxprm_core_recovery_cancel(core);
	EXPECT_EQ(info().recovery, (uint32_t)CXPRM_RECOVERY_CANCELED);
	EXPECT_EQ(cxprm_core_recovering(core), 0);
	EXPECT_EQ(recover(), E_INVAL);
	EXPECT_EQ(cxprm_core_failed(core), E_HOSTDOWN);
	h.emu.function_reset();
}

} // namespace
