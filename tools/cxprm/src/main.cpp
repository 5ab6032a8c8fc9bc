// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// cxprm: the command-line tool of the cxprm driver (see README.md).
// Everything is in run_cli() (dispatch.cpp) and the cli_cmd_*.cpp files.
#include <iostream>
#include <string>
#include <vector>

#include "commands.h"

int main(int argc, char **argv)
{
	std::ios::sync_with_stdio(true);
	std::vector<std::string> args(argv + 1, argv + argc);
	return cxprm::tool::run_cli(args, std::cout, std::cerr, std::cin);
}
