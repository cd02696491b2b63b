// Schedules: how the computation of each tensor is turned into loops.
//
// create_schedule(outputs) makes one Stage per operation reachable from the
// outputs (placeholders included, they are never lowered). Stages start with
// one loop per root axis (spatial axes then reduce axes) and the schedule
// primitives below rewrite the loop structure:
//   split / split_nparts / tile / fuse / reorder      loop structure
//   compute_at / compute_inline / compute_root        where a stage runs
//   set_scope, Schedule::cache_read / cache_write     memory scopes
//   pragma / tensorize / bind_vthread / unroll / vectorize / parallel
// Every misuse (axis of another stage, splitting a non-leaf axis, reorder of
// an unknown or repeated axis, compute_at to a stage that does not consume
// this one, fusing non-adjacent axes, inlining a reduction or an output...)
// throws tandem::Error naming the stage and the axis.
// Stage and Schedule are handles: copies refer to the same state.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "compiler/te/te.h"
#include "tensorize/intrinsic.h"

namespace tandem::te {

struct ScheduleNode;
struct StageNode;

// parent -> (outer, inner) with inner extent `factor` (split) or outer extent
// `nparts` (split_nparts; then factor = ceil(extent / nparts)).
struct SplitRelation {
  IterVar parent, outer, inner;
  std::int64_t factor = 0;  // 0 when nparts is used
  std::int64_t nparts = 0;  // 0 when factor is used
};
// (outer, inner) -> fused, fused = outer * extent(inner) + inner.
struct FuseRelation {
  IterVar outer, inner, fused;
};
using Relation = std::variant<SplitRelation, FuseRelation>;

enum class AttachType : std::uint8_t { kRoot, kInline, kScope };

struct Pragma {
  std::string key;
  std::int64_t value = 0;
};

struct IterVarAttr {
  ir::ForKind kind = ir::ForKind::kSerial;
  std::vector<Pragma> pragmas;
  std::shared_ptr<const tensorize::Intrinsic> tensor_intrin;  // set by tensorize()
};

struct StageNode {
  Tensor output;                        // the stage's tensor (identity of the stage)
  Operation op;                         // its operation
  Expr body;                            // op body, with reads rewritten by cache_read
  std::vector<IterVar> root_iter_vars;  // op axis then reduce axis (cache_write: fresh)
  std::vector<IterVar> all_iter_vars;   // roots and every derived axis
  std::vector<IterVar> leaf_iter_vars;  // current loop order, outer to inner
  std::vector<Relation> relations;      // in application order
  AttachType attach_type = AttachType::kRoot;
  std::weak_ptr<StageNode> attach_stage;  // kScope: the consumer stage
  IterVar attach_ivar;                    // kScope: loop of attach_stage
  std::string scope = "global";           // storage scope of the output
  bool is_output = false;
  std::map<const IterVarNode*, IterVarAttr> iter_attrs;
  ScheduleNode* schedule = nullptr;

  bool is_placeholder() const { return op->kind == OperationNode::Kind::kPlaceholder; }
};

class Stage {
 public:
  Stage() = default;
  explicit Stage(std::shared_ptr<StageNode> n) : node_(std::move(n)) {}
  bool defined() const { return node_ != nullptr; }
  StageNode* get() const { return node_.get(); }
  StageNode* operator->() const { return node_.get(); }
  bool same_as(const Stage& o) const { return node_ == o.node_; }
  const std::string& name() const { return node_->output.name(); }

  // Root axes of the operation (spatial i, reduce i); tandem::Error when out of range.
  IterVar axis(size_t i) const;
  IterVar reduce_axis(size_t i) const;
  const std::vector<IterVar>& leaf_iter_vars() const { return node_->leaf_iter_vars; }
  // Finds a current leaf axis by name (tandem::Error when none or ambiguous).
  IterVar leaf(const std::string& name) const;

  // Loop structure.
  std::pair<IterVar, IterVar> split(const IterVar& parent, std::int64_t factor);
  std::pair<IterVar, IterVar> split_nparts(const IterVar& parent, std::int64_t nparts);
  // Returns {x_outer, y_outer, x_inner, y_inner}, loop order in that sequence.
  std::vector<IterVar> tile(const IterVar& x, const IterVar& y, std::int64_t x_factor,
                            std::int64_t y_factor);
  IterVar fuse(const IterVar& outer, const IterVar& inner);
  // The given leaf axes take the positions they occupied, in the new order.
  void reorder(const std::vector<IterVar>& order);

  // Placement.
  void compute_at(const Stage& parent, const IterVar& axis);
  void compute_inline();
  void compute_root();
  void set_scope(const std::string& scope);

  // Annotations of a leaf axis.
  void pragma(const IterVar& axis, const std::string& key, std::int64_t value = 0);
  void tensorize(const IterVar& axis, const tensorize::Intrinsic& intrin);
  void bind_vthread(const IterVar& axis);
  void unroll(const IterVar& axis);
  void vectorize(const IterVar& axis);
  void parallel(const IterVar& axis);

 private:
  std::shared_ptr<StageNode> node_;
};

struct ScheduleNode {
  std::vector<Tensor> outputs;
  std::vector<std::shared_ptr<StageNode>> stages;  // producers before consumers
};

class Schedule {
 public:
  Schedule() = default;
  explicit Schedule(std::shared_ptr<ScheduleNode> n) : node_(std::move(n)) {}
  ScheduleNode* get() const { return node_.get(); }
  ScheduleNode* operator->() const { return node_.get(); }

  // The stage computing t (tandem::Error when t is not part of the schedule).
  Stage operator[](const Tensor& t) const;
  std::vector<Stage> stages() const;
  const std::vector<Tensor>& outputs() const { return node_->outputs; }

  // New stage copying t into `scope`; the readers now read the copy.
  // Readers must be stages that read t directly (tandem::Error otherwise).
  Tensor cache_read(const Tensor& t, const std::string& scope, const std::vector<Tensor>& readers);
  // The computation of t moves to a new stage in `scope` (returned); t's stage
  // becomes a copy from it. t's stage must not be scheduled yet.
  Tensor cache_write(const Tensor& t, const std::string& scope);

 private:
  std::shared_ptr<ScheduleNode> node_;
};

Schedule create_schedule(const std::vector<Tensor>& outputs);

}  // namespace tandem::te
