// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// The tool's failures and exit codes.  Commands throw; run_cli() catches,
// prints "cxprm: <message>" on stderr and returns the exit code:
//
//   0  success
//   1  usage error (bad option, missing argument, value out of range)
//   2  device or OS error (no such device, permission, ioctl errno, I/O)
//   3  the firmware executed the command and answered a bad status
//      (or the command was not delivered: delivery status != 0)
//   4  timed out waiting for events (esw watch --count, dct wait)
#pragma once

#include <stdexcept>
#include <string>

namespace cxprm::tool {

enum Exit : int {
	EXIT_OK = 0,
	EXIT_USAGE = 1,
	EXIT_OS = 2,
	EXIT_FW = 3,
	EXIT_TIMEOUT = 4,
};

// Something the tool cannot continue from, with its exit code.
class Failure : public std::runtime_error {
public:
	Failure(int code, const std::string &msg) : std::runtime_error(msg), code_(code) {}
	int code() const { return code_; }

private:
	int code_;
};

// Bad command line; 'command' names the subcommand whose usage applies.
class UsageError : public Failure {
public:
	explicit UsageError(const std::string &msg, std::string command = {})
		: Failure(EXIT_USAGE, msg), command_(std::move(command))
	{
	}
	const std::string &command() const { return command_; }

private:
	std::string command_;
};

class OsError : public Failure {
public:
	explicit OsError(const std::string &msg) : Failure(EXIT_OS, msg) {}
};

class FwError : public Failure {
public:
	explicit FwError(const std::string &msg) : Failure(EXIT_FW, msg) {}
};

class TimeoutError : public Failure {
public:
	explicit TimeoutError(const std::string &msg) : Failure(EXIT_TIMEOUT, msg) {}
};

} // namespace cxprm::tool
