// SPDX-License-Identifier: GPL-2.0
/*
 * /dev/cxprm/<bdf>: the userspace interface of include/uapi/linux/cxprm.h.
 *
 * The node is root's only (0600, as fwctl's and mlx5's char devices):
 * the packaged udev rule relaxes it to 0660 for group cxprm, root's
 * choice of who may read INFO (Documentation/security.rst, "Who may open
 * the device").  Every ioctl but INFO (and read()) also checks the
 * caller's capabilities itself, as the UAPI header lists them, so a file
 * descriptor carries no privilege of its own.
 *
 * Per open file: the DCTs and objects it created (destroyed when it is
 * closed, DCTs first, then the objects in dependency order), its event
 * subscription and a queue of CXPRM_EVENT_QUEUE event records that drops
 * the oldest on overflow.
 */
#include <linux/bitops.h>
#include <linux/capability.h>
#include <linux/compat.h>
#include <linux/errno.h>
#include <linux/fs.h>
#include <linux/kernel.h>
#include <linux/minmax.h>
#include <linux/miscdevice.h>
#include <linux/mm.h>
#include <linux/poll.h>
#include <linux/sched.h>
#include <linux/security.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/timekeeping.h>
#include <linux/uaccess.h>

#include "cxprm.h"
#include "cxprm_compat.h"
#include "cxprm_params.h"

/*
 * The core returns negative Linux errno values it defines itself
 * (cxprm::Err, the asm-generic numbers); they pass through unchanged.
 */
static void cxprm_check_errnos(void)
{
	BUILD_BUG_ON(EREMOTEIO != 121 || ETIMEDOUT != 110 || EPROTO != 71);
	BUILD_BUG_ON(EBADMSG != 74 || EOVERFLOW != 75 || ESHUTDOWN != 108);
	BUILD_BUG_ON(EOPNOTSUPP != 95 || ENODEV != 19 || EBUSY != 16);
	BUILD_BUG_ON(EHOSTDOWN != 112 || EPERM != 1 || ENOENT != 2);
	BUILD_BUG_ON(EINVAL != 22 || ENOTTY != 25 || ENOSPC != 28);
	BUILD_BUG_ON(ENOMEM != 12 || EFAULT != 14);
	/* The facade's enum is the UAPI's (ioctl.cpp asserts it too). */
	BUILD_BUG_ON((int)CXPRM_CORE_DOWN != (int)CXPRM_STATE_DOWN ||
		     (int)CXPRM_CORE_UP != (int)CXPRM_STATE_UP ||
		     (int)CXPRM_CORE_ERROR != (int)CXPRM_STATE_ERROR ||
		     (int)CXPRM_CORE_GONE != (int)CXPRM_STATE_GONE);
}

/* ---- ioctls (called under cx->rwsem, read, with cx->alive) ---- */

/*
 * What each ioctl means, its checks and the privilege it needs are the
 * core's (cxprm_core_ioctl(), core-cpp/src/ioctl_entry.cpp): here only the
 * copies from and to userspace and capable().
 */

static int cxprm_copy_in(void *ctx, void *dst, cxprm_u64 uaddr, cxprm_size n)
{
	return copy_from_user(dst, u64_to_user_ptr((u64)uaddr), n) ? -EFAULT : 0;
}

static int cxprm_copy_out(void *ctx, cxprm_u64 uaddr, const void *src,
			  cxprm_size n)
{
	return copy_to_user(u64_to_user_ptr((u64)uaddr), src, n) ? -EFAULT : 0;
}

/*
 * A raw write (anything outside the read scope) also needs a kernel that
 * is not locked down: under lockdown=integrity or confidentiality it is
 * what LOCKDOWN_PCI_ACCESS keeps from userspace, direct access to the
 * device, and the LSM says so in dmesg ("Lockdown: ...").
 */
static int cxprm_allowed(void *ctx, int priv)
{
	switch (priv) {
	case CXPRM_CORE_PRIV_ADMIN:
		return capable(CAP_NET_ADMIN);
	case CXPRM_CORE_PRIV_RAW_WRITE:
		return capable(CAP_SYS_RAWIO) &&
		       READ_ONCE(cxprm_allow_raw_write) &&
		       !security_locked_down(LOCKDOWN_PCI_ACCESS);
	default:
		return 0;
	}
}

/* A raw write is about to run: taint, and say who once per file. */
static void cxprm_raw_write(void *ctx, cxprm_u16 opcode, cxprm_u16 op_mod)
{
	struct cxprm_file *f = ctx;

	add_taint(CXPRM_TAINT_RAW_WRITE, LOCKDEP_STILL_OK);
	if (test_and_set_bit(CXPRM_FILE_WROTE, &f->flags))
		return;
	dev_warn(&f->cx->pdev->dev,
		 "raw write by %s (pid %d): %s (0x%x) op_mod 0x%x; kernel tainted (%s); later writes of this file are not logged\n",
		 current->comm, task_pid_nr(current),
		 cxprm_core_opcode_name(opcode), opcode, op_mod,
		 CXPRM_TAINT_RAW_WRITE_NAME);
}

