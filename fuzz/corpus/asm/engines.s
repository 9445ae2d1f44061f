.desc 0 src=hbm.fp32[4096][[4,4]] dst=sbuf.fp32[0, 192][[1,1],[0,1],[0,1],[4,4]]
.seq sp
  dma q0, d0 $S[1]++@complete
  halt
.seq pe
  nop $S[1]>=1
  ldstat sbuf.bf16[0:8, 0][[1,8]]
  matmul psum.fp32[0:8, 0][[1,4]], sbuf.bf16[0:8, 64][[1,4]], acc $S[2]++@complete
  halt
.seq act
  nop $S[2]>=1
  activate sbuf.fp32[0:8, 64][[1,4]], sbuf.fp32[0:8, 0][[1,4]], func=exp, scale=sbuf.fp32[0:, 128], bias=0x3f800000
  halt
.seq dve
  tensor_scalar sbuf.fp32[0:8, 64][[1,4]], sbuf.fp32[0:8, 0][[1,4]], -, alu0=add, alu1=multiply, s0=sbuf.fp32[0:, 128], s1=2.0
  memset sbuf.fp32[0:8, 256][[1,4]], -, -, s0=1.0
  halt
