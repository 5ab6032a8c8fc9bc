// SPDX-License-Identifier: GPL-2.0
/*
 * /dev/cxprm/<bdf>: the userspace interface of include/uapi/linux/cxprm.h.
 *
 * The node is mode 0666 on purpose: CXPRM_IOC_INFO is for anyone who can
 * open it, and every other ioctl (and read()) checks the caller's
 * capabilities itself, as the UAPI header lists them.  A file descriptor
 * therefore carries no privilege of its own.
 *
 * Per open file: the DCTs it created (destroyed when it is closed), its
 * event subscription and a queue of CXPRM_EVENT_QUEUE event records that
 * drops the oldest on overflow.
 */
#include <linux/bitops.h>
#include <linux/capability.h>
#include <linux/compat.h>
#include <linux/errno.h>
#include <linux/fs.h>
#include <linux/minmax.h>
#include <linux/miscdevice.h>
#include <linux/mm.h>
#include <linux/poll.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/timekeeping.h>
#include <linux/uaccess.h>

#include "cxprm.h"

/* Event types a new file is subscribed to (UAPI: CXPRM_IOC_SUBSCRIBE). */
#define CXPRM_EVENT_ESW_FUNCTIONS_CHANGED	0x0e
#define CXPRM_EVENT_DCT_DRAINED			0x1c

static void cxprm_dev_release(struct kref *kref)
{
	kfree(container_of(kref, struct cxprm_dev, kref));
}

void cxprm_dev_put(struct cxprm_dev *cx)
{
	kref_put(&cx->kref, cxprm_dev_release);
}

/*
 * The core returns negative Linux errno values it defines itself
 * (cxprm::Err, the asm-generic numbers); they pass through unchanged.
 */
static void cxprm_check_errnos(void)
{
	BUILD_BUG_ON(EREMOTEIO != 121 || ETIMEDOUT != 110 || EPROTO != 71);
	BUILD_BUG_ON(EBADMSG != 74 || EOVERFLOW != 75 || ESHUTDOWN != 108);
	BUILD_BUG_ON(EOPNOTSUPP != 95 || ENODEV != 19 || EBUSY != 16);
}

/* ---- events ---- */

static bool cxprm_file_wants(const struct cxprm_file *f, u8 type)
{
	return f->mask[type / 64] & BIT_ULL(type % 64);
}

static void cxprm_file_push(struct cxprm_file *f, const struct cxprm_event *ev)
{
	unsigned long flags;

	spin_lock_irqsave(&f->ev_lock, flags);
	if (!cxprm_file_wants(f, ev->type)) {
		spin_unlock_irqrestore(&f->ev_lock, flags);
		return;
	}
	if (f->ev_count == CXPRM_EVENT_QUEUE) {
		/* Full: the oldest record goes. */
		f->ev_head = (f->ev_head + 1) % CXPRM_EVENT_QUEUE;
		f->ev_count--;
		if (f->ev_lost < U32_MAX)
			f->ev_lost++;
	}
	f->ev_ring[(f->ev_head + f->ev_count) % CXPRM_EVENT_QUEUE] = *ev;
	f->ev_count++;
	spin_unlock_irqrestore(&f->ev_lock, flags);
	wake_up_interruptible(&f->ev_wait);
}

/* The oldest record, with the count of records lost before it. */
static bool cxprm_file_pop(struct cxprm_file *f, struct cxprm_event *ev)
{
	bool got = false;
	u32 lost;

	spin_lock_irq(&f->ev_lock);
	if (f->ev_count) {
		*ev = f->ev_ring[f->ev_head];
		f->ev_head = (f->ev_head + 1) % CXPRM_EVENT_QUEUE;
		f->ev_count--;
		lost = min_t(u32, f->ev_lost, U16_MAX);
		ev->dropped = lost;
		f->ev_lost -= lost;
		got = true;
	}
	spin_unlock_irq(&f->ev_lock);
	return got;
}

