/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * A file's objects (capi.h "A file's objects"), private to
 * objects_table.cpp (the table, its queue memory, destroying) and
 * ioctl_objects.cpp (the ioctls on it).
 */
#pragma once

#include "cxprm/capi.h"
#include "cxprm/cmdq.h"
#include "cxprm/queue_mem.h"

#include "capi_core.h"

namespace cxprm::capi {

/* One object's queue memory (the backend controller: its CQ and its SQ). */
struct ObjMem {
	static void *operator new(usize, void *p) noexcept { return p; }
	static void operator delete(void *, void *) noexcept {}
	QueueMem q[2];
	ObjMem *next = nullptr; /* on c->kept */
};

struct Obj {
	u32 type;     /* enum cxprm_obj_type */
	u32 id;
	u32 parent;   /* xrqn of a backend or namespace */
	u8 state;     /* a QP's, after the last transition */
	bool gave_up; /* its destroy got no firmware answer: kept as it is */
	ObjMem *mem;
	bool busy = false; /* a DESTROY or QP_MODIFY of it is in flight */
};

ObjMem *mem_new(cxprm_core *c);
void mem_free(cxprm_core *c, ObjMem *m);
/*
 * After a command that used m: freed when it never reached the firmware
 * (token 0) or the firmware answered, else kept (c->kept).
 */
void mem_after(cxprm_core *c, ObjMem *m, int err, const CmdResult &r);

/*
 * A CXPRM_OBJ_SRQ is an RMP once the function runs ISSI 1, as Linux's
 * mlx5_ib makes it (ib/srq_cmd.c create_srq_split); CREATE_SRQ at ISSI 0.
 */
inline bool srq_is_rmp(cxprm_core *c)
{
	return c->dev.issi() != 0;
}

/*
 * Appends v to a list of names the firmware lost (a file's DCTs or
 * objects, cxprm_core_file_forget); when it is full the oldest goes, and
 * naming that one then gets ENOENT instead of ESTALE.
 */
template <class T> void lost_push(T *list, u32 &n, u32 cap, const T &v)
{
	if (n == cap) {
		for (u32 i = 1; i < n; i++)
			list[i - 1] = list[i];
		n--;
	}
	list[n++] = v;
}

/* Holds t's lock for a scope: never across a command. */
struct TableLock {
	cxprm_core *c;
	void *l;
	TableLock(cxprm_core *core, void *lock) : c(core), l(lock) { c->host->ops->lock(c->host->ctx, l); }
	~TableLock() { c->host->ops->unlock(c->host->ctx, l); }
	TableLock(const TableLock &) = delete;
	TableLock &operator=(const TableLock &) = delete;
};

/* Whether any element of a is nonzero (reserved UAPI fields). */
template <class T, usize N> bool any(const T (&a)[N])
{
	for (usize i = 0; i < N; i++)
		if (a[i])
			return true;
	return false;
}

/*
 * The entry of (type, parent, id), marked busy for a DESTROY or QP_MODIFY,
 * copied to *e: -ENOENT (or -ESTALE, lost) when t has none, -EBUSY when
 * another of those runs on it (ioctl_objects.cpp).
 */
int obj_claim(cxprm_core *c, cxprm_core_objs *t, u32 type, u32 parent, u32 id, Obj *e);
/* After the command: e's new state back into t, or e out of t (gone). */
void obj_release(cxprm_core *c, cxprm_core_objs *t, const Obj &e, bool gone);

/* The destroy command of e (a QP moved to reset first); *op: the last opcode sent. */
int destroy_cmd(cxprm_core *c, Obj *e, CmdResult *r, u16 *op);

} // namespace cxprm::capi

struct cxprm_core_objs {
	static void *operator new(cxprm::usize, void *p) noexcept { return p; }
	static void operator delete(void *, void *) noexcept {}
	cxprm::u32 n = 0;
	cxprm::u32 pending = 0;          /* CREATEs in flight: room kept for them */
	void *lock = nullptr;            /* host lock: lookups and updates only */
	cxprm_core_objs *next = nullptr; /* on c->orphans */
	cxprm::capi::Obj e[CXPRM_OBJ_MAX_PER_FILE] = {};
	/* Objects the firmware lost (objs_forget): only their names stay. */
	cxprm::u32 lost_n = 0;
	cxprm::capi::Obj lost[CXPRM_OBJ_MAX_PER_FILE] = {};

