// SPDX-License-Identifier: GPL-2.0
/*
 * emuctl's commands (see emuctl_main.c for the usage): each one control
 * command, or a few, on a mapped page the daemon serves.
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>

#include "emuctl_cli.h"
#include "emuctl_names.h"

static const char *status_text(int st)
{
	switch (st) {
	case CXPRM_EMUD_ST_UNKNOWN_CMD: return "unknown command";
	case CXPRM_EMUD_ST_BAD_ARG: return "bad argument";
	case CXPRM_EMUD_ST_REFUSED: return "refused by the emulator";
	case CXPRM_EMUD_ST_TIMEOUT: return "timeout";
	default: return "status";
	}
}

static int timed_out(struct emuctl *e)
{
	fprintf(stderr, "emuctl: no answer from the emulator in %.1fs (seq %u)\n",
		(e->timeout_ms ? e->timeout_ms : EMUCTL_TIMEOUT_MS) / 1000.0, emuctl_rd(e, CXPRM_EMUD_CTRL_SEQ));
	return EMUCTL_EXIT_TIMEOUT;
}

/* Runs one command; the exit status (a message on stderr unless ok). */
static int run(struct emuctl *e, const char *what, uint32_t cmd, const uint32_t *args, unsigned int n,
	       uint64_t *result)
{
	int st = emuctl_cmd(e, cmd, args, n, result);

	if (st < 0)
		return timed_out(e);
	if (st) {
		fprintf(stderr, "emuctl: %s: %s (status %d)\n", what, status_text(st), st);
		return EMUCTL_EXIT_REFUSED;
	}
	return EMUCTL_EXIT_OK;
}

/* argv[0..n-1] as 32-bit numbers (or names of l): 0, or the usage exit. */
static int values(const struct emuctl_names *l, char **argv, int n, uint32_t *out)
{
	int i;

	for (i = 0; i < n; i++)
		if (emuctl_value(l, argv[i], &out[i]))
			return l ? emuctl_usage_error("unknown %s %s", l->what, argv[i]) :
				   emuctl_usage_error("not a number: %s", argv[i]);
	return 0;
}

static int print_query(struct emuctl *e, const char *what, uint32_t *a, unsigned int n)
{
	uint64_t v = 0;
	int r = run(e, what, CXPRM_EMUD_CMD_QUERY, a, n, &v);

	if (!r)
		printf("%lld\n", (long long)v);
	return r;
}

/* pages-wanted boot|init|regular: QUERY_PAGES op_mod (core/pagealloc.c). */
static int pages_wanted_mode(const char *s, uint32_t *m)
{
	static const char *const modes[] = { "boot", "init", "regular" };
	unsigned int i;

	for (i = 0; i < 3; i++)
		if (!strcmp(s, modes[i])) {
			*m = i + 1;
			return 0;
		}
	return -1;
}

/* QUERY [ARGS]: a query by its name, with its arguments. */
static int query(struct emuctl *e, const struct emuctl_name *q, int argc, char **argv)
{
	uint32_t a[4] = { q->v };
	const struct emuctl_name *s;
	uint64_t v = 0;
	int r;

	switch (q->v) {
	case CXPRM_EMUD_Q_HCA_STATE:
		if (argc != 1)
			return emuctl_usage_error("hca-state takes no argument");
		r = run(e, argv[0], CXPRM_EMUD_CMD_QUERY, a, 1, &v);
		if (r)
			return r;
		s = emuctl_by_value(&emuctl_hca_states, (uint32_t)v);
		if (s)
			printf("%s\n", s->name);
		else
			printf("%llu\n", (unsigned long long)v);
		return 0;
	case CXPRM_EMUD_Q_PAGES_WANTED:
		if (argc != 2 || pages_wanted_mode(argv[1], &a[1]))
			return emuctl_usage_error("pages-wanted boot|init|regular");
		return print_query(e, argv[0], a, 2);
	case CXPRM_EMUD_Q_OPCODE_COUNT:
		if (argc != 2 || emuctl_value(&emuctl_opcodes, argv[1], &a[1]))
			return emuctl_usage_error("opcode-count OP (a name or a number): %s",
						  argc == 2 ? argv[1] : "missing");
		return print_query(e, argv[0], a, 2);
	case CXPRM_EMUD_Q_LAST_STATUS:
		if (argc != 1)
			return emuctl_usage_error("last-status takes no argument");
		r = run(e, argv[0], CXPRM_EMUD_CMD_QUERY, a, 1, &v);
		if (!r)
			printf("%u\n", (unsigned int)(v & 0xff));
		return r;
	case CXPRM_EMUD_Q_COUNTER:
		if (argc != 2 || emuctl_value(&emuctl_counters, argv[1], &a[1]))
			return emuctl_usage_error("unknown counter %s", argc == 2 ? argv[1] : "(none)");
		return print_query(e, argv[0], a, 2);
	case CXPRM_EMUD_Q_NVMF_COUNTER:
		if (argc != 4)
			return emuctl_usage_error("nvmf-counter XRQN NSID FIELD");
		if (values(NULL, argv + 1, 2, a + 1) || values(&emuctl_nvmf_fields, argv + 3, 1, a + 3))
			return EMUCTL_EXIT_USAGE;
		return print_query(e, argv[0], a, 4);
	case CXPRM_EMUD_Q_NVME_STAT:
		if (argc != 2 || emuctl_value(&emuctl_nvme_stats, argv[1], &a[1]))
			return emuctl_usage_error("unknown NVMe statistic %s", argc == 2 ? argv[1] : "(none)");
		return print_query(e, argv[0], a, 2);
	case CXPRM_EMUD_Q_FN_PAGES_HELD:
	case CXPRM_EMUD_Q_FN_ENABLED:
		if (argc != 3)
			return emuctl_usage_error("%s FUNCTION_ID EC_FUNCTION", argv[0]);
		if (values(NULL, argv + 1, 2, a + 1))
			return EMUCTL_EXIT_USAGE;
		return print_query(e, argv[0], a, 3);
	default:
		if (argc != 1)
			return emuctl_usage_error("%s takes no argument", argv[0]);
		return print_query(e, argv[0], a, 1);
	}
}

