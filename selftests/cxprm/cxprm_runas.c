// SPDX-License-Identifier: GPL-2.0
/*
 * cxprm_runas UID COMMAND [ARGS...]: run COMMAND as uid and gid UID with no
 * supplementary groups (and so no capabilities), for the shell tests (the
 * guest's busybox setpriv cannot change ids).
 */
#define _GNU_SOURCE
#include <grp.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	uid_t id;

	if (argc < 3) {
		fprintf(stderr, "usage: cxprm_runas UID COMMAND [ARGS...]\n");
		return 126;
	}
	id = (uid_t)strtoul(argv[1], NULL, 0);
	if (setgroups(0, NULL) || setresgid(id, id, id) || setresuid(id, id, id)) {
		perror("cxprm_runas");
		return 126;
	}
	execvp(argv[2], argv + 2);
	perror(argv[2]);
	return 127;
}
