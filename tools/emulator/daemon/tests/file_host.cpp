// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include "file_host.h"

#include <cerrno>
#include <cstdlib>
#include <cstring>

namespace cxprm::emud::test {

FileHost::FileHost(uint8_t *ram, const GuestRam &layout, uint8_t *bar, size_t bar_size, uint64_t arena_off)
	: HostBase(false), ram_(ram), layout_(layout)
{
	bind_bar(bar, bar_size);
	// Region bounds are guest-physical; the file offsets follow from them.
	if (arena_off < layout.low_size())
		regions_.push_back({layout.to_gpa(arena_off), layout.base() + layout.low_size(), arena_off, {}});
	if (layout.above_4g()) {
		uint64_t skip = arena_off > layout.low_size() ? arena_off - layout.low_size() : 0;
		regions_.push_back({GuestRam::FOUR_G + skip, GuestRam::FOUR_G + layout.above_4g(),
				    layout.low_size() + skip, {}});
	}
}

int FileHost::dma_alloc(size_t size, size_t align, cxprm_dma_buf *buf)
{
	if (!size || !align || (align & (align - 1)) || align > 4096)
		return -EINVAL;
	std::lock_guard<std::mutex> lk(mu_);
	uint64_t gpa = 0;
	bool ok = false;
	for (size_t i = 0; i < regions_.size() && !ok; i++) {
		Region &r = regions_[(next_region_ + i) % regions_.size()];
		ok = first_fit(r.used, r.gpa_begin, r.gpa_end, size, align, &gpa);
	}
	if (!ok)
		return -ENOMEM;
	next_region_++;
	uint64_t off = 0;
	if (!layout_.to_offset(gpa, size, &off))
		std::abort();
	std::memset(ram_ + off, 0, size);
	(gpa >= GuestRam::FOUR_G ? above_4g_ : below_4g_)++; // (virt: by address too)
	buf->cpu = ram_ + off;
	buf->bus = gpa;
	buf->size = size;
	buf->cookie = nullptr;
	return 0;
}

void FileHost::dma_free(cxprm_dma_buf *buf)
{
	std::lock_guard<std::mutex> lk(mu_);
	for (Region &r : regions_) {
		auto it = r.used.find(buf->bus);
		if (it == r.used.end())
			continue;
		if (it->second != buf->size)
			std::abort();
		std::memset(buf->cpu, 0x6b, buf->size); // poison: use after free shows
		r.used.erase(it);
		return;
	}
	std::abort(); // a double or bogus free is a bug in the core
}

size_t FileHost::dma_live() const
{
	std::lock_guard<std::mutex> lk(mu_);
	size_t n = 0;
	for (auto &r : regions_)
		n += r.used.size();
	return n;
}

} // namespace cxprm::emud::test
