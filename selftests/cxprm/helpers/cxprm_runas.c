// SPDX-License-Identifier: GPL-2.0
/*
 * cxprm_runas [--net-admin] UID COMMAND [ARGS...]: run COMMAND as uid and
 * gid UID with no supplementary groups, for the shell tests (the guest's
 * busybox setpriv cannot change ids).  No capabilities, or with
 * --net-admin exactly CAP_NET_ADMIN, kept across the exec as an ambient
 * capability (what a service given AmbientCapabilities=CAP_NET_ADMIN has).
 */
#define _GNU_SOURCE
#include <grp.h>
#include <linux/capability.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

/* Exactly CAP_NET_ADMIN: permitted, effective, inheritable, ambient. */
static int keep_net_admin(void)
{
	struct __user_cap_header_struct h = { _LINUX_CAPABILITY_VERSION_3, 0 };
	struct __user_cap_data_struct d[2];

	memset(d, 0, sizeof(d));
	d[0].effective = d[0].permitted = d[0].inheritable = 1u << CAP_NET_ADMIN;
	if (syscall(SYS_capset, &h, d))
		return -1;
	return prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_RAISE, CAP_NET_ADMIN, 0, 0);
}

int main(int argc, char **argv)
{
	int net_admin = argc > 1 && !strcmp(argv[1], "--net-admin");
	uid_t id;

	argv += net_admin;
	argc -= net_admin;
	if (argc < 3) {
		fprintf(stderr, "usage: cxprm_runas [--net-admin] UID COMMAND [ARGS...]\n");
		return 126;
	}
	id = (uid_t)strtoul(argv[1], NULL, 0);
	/* setuid keeps the permitted set (not the effective one) with KEEPCAPS. */
	if ((net_admin && prctl(PR_SET_KEEPCAPS, 1, 0, 0, 0)) || setgroups(0, NULL) ||
	    setresgid(id, id, id) || setresuid(id, id, id) || (net_admin && keep_net_admin())) {
		perror("cxprm_runas");
		return 126;
	}
	execvp(argv[2], argv + 2);
	perror(argv[2]);
	return 127;
}
