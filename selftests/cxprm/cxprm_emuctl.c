// SPDX-License-Identifier: GPL-2.0
/*
 * cxprm_emuctl: the emulator's test control page from a guest shell
 * (tools/emulator/daemon/control.h), for the selftest scripts.
 *
 *   cxprm_emuctl [-d BDF] COMMAND [ARGS]
 *     magic                      exit 0 if the daemon serves the page
 *     set-num-vfs N
 *     nvmf-io XRQN NSID READS WRITES [BLOCKS]
 *     mark N                     the daemon logs "guest mark N"
 *     request-pages N            PAGE_REQUEST event (N < 0: firmware returns pages)
 *     fault KNOB VALUE [VALUE2]  CXPRM_EMUD_FAULT_* by number (control.h)
 *     fault-clear                every per-command knob and the selectors
 *     function-reset             the host resets the function (crash/gone/stall end)
 *     pages-held | pages-given | pages-taken | commands | hca-state |
 *     num-vfs | issi | dcts | eqs | uars | nvmf-namespaces | crashed | gone
 *                                print that value
 *     counter NAME               objects-leaked, pages-leaked, eq-overruns,
 *                                delivery-errors, dma-refused, ...
 *     opcode-count OPCODE
 *
 * BDF defaults to $CXPRM_BDF.  While cxprm holds the BAR the guest kernel
 * needs iomem=relaxed.  Exit: 0 ok, 1 the daemon refused, 2 usage/setup.
 */
#define _GNU_SOURCE
#include "cxprm_test.h"

/* A command-line name and its control page number. */
struct named {
	const char *name;
	uint32_t v;
};

static const struct named queries[] = {
	{ "pages-held", CXPRM_EMUD_Q_PAGES_HELD },
	{ "commands", CXPRM_EMUD_Q_COMMANDS },
	{ "hca-state", CXPRM_EMUD_Q_HCA_STATE },
	{ "num-vfs", CXPRM_EMUD_Q_NUM_VFS },
	{ "issi", CXPRM_EMUD_Q_ISSI },
	{ "initializing", CXPRM_EMUD_Q_INITIALIZING },
	{ "crashed", CXPRM_EMUD_Q_CRASHED },
	{ "gone", CXPRM_EMUD_Q_GONE },
	{ "health-counter", CXPRM_EMUD_Q_HEALTH_COUNTER },
	{ "pages-given", CXPRM_EMUD_Q_PAGES_GIVEN },
	{ "pages-taken", CXPRM_EMUD_Q_PAGES_TAKEN },
	{ "uars", CXPRM_EMUD_Q_UARS },
	{ "eqs", CXPRM_EMUD_Q_EQS },
	{ "dcts", CXPRM_EMUD_Q_DCTS },
	{ "nvmf-namespaces", CXPRM_EMUD_Q_NVMF_NAMESPACES },
	{ "objects", CXPRM_EMUD_Q_OBJECTS },
	{ "check-refs", CXPRM_EMUD_Q_CHECK_REFS },
	{ "faults-fired", CXPRM_EMUD_Q_FAULTS_FIRED },
};

static const struct named counters[] = {
	{ "commands-processed", CXPRM_EMUD_COUNTER_COMMANDS_PROCESSED },
	{ "commands-executed", CXPRM_EMUD_COUNTER_COMMANDS_EXECUTED },
	{ "delivery-errors", CXPRM_EMUD_COUNTER_DELIVERY_ERRORS },
	{ "ignored-doorbells", CXPRM_EMUD_COUNTER_IGNORED_DOORBELLS },
	{ "unreachable-entries", CXPRM_EMUD_COUNTER_UNREACHABLE_ENTRIES },
	{ "eqes-written", CXPRM_EMUD_COUNTER_EQES_WRITTEN },
	{ "eq-overruns", CXPRM_EMUD_COUNTER_EQ_OVERRUNS },
	{ "eqe-dma-errors", CXPRM_EMUD_COUNTER_EQE_DMA_ERRORS },
	{ "bad-eq-doorbells", CXPRM_EMUD_COUNTER_BAD_EQ_DOORBELLS },
	{ "irqs-raised", CXPRM_EMUD_COUNTER_IRQS_RAISED },
	{ "pages-leaked", CXPRM_EMUD_COUNTER_PAGES_LEAKED },
	{ "objects-leaked", CXPRM_EMUD_COUNTER_OBJECTS_LEAKED },
	{ "dma-refused", CXPRM_EMUD_COUNTER_DMA_REFUSED },
};