/* Called by the core for every EQE, from the poll worker. */
void cxprm_event_listener(void *ctx, u8 type, u8 sub_type, const u8 *data)
{
	struct cxprm_dev *cx = ctx;
	struct cxprm_event ev = {};
	struct cxprm_file *f;

	ev.timestamp_ns = ktime_get_ns();
	ev.seq = atomic_inc_return(&cx->event_seq);
	ev.type = type;
	ev.sub_type = sub_type;
	memcpy(ev.data, data, sizeof(ev.data));

	mutex_lock(&cx->files_lock);
	list_for_each_entry(f, &cx->files, node)
		cxprm_file_push(f, &ev);
	mutex_unlock(&cx->files_lock);
}

/* ---- helpers ---- */

static void cxprm_status(struct cxprm_cmd_status *st,
			 const struct cxprm_core_result *r)
{
	memset(st, 0, sizeof(*st));
	st->delivery = r->delivery;
	st->status = r->status;
	st->opcode = r->opcode;
	st->syndrome = r->syndrome;
	st->latency_ns = r->latency_ns;
}

/* A firmware status is a result (in st), not an ioctl error. */
static int cxprm_cmd_ret(int err)
{
	return err == -EREMOTEIO ? 0 : err;
}

static int cxprm_need(int cap)
{
	return capable(cap) ? 0 : -EPERM;
}

static void cxprm_dctc_to_core(const struct cxprm_dctc *u,
			       struct cxprm_core_dctc *k)
{
	memset(k, 0, sizeof(*k));
	k->pd = u->pd;
	k->cqn = u->cqn;
	k->srqn_xrqn = u->srqn_xrqn;
	k->user_index = u->user_index;
	k->dc_access_key = u->dc_access_key;
	k->flow_label = u->flow_label;
	k->pkey_index = u->pkey_index;
	k->mtu = u->mtu;
	k->port = u->port;
	k->hop_limit = u->hop_limit;
	k->tclass = u->tclass;
	k->min_rnr_nak = u->min_rnr_nak;
	k->my_addr_index = u->my_addr_index;
	k->rre = u->rre;
	k->rwe = u->rwe;
	k->rae = u->rae;
	k->atomic_mode = u->atomic_mode;
	k->cs_res = u->cs_res;
	k->counter_set_id = u->counter_set_id;
	k->dscp = u->dscp;
	k->ecn = u->ecn;
	k->eth_prio = u->eth_prio;
}

static void cxprm_dctc_from_core(const struct cxprm_core_dctc *k,
				 struct cxprm_dctc *u)
{
	memset(u, 0, sizeof(*u));
	u->pd = k->pd;
	u->cqn = k->cqn;
	u->srqn_xrqn = k->srqn_xrqn;
	u->user_index = k->user_index;
	u->dc_access_key = k->dc_access_key;
	u->flow_label = k->flow_label;
	u->pkey_index = k->pkey_index;
	u->mtu = k->mtu;
	u->port = k->port;
	u->hop_limit = k->hop_limit;
	u->tclass = k->tclass;
	u->min_rnr_nak = k->min_rnr_nak;
	u->my_addr_index = k->my_addr_index;
	u->rre = k->rre;
	u->rwe = k->rwe;
	u->rae = k->rae;
	u->atomic_mode = k->atomic_mode;
	u->cs_res = k->cs_res;
	u->counter_set_id = k->counter_set_id;
	u->dscp = k->dscp;
	u->ecn = k->ecn;
	u->eth_prio = k->eth_prio;
	u->state = k->state;
	u->key_violations = k->key_violations;
}

/* ---- ioctls (called under cx->rwsem, read, with cx->alive) ---- */

static long cxprm_ioc_info(struct cxprm_dev *cx, void __user *arg)
{
	struct cxprm_core_info ci;
	struct cxprm_info i;

	memset(&i, 0, sizeof(i));
	strscpy(i.pci_addr, cx->bdf, sizeof(i.pci_addr));
	strscpy(i.dev_name, cx->misc_name, sizeof(i.dev_name));
	i.vendor_id = cx->pdev->vendor;
	i.device_id = cx->pdev->device;
	cxprm_core_get_info(cx->core, &ci);
	i.fw_major = ci.fw_major;
	i.fw_minor = ci.fw_minor;
	i.fw_subminor = ci.fw_subminor;
	i.cmdif_rev = ci.cmdif_rev;
	i.state = ci.state;
	i.flags = cx->info_flags | (ci.failed_err ? CXPRM_INFO_FAILED : 0) |
		  (ci.ecpf ? CXPRM_INFO_ECPF : 0) |
		  (ci.cmd_checksum ? CXPRM_INFO_CMD_CHECKSUM : 0);
	i.cmdq_entries = ci.cmdq_entries;
	i.cmdq_log_stride = ci.cmdq_log_stride;
	i.issi = ci.issi;
	i.health_syndrome = ci.health_syndrome;
	i.pages_given = ci.pages_given;
	i.pages_reclaimed = ci.pages_reclaimed;
	i.commands = ci.commands;
	i.async_eqn = ci.async_eqn;
	return copy_to_user(arg, &i, sizeof(i)) ? -EFAULT : 0;
}

