.seq sp
  add r1, r0, 3
L:
  add r2, r2, r1 $S[4]++@complete
  loop r1, L
  st r2, [r0+64]
  ld r3, [r0+64]
  beq r3, 6, @7
  notify 5
  halt
.seq dve
  nop $S[4]>=3
  halt
