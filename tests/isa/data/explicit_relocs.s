# Relocations given as .reloc lines (any order, forward references, several
# per instruction): the disassembler keeps this form whenever the inline
# dram=@buf+off form could not reproduce the Program exactly.
.config tandem-8x8
.buffer in 4096
.buffer "out tensor" 512

.reloc 2 @"out tensor"+8     # forward reference to the store below
load inp sram=0 dram=5 y=1 x=8 stride=8 deps=push_next
load uop sram=0 dram=0 y=1 x=1 stride=1
store out sram=0 dram=0 y=1 x=8 stride=8
finish
.reloc 0 @in+0
.reloc 0 @in+64
.reloc 1 @__uops+0

.uops
(0, 0, 0)