static long cxprm_ioc_caps(struct cxprm_dev *cx, void __user *arg)
{
	struct cxprm_core_result r;
	struct cxprm_caps *c;
	long ret;
	int err;

	ret = cxprm_need(CAP_NET_ADMIN);
	if (ret)
		return ret;
	c = kzalloc(sizeof(*c), GFP_KERNEL);
	if (!c)
		return -ENOMEM;
	if (copy_from_user(c, arg, offsetof(struct cxprm_caps, st))) {
		ret = -EFAULT;
		goto out;
	}
	if (c->reserved0 || c->reserved1 || c->max > 1) {
		ret = -EINVAL;
		goto out;
	}
	err = cxprm_core_query_caps(cx->core, c->cap_type, c->max, c->caps, &r);
	ret = cxprm_cmd_ret(err);
	if (ret)
		goto out;
	cxprm_status(&c->st, &r);
	if (copy_to_user(arg, c, sizeof(*c)))
		ret = -EFAULT;
out:
	kfree(c);
	return ret;
}

static long cxprm_ioc_nvmf_ns(struct cxprm_dev *cx, void __user *arg)
{
	struct cxprm_core_nvmf_ns k;
	struct cxprm_core_result r;
	struct cxprm_nvmf_ns n;
	long ret;

	ret = cxprm_need(CAP_NET_ADMIN);
	if (ret)
		return ret;
	if (copy_from_user(&n, arg, sizeof(n)))
		return -EFAULT;
	if (n.reserved)
		return -EINVAL;
	ret = cxprm_cmd_ret(cxprm_core_query_nvmf_ns(cx->core, n.xrqn, n.nsid,
						     &k, &r));
	if (ret)
		return ret;
	cxprm_status(&n.st, &r);
	n.read_cmds = k.read_cmds;
	n.read_blocks = k.read_blocks;
	n.write_cmds = k.write_cmds;
	n.write_blocks = k.write_blocks;
	n.write_inline_cmds = k.write_inline_cmds;
	n.flush_cmds = k.flush_cmds;
	n.error_cmds = k.error_cmds;
	n.backend_error_cmds = k.backend_error_cmds;
	n.current_q_depth = k.current_q_depth;
	n.last_read_latency = k.last_read_latency;
	n.last_write_latency = k.last_write_latency;
	return copy_to_user(arg, &n, sizeof(n)) ? -EFAULT : 0;
}

static long cxprm_ioc_esw(struct cxprm_dev *cx, void __user *arg)
{
	cxprm_u64 sf[CXPRM_ESW_MAX_SF_WORDS] = {};
	struct cxprm_esw_functions e;
	struct cxprm_core_result r;
	struct cxprm_core_esw k;
	long ret;
	int i;

	ret = cxprm_need(CAP_NET_ADMIN);
	if (ret)
		return ret;
	if (copy_from_user(&e, arg, sizeof(e)))
		return -EFAULT;
	if (e.reserved0 || e.reserved1)
		return -EINVAL;
	memset(&e, 0, sizeof(e));
	ret = cxprm_cmd_ret(cxprm_core_query_esw(cx->core, &k, sf,
						 CXPRM_ESW_MAX_SF_WORDS, &r));
	if (ret)
		return ret;
	cxprm_status(&e.st, &r);
	for (i = 0; i < CXPRM_ESW_MAX_SF_WORDS; i++)
		e.sf_enable[i] = sf[i];
	e.host_number = k.host_number;
	e.host_pf_disabled = k.host_pf_disabled;
	e.host_pf_not_exist = k.host_pf_not_exist;
	e.host_num_of_vfs = k.host_num_of_vfs;
	e.host_total_vfs = k.host_total_vfs;
	e.host_pci_bus = k.host_pci_bus;
	e.host_pci_device = k.host_pci_device;
	e.host_pci_function = k.host_pci_function;
	return copy_to_user(arg, &e, sizeof(e)) ? -EFAULT : 0;
}