static const struct cxprm_core_caller_ops cxprm_caller_ops = {
	.copy_in = cxprm_copy_in,
	.copy_out = cxprm_copy_out,
	.allowed = cxprm_allowed,
	.raw_write = cxprm_raw_write,
};

static long cxprm_ioctl(struct file *file, unsigned int cmd,
			unsigned long uarg)
{
	struct cxprm_file *f = file->private_data;
	const struct cxprm_core_caller caller = {
		.ops = &cxprm_caller_ops,
		.ctx = f,
	};
	struct cxprm_dev *cx = f->cx;
	long ret;

	down_read(&cx->rwsem);
	if (!cx->alive) {
		ret = -ENODEV;
		goto out;
	}
	/* A command that finds the device failed: the core tells (health_changed). */
	ret = cxprm_core_ioctl(cx->core, &f->core, cmd, uarg, &caller);
out:
	up_read(&cx->rwsem);
	return ret;
}

/* ---- read / poll ---- */

static ssize_t cxprm_read(struct file *file, char __user *buf, size_t len,
			  loff_t *ppos)
{
	struct cxprm_file *f = file->private_data;
	struct cxprm_dev *cx = f->cx;
	struct cxprm_event ev;
	size_t done = 0;
	int err;

	if (!capable(CAP_NET_ADMIN))
		return -EPERM;
	if (len < sizeof(ev))
		return -EINVAL;
	for (;;) {
		if (!READ_ONCE(cx->alive))
			return -ENODEV;
		if (READ_ONCE(f->ev_count))
			break;
		/* A failed device sends no more events: do not wait for one. */
		err = cxprm_dev_failed(cx);
		if (err)
			return err;
		if (file->f_flags & O_NONBLOCK)
			return -EAGAIN;
		err = wait_event_interruptible(cx->wait,
					       READ_ONCE(f->ev_count) ||
					       !READ_ONCE(cx->alive) ||
					       cxprm_dev_failed(cx));
		if (err)
			return err;
	}
	while (len - done >= sizeof(ev) && cxprm_file_pop(f, &ev)) {
		if (copy_to_user(buf + done, &ev, sizeof(ev)))
			return done ? done : -EFAULT;
		done += sizeof(ev);
	}
	return done;
}

static __poll_t cxprm_poll(struct file *file, poll_table *wait)
{
	struct cxprm_file *f = file->private_data;
	struct cxprm_dev *cx = f->cx;

	poll_wait(file, &cx->wait, wait);
	if (!READ_ONCE(cx->alive))
		return EPOLLERR | EPOLLHUP;
	if (READ_ONCE(f->ev_count))
		return EPOLLIN | EPOLLRDNORM;
	return cxprm_dev_failed(cx) ? EPOLLERR : 0;
}

/* ---- open / release ---- */

/* The core's table of the file's DCTs (cxprm_core_dcts) takes this lock. */
static void cxprm_dcts_lock(struct cxprm_core_dcts *t)
	__acquires(t)
{
	spin_lock(&container_of(t, struct cxprm_file, core.dcts)->dct_table_lock);
}

static void cxprm_dcts_unlock(struct cxprm_core_dcts *t)
	__releases(t)
{
	spin_unlock(&container_of(t, struct cxprm_file, core.dcts)->dct_table_lock);
}

static int cxprm_open(struct inode *inode, struct file *file)
{
	/* The misc core set private_data to our struct miscdevice. */
	struct cxprm_dev *cx = container_of(file->private_data,
					    struct cxprm_dev, misc);
	struct cxprm_file *f;
	int err;

	err = nonseekable_open(inode, file);
	if (err)
		return err;
	f = kvzalloc(sizeof(*f), GFP_KERNEL);
	if (!f)
		return -ENOMEM;
	mutex_init(&f->obj_lock);
	f->core.obj_lock = &f->obj_lock;
	spin_lock_init(&f->dct_table_lock);
	f->core.dcts.lock = cxprm_dcts_lock;
	f->core.dcts.unlock = cxprm_dcts_unlock;
	cxprm_events_file_init(f);

	down_read(&cx->rwsem);
	if (!cx->alive) {
		up_read(&cx->rwsem);
		mutex_destroy(&f->obj_lock);
		kvfree(f);
		return -ENODEV;
	}
	cxprm_dev_get(cx);
	f->cx = cx;
	mutex_lock(&cx->files_lock);
	list_add_tail(&f->node, &cx->files);
	mutex_unlock(&cx->files_lock);
	up_read(&cx->rwsem);
	file->private_data = f;
	return 0;
}

