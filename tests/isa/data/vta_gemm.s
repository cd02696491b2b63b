# One 16x64 . 64x16 int8 GEMM tile on vta-16x16, requantized to int8:
#   C[16][16] = clip((A[16][64] . B[16][64]^T) >> 8, -128, 127)
# A: 16 rows x 4 input blocks (16 B each); B: 4 weight blocks (16x16, 256 B each).
.config vta-16x16
.buffer A 1024
.buffer B 1024
.buffer C 256

load uop sram=0 dram=@__uops+0 y=1 x=2 stride=2          # the two micro-op kernels
load inp sram=0 dram=@A+0 y=16 x=4 stride=4               # inp[r*4 + k] = A row r, block k
load wgt sram=0 dram=@B+0 y=1 x=4 stride=4 deps=push_next # tell compute the data is in
gemm uops=0:1 iter=16,1 dst=1,0 reset=1 deps=pop_prev     # acc[r] = 0
gemm uops=0:1 iter=16,4 dst=1,0 src=4,1 wgt=0,1           # acc[r] += inp[r*4+k] . wgt[k]
alu shr uops=1:2 iter=16,1 dst=1,0 src=1,0 imm=8
alu max uops=1:2 iter=16,1 dst=1,0 src=1,0 imm=-128
alu min uops=1:2 iter=16,1 dst=1,0 src=1,0 imm=127 deps=push_next
store out sram=0 dram=@C+0 y=1 x=16 stride=16 deps=pop_prev,push_prev
finish deps=pop_next

.uops
(0, 0, 0)   # GEMM kernel: acc row 0, inp 0, wgt 0 (moved by the loop factors)
(0, 0, 0)   # ALU kernel: acc row 0 op acc row 0 / immediate
