#include "core/engine_codes_gen.h"

#include <fmt/format.h>

#include <regex>

#include "act/act_functions.h"
#include "act/scalar_engine.h"
#include "common/error.h"
#include "common/gen_text.h"
#include "common/names.h"
#include "dve/vector_engine.h"
#include "pe/pe_types.h"

namespace tern::core {
namespace {

// One code: its SV name, value and width, and an optional comment.
struct Code {
  std::string name;
  unsigned value;
  std::string comment;
};

std::string codes(const std::string& heading, unsigned width, const std::vector<Code>& rows) {
  gen::ParamBlock b;
  for (const Code& c : rows)
    b.add(fmt::format("logic [{}:0]", width - 1), c.name, fmt::format("{}'d{}", width, c.value), c.comment);
  return b.text(heading);
}

std::string dve_block() {
  std::vector<Code> ops, alus, errs;
  for (int i = 0; i < kNumDveOps; ++i) ops.push_back({"DveOp" + upper_camel(dve_op_name(DveOp(i))), unsigned(i), ""});
  for (int i = 0; i < kNumDveAlus; ++i)
    alus.push_back({"DveAlu" + upper_camel(dve_alu_name(DveAlu(i))), unsigned(i), ""});
  alus.push_back({"DveAluLast", unsigned(kNumDveAlus - 1), ""});
  const std::vector<std::pair<DveError, const char*>> err_meaning = {
      {DveError::kNone, ""},
      {DveError::kOpcode, "unknown instruction"},
      {DveError::kAluOp, "unknown ALU op, or not allowed here"},
      {DveError::kDtype, "unknown dtype, or not allowed here"},
      {DveError::kBitwiseFloat, "bitwise op with a float dtype"},
      {DveError::kAluMix, "bitwise and arithmetic ops chained"},
      {DveError::kSize, "free size 0, too large or misshapen"}};
  for (const auto& [e, meaning] : err_meaning)
    errs.push_back({"DveErr" + upper_camel(dve_error_name(e)), unsigned(e), meaning});
  gen::ParamBlock slots;
  slots.add("int unsigned", "ReduceSlots", fmt::format("{}", kDveReduceSlots),
            "tensor_reduce add's partial sums (a power of two)");
  return codes(fmt::format("Instructions (cmd_op_i). {} and up are unknown and rejected.", kNumDveOps), 4, ops) +
         codes(fmt::format("Element operations (cmd_alu0_i, cmd_alu1_i). {} and up are unknown and rejected.",
                           kNumDveAlus),
               5, alus) +
         codes("Error codes (err_code_o), checked in this order.", 3, errs) +
         slots.text("The order of an add reduction.");
}

std::string act_block() {
  std::vector<Code> fns, reds, ops, errs;
  for (int i = 0; i < act::kNumActFuncs; ++i)
    fns.push_back({"Fn" + upper_camel(act::act_func_name(act::ActFunc(i))), unsigned(i), ""});
  using R = act::ReduceCmd;
  for (const auto& [r, name] : std::vector<std::pair<R, const char*>>{{R::kIdle, "Idle"},
                                                                     {R::kReset, "Reset"},
                                                                     {R::kReduce, "Reduce"},
                                                                     {R::kResetReduce, "ResetReduce"},
                                                                     {R::kLoadReduce, "LoadReduce"}})
    reds.push_back({std::string("Red") + name, unsigned(r), ""});
  ops = {{"RedOpAdd", unsigned(act::ReduceOp::kAdd), ""}, {"RedOpMax", unsigned(act::ReduceOp::kMax), ""}};
  using E = act::ActError;
  for (const auto& [e, name] : std::vector<std::pair<E, const char*>>{{E::kNone, "None"},
                                                                     {E::kBadFunc, "BadFunc"},
                                                                     {E::kBadDtype, "BadDtype"},
                                                                     {E::kBadSize, "BadSize"},
                                                                     {E::kBadReduce, "BadReduce"}})
    errs.push_back({std::string("ActErr") + name, unsigned(e), ""});
  gen::ParamBlock count;
  count.add("int unsigned", "NumFuncs", fmt::format("{}", act::kNumActFuncs));
  gen::ParamBlock limits;
  limits.add("int unsigned", "MaxN", fmt::format("{}", act::kActMaxN),
             "elements per partition of one command; more is BadSize");
  gen::ParamBlock slots;
  slots.add("int unsigned", "ReduceSlots", fmt::format("{}", act::kActReduceSlots),
            "an add reduction's partial sums (a power of two)");
  slots.add("int unsigned", "RedAddLat", fmt::format("{}", act::kActReduceAddLatency),
            "a reduction's add: operands registered, then AddLat");
  return codes("Functions (the ISA's ACT function field).", 5, fns) +
         count.text("The number of functions.") + limits.text("Limits.") +
         slots.text("The order of an add reduction.") +
         codes("Reduce commands.", 3, reds) +
         codes("Reduce operators.", 1, ops) + codes("Error codes.", 4, errs);
}

std::string pe_block() {
  std::vector<Code> ops, errs;
  for (const auto& [op, name, comment] :
       std::vector<std::tuple<PeOp, const char*, const char*>>{
           {PeOp::kLoadStationary, "LoadStationary", "K x M stationary tile into the next buffer"},
           {PeOp::kMultiplyMoving, "MultiplyMoving", "K x N moving tile against it, into PSUM"},
           {PeOp::kTranspose, "Transpose", "the stationary tile, transposed, into PSUM"},
           {PeOp::kReserved, "Reserved", ""}})
    ops.push_back({std::string("PeOp") + name, unsigned(op), comment});
  using E = PeError;
  for (const auto& [e, name] : std::vector<std::pair<E, const char*>>{{E::kNone, "None"},
                                                                     {E::kOpcode, "Opcode"},
                                                                     {E::kK, "K"},
                                                                     {E::kM, "M"},
                                                                     {E::kN, "N"},
                                                                     {E::kBank, "Bank"},
                                                                     {E::kDtype, "Dtype"},
                                                                     {E::kNoStationary, "NoStationary"}})
    errs.push_back({std::string("PeErr") + name, unsigned(e), e == E::kNone ? "" : pe_error_name(e)});
  gen::ParamBlock steps;
  steps.add("int unsigned", "PeProductSteps", fmt::format("{}", kPeProductSteps),
            "the product's steps, outside the row-to-row loop");
  steps.add("int unsigned", "PeAccSteps", fmt::format("{}", kPeAccSteps),
            "the accumulation's, in it: a row's skew");
  steps.add("int unsigned", "PsumAccLatency", fmt::format("{}", kPsumAccLatency),
            "a PSUM accumulate's request to its write");
  return codes("Command opcodes (cmd_op_i).", 2, ops) +
         codes("Error codes (err_code_o), reported when a command is rejected.", 4, errs) +
         steps.text("Pipeline depths (cycles), which the model's cycle estimate and the RTL share.");
}

}  // namespace

const std::vector<std::string>& engine_code_packages() {
  static const std::vector<std::string> packages = {"tern_dve_pkg", "tern_act_pkg", "tern_pe_pkg"};
  return packages;
}

std::string engine_codes_block(const std::string& package) {
  std::string block;
  if (package == "tern_dve_pkg") block = dve_block();
  else if (package == "tern_act_pkg") block = act_block();
  else if (package == "tern_pe_pkg") block = pe_block();
  else throw Error(fmt::format("no generated codes for the package '{}'", package));
  // Generated from model/ (a header line for the reader), without the first block's blank line.
  return "  // Generated by `tern codes sv` from the golden model's enums and constants: do not edit.\n" + block.substr(1);
}

std::string update_engine_codes(const std::string& text, const std::string& source) {
  std::smatch m;
  if (!std::regex_search(text, m, std::regex(R"((^|\n)package\s+(\w+)\s*;)")))
    throw Error(fmt::format("{}: no 'package <name>;' line", source));
  return gen::replace_generated_block(text, kCodesBegin, kCodesEnd, engine_codes_block(m[2]), source);
}

}  // namespace tern::core