static int usage(void)
{
	fprintf(stderr, "usage: cxprm_emuctl [-d BDF] COMMAND [ARGS] (see the source header)\n");
	return 2;
}

static uint32_t num(const char *s)
{
	return (uint32_t)strtoul(s, NULL, 0);
}

static int done(int st, long long v, int print)
{
	if (st) {
		fprintf(stderr, "cxprm_emuctl: %s\n", st < 0 ? strerror(-st) :
			st == CXPRM_EMUD_ST_UNKNOWN_CMD ? "unknown command" :
			st == CXPRM_EMUD_ST_BAD_ARG ? "bad argument" :
			st == CXPRM_EMUD_ST_REFUSED ? "refused" : "timed out");
		return 1;
	}
	if (print)
		printf("%lld\n", v);
	return 0;
}

int main(int argc, char **argv)
{
	const char *bdf = getenv("CXPRM_BDF");
	struct emuctl e;
	uint64_t v = 0;
	size_t k;
	int r, i = 1;

	if (argc > 2 && !strcmp(argv[1], "-d")) {
		bdf = argv[2];
		i = 3;
	}
	if (i >= argc)
		return usage();
	if (!bdf || !*bdf) {
		fprintf(stderr, "cxprm_emuctl: no device (set CXPRM_BDF or give -d)\n");
		return 2;
	}
	r = emuctl_open(&e, bdf);
	if (r) {
		fprintf(stderr, "cxprm_emuctl: control page of %s: %s%s\n", bdf, strerror(-r),
			r == -EINVAL ? " (cxprm holds the BAR: boot with iomem=relaxed)" : "");
		return 2;
	}
	argv += i;
	argc -= i;
	if (!strcmp(argv[0], "magic") || !strcmp(argv[0], "ping"))
		return 0;
	if (!strcmp(argv[0], "set-num-vfs") && argc == 2)
		return done(emuctl_set_num_vfs(&e, num(argv[1])), 0, 0);
	if (!strcmp(argv[0], "nvmf-io") && (argc == 5 || argc == 6))
		return done(emuctl_nvmf_io(&e, num(argv[1]), num(argv[2]), num(argv[3]), num(argv[4]),
					   argc == 6 ? num(argv[5]) : 0), 0, 0);
	if (!strcmp(argv[0], "mark") && argc == 2)
		return done(emuctl_mark(&e, num(argv[1])), 0, 0);
	if (!strcmp(argv[0], "request-pages") && argc == 2)
		return done(emuctl_request_pages(&e, (int32_t)strtol(argv[1], NULL, 0)), 0, 0);
	if (!strcmp(argv[0], "fault") && (argc == 3 || argc == 4))
		return done(emuctl_fault(&e, num(argv[1]), num(argv[2]), argc == 4 ? num(argv[3]) : 0), 0, 0);
	if (!strcmp(argv[0], "fault-clear") && argc == 1)
		return done(emuctl_fault_clear(&e), 0, 0);
	if (!strcmp(argv[0], "function-reset") && argc == 1)
		return done(emuctl_cmd(&e, CXPRM_EMUD_CMD_FUNCTION_RESET, NULL, 0, NULL), 0, 0);
	if (!strcmp(argv[0], "counter") && argc == 2) {
		for (k = 0; k < ARRAY_SIZE(counters); k++)
			if (!strcmp(argv[1], counters[k].name)) {
				uint32_t a[2] = { CXPRM_EMUD_Q_COUNTER, counters[k].v };

				r = emuctl_cmd(&e, CXPRM_EMUD_CMD_QUERY, a, 2, &v);
				return done(r, (long long)v, 1);
			}
		return usage();
	}
	if (!strcmp(argv[0], "opcode-count") && argc == 2) {
		uint32_t a[2] = { CXPRM_EMUD_Q_OPCODE_COUNT, num(argv[1]) };

		r = emuctl_cmd(&e, CXPRM_EMUD_CMD_QUERY, a, 2, &v);
		return done(r, (long long)v, 1);
	}
	if (argc == 1)
		for (k = 0; k < ARRAY_SIZE(queries); k++)
			if (!strcmp(argv[0], queries[k].name)) {
				uint32_t a[1] = { queries[k].v };

				r = emuctl_cmd(&e, CXPRM_EMUD_CMD_QUERY, a, 1, &v);
				return done(r, (long long)v, 1);
			}
	return usage();
}
