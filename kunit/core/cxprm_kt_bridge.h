/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The bridge between the KUnit module's C side (cxprm_kunit_core.c) and the
 * C++ test bodies (the .cpp files here), which cannot include kernel headers.
 *
 * Plain C with types from the compiler (like <cxprm/host.h>), so both
 * languages include it.  struct kunit stays opaque to C++.
 *
 * C++ reports every failed check through cxprm_kt_fail(); the C side turns
 * it into a KUnit expectation failure at the C++ file and line, so KUnit
 * counts it against the case that is running.  The kernel services below
 * are what the C++ loopback host (kunit/core/loopback.cpp) needs to implement
 * struct cxprm_host_ops inside the kernel.
 */
#ifndef CXPRM_KT_BRIDGE_H
#define CXPRM_KT_BRIDGE_H

#include <cxprm/host.h>

#ifdef __cplusplus
extern "C" {
#endif

struct kunit;

/*
 * A failed check: 'expr' as written, with the two operands when the check
 * compared values (has_values != 0).
 */
void cxprm_kt_fail(struct kunit *test, const char *file, int line,
		   const char *expr, int has_values, long long a, long long b);
/* A note in the case's log ("# case: msg value"). */
void cxprm_kt_note(struct kunit *test, const char *msg, long long value);

/* Zeroed memory that KUnit frees when the case ends (NULL on failure). */
void *cxprm_kt_case_alloc(struct kunit *test, cxprm_size size);

/* Kernel services (process context). */
void *cxprm_kt_zalloc(cxprm_size size);
void cxprm_kt_free(void *p);
void *cxprm_kt_mutex_create(void);
void cxprm_kt_mutex_destroy(void *m);
void cxprm_kt_mutex_lock(void *m);
void cxprm_kt_mutex_unlock(void *m);
void *cxprm_kt_completion_create(void);
void cxprm_kt_completion_destroy(void *c);
int cxprm_kt_completion_wait(void *c, cxprm_u64 timeout_ns);
void cxprm_kt_completion_signal(void *c);
cxprm_u64 cxprm_kt_now_ns(void);
void cxprm_kt_sleep_us(cxprm_u32 us);
void cxprm_kt_relax(void);

/*
 * Runs fn(ctx, i) for i = 0..n-1 in n kernel threads at once and waits
 * for all of them; returns how many could not be started.
 */
int cxprm_kt_run_threads(unsigned int n, void (*fn)(void *ctx, unsigned int i),
			 void *ctx);

/*
 * The C++ cases (kunit/core/<suite>_kt.cpp): the C side makes one
 * KUnit case of each cxprm_kt_<suite>_<name>(test).
 */
void cxprm_kt_suite_name(struct kunit *test);

void cxprm_kt_layout_sizes_and_descriptors(struct kunit *test);
void cxprm_kt_layout_big_endian_placement(struct kunit *test);
void cxprm_kt_layout_set_truncates_keeps_neighbours(struct kunit *test);
void cxprm_kt_layout_register_helpers(struct kunit *test);
void cxprm_kt_layout_transport_offsets(struct kunit *test);

void cxprm_kt_mailbox_signature_helpers(struct kunit *test);
void cxprm_kt_mailbox_boundaries_round_trip(struct kunit *test);
void cxprm_kt_mailbox_tampering_detected(struct kunit *test);
void cxprm_kt_mailbox_allocation_failure(struct kunit *test);

void cxprm_kt_engine_geometry_from_init_segment(struct kunit *test);
void cxprm_kt_engine_refuses_bad_geometry(struct kunit *test);
void cxprm_kt_engine_bad_arguments(struct kunit *test);
void cxprm_kt_engine_entry_format_and_signature(struct kunit *test);
void cxprm_kt_engine_tokens_skip_zero(struct kunit *test);
void cxprm_kt_engine_chain_boundaries(struct kunit *test);
void cxprm_kt_engine_allocation_failures(struct kunit *test);
void cxprm_kt_engine_event_mode_completion(struct kunit *test);
void cxprm_kt_engine_concurrent_commands(struct kunit *test);
void cxprm_kt_engine_shutdown_and_stats(struct kunit *test);

void cxprm_kt_engine_faults_status_apart_from_delivery(struct kunit *test);
void cxprm_kt_engine_faults_stuck_owner_times_out(struct kunit *test);
void cxprm_kt_engine_faults_stuck_slot_reused_after_handback(struct kunit *test);
void cxprm_kt_engine_faults_corrupt_output_signature(struct kunit *test);
void cxprm_kt_engine_faults_wrong_token(struct kunit *test);
void cxprm_kt_engine_faults_delivery_status(struct kunit *test);
void cxprm_kt_engine_faults_output_length_lie(struct kunit *test);
void cxprm_kt_engine_faults_broken_chain(struct kunit *test);
void cxprm_kt_engine_faults_dead_or_gone_while_waiting(struct kunit *test);
void cxprm_kt_engine_faults_syndrome_without_rfr_not_fatal(struct kunit *test);
void cxprm_kt_engine_faults_page_slot_reserved(struct kunit *test);

#ifdef __cplusplus
}
#endif

#endif /* CXPRM_KT_BRIDGE_H */
