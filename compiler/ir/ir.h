// The loop IR shared by the whole compiler: expressions and statements.
//
// Every node kind is declared ONCE in the X-macro lists below
// (TANDEM_IR_EXPR_NODES / TANDEM_IR_STMT_NODES); the node-type enum, the
// visitor, the mutator, the printer and structural equality are all generated
// from those lists, so adding a node means: add it to the list, define its
// struct here, and the compiler will point at every switch that must learn it.
//
// Nodes are immutable and reference counted (std::shared_ptr<const T>). Expr,
// Stmt, Var and Buffer are cheap value handles around them. Identity:
//  - a Var is identified by its node (pointer) / unique id, never by its name;
//  - a Buffer is identified by its node (pointer); te::Tensor derives from
//    BufferNode, so a tensor access in a compute body is a plain Load.
// Integer semantics: every integer operation wraps to its dtype; "/" and "%"
// build FloorDiv/FloorMod (round toward minus infinity); Shr is arithmetic.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace tandem::ir {

// ---------------------------------------------------------------- node lists
#define TANDEM_IR_EXPR_NODES(X) \
  X(IntImm)                     \
  X(Var)                        \
  X(Add)                        \
  X(Sub)                        \
  X(Mul)                        \
  X(FloorDiv)                   \
  X(FloorMod)                   \
  X(Min)                        \
  X(Max)                        \
  X(Shl)                        \
  X(Shr)                        \
  X(EQ)                         \
  X(NE)                         \
  X(LT)                         \
  X(LE)                         \
  X(GT)                         \
  X(GE)                         \
  X(And)                        \
  X(Or)                         \
  X(Not)                        \
  X(Select)                     \
  X(Cast)                       \
  X(Load)                       \
  X(Call)                       \
  X(Reduce)

#define TANDEM_IR_STMT_NODES(X) \
  X(For)                        \
  X(LetStmt)                    \
  X(IfThenElse)                 \
  X(Store)                      \
  X(Allocate)                   \
  X(Seq)                        \
  X(AttrStmt)                   \
  X(Evaluate)

// The binary expression nodes (a subset of the list above), same order.
#define TANDEM_IR_BINARY_NODES(X) \
  X(Add)                          \
  X(Sub)                          \
  X(Mul)                          \
  X(FloorDiv)                     \
  X(FloorMod)                     \
  X(Min)                          \
  X(Max)                          \
  X(Shl)                          \
  X(Shr)                          \
  X(EQ)                           \
  X(NE)                           \
  X(LT)                           \
  X(LE)                           \
  X(GT)                           \
  X(GE)                           \
  X(And)                          \
  X(Or)

enum class NodeType : std::uint8_t {
#define TANDEM_X(n) k##n,
  TANDEM_IR_EXPR_NODES(TANDEM_X) TANDEM_IR_STMT_NODES(TANDEM_X)
#undef TANDEM_X
};
std::string_view node_type_name(NodeType t);

// ---------------------------------------------------------------- types
enum class DType : std::uint8_t { kBool, kInt8, kInt16, kInt32 };
std::string_view dtype_name(DType t);  // "bool", "int8", "int16", "int32"
int dtype_bits(DType t);               // 1, 8, 16, 32
std::int64_t dtype_min(DType t);
std::int64_t dtype_max(DType t);
// Wraps v to the two's-complement range of t (bool: v != 0).
std::int64_t wrap_to(DType t, std::int64_t v);

// ---------------------------------------------------------------- bases
struct Node {
  explicit Node(NodeType t) : node_type(t) {}
  virtual ~Node() = default;
  const NodeType node_type;
};

struct ExprNode : Node {
  ExprNode(NodeType t, DType d) : Node(t), dtype(d) {}
  const DType dtype;
};

struct StmtNode : Node {
  explicit StmtNode(NodeType t) : Node(t) {}
};

struct VarNode;
struct BufferNode;

// An expression handle. Implicitly built from an integer literal (int32 IntImm).
class Expr {
 public:
  Expr() = default;
  explicit Expr(std::shared_ptr<const ExprNode> n) : node_(std::move(n)) {}
  Expr(int v);           // NOLINT(runtime/explicit): IntImm of dtype int32
  Expr(std::int64_t v);  // NOLINT(runtime/explicit): IntImm of dtype int32 (checked range)

  bool defined() const { return node_ != nullptr; }
  const ExprNode* get() const { return node_.get(); }
  const ExprNode* operator->() const { return node_.get(); }
  NodeType node_type() const { return node_->node_type; }
  DType dtype() const { return node_->dtype; }
  bool same_as(const Expr& o) const { return node_ == o.node_; }
  const std::shared_ptr<const ExprNode>& ptr() const { return node_; }

  // Downcast: nullptr when undefined or of another node type.
  template <typename T>
  const T* as() const {
    return node_ && node_->node_type == T::kType ? static_cast<const T*>(node_.get()) : nullptr;
  }

 private:
  std::shared_ptr<const ExprNode> node_;
};

