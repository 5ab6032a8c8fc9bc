// SPDX-License-Identifier: GPL-2.0
/*
 * emuctl: talk to cxprm-emud (the firmware emulator behind QEMU) through
 * its test control page in the last 4 KiB of the ivshmem BAR
 * (tools/emulator/daemon/control.h, README.md there).  run-guest.sh
 * installs it, static, as /bin/emuctl; the host test emud_emuctl runs it
 * against a BAR file (--bar-file).
 *
 * This file: options, finding and mapping the page, waiting for the
 * daemon; emuctl_commands.c runs the commands.
 */
#include <dirent.h>
#include <stdarg.h>
#include <stdlib.h>

#include "emuctl_cli.h"
#include "emuctl_names.h"

static void usage(FILE *f)
{
	fputs("usage: emuctl [--bdf BDF] [--bar-file PATH] [--timeout S] COMMAND [ARGS...]\n"
	      "\n"
	      "The page: the ivshmem device BDF (default $CXPRM_BDF, else the first 1af4:1110),\n"
	      "or a BAR file (--bar-file, default $EMUCTL_BAR_FILE) on the host.\n"
	      "\n"
	      "Emulator\n"
	      "  ping                      check that cxprm-emud answers (prints its version)\n"
	      "  info                      magic, version, pid, device id, firmware, BAR address\n"
	      "  wait [S]                  wait up to S seconds (default 10) for the emulator\n"
	      "  mark N                    write \"guest mark N\" into the emulator's log\n"
	      "Hooks\n"
	      "  set-num-vfs N             eswitch VF count -> ESW_FUNCTIONS_CHANGED event\n"
	      "  request-pages N           PAGE_REQUEST event (N < 0: firmware returns pages)\n"
	      "  fn-pages N FUNCTION_ID [EC_FUNCTION [RELEASE_ALL]]  PAGE_REQUEST for a function\n"
	      "  nvmf-io XRQN NSID READS WRITES [BLOCKS_PER_IO]\n"
	      "  nvmf-auto-io on|off       run or pause the namespaces' automatic I/O tick\n"
	      "  nvme-queue QID (the emulated SSD's I/O queue pair, afresh: prints\n"
	      "    the options 'cxprm nvmf setup' takes)\n"
	      "  post-event TYPE SUBTYPE [D0..D6]   D = big-endian data dwords; prints #EQs\n"
	      "Faults\n"
	      "  fault KNOB [VALUE [VALUE2]] [--only-opcode OP] [--once]\n"
	      "        never-complete on|off        corrupt-signature entry|blocks|both|off\n"
	      "        wrong-token entry|blocks|both|off\n"
	      "        delivery-status STATUS [COUNT]   (STATUS 0 = off)\n"
	      "        output-length-lie N          broken-chain on|off\n"
	      "        slow-ms N                    crash [int-err|off] (sticky)\n"
	      "        device-gone (sticky)         crash-int-err on|off\n"
	      "        only-opcode OP|any           once on|off\n"
	      "        health-stall on|off          (health counter stops, no syndrome)\n"
	      "        health-syndrome [N]          (syndrome without rfr, default 0x10, 0 clears)\n"
	      "        sw-reset (sticky)            (nic_interface SW_RESET until function reset)\n"
	      "        (a KNOB or VALUE may also be given as its number)\n"
	      "  fault-clear                clear every per-command knob and the selectors\n"
	      "  function-reset             the host resets the function: crash/gone/stall end,\n"
	      "                             HCA DISABLED, pages and objects dropped\n"
	      "  fw-restart [INIT_MS]       the firmware resets as after an assert: state lost,\n"
	      "                             crash/stall end, nic_interface DISABLED, initializing\n"
	      "                             for INIT_MS (default: the profile's fw_reset_ms)\n"
	      "Queries (print the value)\n", f);
	emuctl_print_names(f, &emuctl_queries, "  ");
	fputs("  last-syndrome\n"
	      "  with arguments: pages-wanted boot|init|regular, opcode-count OP,\n"
	      "  counter NAME, nvmf-counter XRQN NSID FIELD, nvme-stat NAME,\n"
	      "  fn-pages-held FUNCTION_ID EC\n"
	      "  query WHAT [A1 A2 A3]      any query by name or number\n"
	      "  raw CMD [ARGS...]          raw command: prints \"status result\"\n"
	      "OP is a number or a PRM name (ENABLE_HCA, MANAGE_PAGES, ...).  Counter NAMEs:\n", f);
	emuctl_print_names(f, &emuctl_counters, "  ");
	fputs("NVMF FIELDs:\n", f);
	emuctl_print_names(f, &emuctl_nvmf_fields, "  ");
	fputs("NVMe device statistics (nvme-stat NAME, the emulated SSD):\n", f);
	emuctl_print_names(f, &emuctl_nvme_stats, "  ");
	fputs("\nExit status: 0 ok, 1 the emulator refused (status printed on stderr),\n"
	      "2 usage, 3 no emulator, 4 no answer in time.\n", f);
}

