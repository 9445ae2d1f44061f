#!/usr/bin/env bash
# Proves the properties of the small protocol blocks, and the equivalence of fp steps with the
# forms they replace (`make formal`; docs/verification.md "Formal"). Each proof is a wrapper in
# formal/<top>.sv that instantiates the block (or calls the functions) with free inputs and states its properties as immediate assertions (plain SV that a simulation can run
# too). For each proof in the table below:
#   1. yosys: the block's sources with `read_verilog -sv` (SYNTHESIS defined: the RTL's own
#      simulation assertions, concurrent SVA that Yosys 0.23 cannot read, are left out), the
#      wrapper with `read_verilog -formal -sv`; flatten; connect the wrapper's peek_* wires to the
#      block's state (Yosys 0.23 has no hierarchical references: the wrapper's
#      `assign peek_x = u_dut.y;` lines, which a simulation uses, say which); prep; async2sync
#      (the asynchronous resets become synchronous; the wrapper assumes reset in the first
#      cycle); write_smt2;
#   2. yosys-smtbmc bounded model check: no assertion fails within DEPTH cycles of reset;
#   3. yosys-smtbmc -i, k-induction: from any state, k cycles in which every assertion held are
#      followed by one in which they hold too (k <= DEPTH: yosys-smtbmc stops at the first k that
#      works). With 2, the assertions hold in every reachable state;
#   4. yosys-smtbmc -c: every cover is reached within DEPTH cycles (the properties are not
#      vacuous).
# z3 runs with --unroll: yosys-smtbmc expands the model's functions itself. Without it, z3 4.8.12
# took minutes to read a FIFO's transition function (it expands nested definitions unshared).
# Prints one PASS/FAIL line per proof, writes $BUILD/formal/<name>.{yosys,bmc,ind,cover}.log, the
# traces yosys-smtbmc finds in <name>.<check>.vcd (a counterexample; for the covers, the trace
# that reaches them) and $BUILD/formal/summary.json, and exits non-zero when any proof fails.
#
# Environment: BUILD  build directory (default build)
#              NAMES  space-separated proof names: run only these (default: all), e.g.
#                     NAMES="tern_fifo tern_rr_arb.n3" scripts/formal.sh
set -euo pipefail

source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
LOG="$BUILD/formal"
SOLVER=z3
for tool in yosys yosys-smtbmc "$SOLVER" python3; do
  command -v "$tool" >/dev/null || { echo "formal: $tool not found (scripts/bootstrap.sh)"; exit 2; }
done

# name             top (formal/<top>.sv)  depth  parameters  sources, packages first
sem="rtl/core/tern_isa_pkg.sv rtl/core/tern_sem_cell.sv rtl/core/tern_sem_bank.sv"
link="rtl/link/tern_link_pkg.sv rtl/link/tern_link_crc.sv rtl/link/tern_link_tx.sv"
fp="rtl/common/tern_pkg.sv rtl/fp/tern_fp_pkg.sv"  # combinational equivalences of fp steps
proofs=(
  "tern_fifo         tern_fifo_props       20     -           rtl/prim/tern_fifo.sv"
  "tern_rr_arb.n4    tern_rr_arb_props     20     N=4         rtl/prim/tern_mux.sv rtl/prim/tern_rr_arb.sv"
  "tern_rr_arb.n3    tern_rr_arb_props     20     N=3         rtl/prim/tern_mux.sv rtl/prim/tern_rr_arb.sv"
  "tern_sem_cell     tern_sem_cell_props   5      -           rtl/core/tern_sem_cell.sv"
  "tern_sem_bank.s0  tern_sem_bank_props   4      Sel=0       $sem"
  "tern_sem_bank.s37 tern_sem_bank_props   4      Sel=37      $sem"
  "tern_sem_bank.s63 tern_sem_bank_props   4      Sel=63      $sem"
  "tern_link_tx      tern_link_tx_props    5      -           $link"
  "tern_fp_norm_prep tern_fp_norm_prep_props 2  -           $fp"
  "tern_fp_unpack    tern_fp_unpack_props  2      -           $fp"
  "tern_secded       tern_secded_props     2      -           rtl/prim/tern_secded_pkg.sv"
  "tern_prefix_add.w32 tern_prefix_add_props 2   Width=32    rtl/prim/tern_prefix_add.sv"
  "tern_prefix_add.w7  tern_prefix_add_props 2   Width=7     rtl/prim/tern_prefix_add.sv"
)

