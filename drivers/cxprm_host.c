// SPDX-License-Identifier: GPL-2.0
/*
 * The host interface of the cxprm core (<cxprm/host.h>) on Linux.
 *
 * Context rules for the core: dma_alloc, dma_free, fw_page_alloc,
 * fw_page_free, mem_alloc, mem_free, lock_create, waiter_create, lock,
 * sleep_us, yield and waiter_wait may sleep (process context only);
 * ioread32be, iowrite32be, wmb, rmb, relax, now_ns, waiter_signal, log and
 * health_changed may be called from any context.
 */
#include <linux/completion.h>
#include <linux/delay.h>
#include <linux/device.h>
#include <linux/atomic.h>
#include <linux/dma-mapping.h>
#include <linux/errno.h>
#include <linux/io.h>
#include <linux/jiffies.h>
#include <linux/lockdep.h>
#include <linux/log2.h>
#include <linux/minmax.h>
#include <linux/mm.h>
#include <linux/random.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/timekeeping.h>

#include "cxprm.h"

/*
 * One allocation handed to the core (cxprm_dma_buf.cookie): coherent
 * memory, or (page set) a firmware page mapped with dma_map_page().
 */
struct cxprm_dma_chunk {
	struct list_head node;
	size_t size;		/* as passed to dma_alloc_coherent() or mapped */
	void *cpu;
	dma_addr_t bus;
	struct page *page;
};

static void cxprm_dma_chunk_track(struct cxprm_dev *cx,
				  struct cxprm_dma_chunk *c,
				  struct cxprm_dma_buf *buf, size_t size)
{
	mutex_lock(&cx->dma_lock);
	list_add(&c->node, &cx->dma_list);
	cx->dma_count++;
	mutex_unlock(&cx->dma_lock);

	buf->cpu = c->cpu;
	buf->bus = c->bus;
	buf->size = size;
	buf->cookie = c;
}

static int cxprm_host_dma_alloc(void *ctx, cxprm_size size, cxprm_size align,
				struct cxprm_dma_buf *buf)
{
	struct cxprm_dev *cx = ctx;
	struct cxprm_dma_chunk *c;

	if (!size || !is_power_of_2(align))
		return -EINVAL;

	c = kzalloc(sizeof(*c), GFP_KERNEL);
	if (!c)
		return -ENOMEM;

	/*
	 * dma_alloc_coherent() returns zeroed memory whose CPU and DMA
	 * addresses are both aligned to the smallest PAGE_SIZE order that
	 * holds the requested size (Documentation/core-api/dma-api.rst).
	 * Asking for at least 'align' bytes therefore yields an 'align'
	 * aligned bus address for any power of two, not only up to a page.
	 */
	c->size = max_t(size_t, size, align);
	/*
	 * A buffer of several pages may fail on a fragmented host: the core
	 * then asks for less (the async EQ's ring halved, logged) or fails
	 * that command with -ENOMEM, so no allocation-failure report.
	 */
	c->cpu = dma_alloc_coherent(&cx->pdev->dev, c->size, &c->bus,
				    GFP_KERNEL |
				    (c->size > PAGE_SIZE ? __GFP_NOWARN : 0));
	if (!c->cpu) {
		kfree(c);
		return -ENOMEM;
	}
	if (WARN_ON_ONCE(!IS_ALIGNED(c->bus, align))) {
		dma_free_coherent(&cx->pdev->dev, c->size, c->cpu, c->bus);
		kfree(c);
		return -EIO;
	}

	cxprm_dma_chunk_track(cx, c, buf, size);
	return 0;
}

/*
 * A system page for firmware pages (MANAGE_PAGES), as mlx5_core's
 * alloc_system_page() makes one: mapped both ways, not zeroed (the
 * firmware's contents; 4128 memsets cost milliseconds of every bind
 * under QEMU TCG).  The core cuts it into 4 KiB firmware pages
 * (piece_pool.h); PAGE_SIZE >= 4096, so the bus address is aligned.
 */
