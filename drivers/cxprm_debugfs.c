// SPDX-License-Identifier: GPL-2.0
/*
 * /sys/kernel/debug/cxprm/<bdf>/: read-only texts the core formats
 * (cxprm_core_format), rendered once at open into a kvmalloc'ed buffer and
 * read with simple_read_from_buffer, so one read(2) sequence sees one
 * consistent snapshot.
 *
 *   caps       decoded general capabilities, CUR and MAX
 *   cmd_stats  per opcode: count, errors, last status/syndrome, latencies
 *   cmdq       every command queue slot: owner, delivery status, token,
 *              opcode, lengths, and a hexdump of the entry
 *   last_cmds  the last commands with the first bytes of input and output
 *   eq         the async EQ, event counters, the polling worker
 *   pages      pages lent to firmware
 *   health     fw_rev, health syndrome and counter, bring-up trace
 *
 * and one to write (root): 'recover', where writing 1 recovers a device
 * failed with dead firmware now, in the writer's task (mlx5: devlink
 * health recover); the write returns when the recovery ended, with its
 * errno (EINVAL: not failed, EBUSY: one runs, ENODEV: gone or removed).
 *
 * debugfs_remove_recursive() waits for opens in progress, and the device
 * removes its directory before it tears the core down.
 */
#include <linux/atomic.h>
#include <linux/debugfs.h>
#include <linux/fs.h>
#include <linux/minmax.h>
#include <linux/mm.h>
#include <linux/sizes.h>
#include <linux/slab.h>

#include "cxprm.h"
#include "cxprm_params.h"

#define CXPRM_DBG_START		SZ_64K
#define CXPRM_DBG_MAX		SZ_4M

struct cxprm_dbg_text {
	size_t len;
	char buf[];
};

static struct dentry *cxprm_dbg_root;

static const char * const cxprm_dbg_names[CXPRM_TEXT_COUNT] = {
	[CXPRM_TEXT_CAPS] = "caps",
	[CXPRM_TEXT_CMD_STATS] = "cmd_stats",
	[CXPRM_TEXT_CMDQ] = "cmdq",
	[CXPRM_TEXT_LAST_CMDS] = "last_cmds",
	[CXPRM_TEXT_EQ] = "eq",
	[CXPRM_TEXT_PAGES] = "pages",
	[CXPRM_TEXT_HEALTH] = "health",
};

/* What the shim knows that the core does not. */
static size_t cxprm_dbg_shim(struct cxprm_dev *cx, int which, char *buf,
			     size_t cap)
{
	if (which == CXPRM_TEXT_EQ)
		return scnprintf(buf, cap,
				 "worker: %s, interval %u ms, runs %lld, MSI-X interrupts %lld%s\n",
				 cx->events_on ? "polling" : "stopped",
				 READ_ONCE(cxprm_poll_interval_ms),
				 (long long)atomic64_read(&cx->polls),
				 (long long)atomic64_read(&cx->irqs),
				 cx->irq >= 0 ? "" : " (no interrupt line: polling only)");
	if (which == CXPRM_TEXT_HEALTH && cx->bringup_err)
		return scnprintf(buf, cap, "probe: bring-up returned %s (%d)\n",
				 cxprm_core_err_name(cx->bringup_err),
				 cx->bringup_err);
	return 0;
}

static int cxprm_dbg_open(struct inode *inode, struct file *file)
{
	struct cxprm_dbg_node *node = inode->i_private;
	struct cxprm_dev *cx = node->cx;
	int which = node->which;
	struct cxprm_dbg_text *t = NULL;
	size_t cap, len;
	int trunc = 1;

	for (cap = CXPRM_DBG_START; trunc && cap <= CXPRM_DBG_MAX; cap *= 2) {
		kvfree(t);
		t = kvmalloc(sizeof(*t) + cap, GFP_KERNEL);
		if (!t)
			return -ENOMEM;
		len = cxprm_core_format(cx->core, which, t->buf, cap, &trunc);
		len += cxprm_dbg_shim(cx, which, t->buf + len, cap - len);
		t->len = len;
	}
	file->private_data = t;
	return nonseekable_open(inode, file);
}

static ssize_t cxprm_dbg_read(struct file *file, char __user *buf,
			      size_t len, loff_t *ppos)
{
	struct cxprm_dbg_text *t = file->private_data;

	return simple_read_from_buffer(buf, len, ppos, t->buf, t->len);
}

static int cxprm_dbg_release(struct inode *inode, struct file *file)
{
	kvfree(file->private_data);
	return 0;
}

static const struct file_operations cxprm_dbg_fops = {
	.owner = THIS_MODULE,
	.open = cxprm_dbg_open,
	.read = cxprm_dbg_read,
	.release = cxprm_dbg_release,
};

static ssize_t cxprm_dbg_recover_write(struct file *file,
				       const char __user *ubuf, size_t len,
				       loff_t *ppos)
{
	struct cxprm_dev *cx = file->private_data;
	bool on;
	int err = kstrtobool_from_user(ubuf, len, &on);

	if (err)
		return err;
	if (!on)
		return -EINVAL;
	err = cxprm_recover_now(cx);
	return err ? err : len;
}

static const struct file_operations cxprm_dbg_recover_fops = {
	.owner = THIS_MODULE,
	.open = simple_open,
	.write = cxprm_dbg_recover_write,
};

void cxprm_debugfs_add(struct cxprm_dev *cx)
{
	int i;

	if (IS_ERR_OR_NULL(cxprm_dbg_root))
		return;
	cx->dbg = debugfs_create_dir(cx->bdf, cxprm_dbg_root);
	if (IS_ERR(cx->dbg))
		return;
	for (i = 0; i < CXPRM_TEXT_COUNT; i++) {
		cx->dbg_nodes[i].cx = cx;
		cx->dbg_nodes[i].which = i;
		debugfs_create_file(cxprm_dbg_names[i], 0400, cx->dbg,
				    &cx->dbg_nodes[i], &cxprm_dbg_fops);
	}
	debugfs_create_file("recover", 0200, cx->dbg, cx,
			    &cxprm_dbg_recover_fops);
}

void cxprm_debugfs_remove(struct cxprm_dev *cx)
{
	debugfs_remove_recursive(cx->dbg);
	cx->dbg = NULL;
}

void cxprm_debugfs_init(void)
{
	cxprm_dbg_root = debugfs_create_dir(KBUILD_MODNAME, NULL);
}

void cxprm_debugfs_exit(void)
{
	debugfs_remove_recursive(cxprm_dbg_root);
	cxprm_dbg_root = NULL;
}
