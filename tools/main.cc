// Entry point of the `tandem` CLI: dispatches to registered subcommands.
#include <cstdio>
#include <exception>
#include <string>
#include <vector>

#include "isa/error.h"
#include "tools/command.h"

namespace tandem::cli {

std::map<std::string, Command>& registry() {
  static std::map<std::string, Command> r;
  return r;
}

}  // namespace tandem::cli

namespace {

void usage() {
  std::printf("usage: tandem <command> [options]   (tandem <command> --help for its options)\n\n");
  for (const auto& [name, cmd] : tandem::cli::registry())
    std::printf("  %-10s %s\n", name.c_str(), cmd.help.c_str());
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2 || std::string(argv[1]) == "--help" || std::string(argv[1]) == "-h") {
    usage();
    return argc < 2 ? 2 : 0;
  }
  auto& reg = tandem::cli::registry();
  auto it = reg.find(argv[1]);
  if (it == reg.end()) {
    std::fprintf(stderr, "error: unknown command '%s'\n\n", argv[1]);
    usage();
    return 2;
  }
  std::string self = std::string("tandem ") + argv[1];
  std::vector<char*> args;
  args.push_back(self.data());
  for (int i = 2; i < argc; ++i) args.push_back(argv[i]);
  try {
    return it->second.run(static_cast<int>(args.size()), args.data());
  } catch (const tandem::Error& e) {
    std::fprintf(stderr, "error: %s\n", e.what());
    return 1;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "error: %s\n", e.what());
    return 1;
  }
}
