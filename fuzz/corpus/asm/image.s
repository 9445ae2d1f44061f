.kernel copy_rows
.tensor x input fp32 rows=4 cols=16 addr=0x0
.tensor n input int32 rows=1 cols=1 addr=0x1000 max=8
.tensor y output fp32 rows=4 cols=16 addr=0x2000
.macs 0
.seq sp
  dma q0, d0 $S[0]++@complete
  halt
.desc 0 src=hbm.fp32[0][[64,4],[1,16]] dst=sbuf.fp32[0, 0][[1,4],[1,16]]