if [[ -n ${NAMES:-} ]]; then
  chosen=()
  for n in $NAMES; do
    found=0
    for p in "${proofs[@]}"; do
      [[ ${p%% *} == "$n" ]] && { chosen+=("$p"); found=1; }
    done
    [[ $found -eq 1 ]] || { echo "formal: NAMES names '$n', which is no proof in the table"; exit 1; }
  done
  proofs=("${chosen[@]}")
fi

rm -rf "$LOG"
mkdir -p "$LOG"
start=$SECONDS

# `smtbmc NAME CHECK FLAGS...`: one yosys-smtbmc run; its status word (PASS or FAIL) in
# $LOG/NAME.CHECK.status.
smtbmc() {
  local name=$1 check=$2 status=FAIL
  shift 2
  if yosys-smtbmc -s "$SOLVER" --unroll --noprogress "$@" --dump-vcd "$LOG/$name.$check.vcd" \
       "$LOG/$name.smt2" >"$LOG/$name.$check.log" 2>&1 \
     && grep -q 'Status: PASSED' "$LOG/$name.$check.log"; then
    status=PASS
  fi
  echo "$status" >"$LOG/$name.$check.status"
}

# `prove INDEX`: proof INDEX of the table; writes $LOG/<name>.result, one line:
#   name top params asserts covers depth bmc ind k cover seconds why
# (k: the cycles the induction took, "-" when it failed).
prove() {
  local name top depth params srcs t0=$SECONDS why="" chparam="" conn="" p asserts covers k
  read -r name top depth params srcs <<<"${proofs[$1]}"
  local props="formal/$top.sv"
  [[ $params != - ]] && for p in ${params//,/ }; do chparam+=" -chparam ${p%%=*} ${p#*=}"; done
  # The peeks: `assign peek_x = u_dut.y;` becomes `connect -set peek_x u_dut.y`. Registers are
  # connected before anything is cleaned away; memory words (u_dut.mem_q[0]) once the unobserved
  # memories are gone (a link's replay buffer) and the rest are mapped to registers.
  conn=$(sed -nE 's/^ *assign +(peek_[A-Za-z0-9_]+) *= *(u_dut\.[^;]+);.*/connect -set \1 \2;/p' \
         "$props")
  conn_regs=$(awk '!/\[/' <<<"$conn" | tr '\n' ' ')
  conn_words=$(awk '/\[/' <<<"$conn" | tr '\n' ' ')
  if ! yosys -q -l "$LOG/$name.yosys.log" -p "read_verilog -sv $srcs;
         read_verilog -formal -sv $props; hierarchy -check -top $top$chparam; proc; flatten;
         $conn_regs opt_clean; opt_mem; opt_clean; memory_collect; memory_map; $conn_words
         prep -top $top; async2sync; dffunmap; write_smt2 -wires $LOG/$name.smt2" >/dev/null 2>&1; then
    why="yosys failed: $LOG/$name.yosys.log"
  elif grep -qE '^Warning:' "$LOG/$name.yosys.log"; then
    # An undriven peek would be a free variable: refuse any warning.
    why="yosys warned: $LOG/$name.yosys.log"
  fi
  asserts=0 covers=0
  if [[ -z $why ]]; then
    asserts=$(awk '/^; yosys-smt2-assert /{n++} END{print n+0}' "$LOG/$name.smt2")
    covers=$(awk '/^; yosys-smt2-cover /{n++} END{print n+0}' "$LOG/$name.smt2")
  fi
  # A model without assertions or covers proves nothing: a wrapper Yosys read as empty fails.
  [[ -z $why && $asserts -eq 0 ]] && why="no assertions reached the model: $LOG/$name.smt2"
  [[ -z $why && $covers -eq 0 ]] && why="no covers reached the model: $LOG/$name.smt2"
  if [[ -z $why ]]; then
    smtbmc "$name" bmc -t "$depth"
    smtbmc "$name" ind -i -t "$depth"
    smtbmc "$name" cover -c -t "$depth"
  else
    for p in bmc ind cover; do echo "-" >"$LOG/$name.$p.status"; done
  fi
  # yosys-smtbmc -i tries induction from step DEPTH down and stops at the first that succeeds.
  k=-
  if [[ $(<"$LOG/$name.ind.status") == PASS ]]; then
    k=$(grep -oE 'Trying induction in step [0-9]+' "$LOG/$name.ind.log" | tail -n 1 | grep -oE '[0-9]+$')
    k=$((depth - k + 1))
  fi
  echo "$name $top $params $asserts $covers $depth $(<"$LOG/$name.bmc.status")" \
       "$(<"$LOG/$name.ind.status") $k $(<"$LOG/$name.cover.status") $((SECONDS - t0)) $why" \
       >"$LOG/$name.result"
  return 0
}

mapfile -t indices < <(seq 0 $(( ${#proofs[@]} - 1 )))
run_jobs prove "${indices[@]}"

fails=0
records=()
for p in "${proofs[@]}"; do
  name=${p%% *}
  if [[ ! -f "$LOG/$name.result" ]]; then
    printf 'FAIL  %-18s no result (the proof crashed)\n' "$name"
    fails=$((fails + 1))
    continue
  fi
  read -r _ top params asserts covers depth bmc ind k cover secs why <"$LOG/$name.result"
  records+=("$name $top $params $asserts $covers $depth $bmc $ind $k $cover $secs")
  if [[ $bmc == PASS && $ind == PASS && $cover == PASS ]]; then
    printf 'PASS  %-18s %2d properties, BMC %d cycles, induction k=%d, %d covers reached, %d s\n' \
      "$name" "$asserts" "$depth" "$k" "$covers" "$secs"
  else
    [[ -z $why ]] && why="bmc $bmc, induction $ind, cover $cover: $LOG/$name.{bmc,ind,cover}.log"
    printf 'FAIL  %-18s %s\n' "$name" "$why"
    cat "$LOG/$name".{bmc,ind,cover}.log 2>/dev/null | awk '/Assert failed|Unreached cover/' \
      | sed 's/^##  *[0-9:]*  */      /' | sort -u | head -n 5
    fails=$((fails + 1))
  fi
done

python3 - "$LOG/summary.json" "$SOLVER" "$((SECONDS - start))" "${records[@]}" <<'EOF'
import json, sys
out, solver, seconds, rows = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4:]
proofs = []
for row in rows:
    name, top, params, asserts, covers, depth, bmc, ind, k, cover, secs = row.split()
    proofs.append({"name": name, "top": top, "params": None if params == "-" else params,
                   "properties": int(asserts), "covers": int(covers), "bmc_depth": int(depth),
                   "bmc": bmc, "induction": ind, "induction_k": None if k == "-" else int(k),
                   "cover": cover, "seconds": int(secs)})
with open(out, "w") as f:
    json.dump({"solver": solver, "seconds": seconds, "proofs": proofs}, f, indent=2)
    f.write("\n")
EOF

echo "formal: ${#proofs[@]} proofs, $fails failed, $((SECONDS - start)) s (solver $SOLVER, logs in $LOG)"
[[ $fails -eq 0 ]]
