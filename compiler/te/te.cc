// Tensor expressions: placeholder/compute construction and checks.
#include "compiler/te/te.h"

#include <functional>
#include <set>
#include <unordered_set>

#include "compiler/ir/printer.h"
#include "compiler/ir/visitor.h"
#include "isa/error.h"

namespace tandem::te {

namespace {

void check_shape(const std::vector<Expr>& shape, const std::string& name) {
  TANDEM_CHECK(!shape.empty(), "tensor " << name << " needs at least one dimension");
  std::int64_t total = 1;
  for (size_t d = 0; d < shape.size(); ++d) {
    const std::int64_t* c = ir::as_const_int(shape[d]);
    TANDEM_CHECK(c != nullptr, "tensor " << name << ": dimension " << d
                                         << " must be a constant, got " << ir::to_string(shape[d]));
    TANDEM_CHECK(*c > 0,
                 "tensor " << name << ": dimension " << d << " is " << *c << ", must be positive");
    total *= *c;
    TANDEM_CHECK(total <= ir::dtype_max(DType::kInt32),
                 "tensor " << name << " has more than 2^31-1 elements (int32 indices)");
  }
}

}  // namespace

IterVar::IterVar(Var v, Range dom, IterKind kind)
    : node_(std::make_shared<IterVarNode>(IterVarNode{std::move(v), std::move(dom), kind})) {}

TensorNode::TensorNode(std::string n, DType d, std::vector<Expr> s, Operation o)
    : ir::BufferNode(std::move(n), d, std::move(s), "global"), op(std::move(o)) {}

Tensor Tensor::from_buffer(const ir::Buffer& b) {
  return Tensor(std::dynamic_pointer_cast<const TensorNode>(b.ptr()));
}

std::vector<std::int64_t> Tensor::const_shape() const {
  std::vector<std::int64_t> out;
  for (const Expr& e : node_->shape) out.push_back(*ir::as_const_int(e));
  return out;
}

Expr Tensor::operator()(std::vector<Expr> indices) const {
  TANDEM_CHECK(indices.size() == ndim(), "tensor " << name() << " has " << ndim()
                                                   << " dimensions, accessed with "
                                                   << indices.size() << " indices");
  return ir::load(buffer(), std::move(indices));
}

Tensor placeholder(std::vector<Expr> shape, DType dtype, std::string name) {
  check_shape(shape, name);
  auto op = std::make_shared<OperationNode>();
  op->kind = OperationNode::Kind::kPlaceholder;
  op->name = name;
  return Tensor(std::make_shared<TensorNode>(name, dtype, std::move(shape), op));
}

Tensor compute(std::vector<Expr> shape,
               const std::function<Expr(const std::vector<Var>&)>& fcompute, std::string name,
               std::vector<std::string> axis_names) {
  check_shape(shape, name);
  TANDEM_CHECK(axis_names.empty() || axis_names.size() == shape.size(),
               "compute " << name << ": " << axis_names.size() << " axis names for " << shape.size()
                          << " dimensions");
  auto op = std::make_shared<OperationNode>();
  op->kind = OperationNode::Kind::kCompute;
  op->name = name;
  std::vector<Var> vars;
  for (size_t d = 0; d < shape.size(); ++d) {
    std::string an = axis_names.empty() ? "i" + std::to_string(d) : axis_names[d];
    Var v(axis_names.empty() ? name + "." + an : an);
    vars.push_back(v);
    op->axis.push_back(IterVar(v, Range{Expr(0), shape[d]}, IterKind::kDataPar));
  }
  Expr body = fcompute(vars);
  TANDEM_CHECK(body.defined(), "compute " << name << ": the lambda's number of index arguments"
                                          << " differs from the " << shape.size()
                                          << " dimensions of the shape");
  std::unordered_set<const ir::VarNode*> allowed;
  for (const Var& v : vars) allowed.insert(v.get());
  if (const ir::ReduceNode* r = body.as<ir::ReduceNode>()) {
    for (size_t i = 0; i < r->axis.size(); ++i) {
      op->reduce_axis.push_back(IterVar(r->axis[i], r->dom[i], IterKind::kReduce));
      allowed.insert(r->axis[i].get());
    }
  }
  // Checks: Reduce only at the top, every variable is an axis, inputs.
  std::set<std::uint64_t> seen_inputs;
  bool top = true;
  ir::post_order_visit(body, [&](const ir::Node* n) {
    if (n->node_type == ir::NodeType::kReduce && n != body.get()) top = false;
  });
  TANDEM_CHECK(top, "compute " << name << ": a reduction may only appear at the top of the body");
  ir::post_order_visit(body, [&](const ir::Node* n) {
    if (n->node_type == ir::NodeType::kVar) {
      auto* v = static_cast<const ir::VarNode*>(n);
      TANDEM_CHECK(allowed.count(v), "compute " << name << " uses variable " << v->name
                                                << " which is neither one of its axes nor a "
                                                   "reduce axis of its top-level reduction");
    }
  });
  ir::post_order_visit(body, [&](const ir::Node* n) {
    if (n->node_type != ir::NodeType::kLoad) return;
    auto* l = static_cast<const ir::LoadNode*>(n);
    Tensor t = Tensor::from_buffer(l->buffer);
    TANDEM_CHECK(t.defined(), "compute " << name << " reads buffer " << l->buffer.name()
                                         << " which is not a tensor");
    if (seen_inputs.insert(t->id).second) op->inputs.push_back(t);
  });
  op->body = body;
  DType dtype = body.dtype();
  return Tensor(std::make_shared<TensorNode>(name, dtype, std::move(shape), op));
}

IterVar reduce_axis(Range dom, std::string name) {
  const std::int64_t* mn = ir::as_const_int(dom.min);
  const std::int64_t* ex = ir::as_const_int(dom.extent);
  TANDEM_CHECK(mn && ex, "reduce axis " << name << ": range must be constant");
  TANDEM_CHECK(*ex > 0, "reduce axis " << name << ": extent " << *ex << " must be positive");
  return IterVar(Var(name), dom, IterKind::kReduce);
}

IterVar reduce_axis(std::int64_t extent, std::string name) {
  return reduce_axis(Range{Expr(0), Expr(extent)}, std::move(name));
}

namespace {
Expr make_reduce(ir::ReduceOp op, Expr source, const std::vector<IterVar>& axes) {
  TANDEM_CHECK(!axes.empty(), reduce_op_name(op) << " needs at least one reduce axis");
  std::vector<Var> vars;
  std::vector<Range> dom;
  for (const IterVar& iv : axes) {
    TANDEM_CHECK(iv.defined() && iv.kind() == IterKind::kReduce,
                 reduce_op_name(op) << ": axis " << (iv.defined() ? iv.name() : "<undef>")
                                    << " is not a reduce axis (use te::reduce_axis)");
    vars.push_back(iv.var());
    dom.push_back(iv->dom);
  }
  return ir::ReduceNode::make(op, std::move(source), std::move(vars), std::move(dom));
}
}  // namespace

Expr sum(Expr source, std::vector<IterVar> axes) {
  return make_reduce(ir::ReduceOp::kSum, std::move(source), axes);
}
Expr reduce_max(Expr source, std::vector<IterVar> axes) {
  return make_reduce(ir::ReduceOp::kMax, std::move(source), axes);
}
Expr reduce_min(Expr source, std::vector<IterVar> axes) {
  return make_reduce(ir::ReduceOp::kMin, std::move(source), axes);
}

std::vector<Tensor> topo_order(const std::vector<Tensor>& outputs) {
  std::vector<Tensor> order;
  std::unordered_set<const TensorNode*> done;
  std::function<void(const Tensor&)> dfs = [&](const Tensor& t) {
    if (done.count(t.get())) return;
    done.insert(t.get());
    for (const Tensor& in : t.op()->inputs) dfs(in);
    order.push_back(t);
  };
  for (const Tensor& t : outputs) dfs(t);
  return order;
}

}  // namespace tandem::te