static bool cxprm_dct_reserved(const struct cxprm_dct *d)
{
	return d->reserved || d->ctx.reserved0 || d->ctx.reserved1[0] ||
	       d->ctx.reserved1[1] || d->ctx.reserved1[2];
}

/* Takes one DCT off the file's table (false when empty); no command runs. */
static bool cxprm_file_pop_dct(struct cxprm_file *f, u32 *dctn)
{
	bool found = false;

	spin_lock(&f->dct_table_lock);
	if (f->ndcts) {
		*dctn = f->dcts[--f->ndcts];
		found = true;
	}
	spin_unlock(&f->dct_table_lock);
	return found;
}

/* Index of dctn in the file's table, or -1.  Under f->dct_table_lock. */
static int cxprm_file_dct_find(struct cxprm_file *f, u32 dctn)
{
	u32 i;

	for (i = 0; i < f->ndcts; i++)
		if (f->dcts[i] == dctn)
			return i;
	return -1;
}

static long cxprm_ioc_dct(struct cxprm_file *f, unsigned int cmd,
			  void __user *arg)
{
	struct cxprm_dev *cx = f->cx;
	struct cxprm_core_result r = {};
	struct cxprm_core_dctc k;
	struct cxprm_dct d;
	int idx, err;
	long ret;

	ret = cxprm_need(CAP_NET_ADMIN);
	if (ret)
		return ret;
	if (copy_from_user(&d, arg, sizeof(d)))
		return -EFAULT;
	if (cxprm_dct_reserved(&d))
		return -EINVAL;

	mutex_lock(&f->dct_lock);
	switch (cmd) {
	case CXPRM_IOC_DCT_CREATE:
		if (f->ndcts == CXPRM_FILE_MAX_DCTS) {
			ret = -ENOSPC;
			goto out;
		}
		cxprm_dctc_to_core(&d.ctx, &k);
		err = cxprm_core_dct_create(cx->core, &k, &d.dctn, &r);
		if (!err) {
			spin_lock(&f->dct_table_lock);
			f->dcts[f->ndcts++] = d.dctn;
			spin_unlock(&f->dct_table_lock);
		}
		memset(&d.ctx, 0, sizeof(d.ctx));
		break;
	case CXPRM_IOC_DCT_QUERY:
		err = cxprm_core_dct_query(cx->core, d.dctn, &k, &r);
		cxprm_dctc_from_core(&k, &d.ctx);
		break;
	case CXPRM_IOC_DCT_DRAIN:
	case CXPRM_IOC_DCT_DESTROY:
		/* Only the file that created a DCT may drain or destroy it. */
		spin_lock(&f->dct_table_lock);
		idx = cxprm_file_dct_find(f, d.dctn);
		spin_unlock(&f->dct_table_lock);
		if (idx < 0) {
			ret = -ENOENT;
			goto out;
		}
		memset(&d.ctx, 0, sizeof(d.ctx));
		if (cmd == CXPRM_IOC_DCT_DRAIN) {
			err = cxprm_core_dct_drain(cx->core, d.dctn, &r);
			break;
		}
		err = cxprm_core_dct_destroy(cx->core, d.dctn, &r);
		if (!err) {
			/* dct_lock held: no other ioctl of this file moved it. */
			spin_lock(&f->dct_table_lock);
			f->dcts[idx] = f->dcts[--f->ndcts];
			spin_unlock(&f->dct_table_lock);
		}
		break;
	default:
		ret = -ENOTTY;
		goto out;
	}
	ret = cxprm_cmd_ret(err);
	if (ret)
		goto out;
	cxprm_status(&d.st, &r);
	if (copy_to_user(arg, &d, sizeof(d)))
		ret = -EFAULT;
out:
	mutex_unlock(&f->dct_lock);
	return ret;
}