	/*
	 * Index of the object (type, parent, id), or -1: as capi::table_find
	 * over e in order (claimed: the first busy one; else the first idle
	 * one, or the last busy one), through ix.
	 */
	int find(cxprm::u32 type, cxprm::u32 parent, cxprm::u32 id, bool claimed = false) const
	{
		int first = -1, any = -1;
		for (cxprm::u32 j = home(id); ix[j]; j = (j + 1) & IX_MASK) {
			int i = ix[j] - 1;
			const cxprm::capi::Obj &x = e[i];
			if (x.id != id || x.type != type || x.parent != parent)
				continue;
			if (x.busy == claimed && (first < 0 || i < first))
				first = i;
			if (i > any)
				any = i;
		}
		return first >= 0 || claimed ? first : any;
	}
	void add(const cxprm::capi::Obj &o)
	{
		forget_lost(o.type, o.parent, o.id); /* the name is the new object's now */
		e[n] = o;
		cxprm::u32 j = home(o.id);
		while (ix[j])
			j = (j + 1) & IX_MASK;
		ix[j] = (cxprm::u16)++n;
	}
	/* Index of a lost object of that name, or -1. */
	int find_lost(cxprm::u32 type, cxprm::u32 parent, cxprm::u32 id) const
	{
		for (cxprm::u32 i = 0; i < lost_n; i++)
			if (lost[i].type == type && lost[i].parent == parent && lost[i].id == id)
				return (int)i;
		return -1;
	}
	/* Drops a lost name; true when there was one. */
	bool forget_lost(cxprm::u32 type, cxprm::u32 parent, cxprm::u32 id)
	{
		int i = find_lost(type, parent, id);
		if (i < 0)
			return false;
		lost[i] = lost[--lost_n];
		lost[lost_n] = {};
		return true;
	}
	void take_out(cxprm::u32 idx)
	{
		ix_erase(slot_of(idx));
		if (idx != n - 1)
			ix[slot_of(n - 1)] = (cxprm::u16)(idx + 1); /* the last entry moves to idx */
		e[idx] = e[--n];
		e[n] = {};
	}
	/* Every entry gone (objs_forget). */
	void clear()
	{
		for (cxprm::u32 i = 0; i < n; i++)
			e[i] = {};
		for (cxprm::u16 &v : ix)
			v = 0;
		n = 0;
	}

private:
	/*
	 * e's entries by id: open addressing with linear probing, twice the
	 * table's size so a probe ends soon; a slot holds an entry's index + 1
	 * (0: empty).  A QP_MODIFY looks its QP up three times; with 243
	 * objects a walk of the table took 59 ns a lookup, the index 4 ns
	 * (tests/objects_index_test.cpp holds it to the walk's answers).
	 */
	static constexpr cxprm::u32 IX_BITS = 9, IX_SIZE = 1u << IX_BITS, IX_MASK = IX_SIZE - 1;
	static_assert(IX_SIZE >= 2 * CXPRM_OBJ_MAX_PER_FILE && CXPRM_OBJ_MAX_PER_FILE < 0xffff, "half empty; u16 slots");
	cxprm::u16 ix[IX_SIZE] = {};

	/* Fibonacci hashing: the top bits of id * 2^32 / phi. */
	static cxprm::u32 home(cxprm::u32 id) { return (id * 0x9e3779b1u) >> (32 - IX_BITS); }
	cxprm::u32 slot_of(cxprm::u32 idx) const
	{
		cxprm::u32 j = home(e[idx].id);
		while (ix[j] != idx + 1)
			j = (j + 1) & IX_MASK;
		return j;
	}
	/* Empties slot i, moving later entries of its run back (no tombstones). */
	void ix_erase(cxprm::u32 i)
	{
		for (cxprm::u32 j = (i + 1) & IX_MASK; ix[j]; j = (j + 1) & IX_MASK) {
			cxprm::u32 h = home(e[ix[j] - 1].id);
			/* The entry at j may move to i unless its home lies in (i, j]. */
			if (((j - h) & IX_MASK) >= ((j - i) & IX_MASK)) {
				ix[i] = ix[j];
				i = j;
			}
		}
		ix[i] = 0;
	}
};
