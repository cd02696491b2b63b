// Subcommand registry of the `tandem` CLI.
//
// Each subcommand lives in its own tools/cmd_<name>.cc and registers itself
// with a static `tandem::cli::Register` object. main() dispatches on argv[1].
// A subcommand's run() receives argv with argv[0] = "tandem <name>" and
// returns the process exit code; tandem::Error escaping it is printed as
// "error: <message>" with exit code 1.
#pragma once

#include <functional>
#include <map>
#include <string>

namespace tandem::cli {

struct Command {
  std::string help;  // one line
  std::function<int(int argc, char** argv)> run;
};

std::map<std::string, Command>& registry();

struct Register {
  Register(const std::string& name, const std::string& help,
           std::function<int(int, char**)> run) {
    registry()[name] = Command{help, std::move(run)};
  }
};

}  // namespace tandem::cli
