/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The host interface: everything the cxprm core needs from its environment.
 *
 * Plain C so the kernel shim (drivers/) implements it directly; the
 * userspace harness (core-cpp/hosted/) implements it over malloc'd memory
 * shared with the firmware emulator.  The core never allocates, sleeps,
 * touches MMIO or takes a lock except through these calls.
 *
 * All callbacks get the 'ctx' pointer of struct cxprm_host.  Unless noted
 * a callback must not fail.
 */
#ifndef CXPRM_HOST_H
#define CXPRM_HOST_H

#ifdef __cplusplus
extern "C" {
#endif

typedef __UINT8_TYPE__ cxprm_u8;
typedef __UINT32_TYPE__ cxprm_u32;
typedef __UINT64_TYPE__ cxprm_u64;
typedef __SIZE_TYPE__ cxprm_size;

/* A piece of DMA-coherent memory: CPU view and device (bus) address. */
struct cxprm_dma_buf {
	void *cpu;
	cxprm_u64 bus;
	cxprm_size size;
	void *cookie; /* host's own bookkeeping */
};

/* Who found the device failed (struct cxprm_health_change.source). */
enum cxprm_health_source {
	CXPRM_HEALTH_BY_COMMAND = 1,	/* a waiting command read a fatal sensor */
	CXPRM_HEALTH_BY_POLLER = 2,	/* the health poller */
	CXPRM_HEALTH_BY_HOST = 3,	/* the core's shutdown path released it */
};

/*
 * A change of the device's failure (health_changed): the new state and what
 * its finder read (zero when it read nothing, or the device is gone).
 */
struct cxprm_health_change {
	int err;		/* now: -EHOSTDOWN (firmware dead) or -ENODEV (gone) */
	int source;		/* enum cxprm_health_source */
	cxprm_u32 sensor;	/* the fatal sensor (cxprm_core_info.health_sensor), 0 none */
	cxprm_u32 syndrome;	/* health buffer synd */
	cxprm_u32 rfr;		/* health buffer rfr */
	cxprm_u32 nic_interface;
	cxprm_u32 counter;	/* initial_seg.health_counter */
	/*
	 * 1: the core wants the device recovered (its recovery policy allows
	 * it): the host runs cxprm_core_recover() from a context that may
	 * sleep (not from this call).
	 */
	int recover;
};

struct cxprm_host_ops {
	/*
	 * Zeroed, DMA-coherent memory of 'size' bytes whose bus address is a
	 * multiple of 'align' (a power of two, at most 4096).  Returns 0 or
	 * a negative errno.
	 */
	int (*dma_alloc)(void *ctx, cxprm_size size, cxprm_size align,
			 struct cxprm_dma_buf *buf);
	void (*dma_free)(void *ctx, struct cxprm_dma_buf *buf);

	/* Ordinary zeroed memory (bookkeeping); NULL on failure. */
	void *(*mem_alloc)(void *ctx, cxprm_size size);
	void (*mem_free)(void *ctx, void *p);

	/*
	 * 32-bit access to the init segment at byte offset 'off' of the BAR.
	 * The device register is big-endian; values are in CPU order
	 * (ioread32be / iowrite32be).
	 */
	cxprm_u32 (*ioread32be)(void *ctx, cxprm_u32 off);
	void (*iowrite32be)(void *ctx, cxprm_u32 off, cxprm_u32 val);

	/*
	 * Ordering between CPU accesses to DMA memory and the device:
	 * wmb() before handing an entry to the device, rmb() after seeing
	 * the device hand it back.
	 */
	void (*wmb)(void *ctx);
	void (*rmb)(void *ctx);

	/* A lock usable from the contexts the host issues commands from. */
	void *(*lock_create)(void *ctx);
	void (*lock_destroy)(void *ctx, void *lock);
	void (*lock)(void *ctx, void *lock);
	void (*unlock)(void *ctx, void *lock);

	/* Busy-wait hint, and a sleep of about 'us' microseconds. */
	void (*relax)(void *ctx);
	void (*sleep_us)(void *ctx, cxprm_u32 us);

	/* Monotonic clock in nanoseconds. */
	cxprm_u64 (*now_ns)(void *ctx);

	/*
	 * Optional, for event-driven completion (NULL: the core polls).
	 * A waiter object per queue slot: wait returns 0 once signalled, or
	 * -ETIMEDOUT after 'timeout_ns'; signal may be called from the
	 * host's event (interrupt) context.
	 */
	void *(*waiter_create)(void *ctx);
	void (*waiter_destroy)(void *ctx, void *w);
	int (*waiter_wait)(void *ctx, void *w, cxprm_u64 timeout_ns);
	void (*waiter_signal)(void *ctx, void *w);

	/* Optional log sink (NULL: silent). level 0 err, 1 warn, 2 info, 3 dbg. */
	void (*log)(void *ctx, int level, const char *msg);

	/*
	 * Optional: n random bytes (kernel: get_random_bytes; hosted: the
	 * system's random source).  The core draws INIT_HCA's sw_owner_id
	 * from it at every bring-up.  NULL: the core mixes now_ns() instead.
	 */
	void (*get_random)(void *ctx, void *buf, cxprm_size n);
	/*
	 * Optional: log2 of the host's page size (kernel: PAGE_SHIFT), for
	 * SET_HCA_CAP log_uar_page_sz and uar_4k as Linux sets them.  NULL: 12.
	 */
	cxprm_u32 (*page_shift)(void *ctx);
	/*
	 * Optional: let another task run if one is waiting, else return at
	 * once (kernel: cond_resched(); may sleep).  With it the core
	 * busy-polls a completion for its first milliseconds, as mlx5_core's
	 * poll_timeout() does for the whole command; NULL: the core sleeps
	 * after a short spin.
	 */
	void (*yield)(void *ctx);
	/*
	 * Optional: one host page (1 << page_shift bytes, buf->size), mapped
	 * for device DMA both ways, which the core cuts into 4 KiB firmware
	 * pages (MANAGE_PAGES; piece_pool.h).  Its contents are the firmware's,
	 * so it need not be zeroed (mlx5_core: alloc_page() and
	 * dma_map_page(), never cleared).  Both or neither.  NULL: the core
	 * takes them from dma_alloc/dma_free.
	 */
	int (*fw_page_alloc)(void *ctx, struct cxprm_dma_buf *buf);
	void (*fw_page_free)(void *ctx, struct cxprm_dma_buf *buf);
	/*
	 * Optional: the device's failure changed (healthy -> failed, or
	 * firmware dead -> gone), called exactly once per change, from the
	 * context that found it (a command's, the health poller's, the
	 * shutdown path's), possibly with the core's locks of that path
	 * held: no sleep, no call back into the core.  The kernel logs it
	 * and wakes the readers of the device's files.
	 */
	void (*health_changed)(void *ctx, const struct cxprm_health_change *c);
	/*
	 * Optional: runs fn(arg, i) for each i below n, at the same time where
	 * the host can (kernel: work items on an unbound workqueue; userspace:
	 * a thread pool), and returns once every call has returned.  fn may
	 * sleep and send commands; it runs outside the caller's task, so it
	 * never copies user memory or asks for privileges.  NULL: the calls
	 * run one after another in the caller.  CXPRM_IOC_BATCH uses it.
	 */
	void (*run_parallel)(void *ctx, cxprm_u32 n, void (*fn)(void *arg, cxprm_u32 i),
			     void *arg);
};

struct cxprm_host {
	const struct cxprm_host_ops *ops;
	void *ctx;
};

#ifdef __cplusplus
}
#endif

#endif /* CXPRM_HOST_H */
