// tern_link_pkg: the NeuronLink flit and packet format (docs/link.md).
// Generated from model/link/link_format.cc by `tern link sv`: do not edit.
package tern_link_pkg;

  // Shared definitions: a block uses only some of them, so a block linted as its own top
  // would report the others as unused. The waiver covers these localparams only.
  /* verilator lint_off UNUSEDPARAM */

  // Sizes
  localparam int unsigned FlitBits        = 256;           // flit width (the payload flit is all data)
  localparam int unsigned NumVcs          = 4;             // virtual channels per link
  localparam int unsigned SeqBits         = 8;             // link sequence numbers
  localparam int unsigned MaxPayloadFlits = 32;            // payload flits per packet, at most
  localparam int unsigned CreditBits      = 16;            // cumulative credit counters
  localparam int unsigned MaxOutstanding  = 16;            // unacknowledged packets, at most
  localparam int unsigned CoordBits       = 4;             // per torus dimension
  localparam logic [31:0] CrcPoly         = 32'h82F63B78;  // CRC-32C, reflected

  // Flit types (field type)
  localparam logic [3:0] FlitIdle   = 4'd1;
  localparam logic [3:0] FlitNak    = 4'd2;
  localparam logic [3:0] FlitTrain  = 4'd3;
  localparam logic [3:0] FlitHeader = 4'd4;

  // Packet types (field ptype)
  localparam logic [2:0] PktWrite    = 3'd0;
  localparam logic [2:0] PktSemInc   = 3'd1;
  localparam logic [2:0] PktReadReq  = 3'd2;
  localparam logic [2:0] PktReadResp = 3'd3;

  // The header flit: <Field>Lsb and <Field>Width
  localparam int unsigned HdrTypeLsb    = 0;
  localparam int unsigned HdrTypeWidth  = 4;
  localparam int unsigned HdrCrcLsb     = 4;
  localparam int unsigned HdrCrcWidth   = 32;
  localparam int unsigned HdrSeqLsb     = 36;
  localparam int unsigned HdrSeqWidth   = 8;
  localparam int unsigned HdrDstXLsb    = 44;
  localparam int unsigned HdrDstXWidth  = 4;
  localparam int unsigned HdrDstYLsb    = 48;
  localparam int unsigned HdrDstYWidth  = 4;
  localparam int unsigned HdrDstZLsb    = 52;
  localparam int unsigned HdrDstZWidth  = 4;
  localparam int unsigned HdrSrcXLsb    = 56;
  localparam int unsigned HdrSrcXWidth  = 4;
  localparam int unsigned HdrSrcYLsb    = 60;
  localparam int unsigned HdrSrcYWidth  = 4;
  localparam int unsigned HdrSrcZLsb    = 64;
  localparam int unsigned HdrSrcZWidth  = 4;
  localparam int unsigned HdrVcLsb      = 68;
  localparam int unsigned HdrVcWidth    = 2;
  localparam int unsigned HdrPtypeLsb   = 70;
  localparam int unsigned HdrPtypeWidth = 3;
  localparam int unsigned HdrLenLsb     = 73;
  localparam int unsigned HdrLenWidth   = 6;
  localparam int unsigned HdrFlowLsb    = 79;
  localparam int unsigned HdrFlowWidth  = 8;
  localparam int unsigned HdrMemLsb     = 87;
  localparam int unsigned HdrMemWidth   = 2;
  localparam int unsigned HdrAddrLsb    = 89;
  localparam int unsigned HdrAddrWidth  = 48;
  localparam int unsigned HdrImmLsb     = 137;
  localparam int unsigned HdrImmWidth   = 32;
  localparam int unsigned HdrBits       = 169;  // bits used; the rest of the flit is zero

  // The ctrl flit: <Field>Lsb and <Field>Width
  localparam int unsigned CtlTypeLsb       = 0;
  localparam int unsigned CtlTypeWidth     = 4;
  localparam int unsigned CtlCrcLsb        = 4;
  localparam int unsigned CtlCrcWidth      = 32;
  localparam int unsigned CtlRxExpLsb      = 36;
  localparam int unsigned CtlRxExpWidth    = 8;
  localparam int unsigned CtlSeenLsb       = 44;
  localparam int unsigned CtlSeenWidth     = 1;
  localparam int unsigned CtlFreed0Lsb     = 45;
  localparam int unsigned CtlFreed0Width   = 16;
  localparam int unsigned CtlFreed1Lsb     = 61;
  localparam int unsigned CtlFreed1Width   = 16;
  localparam int unsigned CtlFreed2Lsb     = 77;
  localparam int unsigned CtlFreed2Width   = 16;
  localparam int unsigned CtlFreed3Lsb     = 93;
  localparam int unsigned CtlFreed3Width   = 16;
  localparam int unsigned CtlFreshLsb      = 109;
  localparam int unsigned CtlFreshWidth    = 1;
  localparam int unsigned CtlFreshAckLsb   = 110;
  localparam int unsigned CtlFreshAckWidth = 1;
  localparam int unsigned CtlTxBaseLsb     = 111;
  localparam int unsigned CtlTxBaseWidth   = 8;
  localparam int unsigned CtlHeld0Lsb      = 119;
  localparam int unsigned CtlHeld0Width    = 16;
  localparam int unsigned CtlHeld1Lsb      = 135;
  localparam int unsigned CtlHeld1Width    = 16;
  localparam int unsigned CtlHeld2Lsb      = 151;
  localparam int unsigned CtlHeld2Width    = 16;
  localparam int unsigned CtlHeld3Lsb      = 167;
  localparam int unsigned CtlHeld3Width    = 16;
  localparam int unsigned CtlBits          = 183;  // bits used; the rest of the flit is zero

  /* verilator lint_on UNUSEDPARAM */

endpackage