/* The value word of a knob of 'kind' (NULL: none given). */
static int knob_value(enum emuctl_kind kind, const char *w, uint32_t *v, uint32_t *v2)
{
	static const char *const on[] = { "on", "1", "yes", "true" }, *const off[] = { "off", "0", "no", "false" };
	static const char *const targets[] = { "off", "entry", "blocks", "both" };
	unsigned int i;

	switch (kind) {
	case EMUCTL_KIND_BOOL:
		for (i = 0; i < 4; i++)
			if (!w || !strcmp(w, on[i]) || !strcmp(w, off[i])) {
				*v = !w || !strcmp(w, on[i]);
				return 0;
			}
		return -1;
	case EMUCTL_KIND_TARGET:
		for (i = 0; i < 4; i++)
			if (!strcmp(w ? w : "entry", targets[i])) {
				*v = i;
				return 0;
			}
		break;
	case EMUCTL_KIND_SYNDROME:
		if (!w) {
			*v = 0x10;
			return 0;
		}
		break;
	case EMUCTL_KIND_OPCODE:
		if (w && !strcmp(w, "any")) {
			*v = 0xffffffffu;
			return 0;
		}
		return w ? emuctl_value(&emuctl_opcodes, w, v) : -1;
	case EMUCTL_KIND_CRASH:
		*v = !w || strcmp(w, "off");
		*v2 = w && !strcmp(w, "int-err");
		if (!w || !strcmp(w, "off") || *v2)
			return 0;
		break;
	default:
		break;
	}
	return w ? emuctl_value(NULL, w, v) : -1;
}

/* fault KNOB [VALUE [VALUE2]] [--only-opcode OP] [--once] */
static int fault(struct emuctl *e, int argc, char **argv)
{
	const struct emuctl_name *k = NULL;
	uint32_t knob, v = 0, v2 = 0, only = 0, a[3];
	char *vals[2] = { NULL, NULL };
	int i, nv = 0, once = 0, has_only = 0, r;
	char what[80];

	if (argc < 2)
		return emuctl_usage_error("fault KNOB [VALUE [VALUE2]] [--only-opcode OP] [--once]");
	for (i = 2; i < argc; i++) {
		if (!strcmp(argv[i], "--only-opcode")) {
			if (i + 1 >= argc || emuctl_value(&emuctl_opcodes, argv[i + 1], &only))
				return emuctl_usage_error("--only-opcode OP: %s", i + 1 < argc ? argv[i + 1] : "missing");
			has_only = 1;
			i++;
		} else if (!strcmp(argv[i], "--once")) {
			once = 1;
		} else if (nv < 2) {
			vals[nv++] = argv[i];
		} else {
			return emuctl_usage_error("fault %s: too many values", argv[1]);
		}
	}
	if (emuctl_value(&emuctl_faults, argv[1], &knob))
		return emuctl_usage_error("unknown fault knob %s", argv[1]);
	k = emuctl_by_value(&emuctl_faults, knob);
	if (knob_value(k ? k->kind : EMUCTL_KIND_NUM, vals[0], &v, &v2))
		return emuctl_usage_error("fault %s: bad value %s", argv[1], vals[0] ? vals[0] : "(none)");
	if (vals[1] && values(NULL, vals + 1, 1, &v2))
		return EMUCTL_EXIT_USAGE;
	snprintf(what, sizeof(what), "fault %s", argv[1]);
	/* Selectors first: a knob is live as soon as it is set. */
	a[0] = CXPRM_EMUD_FAULT_ONLY_OPCODE;
	a[1] = only;
	a[2] = 0;
	if (has_only && (r = run(e, what, CXPRM_EMUD_CMD_FAULT, a, 3, NULL)))
		return r;
	a[0] = CXPRM_EMUD_FAULT_ONCE;
	a[1] = 1;
	if (once && (r = run(e, what, CXPRM_EMUD_CMD_FAULT, a, 3, NULL)))
		return r;
	a[0] = knob;
	a[1] = v;
	a[2] = v2;
	return run(e, what, CXPRM_EMUD_CMD_FAULT, a, 3, NULL);
}