static int cxprm_host_fw_page_alloc(void *ctx, struct cxprm_dma_buf *buf)
{
	struct cxprm_dev *cx = ctx;
	struct cxprm_dma_chunk *c;

	c = kzalloc(sizeof(*c), GFP_KERNEL);
	if (!c)
		return -ENOMEM;
	c->page = alloc_page(GFP_KERNEL);
	if (!c->page)
		goto free_chunk;
	c->size = PAGE_SIZE;
	c->bus = dma_map_page(&cx->pdev->dev, c->page, 0, c->size,
			      DMA_BIDIRECTIONAL);
	if (dma_mapping_error(&cx->pdev->dev, c->bus))
		goto free_page;
	c->cpu = page_address(c->page);
	cxprm_dma_chunk_track(cx, c, buf, PAGE_SIZE);
	return 0;

free_page:
	__free_page(c->page);
free_chunk:
	kfree(c);
	return -ENOMEM;
}

static void cxprm_dma_chunk_free(struct cxprm_dev *cx,
				 struct cxprm_dma_chunk *c)
{
	if (c->page) {
		dma_unmap_page(&cx->pdev->dev, c->bus, c->size,
			       DMA_BIDIRECTIONAL);
		__free_page(c->page);
	} else {
		dma_free_coherent(&cx->pdev->dev, c->size, c->cpu, c->bus);
	}
	kfree(c);
}

static void cxprm_host_dma_free(void *ctx, struct cxprm_dma_buf *buf)
{
	struct cxprm_dev *cx = ctx;
	struct cxprm_dma_chunk *c = buf->cookie;

	if (!c)
		return;
	mutex_lock(&cx->dma_lock);
	list_del(&c->node);
	cx->dma_count--;
	mutex_unlock(&cx->dma_lock);
	cxprm_dma_chunk_free(cx, c);
	memset(buf, 0, sizeof(*buf));
}

static void *cxprm_host_mem_alloc(void *ctx, cxprm_size size)
{
	return kvzalloc(size, GFP_KERNEL);
}

static void cxprm_host_mem_free(void *ctx, void *p)
{
	kvfree(p);
}

static bool cxprm_bar_off_ok(struct cxprm_dev *cx, u32 off)
{
	return IS_ALIGNED(off, 4) && (resource_size_t)off + 4 <= cx->bar_len;
}

static cxprm_u32 cxprm_host_ioread32be(void *ctx, cxprm_u32 off)
{
	struct cxprm_dev *cx = ctx;

	if (WARN_ONCE(!cxprm_bar_off_ok(cx, off),
		      "cxprm: BAR read at bad offset 0x%x\n", off))
		return ~0U;
	return ioread32be(cx->bar + off);
}

/*
 * The command doorbell of the emulated device: ivshmem BAR2 is RAM shared
 * with the emulator process, which takes the dword with an atomic exchange
 * and runs every slot whose bit it finds.  A plain store could overwrite a
 * bit another CPU rang that the emulator has not taken yet, so OR it in
 * atomically (a locked instruction, atomic against the host process too).
 * A real ConnectX latches each write to the doorbell register: a plain
 * iowrite32be, as mlx5_core does.
 */
static void cxprm_ring_emulated(struct cxprm_dev *cx, u32 off, u32 val)
{
	atomic_t *db = (__force atomic_t *)(cx->bar + off);

	atomic_or((__force int)cpu_to_be32(val), db);
}

static void cxprm_host_iowrite32be(void *ctx, cxprm_u32 off, cxprm_u32 val)
{
	struct cxprm_dev *cx = ctx;

	if (WARN_ONCE(!cxprm_bar_off_ok(cx, off),
		      "cxprm: BAR write at bad offset 0x%x\n", off))
		return;
	if (cx->kind == CXPRM_KIND_IVSHMEM && off == cxprm_core_iseg_doorbell_offset())
		cxprm_ring_emulated(cx, off, val);
	else
		iowrite32be(val, cx->bar + off);
}

/*
 * The core calls wmb() between filling a command entry (coherent memory)
 * and ringing the doorbell (MMIO), and rmb() between seeing the ownership
 * bit come back and reading the output.  dma_wmb()/dma_rmb() only order
 * accesses to coherent memory among themselves; the doorbell is MMIO, so
 * these are the mandatory barriers (as in mlx5_core's cmd_work_handler).
 */
