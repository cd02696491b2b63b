# Exercises every instruction form, every memory type, relocations,
# explicit .reloc, quoted names, hex numbers and the micro-op section.
.config tandem-8x8
.buffer A 4096
.buffer "weights 1" 8192      # a name that needs quoting
.buffer C 1024

load uop sram=0 dram=@__uops+0 y=1 x=6 stride=6 deps=none
load inp sram=0 dram=@A+16 y=4 x=8 stride=64 pad=1,1,0,2 deps=pop_next,push_next
load wgt sram=0x10 dram=@"weights 1" y=2 x=4 stride=4 deps=push_next
load acc sram=8 dram=@C+3 y=1 x=2 stride=0 pad=0,0,0,0 deps=pop_prev,pop_next,push_prev,push_next
gemm uops=0:4 iter=4,2 dst=8,1 src=8,1 wgt=0,1 deps=pop_prev
gemm uops=0:2 iter=1,1 reset=1
alu add uops=4:6 iter=2,1 dst=1,0 src=1,0 imm=-3
alu shr uops=4:5 iter=1,1 use_imm=1 imm=8
alu min uops=4:5 iter=1,1 use_imm=1 imm=127
alu max uops=4:5 iter=1,1 dst=0,0 src=0,0 use_imm=0 imm=0
alu mul uops=4:6 iter=3,0 src=2,2 reset=0 deps=push_next
store out sram=0 dram=@C+0 y=2 x=8 stride=16 deps=pop_prev,push_prev
store out sram=16 dram=2048 y=1 x=1 stride=1
finish deps=pop_next

.uops
(0, 0, 0)
(1, 1, 1)  (2, 2, 2)   # two on one line
(3, 0x3, 0)
(0, 0, 0)
(1, 2, 0)
