// compiler::lower(): validates the arguments and runs the generic passes in
// order, reporting the IR after each one when asked.
#include "compiler/build.h"

#include <algorithm>

#include "compiler/ir/printer.h"
#include "compiler/lower/passes.h"
#include "isa/error.h"

namespace tandem::compiler {

std::vector<std::string> lower_pass_names() {
  return {"schedule_ops",   "storage_flatten",   "simplify",
          "intrin_offsets", "remove_unit_loops", "simplify_final"};
}

LoweredFunc lower(const te::Schedule& sch, const std::vector<te::Tensor>& args,
                  const std::string& name, const LowerOptions& options) {
  TANDEM_CHECK(sch.get() != nullptr, "lower " << name << ": empty schedule");
  for (const te::Tensor& a : args) {
    TANDEM_CHECK(a.defined(), "lower " << name << ": undefined argument tensor");
    sch[a];  // throws when not part of the schedule
  }
  auto listed = [&](const te::Tensor& t) {
    return std::any_of(args.begin(), args.end(), [&](const te::Tensor& a) { return a.same_as(t); });
  };
  for (const te::Stage& s : sch.stages()) {
    const te::Tensor& t = s->output;
    if (s->is_output) {
      TANDEM_CHECK(listed(t), "lower " << name << ": output " << t.name()
                                       << " must be listed in the arguments");
    }
    if (s->is_placeholder()) {
      TANDEM_CHECK(listed(t), "lower " << name << ": input " << t.name()
                                       << " must be listed in the arguments");
    }
  }
  for (size_t i = 0; i < args.size(); ++i) {
    for (size_t j = 0; j < i; ++j) {
      TANDEM_CHECK(!args[i].same_as(args[j]),
                   "lower " << name << ": argument " << args[i].name() << " is listed twice");
    }
  }

  auto report = [&](const std::string& pass, const ir::Stmt& body) {
    if (options.dump_ir) options.dump_ir(pass, body);
    if (options.dump_stream) *options.dump_stream << "// ---- " << pass << " ----\n" << body;
  };

  LoweredFunc f;
  f.name = name;
  ir::Stmt body = pass::schedule_ops(sch, args);
  report("schedule_ops", body);
  std::vector<ir::Buffer> arg_bufs;
  for (const te::Tensor& a : args) {
    arg_bufs.push_back(a.buffer());
    f.arg_shapes.push_back(a.const_shape());
  }
  body = pass::storage_flatten(body, arg_bufs, &f.args);
  report("storage_flatten", body);
  body = pass::simplify_pass(body);
  report("simplify", body);
  body = pass::intrin_offsets(body);
  report("intrin_offsets", body);
  if (options.remove_unit_loops) {
    body = pass::remove_unit_loops(body);
    report("remove_unit_loops", body);
  }
  body = pass::simplify_pass(body);
  report("simplify_final", body);
  f.body = body;
  return f;
}

}  // namespace tandem::compiler