class Stmt {
 public:
  Stmt() = default;
  explicit Stmt(std::shared_ptr<const StmtNode> n) : node_(std::move(n)) {}
  bool defined() const { return node_ != nullptr; }
  const StmtNode* get() const { return node_.get(); }
  const StmtNode* operator->() const { return node_.get(); }
  NodeType node_type() const { return node_->node_type; }
  bool same_as(const Stmt& o) const { return node_ == o.node_; }
  template <typename T>
  const T* as() const {
    return node_ && node_->node_type == T::kType ? static_cast<const T*>(node_.get()) : nullptr;
  }

 private:
  std::shared_ptr<const StmtNode> node_;
};

// A variable (loop variable, let variable, intrinsic parameter). Identity is
// the node: two Vars with the same name are different variables.
class Var : public Expr {
 public:
  Var() = default;
  explicit Var(std::string name, DType dtype = DType::kInt32);
  // From an Expr that must be a VarNode (TANDEM_ASSERT otherwise).
  explicit Var(const Expr& e);
  const VarNode* get() const;
  const VarNode* operator->() const { return get(); }
  const std::string& name() const;
};

// A half-open integer range [min, min + extent).
struct Range {
  Expr min;
  Expr extent;
};

// A buffer: named n-dimensional storage of one dtype in one memory scope.
// Scopes: "global" (device DRAM / function arguments), the accelerator SRAMs
// "inp", "wgt", "acc", "out", and "local" (host scratch). After storage
// flattening every buffer in the IR is 1-D (shape = {element count}).
struct BufferNode {
  BufferNode(std::string name, DType dtype, std::vector<Expr> shape, std::string scope);
  virtual ~BufferNode() = default;
  std::string name;
  DType dtype;
  std::vector<Expr> shape;
  std::string scope;
  std::uint64_t id;  // unique, for stable ordering
};

class Buffer {
 public:
  Buffer() = default;
  explicit Buffer(std::shared_ptr<const BufferNode> n) : node_(std::move(n)) {}
  Buffer(std::string name, DType dtype, std::vector<Expr> shape, std::string scope = "global");
  bool defined() const { return node_ != nullptr; }
  const BufferNode* get() const { return node_.get(); }
  const BufferNode* operator->() const { return node_.get(); }
  bool same_as(const Buffer& o) const { return node_ == o.node_; }
  const std::shared_ptr<const BufferNode>& ptr() const { return node_; }
  const std::string& name() const { return node_->name; }
  DType dtype() const { return node_->dtype; }
  const std::string& scope() const { return node_->scope; }
  // Product of the shape; every dimension must be a constant (tandem::Error otherwise).
  std::int64_t num_elements() const;

 private:
  std::shared_ptr<const BufferNode> node_;
};

// ---------------------------------------------------------------- expressions
template <NodeType T>
struct ExprNodeT : ExprNode {
  static constexpr NodeType kType = T;
  explicit ExprNodeT(DType d) : ExprNode(T, d) {}
};

struct IntImmNode : ExprNodeT<NodeType::kIntImm> {
  IntImmNode(DType d, std::int64_t v) : ExprNodeT(d), value(v) {}
  std::int64_t value;
  static Expr make(DType d, std::int64_t v);  // value is wrapped to d
};

struct VarNode : ExprNodeT<NodeType::kVar> {
  VarNode(DType d, std::string n, std::uint64_t i) : ExprNodeT(d), name(std::move(n)), id(i) {}
  std::string name;
  std::uint64_t id;  // unique per process; canonical forms sort by it
};

// Binary nodes share one layout. Arithmetic nodes require equal integer
// dtypes and have that dtype; comparisons have dtype bool; And/Or take bools.
template <NodeType T>
struct BinaryNode : ExprNodeT<T> {
  BinaryNode(DType d, Expr x, Expr y) : ExprNodeT<T>(d), a(std::move(x)), b(std::move(y)) {}
  Expr a, b;
  // Checks operand dtypes (tandem::Error naming the node and both dtypes).
  static Expr make(Expr a, Expr b);
};
#define TANDEM_X(n) using n##Node = BinaryNode<NodeType::k##n>;
TANDEM_IR_BINARY_NODES(TANDEM_X)
#undef TANDEM_X

struct NotNode : ExprNodeT<NodeType::kNot> {
  NotNode(Expr x) : ExprNodeT(DType::kBool), a(std::move(x)) {}
  Expr a;
  static Expr make(Expr a);
};

// cond ? true_value : false_value. Only the chosen operand is evaluated (a
// load in the other one may be out of range: this is how padding is written).
struct SelectNode : ExprNodeT<NodeType::kSelect> {
  SelectNode(DType d, Expr c, Expr t, Expr f)
      : ExprNodeT(d), cond(std::move(c)), true_value(std::move(t)), false_value(std::move(f)) {}
  Expr cond, true_value, false_value;
  static Expr make(Expr cond, Expr t, Expr f);
};

struct CastNode : ExprNodeT<NodeType::kCast> {
  CastNode(DType d, Expr v) : ExprNodeT(d), value(std::move(v)) {}
  Expr value;
  static Expr make(DType d, Expr v);
};