static void cxprm_host_wmb(void *ctx)
{
	/* Coherent-memory stores before the following MMIO (doorbell) write. */
	wmb();
}

static void cxprm_host_rmb(void *ctx)
{
	/* The ownership bit (or MMIO status) before the output it guards. */
	rmb();
}

/*
 * Locks are mutexes: the core takes them around command submission, which
 * may sleep.  Each has a lockdep class of its own: the core nests its
 * locks (Events::poll holds the poll lock while dispatch takes the events
 * lock), which lockdep reports as recursive locking when they share one.
 */
struct cxprm_host_mutex {
	struct mutex m;		/* first: the core's lock pointer is &m */
	struct lock_class_key key;
};

static void *cxprm_host_lock_create(void *ctx)
{
	struct cxprm_host_mutex *l = kzalloc(sizeof(*l), GFP_KERNEL);

	if (!l)
		return NULL;
	lockdep_register_key(&l->key);
	__mutex_init(&l->m, "cxprm_core_lock", &l->key);
	return &l->m;
}

static void cxprm_host_lock_destroy(void *ctx, void *lock)
{
	struct cxprm_host_mutex *l;

	if (!lock)
		return;
	l = container_of(lock, struct cxprm_host_mutex, m);
	mutex_destroy(&l->m);
	lockdep_unregister_key(&l->key);
	kfree(l);
}

static void cxprm_host_lock(void *ctx, void *lock)
{
	mutex_lock(lock);
}

static void cxprm_host_unlock(void *ctx, void *lock)
{
	mutex_unlock(lock);
}

static void cxprm_host_relax(void *ctx)
{
	cpu_relax();
}

/* Busy-polling a completion, as mlx5_core's poll_timeout() does. */
static void cxprm_host_yield(void *ctx)
{
	cond_resched();
}

/* udelay, usleep_range or msleep, whichever fits the length. */
static void cxprm_host_sleep_us(void *ctx, cxprm_u32 us)
{
	fsleep(us);
}

static cxprm_u64 cxprm_host_now_ns(void *ctx)
{
	return ktime_get_ns();
}

/*
 * Waiters are completions: each signal lets exactly one wait return, so a
 * signal that comes before the wait is not lost, and one that comes after
 * a timed-out wait makes the next wait return at once (the core re-checks
 * the ownership bit after every wake-up).
 */
static void *cxprm_host_waiter_create(void *ctx)
{
	struct completion *c = kmalloc(sizeof(*c), GFP_KERNEL);

	if (c)
		init_completion(c);
	return c;
}

static void cxprm_host_waiter_destroy(void *ctx, void *w)
{
	kfree(w);
}

static int cxprm_host_waiter_wait(void *ctx, void *w, cxprm_u64 timeout_ns)
{
	/* Round up by a jiffy: never return before timeout_ns has passed. */
	unsigned long t = nsecs_to_jiffies(timeout_ns) + 1;

	t = min_t(unsigned long, t, MAX_SCHEDULE_TIMEOUT - 1);
	if (!wait_for_completion_timeout(w, t))
		return -ETIMEDOUT;
	return 0;
}

static void cxprm_host_waiter_signal(void *ctx, void *w)
{
	complete(w);
}

static void cxprm_host_log(void *ctx, int level, const char *msg)
{
	struct cxprm_dev *cx = ctx;
	struct device *dev = &cx->pdev->dev;

	/* dev_*() already says "cxprm <bdf>:". */
	if (!strncmp(msg, "cxprm: ", 7))
		msg += 7;
	switch (level) {
	case 0:
		dev_err(dev, "%s\n", msg);
		break;
	case 1:
		dev_warn(dev, "%s\n", msg);
		break;
	case 2:
		dev_info(dev, "%s\n", msg);
		break;
	default:
		dev_dbg(dev, "%s\n", msg);
		break;
	}
}

static const char *cxprm_fail_name(int err)
{
	return err == -ENODEV ? "gone" : "firmware dead";
}