int emuctl_usage_error(const char *fmt, ...)
{
	va_list ap;

	fputs("emuctl: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	return EMUCTL_EXIT_USAGE;
}

static int sysfs_hex(const char *bdf, const char *file, unsigned long *v)
{
	char path[300], buf[32];
	FILE *f;
	int ok;

	snprintf(path, sizeof(path), EMUCTL_SYSFS "/%s/%s", bdf, file);
	f = fopen(path, "re");
	if (!f)
		return -1;
	ok = fgets(buf, sizeof(buf), f) != NULL;
	fclose(f);
	if (!ok)
		return -1;
	*v = strtoul(buf, NULL, 16);
	return 0;
}

/* The first ivshmem device (1af4:1110) in sysfs order, or NULL. */
static const char *find_ivshmem(char *out, size_t len)
{
	struct dirent **ents;
	unsigned long vendor, device;
	int i, n = scandir(EMUCTL_SYSFS, &ents, NULL, alphasort);
	const char *found = NULL;

	for (i = 0; i < n; i++) {
		if (!found && ents[i]->d_name[0] != '.' &&
		    !sysfs_hex(ents[i]->d_name, "vendor", &vendor) && vendor == 0x1af4 &&
		    !sysfs_hex(ents[i]->d_name, "device", &device) && device == 0x1110) {
			snprintf(out, len, "%s", ents[i]->d_name);
			found = out;
		}
		free(ents[i]);
	}
	if (n >= 0)
		free(ents);
	return found;
}

/* Maps the page: 0, or the exit status (message printed). */
static int attach(struct emuctl *e, const char *bdf, const char *bar_file)
{
	char found[256];
	int r;

	if (bar_file && *bar_file) {
		r = emuctl_map_file(e, bar_file);
		if (r)
			fprintf(stderr, "emuctl: BAR file %s: %s\n", bar_file, strerror(-r));
		return r ? EMUCTL_EXIT_NO_EMULATOR : 0;
	}
	if (!bdf || !*bdf)
		bdf = find_ivshmem(found, sizeof(found));
	if (!bdf) {
		fprintf(stderr, "emuctl: no ivshmem device (1af4:1110)\n");
		return EMUCTL_EXIT_NO_EMULATOR;
	}
	r = emuctl_map_bdf(e, bdf);
	if (r)
		fprintf(stderr, "emuctl: the BAR of %s: %s%s\n", bdf, strerror(-r),
			r == -EINVAL || r == -EPERM ?
			" (a driver holds the BAR and the kernel runs without iomem=relaxed?)" : "");
	return r ? EMUCTL_EXIT_NO_EMULATOR : 0;
}

static int no_emulator(struct emuctl *e)
{
	fprintf(stderr, "emuctl: no cxprm-emud behind the control page of %s (magic 0x%x)\n",
		e->bdf[0] ? e->bdf : "the BAR file", emuctl_rd(e, CXPRM_EMUD_CTRL_MAGIC));
	return EMUCTL_EXIT_NO_EMULATOR;
}

/* wait [S]: until the daemon's magic is there. */
static int wait_ready(struct emuctl *e, int argc, char **argv)
{
	int64_t s = 10;
	uint64_t deadline;

	if (argc > 2 || (argc == 2 && (emuctl_num(argv[1], &s) || s < 0 || s > 86400)))
		return emuctl_usage_error("wait [S]");
	deadline = emuctl_now_ms() + (uint64_t)s * 1000u;
	while (!emuctl_ready(e)) {
		if (emuctl_now_ms() > deadline)
			return no_emulator(e);
		usleep(100000);
	}
	return 0;
}

int main(int argc, char **argv)
{
	const char *bdf = getenv("CXPRM_BDF"), *bar_file = getenv("EMUCTL_BAR_FILE");
	unsigned int timeout_ms = 0;
	struct emuctl e;
	int64_t t;
	int i, r;

	for (i = 1; i < argc && argv[i][0] == '-'; i++) {
		const char *o = argv[i];

		if (!strcmp(o, "-h") || !strcmp(o, "--help")) {
			usage(stdout);
			return 0;
		}
		if (!strcmp(o, "--")) {
			i++;
			break;
		}
		if (strcmp(o, "--bdf") && strcmp(o, "-d") && strcmp(o, "--bar-file") && strcmp(o, "--timeout"))
			return emuctl_usage_error("unknown option %s", o);
		if (i + 1 >= argc)
			return emuctl_usage_error("%s needs a value", o);
		if (!strcmp(o, "--timeout")) {
			if (emuctl_num(argv[i + 1], &t) || t < 1 || t > 3600)
				return emuctl_usage_error("--timeout S (1..3600): %s", argv[i + 1]);
			timeout_ms = (unsigned int)t * 1000u;
		} else if (!strcmp(o, "--bar-file")) {
			bar_file = argv[i + 1];
		} else {
			bdf = argv[i + 1];
			bar_file = NULL;
		}
		i++;
	}
	if (i >= argc) {
		usage(stderr);
		return EMUCTL_EXIT_USAGE;
	}
	argv += i;
	argc -= i;
	r = attach(&e, bdf, bar_file);
	if (r)
		return r;
	e.timeout_ms = timeout_ms;
	if (!strcmp(argv[0], "wait"))
		r = wait_ready(&e, argc, argv);
	else if (!emuctl_ready(&e))
		r = no_emulator(&e);
	else
		r = emuctl_run(&e, argc, argv);
	emuctl_close(&e);
	if (fflush(stdout))
		r = r ? r : EMUCTL_EXIT_USAGE;
	return r;
}