/* DESTROY_DCT for every DCT the file still owns (cx->cleanup_ok). */
static void cxprm_file_destroy_dcts(struct cxprm_file *f)
{
	struct cxprm_dev *cx = f->cx;
	struct cxprm_core_result r;
	u32 dctn;
	int err;

	/* One at a time, taken from the table, no lock held while it runs. */
	while (cxprm_core_dcts_pop(&f->core.dcts, &dctn)) {
		err = cxprm_core_dct_destroy(cx->core, dctn, &r);
		if (err)
			dev_warn(&cx->pdev->dev,
				 "close: DESTROY_DCT 0x%x: %s (%d), status %s syndrome 0x%08x\n",
				 dctn, cxprm_core_err_name(err), err,
				 cxprm_core_status_name(r.st.status),
				 r.st.syndrome);
	}
}

static int cxprm_release(struct inode *inode, struct file *file)
{
	struct cxprm_file *f = file->private_data;
	struct cxprm_dev *cx = f->cx;

	/*
	 * During remove (alive false) this may race with cxprm_cdev_shutdown():
	 * each DCT is taken from the table under dct_table_lock by one of them.
	 */
	down_read(&cx->rwsem);
	if (cx->cleanup_ok) {
		cxprm_file_destroy_dcts(f);
		cxprm_objs_destroy(cx, xchg(&f->core.objs, NULL), "close");
	}
	/* Else remove took the table, or none was made. */
	WARN_ON_ONCE(f->core.objs);
	mutex_lock(&cx->files_lock);
	list_del(&f->node);
	mutex_unlock(&cx->files_lock);
	up_read(&cx->rwsem);

	mutex_destroy(&f->obj_lock);
	kvfree(f);
	cxprm_dev_put(cx);
	return 0;
}

static const struct file_operations cxprm_fops = {
	.owner = THIS_MODULE,
	.open = cxprm_open,
	.release = cxprm_release,
	.read = cxprm_read,
	.poll = cxprm_poll,
	.unlocked_ioctl = cxprm_ioctl,
	.compat_ioctl = compat_ptr_ioctl,
};

int cxprm_cdev_register(struct cxprm_dev *cx)
{
	struct cxprm_info id = {};
	int err;

	cxprm_check_errnos();
	snprintf(cx->misc_name, sizeof(cx->misc_name), "cxprm/%s", cx->bdf);
	/* What INFO reports of the function (the rest is the core's). */
	strscpy(id.pci_addr, cx->bdf, sizeof(id.pci_addr));
	strscpy(id.dev_name, cx->misc_name, sizeof(id.dev_name));
	id.vendor_id = cx->pdev->vendor;
	id.device_id = cx->pdev->device;
	cxprm_core_set_identity(cx->core, &id);
	cx->misc.minor = MISC_DYNAMIC_MINOR;
	cx->misc.name = cx->misc_name;
	cx->misc.fops = &cxprm_fops;
	cx->misc.parent = &cx->pdev->dev;
	/* misc's devnode callback hands this to devtmpfs: root only. */
	cx->misc.mode = 0600;
	err = misc_register(&cx->misc);
	if (!err)
		cx->misc_registered = true;
	return err;
}

void cxprm_cdev_unregister(struct cxprm_dev *cx)
{
	if (cx->misc_registered)
		misc_deregister(&cx->misc);
	cx->misc_registered = false;
}

/*
 * The device is going away (cx->alive is false: no ioctl runs, no file
 * opens): wake blocked readers, which then get -ENODEV, and destroy the
 * DCTs, then the objects, files still own while the HCA is up.  Files
 * closing meanwhile destroy their own; afterwards none is left and
 * releases stop trying.
 */
void cxprm_cdev_shutdown(struct cxprm_dev *cx)
{
	struct cxprm_core_result r;
	struct cxprm_file *f;
	unsigned int n = 0;
	bool found;
	u32 dctn = 0;
	int err;

	cxprm_dev_wake(cx);
	if (!cx->cleanup_ok)
		return;

	/* One at a time, no lock held while the command runs. */
	for (;;) {
		found = false;
		/*
		 * files_lock, then only the table's spinlock: no file lock is
		 * held across a command (one may wait on the event pump, whose
		 * listener needs files_lock).
		 */
		mutex_lock(&cx->files_lock);
		list_for_each_entry(f, &cx->files, node) {
			found = cxprm_core_dcts_pop(&f->core.dcts, &dctn);
			if (found)
				break;
		}
		mutex_unlock(&cx->files_lock);
		if (!found)
			break;
		err = cxprm_core_dct_destroy(cx->core, dctn, &r);
		if (err)
			dev_warn(&cx->pdev->dev,
				 "remove: DESTROY_DCT 0x%x: %s (%d)\n", dctn,
				 cxprm_core_err_name(err), err);
		n++;
	}
	if (n)
		dev_info(&cx->pdev->dev, "destroyed %u DCTs of open files\n", n);
	/*
	 * A release that ran meanwhile may have found its DCT table empty
	 * (taken above) while its DCT was still being destroyed here, and
	 * left objects that DCT named as orphans.  The write lock waits for
	 * such releases to finish and keeps later ones out until the sweep,
	 * orphans included, is done; no command path takes the rwsem.
	 */
	down_write(&cx->rwsem);
	cxprm_objs_shutdown(cx);
	cx->cleanup_ok = false;
	up_write(&cx->rwsem);
}