static long cxprm_ioc_stats(struct cxprm_dev *cx, void __user *arg)
{
	struct cxprm_core_opstats *k = NULL;
	struct cxprm_opcode_stats o;
	struct cxprm_opcode_stats __user *out;
	struct cxprm_stats s;
	cxprm_u64 total;
	u32 n = 0, i;
	long ret;

	ret = cxprm_need(CAP_NET_ADMIN);
	if (ret)
		return ret;
	if (copy_from_user(&s, arg, sizeof(s)))
		return -EFAULT;
	out = u64_to_user_ptr(s.entries);
	if (s.capacity) {
		k = kcalloc(CXPRM_CORE_MAX_OPCODES, sizeof(*k), GFP_KERNEL);
		if (!k)
			return -ENOMEM;
	}
	n = cxprm_core_stats(cx->core, k,
			     min_t(u32, s.capacity, CXPRM_CORE_MAX_OPCODES),
			     &total);
	s.total = total;
	for (i = 0; i < n; i++) {
		memset(&o, 0, sizeof(o));
		o.opcode = k[i].opcode;
		o.last_status = k[i].last_status;
		o.last_delivery = k[i].last_delivery;
		o.last_errno = k[i].last_err;
		o.last_syndrome = k[i].last_syndrome;
		o.count = k[i].count;
		o.errors = k[i].errors;
		o.lat_min_ns = k[i].lat_min_ns;
		o.lat_avg_ns = k[i].lat_avg_ns;
		o.lat_max_ns = k[i].lat_max_ns;
		if (copy_to_user(out + i, &o, sizeof(o))) {
			ret = -EFAULT;
			goto out;
		}
	}
	s.count = n;
	if (copy_to_user(arg, &s, sizeof(s)))
		ret = -EFAULT;
out:
	kfree(k);
	return ret;
}

/*
 * CXPRM_IOC_RAW.  Policy by opcode (cxprm_core_raw_scope): read-only
 * queries need CAP_NET_ADMIN; anything else CAP_SYS_RAWIO and
 * allow_raw_write=1; commands that would break the driver's own state
 * (HCA life cycle, pages, ISSI, EQs, UAR release) are refused always.
 * Lengths, flags and the dump size are checked by cxprm_core_raw_check()
 * (core-cpp/src/ioctl_check.cpp, fuzzed in userspace).
 */
static long cxprm_ioc_raw(struct cxprm_dev *cx, void __user *arg)
{
	struct cxprm_core_capture cap = {};
	struct cxprm_core_result r = {};
	struct cxprm_core_raw_plan plan;
	struct cxprm_core_raw_req req;
	struct cxprm_raw_dump hdr;
	struct cxprm_raw_cmd rc;
	void *in = NULL, *out = NULL;
	bool dump;
	long ret;
	int err;

	if (copy_from_user(&rc, arg, sizeof(rc)))
		return -EFAULT;
	req.inlen = rc.inlen;
	req.outlen = rc.outlen;
	req.flags = rc.flags;
	req.dump_len = rc.dump_len;
	req.dump = rc.dump;
	if (cxprm_core_raw_check(&req, &plan))
		return -EINVAL;
	dump = plan.dump;

	in = kvmalloc(rc.inlen, GFP_KERNEL);
	if (!in)
		return -ENOMEM;
	if (copy_from_user(in, u64_to_user_ptr(rc.in), rc.inlen)) {
		ret = -EFAULT;
		goto out;
	}
	switch (cxprm_core_raw_scope(cxprm_core_in_opcode(in))) {
	case CXPRM_RAW_SCOPE_QUERY:
		ret = cxprm_need(CAP_NET_ADMIN);
		break;
	case CXPRM_RAW_SCOPE_WRITE:
		ret = cxprm_need(CAP_SYS_RAWIO);
		if (!ret && !READ_ONCE(cxprm_allow_raw_write))
			ret = -EPERM;
		break;
	default:
		ret = -EPERM;
		break;
	}
	if (ret)
		goto out;

	out = kvzalloc(rc.outlen, GFP_KERNEL);
	if (!out) {
		ret = -ENOMEM;
		goto out;
	}
	if (dump) {
		cap.blocks_cap = plan.blocks_cap;
		if (cap.blocks_cap) {
			cap.blocks = kvmalloc_array(cap.blocks_cap,
						    CXPRM_MAILBOX_BYTES,
						    GFP_KERNEL);
			if (!cap.blocks) {
				ret = -ENOMEM;
				goto out;
			}
		}
	}

	err = cxprm_core_raw(cx->core, in, rc.inlen, out, rc.outlen, &r,
			     dump ? &cap : NULL);
	ret = cxprm_cmd_ret(err);
	/* Status and wire dump go back on transport errors too. */
	cxprm_status(&rc.st, &r);
	rc.dump_len = 0;
	if (dump && r.token) {
		u32 nblk = cap.in_blocks + cap.out_blocks;

		memset(&hdr, 0, sizeof(hdr));
		memcpy(hdr.entry_posted, cap.entry_posted,
		       sizeof(hdr.entry_posted));
		memcpy(hdr.entry_completed, cap.entry_completed,
		       sizeof(hdr.entry_completed));
		hdr.in_blocks = cap.in_blocks;
		hdr.out_blocks = cap.out_blocks;
		hdr.slot = r.slot;
		hdr.truncated = cap.truncated;
		if (copy_to_user(u64_to_user_ptr(rc.dump), &hdr, sizeof(hdr)) ||
		    (nblk && copy_to_user(u64_to_user_ptr(rc.dump) + sizeof(hdr),
					  cap.blocks,
					  (size_t)nblk * CXPRM_MAILBOX_BYTES))) {
			ret = -EFAULT;
			goto out;
		}
		rc.dump_len = sizeof(hdr) + nblk * CXPRM_MAILBOX_BYTES;
	}
	if (!ret && copy_to_user(u64_to_user_ptr(rc.out), out, rc.outlen)) {
		ret = -EFAULT;
		goto out;
	}
	if (copy_to_user(arg, &rc, sizeof(rc)))
		ret = -EFAULT;
out:
	kvfree(cap.blocks);
	kvfree(out);
	kvfree(in);
	return ret;
}

