// SPDX-License-Identifier: GPL-2.0
/*
 * cxprm_kunit.ko, the C side of the core suites: the bridge the C++ test
 * bodies (kunit/core/, C++) report through, the kernel services their
 * loopback host uses, and the KUnit suites cxprm_core_layout,
 * cxprm_core_mailbox, cxprm_core_engine and cxprm_core_engine_faults, one
 * case per C++ body (the prototypes in cxprm_kt_bridge.h).
 *
 * Documentation/kunit.rst has the design.
 */
#include <kunit/test.h>
#include <linux/completion.h>
#include <linux/delay.h>
#include <linux/jiffies.h>
#include <linux/kthread.h>
#include <linux/minmax.h>
#include <linux/mm.h>
#include <linux/mutex.h>
#include <linux/slab.h>
#include <linux/timekeeping.h>

#include "cxprm_kt_bridge.h"

/* Failures reported in full per case; the rest are only counted. */
#define CXPRM_KT_VERBOSE_FAILS	8

struct cxprm_kt_case_state {
	unsigned int fails;
};

static struct cxprm_kt_case_state *cxprm_kt_state(struct kunit *test)
{
	return test->priv;
}

void cxprm_kt_fail(struct kunit *test, const char *file, int line,
		   const char *expr, int has_values, long long a, long long b)
{
	static const struct kunit_fail_assert assert = {};
	struct cxprm_kt_case_state *st = cxprm_kt_state(test);
	const struct kunit_loc loc = { .line = line, .file = file };

	if (st && ++st->fails > CXPRM_KT_VERBOSE_FAILS) {
		/* Still a failure of this case, without another report. */
		kunit_set_failure(test);
		return;
	}
	if (has_values)
		kunit_do_failed_assertion(test, &loc, KUNIT_EXPECTATION,
					  &assert.assert,
					  kunit_fail_assert_format,
					  "%s: %lld (0x%llx) vs %lld (0x%llx)",
					  expr, a, (unsigned long long)a, b,
					  (unsigned long long)b);
	else
		kunit_do_failed_assertion(test, &loc, KUNIT_EXPECTATION,
					  &assert.assert,
					  kunit_fail_assert_format,
					  "%s", expr);
}

void cxprm_kt_note(struct kunit *test, const char *msg, long long value)
{
	kunit_info(test, "%s 0x%llx\n", msg, (unsigned long long)value);
}

void *cxprm_kt_case_alloc(struct kunit *test, cxprm_size size)
{
	return kunit_kzalloc(test, size, GFP_KERNEL);
}

void *cxprm_kt_zalloc(cxprm_size size)
{
	return kvzalloc(size, GFP_KERNEL);
}

void cxprm_kt_free(void *p)
{
	kvfree(p);
}

void *cxprm_kt_mutex_create(void)
{
	struct mutex *m = kzalloc(sizeof(*m), GFP_KERNEL);

	if (m)
		mutex_init(m);
	return m;
}

void cxprm_kt_mutex_destroy(void *m)
{
	if (m)
		mutex_destroy(m);
	kfree(m);
}

void cxprm_kt_mutex_lock(void *m)
{
	mutex_lock(m);
}

void cxprm_kt_mutex_unlock(void *m)
{
	mutex_unlock(m);
}

void *cxprm_kt_completion_create(void)
{
	struct completion *c = kzalloc(sizeof(*c), GFP_KERNEL);

	if (c)
		init_completion(c);
	return c;
}

void cxprm_kt_completion_destroy(void *c)
{
	kfree(c);
}

int cxprm_kt_completion_wait(void *c, cxprm_u64 timeout_ns)
{
	unsigned long t = min_t(u64, nsecs_to_jiffies(timeout_ns) + 1,
				MAX_SCHEDULE_TIMEOUT - 1);

	return wait_for_completion_timeout(c, t) ? 0 : -ETIMEDOUT;
}

void cxprm_kt_completion_signal(void *c)
{
	complete(c);
}

cxprm_u64 cxprm_kt_now_ns(void)
{
	return ktime_get_ns();
}

void cxprm_kt_sleep_us(cxprm_u32 us)
{
	fsleep(us);
}

void cxprm_kt_relax(void)
{
	cpu_relax();
}

struct cxprm_kt_thread {
	void (*fn)(void *ctx, unsigned int i);
	void *ctx;
	unsigned int i;
	struct completion done;
};

static int cxprm_kt_thread_fn(void *data)
{
	struct cxprm_kt_thread *th = data;

	th->fn(th->ctx, th->i);
	complete(&th->done);
	return 0;
}