static int info(struct emuctl *e)
{
	uint32_t fw = emuctl_rd(e, CXPRM_EMUD_CTRL_FW_REV);

	printf("magic       0x%08x\n", emuctl_rd(e, CXPRM_EMUD_CTRL_MAGIC));
	printf("version     %u\n", emuctl_rd(e, CXPRM_EMUD_CTRL_VERSION));
	printf("pid         %u\n", emuctl_rd(e, CXPRM_EMUD_CTRL_PID));
	printf("device id   0x%04x\n", emuctl_rd(e, CXPRM_EMUD_CTRL_DEVICE_ID));
	printf("firmware    %u.%u.%u\n", fw >> 24, (fw >> 16) & 0xff, fw & 0xffff);
	printf("heartbeat   %u\n", emuctl_rd(e, CXPRM_EMUD_CTRL_HEARTBEAT));
	if (e->bar >= 0) {
		printf("bar%d        0x%llx (%zu KiB, %s)\n", e->bar, e->bar_start, e->bar_size / 1024, e->bdf);
		printf("control     0x%llx\n", e->bar_start + CXPRM_EMUD_CTRL_OFFSET(e->bar_size));
	} else {
		printf("bar file    %zu KiB\n", e->bar_size / 1024);
		printf("control     +0x%zx\n", (size_t)CXPRM_EMUD_CTRL_OFFSET(e->bar_size));
	}
	return 0;
}

/* A command with n numeric arguments, at least 'min' of them; prints the result if 'print'. */
static int numeric(struct emuctl *e, int argc, char **argv, uint32_t cmd, int min, int max, int print,
		   const char *usage)
{
	uint32_t a[CXPRM_EMUD_CTRL_NARGS] = { 0 };
	uint64_t v = 0;
	int r;

	if (argc - 1 < min || argc - 1 > max)
		return emuctl_usage_error("%s", usage);
	if (values(NULL, argv + 1, argc - 1, a))
		return EMUCTL_EXIT_USAGE;
	r = run(e, argv[0], cmd, a, (unsigned int)(max > argc - 1 ? max : argc - 1), &v);
	if (!r && print)
		printf("%lld\n", (long long)v);
	return r;
}