/*
 * The core's failure changed (once per change): say who found it and what
 * its sensors read, and wake the readers (a failed device sends no more
 * events).  From a command's, the poller's or the shutdown path's context;
 * no sleep.
 */
static void cxprm_host_health_changed(void *ctx,
				      const struct cxprm_health_change *c)
{
	struct cxprm_dev *cx = ctx;
	struct device *dev = &cx->pdev->dev;
	const char *by = c->source == CXPRM_HEALTH_BY_COMMAND ?
			 ", found by a command" : "";

	if (c->source == CXPRM_HEALTH_BY_HOST)
		dev_dbg(dev, "health: device released (%s) at shutdown; commands now fail with %d\n",
			cxprm_fail_name(c->err), c->err);
	else
		dev_err(dev,
			"health: device failed (%s)%s: fatal sensor %u, health syndrome 0x%x rfr %u, nic_interface %u, counter %u; commands now fail with %d\n",
			cxprm_fail_name(c->err), by, c->sensor, c->syndrome,
			c->rfr, c->nic_interface, c->counter, c->err);
	if (c->recover)
		cxprm_recover_schedule(cx);
	cxprm_dev_wake(cx);
}

/* INIT_HCA sw_owner_id, as Linux mlx5_core draws its own. */
static void cxprm_host_get_random(void *ctx, void *buf, cxprm_size n)
{
	get_random_bytes(buf, n);
}

/* SET_HCA_CAP log_uar_page_sz and uar_4k follow the kernel's page size. */
static cxprm_u32 cxprm_host_page_shift(void *ctx)
{
	return PAGE_SHIFT;
}

static const struct cxprm_host_ops cxprm_host_ops = {
	.dma_alloc = cxprm_host_dma_alloc,
	.dma_free = cxprm_host_dma_free,
	.mem_alloc = cxprm_host_mem_alloc,
	.mem_free = cxprm_host_mem_free,
	.ioread32be = cxprm_host_ioread32be,
	.iowrite32be = cxprm_host_iowrite32be,
	.wmb = cxprm_host_wmb,
	.rmb = cxprm_host_rmb,
	.lock_create = cxprm_host_lock_create,
	.lock_destroy = cxprm_host_lock_destroy,
	.lock = cxprm_host_lock,
	.unlock = cxprm_host_unlock,
	.relax = cxprm_host_relax,
	.sleep_us = cxprm_host_sleep_us,
	.now_ns = cxprm_host_now_ns,
	.waiter_create = cxprm_host_waiter_create,
	.waiter_destroy = cxprm_host_waiter_destroy,
	.waiter_wait = cxprm_host_waiter_wait,
	.waiter_signal = cxprm_host_waiter_signal,
	.log = cxprm_host_log,
	.get_random = cxprm_host_get_random,
	.page_shift = cxprm_host_page_shift,
	.yield = cxprm_host_yield,
	.fw_page_alloc = cxprm_host_fw_page_alloc,
	.fw_page_free = cxprm_host_dma_free,
	.health_changed = cxprm_host_health_changed,
	.run_parallel = cxprm_host_run_parallel,
};

/* Needs cx->pdev, cx->bar and cx->bar_len. */
void cxprm_host_init(struct cxprm_dev *cx)
{
	mutex_init(&cx->dma_lock);
	INIT_LIST_HEAD(&cx->dma_list);
	cx->host.ops = &cxprm_host_ops;
	cx->host.ctx = cx;
}

/*
 * Frees what the core did not: a leak is a core bug, but not a reason to
 * leave coherent memory behind after the device is gone.
 */
void cxprm_host_fini(struct cxprm_dev *cx)
{
	struct cxprm_dma_chunk *c, *tmp;

	list_for_each_entry_safe(c, tmp, &cx->dma_list, node) {
		list_del(&c->node);
		dev_warn(&cx->pdev->dev, "freeing leaked %zu-byte DMA buffer\n",
			 c->size);
		cxprm_dma_chunk_free(cx, c);
	}
	cx->dma_count = 0;
	mutex_destroy(&cx->dma_lock);
}