static long cxprm_ioc_subscribe(struct cxprm_file *f, void __user *arg)
{
	struct cxprm_subscribe s;
	long ret;

	ret = cxprm_need(CAP_NET_ADMIN);
	if (ret)
		return ret;
	if (copy_from_user(&s, arg, sizeof(s)))
		return -EFAULT;
	spin_lock_irq(&f->ev_lock);
	memcpy(f->mask, s.mask, sizeof(f->mask));
	spin_unlock_irq(&f->ev_lock);
	return 0;
}

static long cxprm_ioctl(struct file *file, unsigned int cmd,
			unsigned long uarg)
{
	struct cxprm_file *f = file->private_data;
	struct cxprm_dev *cx = f->cx;
	void __user *arg = (void __user *)uarg;
	long ret;

	down_read(&cx->rwsem);
	if (!cx->alive) {
		ret = -ENODEV;
		goto out;
	}
	/* Commands need an HCA that came up; INFO tells why it did not. */
	if (cmd != CXPRM_IOC_INFO && cmd != CXPRM_IOC_STATS &&
	    cmd != CXPRM_IOC_SUBSCRIBE && !cx->up) {
		ret = _IOC_TYPE(cmd) == CXPRM_IOC_MAGIC ? -ENODEV : -ENOTTY;
		goto out;
	}
	switch (cmd) {
	case CXPRM_IOC_INFO:
		ret = cxprm_ioc_info(cx, arg);
		break;
	case CXPRM_IOC_QUERY_CAPS:
		ret = cxprm_ioc_caps(cx, arg);
		break;
	case CXPRM_IOC_NVMF_NS:
		ret = cxprm_ioc_nvmf_ns(cx, arg);
		break;
	case CXPRM_IOC_ESW_FUNCTIONS:
		ret = cxprm_ioc_esw(cx, arg);
		break;
	case CXPRM_IOC_DCT_CREATE:
	case CXPRM_IOC_DCT_QUERY:
	case CXPRM_IOC_DCT_DRAIN:
	case CXPRM_IOC_DCT_DESTROY:
		ret = cxprm_ioc_dct(f, cmd, arg);
		break;
	case CXPRM_IOC_STATS:
		ret = cxprm_ioc_stats(cx, arg);
		break;
	case CXPRM_IOC_RAW:
		ret = cxprm_ioc_raw(cx, arg);
		break;
	case CXPRM_IOC_SUBSCRIBE:
		ret = cxprm_ioc_subscribe(f, arg);
		break;
	default:
		ret = -ENOTTY;
		break;
	}
	if (ret == -EHOSTDOWN || ret == -ENODEV)
		cxprm_dev_note_failed(cx);
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
		err = wait_event_interruptible(f->ev_wait,
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

	poll_wait(file, &f->ev_wait, wait);
	if (!READ_ONCE(cx->alive))
		return EPOLLERR | EPOLLHUP;
	if (READ_ONCE(f->ev_count))
		return EPOLLIN | EPOLLRDNORM;
	return cxprm_dev_failed(cx) ? EPOLLERR : 0;
}

/* ---- open / release ---- */

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
	mutex_init(&f->dct_lock);
	spin_lock_init(&f->dct_table_lock);
	spin_lock_init(&f->ev_lock);
	init_waitqueue_head(&f->ev_wait);
	f->mask[0] = BIT_ULL(CXPRM_EVENT_ESW_FUNCTIONS_CHANGED) |
		     BIT_ULL(CXPRM_EVENT_DCT_DRAINED);
	f->mask[CXPRM_EVENT_HEALTH / 64] |= BIT_ULL(CXPRM_EVENT_HEALTH % 64);

	down_read(&cx->rwsem);
	if (!cx->alive) {
		up_read(&cx->rwsem);
		mutex_destroy(&f->dct_lock);
		kvfree(f);
		return -ENODEV;
	}
	kref_get(&cx->kref);
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
	while (cxprm_file_pop_dct(f, &dctn)) {
		err = cxprm_core_dct_destroy(cx->core, dctn, &r);
		if (err)
			dev_warn(&cx->pdev->dev,
				 "close: DESTROY_DCT 0x%x: %s (%d), status %s syndrome 0x%08x\n",
				 dctn, cxprm_core_err_name(err), err,
				 cxprm_core_status_name(r.status), r.syndrome);
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
	if (cx->cleanup_ok)
		cxprm_file_destroy_dcts(f);
	mutex_lock(&cx->files_lock);
	list_del(&f->node);
	mutex_unlock(&cx->files_lock);
	up_read(&cx->rwsem);

	mutex_destroy(&f->dct_lock);
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
	.llseek = no_llseek,
};

int cxprm_cdev_register(struct cxprm_dev *cx)
{
	int err;

	cxprm_check_errnos();
	snprintf(cx->misc_name, sizeof(cx->misc_name), "cxprm/%s", cx->bdf);
	cx->misc.minor = MISC_DYNAMIC_MINOR;
	cx->misc.name = cx->misc_name;
	cx->misc.fops = &cxprm_fops;
	cx->misc.parent = &cx->pdev->dev;
	/* Open to all: each ioctl checks its own capability (see above). */
	cx->misc.mode = 0666;
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

/* Wakes every blocked reader (device failed or going away). */
void cxprm_cdev_wake(struct cxprm_dev *cx)
{
	struct cxprm_file *f;

	mutex_lock(&cx->files_lock);
	list_for_each_entry(f, &cx->files, node)
		wake_up_interruptible_all(&f->ev_wait);
	mutex_unlock(&cx->files_lock);
}

/*
 * The device is going away (cx->alive is false: no ioctl runs, no file
 * opens): wake blocked readers, which then get -ENODEV, and destroy the
 * DCTs files still own while the HCA is up.  Files closing meanwhile
 * destroy their own; afterwards none is left and releases stop trying.
 */
void cxprm_cdev_shutdown(struct cxprm_dev *cx)
{
	struct cxprm_core_result r;
	struct cxprm_file *f;
	unsigned int n = 0;
	bool found;
	u32 dctn = 0;
	int err;

	cxprm_cdev_wake(cx);
	if (!cx->cleanup_ok)
		return;

	/* One at a time, no lock held while the command runs. */
	for (;;) {
		found = false;
		/*
		 * files_lock, then only the table's spinlock: a file's
		 * dct_lock may be held by a command waiting on the event pump,
		 * whose listener needs files_lock.
		 */
		mutex_lock(&cx->files_lock);
		list_for_each_entry(f, &cx->files, node) {
			found = cxprm_file_pop_dct(f, &dctn);
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
	down_write(&cx->rwsem);
	cx->cleanup_ok = false;
	up_write(&cx->rwsem);
}
