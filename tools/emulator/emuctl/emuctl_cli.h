/* SPDX-License-Identifier: GPL-2.0 */
/*
 * /bin/emuctl, the command line on the control page client (emuctl.h):
 * emuctl_main.c finds and maps the page, emuctl_commands.c runs the
 * commands, emuctl_names.c names the numbers.
 */
#ifndef CXPRM_EMUCTL_CLI_H
#define CXPRM_EMUCTL_CLI_H

#include "emuctl.h"

/* Exit status. */
enum {
	EMUCTL_EXIT_OK = 0,
	EMUCTL_EXIT_REFUSED = 1,	/* the emulator refused (status on stderr) */
	EMUCTL_EXIT_USAGE = 2,
	EMUCTL_EXIT_NO_EMULATOR = 3,
	EMUCTL_EXIT_TIMEOUT = 4,	/* no answer in time */
};

/* Prints "emuctl: ..." on stderr and returns EMUCTL_EXIT_USAGE. */
int emuctl_usage_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Runs COMMAND [ARGS...] (argv[0] is COMMAND) on a ready page: the exit status. */
int emuctl_run(struct emuctl *e, int argc, char **argv);

#endif /* CXPRM_EMUCTL_CLI_H */
