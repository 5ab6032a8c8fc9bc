// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include "file_platform.h"

#include <atomic>
#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

namespace cxprm::emud {

MappedFile::~MappedFile() { close(); }

bool MappedFile::open(const std::string &path, std::string *err)
{
	close();
	int fd = ::open(path.c_str(), O_RDWR | O_CLOEXEC);
	if (fd < 0) {
		*err = path + ": " + std::strerror(errno);
		return false;
	}
	struct stat st;
	if (fstat(fd, &st) != 0) {
		*err = path + ": " + std::strerror(errno);
		::close(fd);
		return false;
	}
	if (st.st_size <= 0) {
		*err = path + ": empty file";
		::close(fd);
		return false;
	}
	void *p = mmap(nullptr, (size_t)st.st_size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	int e = errno;
	::close(fd);
	if (p == MAP_FAILED) {
		*err = path + ": mmap: " + std::strerror(e);
		return false;
	}
	path_ = path;
	p_ = static_cast<uint8_t *>(p);
	size_ = (size_t)st.st_size;
	return true;
}

void MappedFile::close()
{
	if (p_)
		munmap(p_, size_);
	p_ = nullptr;
	size_ = 0;
}

FilePlatform::FilePlatform(MappedFile &ram, const GuestRam &layout, MappedFile &bar, size_t device_bar_bytes)
	: ram_(ram), layout_(layout), bar_(bar), device_bar_(device_bar_bytes)
{
}

uint8_t *FilePlatform::host_ptr(uint64_t bus, size_t len)
{
	uint64_t off;
	if (!layout_.to_offset(bus, len, &off) || off > ram_.size() || len > ram_.size() - off) {
		refused_++;
		last_bus_.store(bus);
		last_len_.store(len);
		return nullptr;
	}
	ops_.fetch_add(1, std::memory_order_relaxed);
	if (bus >= GuestRam::FOUR_G)
		ops_high_.fetch_add(1, std::memory_order_relaxed);
	return ram_.data() + off;
}

bool FilePlatform::dma_read(uint64_t bus, void *dst, size_t len)
{
	uint8_t *p = host_ptr(bus, len);
	if (!p)
		return false;
	std::memcpy(dst, p, len);
	std::atomic_thread_fence(std::memory_order_acquire);
	return true;
}

bool FilePlatform::dma_write(uint64_t bus, const void *src, size_t len)
{
	uint8_t *p = host_ptr(bus, len);
	if (!p)
		return false;
	// A single byte is the hand-back (entry status/ownership, EQE owner),
	// written last by the emulator: a release store, so everything before
	// it is visible to the guest first.
	if (len == 1)
		__atomic_store_n(p, *static_cast<const uint8_t *>(src), __ATOMIC_RELEASE);
	else
		std::memcpy(p, src, len);
	return true;
}

void FilePlatform::raise_irq(uint32_t vec)
{
	irqs_++;
	if (ivshmem_)
		ivshmem_->raise(vec);
}

void FilePlatform::last_refused(uint64_t *bus, uint64_t *len) const
{
	*bus = last_bus_.load();
	*len = last_len_.load();
}

} // namespace cxprm::emud