int cxprm_kt_run_threads(unsigned int n, void (*fn)(void *ctx, unsigned int i),
			 void *ctx)
{
	struct cxprm_kt_thread *th = kcalloc(n, sizeof(*th), GFP_KERNEL);
	unsigned int i, failed = 0;

	if (!th)
		return n;
	for (i = 0; i < n; i++) {
		struct task_struct *task;

		th[i].fn = fn;
		th[i].ctx = ctx;
		th[i].i = i;
		init_completion(&th[i].done);
		task = kthread_run(cxprm_kt_thread_fn, &th[i], "cxprm-kt/%u", i);
		if (IS_ERR(task)) {
			failed++;
			complete(&th[i].done);
		}
	}
	for (i = 0; i < n; i++)
		wait_for_completion(&th[i].done);
	kfree(th);
	return failed;
}

static int cxprm_kt_case_init(struct kunit *test)
{
	test->priv = kunit_kzalloc(test, sizeof(struct cxprm_kt_case_state),
				   GFP_KERNEL);
	return test->priv ? 0 : -ENOMEM;
}

static void cxprm_kt_case_exit(struct kunit *test)
{
	struct cxprm_kt_case_state *st = cxprm_kt_state(test);

	if (st && st->fails > CXPRM_KT_VERBOSE_FAILS)
		kunit_err(test, "%u failed checks in all (%u reported)\n",
			  st->fails, CXPRM_KT_VERBOSE_FAILS);
}

/* A case running the C++ body cxprm_kt_<suite>_<name>(). */
#define CXPRM_KT_CASE(s_, n_) { .run_case = cxprm_kt_##s_##_##n_, .name = #n_ }

static struct kunit_case cxprm_core_layout_cases[] = {
	CXPRM_KT_CASE(layout, sizes_and_descriptors),
	CXPRM_KT_CASE(layout, big_endian_placement),
	CXPRM_KT_CASE(layout, set_truncates_keeps_neighbours),
	CXPRM_KT_CASE(layout, register_helpers),
	CXPRM_KT_CASE(layout, transport_offsets),
	{}
};

static struct kunit_case cxprm_core_mailbox_cases[] = {
	CXPRM_KT_CASE(mailbox, signature_helpers),
	CXPRM_KT_CASE(mailbox, boundaries_round_trip),
	CXPRM_KT_CASE(mailbox, tampering_detected),
	CXPRM_KT_CASE(mailbox, allocation_failure),
	{}
};

static struct kunit_case cxprm_core_engine_cases[] = {
	CXPRM_KT_CASE(engine, geometry_from_init_segment),
	CXPRM_KT_CASE(engine, refuses_bad_geometry),
	CXPRM_KT_CASE(engine, bad_arguments),
	CXPRM_KT_CASE(engine, entry_format_and_signature),
	CXPRM_KT_CASE(engine, tokens_skip_zero),
	CXPRM_KT_CASE(engine, chain_boundaries),
	CXPRM_KT_CASE(engine, allocation_failures),
	CXPRM_KT_CASE(engine, event_mode_completion),
	CXPRM_KT_CASE(engine, concurrent_commands),
	CXPRM_KT_CASE(engine, shutdown_and_stats),
	{}
};

static struct kunit_case cxprm_core_engine_faults_cases[] = {
	CXPRM_KT_CASE(engine_faults, status_apart_from_delivery),
	CXPRM_KT_CASE(engine_faults, stuck_owner_times_out),
	CXPRM_KT_CASE(engine_faults, stuck_slot_reused_after_handback),
	CXPRM_KT_CASE(engine_faults, corrupt_output_signature),
	CXPRM_KT_CASE(engine_faults, wrong_token),
	CXPRM_KT_CASE(engine_faults, delivery_status),
	CXPRM_KT_CASE(engine_faults, output_length_lie),
	CXPRM_KT_CASE(engine_faults, broken_chain),
	CXPRM_KT_CASE(engine_faults, dead_or_gone_while_waiting),
	CXPRM_KT_CASE(engine_faults, syndrome_without_rfr_not_fatal),
	CXPRM_KT_CASE(engine_faults, page_slot_reserved),
	{}
};

static struct kunit_suite cxprm_core_layout_suite = {
	.name = "cxprm_core_layout",
	.init = cxprm_kt_case_init,
	.exit = cxprm_kt_case_exit,
	.test_cases = cxprm_core_layout_cases,
};

static struct kunit_suite cxprm_core_mailbox_suite = {
	.name = "cxprm_core_mailbox",
	.init = cxprm_kt_case_init,
	.exit = cxprm_kt_case_exit,
	.test_cases = cxprm_core_mailbox_cases,
};

static struct kunit_suite cxprm_core_engine_suite = {
	.name = "cxprm_core_engine",
	.init = cxprm_kt_case_init,
	.exit = cxprm_kt_case_exit,
	.test_cases = cxprm_core_engine_cases,
};

static struct kunit_suite cxprm_core_engine_faults_suite = {
	.name = "cxprm_core_engine_faults",
	.init = cxprm_kt_case_init,
	.exit = cxprm_kt_case_exit,
	.test_cases = cxprm_core_engine_faults_cases,
};

kunit_test_suites(&cxprm_core_layout_suite, &cxprm_core_mailbox_suite,
		  &cxprm_core_engine_suite, &cxprm_core_engine_faults_suite);