// buffer[indices...]. Before storage flattening there is one index per buffer
// dimension; afterwards exactly one (flat element index).
struct LoadNode : ExprNodeT<NodeType::kLoad> {
  LoadNode(DType d, Buffer b, std::vector<Expr> idx)
      : ExprNodeT(d), buffer(std::move(b)), indices(std::move(idx)) {}
  Buffer buffer;
  std::vector<Expr> indices;
  static Expr make(Buffer b, std::vector<Expr> indices);
};

// A named intrinsic. `buffers` lists the buffers the intrinsic touches (for
// accelerator intrinsics: see compiler/README.md "Contract with the
// accelerator back end"); `args` are scalar operands.
struct CallNode : ExprNodeT<NodeType::kCall> {
  CallNode(DType d, std::string n, std::vector<Expr> a, std::vector<Buffer> b)
      : ExprNodeT(d), name(std::move(n)), args(std::move(a)), buffers(std::move(b)) {}
  std::string name;
  std::vector<Expr> args;
  std::vector<Buffer> buffers;
  static Expr make(DType d, std::string name, std::vector<Expr> args,
                   std::vector<Buffer> buffers = {});
};

// A reduction (tensor-expression level only; ScheduleOps lowers it away).
enum class ReduceOp : std::uint8_t { kSum, kMax, kMin };
std::string_view reduce_op_name(ReduceOp op);
struct ReduceNode : ExprNodeT<NodeType::kReduce> {
  ReduceNode(DType d, ReduceOp o, Expr s, std::vector<Var> a, std::vector<Range> r)
      : ExprNodeT(d), op(o), source(std::move(s)), axis(std::move(a)), dom(std::move(r)) {}
  ReduceOp op;
  Expr source;
  std::vector<Var> axis;   // reduction variables
  std::vector<Range> dom;  // their ranges, same order
  static Expr make(ReduceOp op, Expr source, std::vector<Var> axis, std::vector<Range> dom);
  // Identity element of the combiner for dtype d (0, dtype_min, dtype_max).
  static Expr identity(ReduceOp op, DType d);
};

// ---------------------------------------------------------------- statements
template <NodeType T>
struct StmtNodeT : StmtNode {
  static constexpr NodeType kType = T;
  StmtNodeT() : StmtNode(T) {}
};

enum class ForKind : std::uint8_t { kSerial, kUnrolled, kVectorized, kParallel, kVThread };
std::string_view for_kind_name(ForKind k);  // "serial", "unrolled", ...

struct ForNode : StmtNodeT<NodeType::kFor> {
  Var var;
  Expr min, extent;
  ForKind kind = ForKind::kSerial;
  Stmt body;
  static Stmt make(Var var, Expr min, Expr extent, ForKind kind, Stmt body);
};

struct LetStmtNode : StmtNodeT<NodeType::kLetStmt> {
  Var var;
  Expr value;
  Stmt body;
  static Stmt make(Var var, Expr value, Stmt body);
};

struct IfThenElseNode : StmtNodeT<NodeType::kIfThenElse> {
  Expr cond;
  Stmt then_case;
  Stmt else_case;  // may be undefined
  static Stmt make(Expr cond, Stmt then_case, Stmt else_case = Stmt());
};

struct StoreNode : StmtNodeT<NodeType::kStore> {
  Buffer buffer;
  std::vector<Expr> indices;
  Expr value;
  static Stmt make(Buffer buffer, std::vector<Expr> indices, Expr value);
};

// Allocates `buffer` (its scope says which memory) for the duration of body.
struct AllocateNode : StmtNodeT<NodeType::kAllocate> {
  Buffer buffer;
  Stmt body;
  static Stmt make(Buffer buffer, Stmt body);
};

struct SeqNode : StmtNodeT<NodeType::kSeq> {
  std::vector<Stmt> stmts;
  // Flattens nested Seqs and drops undefined entries; one entry -> that entry.
  static Stmt make(std::vector<Stmt> stmts);
};

// An annotation around a body: pragmas ("dma_copy", "alu", user pragmas),
// "tensorize" (text = intrinsic name), "vthread". `text` is free-form
// (stage/axis names, intrinsic name); `value` is optional.
struct AttrStmtNode : StmtNodeT<NodeType::kAttrStmt> {
  std::string key;
  Expr value;
  std::string text;
  Stmt body;
  static Stmt make(std::string key, Expr value, std::string text, Stmt body);
};

struct EvaluateNode : StmtNodeT<NodeType::kEvaluate> {
  Expr value;
  static Stmt make(Expr value);
};

// ---------------------------------------------------------------- helpers
// Value of an IntImm, or nullptr when e is not a constant.
const std::int64_t* as_const_int(const Expr& e);
bool is_const_int(const Expr& e, std::int64_t v);
inline Expr make_const(DType d, std::int64_t v) {
  return IntImmNode::make(d, v);
}
inline Expr make_bool(bool v) {
  return IntImmNode::make(DType::kBool, v ? 1 : 0);
}

}  // namespace tandem::ir