int emuctl_run(struct emuctl *e, int argc, char **argv)
{
	const char *c = argv[0];
	const struct emuctl_name *q;
	uint32_t a[CXPRM_EMUD_CTRL_NARGS] = { 0 };
	uint64_t v = 0;
	int r;

	if (!strcmp(c, "ping")) {
		r = argc == 1 ? run(e, c, CXPRM_EMUD_CMD_NOP, NULL, 0, &v) : emuctl_usage_error("ping");
		if (!r)
			printf("cxprm-emud control version %llu\n", (unsigned long long)v);
		return r;
	}
	if (!strcmp(c, "info"))
		return argc == 1 ? info(e) : emuctl_usage_error("info");
	if (!strcmp(c, "mark"))
		return numeric(e, argc, argv, CXPRM_EMUD_CMD_MARK, 1, 1, 0, "mark N");
	if (!strcmp(c, "set-num-vfs"))
		return numeric(e, argc, argv, CXPRM_EMUD_CMD_SET_NUM_VFS, 1, 1, 0, "set-num-vfs N");
	if (!strcmp(c, "request-pages"))
		return numeric(e, argc, argv, CXPRM_EMUD_CMD_REQUEST_PAGES, 1, 1, 0, "request-pages N");
	if (!strcmp(c, "fn-pages"))
		return numeric(e, argc, argv, CXPRM_EMUD_CMD_FN_PAGES, 2, 4, 0,
			       "fn-pages N FUNCTION_ID [EC_FUNCTION [RELEASE_ALL]]");
	if (!strcmp(c, "nvme-queue")) {
		struct emuctl_nvme_queue q;

		if (argc != 2 || values(NULL, argv + 1, 1, a))
			return emuctl_usage_error("nvme-queue QID");
		r = emuctl_nvme_queue(e, a[0], &q);
		if (r < 0)
			return timed_out(e);
		if (r) {
			fprintf(stderr, "emuctl: nvme-queue: no queue pair %u (status %d)\n", a[0], r);
			return EMUCTL_EXIT_REFUSED;
		}
		/* As 'cxprm nvmf setup' takes them. */
		printf("--sq-addr 0x%llx --cq-addr 0x%llx --sq-doorbell 0x%llx --db-stride %u --queue-depth %u\n",
		       (unsigned long long)q.sq_bus, (unsigned long long)q.cq_bus,
		       (unsigned long long)q.sqt_db_bus, q.db_stride, q.depth);
		return 0;
	}
	if (!strcmp(c, "nvmf-io"))
		return numeric(e, argc, argv, CXPRM_EMUD_CMD_NVMF_IO, 4, 5, 0,
			       "nvmf-io XRQN NSID READS WRITES [BLOCKS_PER_IO]");
	if (!strcmp(c, "nvmf-auto-io")) {
		if (argc != 2 || (strcmp(argv[1], "on") && strcmp(argv[1], "off")))
			return emuctl_usage_error("nvmf-auto-io on|off");
		a[0] = !strcmp(argv[1], "on");
		return run(e, c, CXPRM_EMUD_CMD_NVMF_AUTO_IO, a, 1, NULL);
	}
	if (!strcmp(c, "post-event"))
		return numeric(e, argc, argv, CXPRM_EMUD_CMD_POST_EVENT, 2, 9, 1, "post-event TYPE SUBTYPE [D0..D6]");
	if (!strcmp(c, "fault"))
		return fault(e, argc, argv);
	if (!strcmp(c, "fault-clear"))
		return argc == 1 ? run(e, c, CXPRM_EMUD_CMD_FAULT_CLEAR, NULL, 0, NULL) : emuctl_usage_error("fault-clear");
	if (!strcmp(c, "function-reset"))
		return argc == 1 ? run(e, c, CXPRM_EMUD_CMD_FUNCTION_RESET, NULL, 0, NULL) :
				   emuctl_usage_error("function-reset");
	if (!strcmp(c, "fw-restart"))
		return numeric(e, argc, argv, CXPRM_EMUD_CMD_FW_RESTART, 0, 1, 0, "fw-restart [INIT_MS]");
	if (!strcmp(c, "last-syndrome")) {
		a[0] = CXPRM_EMUD_Q_LAST_STATUS;
		r = argc == 1 ? run(e, c, CXPRM_EMUD_CMD_QUERY, a, 1, &v) : emuctl_usage_error("last-syndrome");
		if (!r)
			printf("0x%x\n", (unsigned int)(v >> 32));
		return r;
	}
	if (!strcmp(c, "query")) {
		if (argc < 2 || argc > 5)
			return emuctl_usage_error("query WHAT [A1 A2 A3]");
		if (values(&emuctl_queries, argv + 1, 1, a) || values(NULL, argv + 2, argc - 2, a + 1))
			return EMUCTL_EXIT_USAGE;
		return print_query(e, "query", a, 4);
	}
	if (!strcmp(c, "raw")) {
		if (argc < 2 || argc > 2 + CXPRM_EMUD_CTRL_NARGS)
			return emuctl_usage_error("raw CMD [ARGS...]");
		if (values(NULL, argv + 1, argc - 1, a))
			return EMUCTL_EXIT_USAGE;
		r = emuctl_cmd(e, a[0], a + 1, (unsigned int)argc - 2, &v);
		if (r < 0)
			return timed_out(e);
		printf("%d %lld\n", r, (long long)v);
		return 0;
	}
	q = emuctl_lookup(&emuctl_queries, c);
	if (q)
		return query(e, q, argc, argv);
	return emuctl_usage_error("unknown command %s (emuctl --help)", c);
}
