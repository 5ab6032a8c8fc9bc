// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// A file's objects table finds an entry through its id index
// (src/objects_table.h): the same answer as the plain walk of the table
// (capi::table_find) after any mix of adds, take-outs, busy marks and
// clears, duplicates of one name included (a busy entry and a new one).
#include <cstdint>
#include <new>
#include <random>
#include <vector>

#include <gtest/gtest.h>

#include "../src/objects_table.h"

namespace {

using cxprm::capi::Obj;

// What find() answered before the index: the walk of every entry.
int walk(const std::vector<Obj> &v, uint32_t type, uint32_t parent, uint32_t id, bool claimed)
{
	return cxprm::capi::table_find(
		(cxprm::u32)v.size(),
		[&](cxprm::u32 i) { return v[i].id == id && v[i].type == type && v[i].parent == parent; },
		[&](cxprm::u32 i) { return v[i].busy; }, claimed);
}

TEST(ObjectsIndex, FindsWhatTheWalkOfTheTableFinds)
{
	alignas(cxprm_core_objs) static unsigned char room[sizeof(cxprm_core_objs)];
	cxprm_core_objs *t = new (room) cxprm_core_objs;
	std::vector<Obj> model;
	std::mt19937 rng(7);
	auto pick = [&](uint32_t n) { return (uint32_t)(rng() % n); };
	// Few names, so that ids collide in the index and names repeat.
	auto name = [&](Obj &o) {
		o.type = 1 + pick(3);
		o.parent = pick(2);
		o.id = pick(4) ? 0x400 + pick(300) : pick(8) << 9; // same low bits too
	};
	unsigned checked = 0;
	for (int step = 0; step < 30000; step++) {
		uint32_t what = pick(100);
		if (what < 50 && model.size() < CXPRM_OBJ_MAX_PER_FILE) {
			Obj o{};
			name(o);
			o.busy = pick(4) == 0;
			t->add(o);
			model.push_back(o);
		} else if (what < 90 && !model.empty()) {
			uint32_t i = pick((uint32_t)model.size());
			t->take_out(i);
			model[i] = model.back();
			model.pop_back();
		} else if (what < 99 && !model.empty()) {
			uint32_t i = pick((uint32_t)model.size());
			t->e[i].busy = model[i].busy = !model[i].busy;
		} else {
			t->clear();
			model.clear();
		}
		ASSERT_EQ(t->n, model.size());
		for (int k = 0; k < 4; k++) {
			Obj q{};
			if (!model.empty() && pick(2))
				q = model[pick((uint32_t)model.size())];
			else
				name(q);
			for (bool claimed : {false, true}) {
				ASSERT_EQ(t->find(q.type, q.parent, q.id, claimed), walk(model, q.type, q.parent, q.id, claimed))
					<< "step " << step << " id " << q.id << " claimed " << claimed;
				checked++;
			}
		}
	}
	EXPECT_GT(checked, 200000u);
	t->~cxprm_core_objs();
}

} // namespace
