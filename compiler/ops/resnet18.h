// The convolution layers of ResNet-18 (ImageNet, 224x224 input), batch 1.
//
// One entry per distinct layer shape, in network order: the 7x7 stride-2 stem
// with 3 input channels, the 3x3 layers of the four stages, the stride-2 3x3
// layers that open stages 2-4 and their 1x1 stride-2 downsample convolutions
// (the same eleven shapes VTA's ResNet-18 benchmarks use, plus the stem).
// `repeats` says how many times the shape occurs in the network.
#pragma once

#include <string>
#include <vector>

#include "compiler/ops/conv2d.h"

namespace tandem::ops {

struct Conv2dLayer {
  std::string name;  // "C1" .. "C11"
  Conv2dShape shape;
  int repeats = 1;
};

const std::vector<Conv2dLayer>& resnet18_conv_layers();

}  // namespace tandem::ops
