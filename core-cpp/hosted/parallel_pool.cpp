// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include "parallel_pool.h"

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <deque>
#include <mutex>
#include <thread>

namespace cxprm::hosted {

namespace {

// One run_parallel call: its indices are claimed one at a time.
struct Job {
	void (*fn)(void *, uint32_t);
	void *arg;
	uint32_t n;
	std::atomic<uint32_t> next{0};
	uint32_t done = 0;  // under Pool::mu_
	uint32_t users = 0; // pool threads inside work(): under Pool::mu_
};

class Pool {
public:
	void run(uint32_t n, void (*fn)(void *, uint32_t), void *arg)
	{
		Job job{fn, arg, n};
		{
			std::lock_guard<std::mutex> lk(mu_);
			grow(std::min(n - 1, kMaxThreads));
			jobs_.push_back(&job);
		}
		cv_.notify_all();
		work(&job);
		std::unique_lock<std::mutex> lk(mu_);
		jobs_.erase(std::remove(jobs_.begin(), jobs_.end(), &job), jobs_.end());
		// No thread may touch job (on this stack) once it returns.
		done_cv_.wait(lk, [&] { return job.done == job.n && job.users == 0; });
	}

private:
	// Claims and runs job's indices until none is left.
	void work(Job *job)
	{
		for (;;) {
			uint32_t i = job->next.fetch_add(1);
			if (i >= job->n)
				return;
			job->fn(job->arg, i);
			std::lock_guard<std::mutex> lk(mu_);
			if (++job->done == job->n)
				done_cv_.notify_all();
		}
	}

	// A job with indices left, or null (mu_ held).
	Job *pick()
	{
		for (Job *j : jobs_)
			if (j->next.load() < j->n)
				return j;
		return nullptr;
	}

	void grow(uint32_t want) // mu_ held
	{
		while (threads_ < want) {
			std::thread([this] { loop(); }).detach();
			threads_++;
		}
	}

	void loop()
	{
		std::unique_lock<std::mutex> lk(mu_);
		for (;;) {
			Job *j = nullptr;
			cv_.wait(lk, [&] { return (j = pick()) != nullptr; });
			j->users++;
			lk.unlock();
			work(j);
			lk.lock();
			if (--j->users == 0)
				done_cv_.notify_all();
		}
	}

	std::mutex mu_;
	std::condition_variable cv_, done_cv_;
	std::deque<Job *> jobs_;
	uint32_t threads_ = 0;
};

} // namespace

void run_parallel(uint32_t n, void (*fn)(void *arg, uint32_t i), void *arg)
{
	static Pool *pool = new Pool; // lives as long as its detached threads
	if (n)
		pool->run(n, fn, arg);
}

} // namespace cxprm::hosted
