// tern._tern, the native half of the `tern` Python module (docs/programming-guide.md, "Python"):
// the kernel API as it is in C++, program images, the golden backend and the conversion of
// NumPy arrays to and from a tensor's dtype by the project's numerics. sw/python/tern/
// __init__.py adds the RTL backends, which run in tern-rtl.
#include <pybind11/functional.h>
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <fmt/format.h>

#include <cstring>
#include <map>
#include <string>
#include <vector>

#include "common/config.h"
#include "common/error.h"
#include "host/files.h"
#include "host/npy.h"
#include "host/values.h"
#include "isa/asm.h"
#include "isa/program_image.h"
#include "kernel/kernel.h"
#include "numerics/numerics.h"
#include "runtime/device.h"

namespace py = pybind11;

namespace tern::python {
namespace {

// A config and the file it came from (the RTL backends are given the file).
struct Config {
  CoreConfig cfg;
  std::string path;
};

Config config(const std::string& name, const std::string& configs_dir) {
  const std::string path = configs_dir.empty() ? host::config_path(name) : host::config_path(name, configs_dir);
  return {load_config(path), path};
}

// What Python prints for an object.
std::string text_of(const py::handle& h) { return py::str(h).cast<std::string>(); }

Dtype dtype_of(const std::string& name) {
  const auto t = dtype_from_name(name);
  if (!t) throw Error(fmt::format("no dtype '{}' (fp32, tf32, bf16, fp16, fp8e4m3, fp8e5m2, int8, uint8, int32)", name));
  return *t;
}

act::ActFunc act_func_of(const std::string& name) {
  const auto f = act::act_func_from_name(name);
  if (!f) throw Error(fmt::format("no activation function '{}'", name));
  return *f;
}

DveAlu alu_of(const std::string& name) {
  for (int i = 0; i < kNumDveAlus; ++i)
    if (name == dve_alu_name(DveAlu(i))) return DveAlu(i);
  throw Error(fmt::format("no Vector Engine ALU op '{}'", name));
}

// An immediate from Python: a float is its binary32 value, a tern.Imm says itself; a plain
// integer is refused, as it is in C++ (Imm has no constructor from one).
kernel::Imm imm_of(const py::handle& h, const char* what) {
  if (py::isinstance<kernel::Imm>(h)) return h.cast<kernel::Imm>();
  if (py::isinstance<py::bool_>(h) || py::isinstance<py::int_>(h))
    throw py::type_error(fmt::format("{} = {}: an integer immediate; write it as a float ({}.0), "
                                     "tern.Imm.int32(v) or tern.Imm.bits(pattern)",
                                     what, text_of(h), text_of(h)));
  if (py::isinstance<py::float_>(h)) return kernel::Imm(h.cast<double>());
  throw py::type_error(fmt::format("{}: a float or a tern.Imm, not {}", what,
                                   text_of(py::type::of(h))));
}

kernel::DveArgs dve_args(const std::string& alu0, const std::string& alu1, const py::object& imm0,
                         const py::object& imm1, const py::object& imm2,
                         const std::optional<kernel::View>& s0, const std::optional<kernel::View>& s1,
                         bool reverse0, bool reverse1, bool negate) {
  kernel::DveArgs a;
  a.alu0 = alu_of(alu0);
  a.alu1 = alu_of(alu1);
  a.imm0 = imm_of(imm0, "imm0");
  a.imm1 = imm_of(imm1, "imm1");
  a.imm2 = imm_of(imm2, "imm2");
  a.s0_vec = s0;
  a.s1_vec = s1;
  a.reverse0 = reverse0;
  a.reverse1 = reverse1;
  a.negate = negate;
  return a;
}

using host::is_float_dtype;

// The patterns of `values` (a float32 or float16 array) in float dtype `t`, rounded to nearest
// even by the project's conversion; a float64 array is refused, since rounding it to fp32
// first would round twice.
TensorBits encode_floats(const py::array& a, Dtype t, const std::string& what) {
  const py::dtype dt = a.dtype();
  if (dt.kind() != 'f' || dt.itemsize() == 8)
    throw Error(fmt::format("{}: a {} tensor takes a float32 or float16 array, not {} (convert with "
                            ".astype(np.float32); float64 would be rounded twice)",
                            what, dtype_name(t), text_of(dt)));
  TensorBits bits(size_t(a.size()));
  for (size_t i = 0; i < bits.size(); ++i) {
    float v;
    if (dt.itemsize() == 4) {
      std::memcpy(&v, static_cast<const uint8_t*>(a.data()) + 4 * i, 4);
    } else {
      uint16_t h;
      std::memcpy(&h, static_cast<const uint8_t*>(a.data()) + 2 * i, 2);
      v = host::decode_float(Dtype::kFp16, h);
    }
    bits[i] = host::encode_float(t, v);
  }
  return bits;
}

// An integer dtype's array: exactly its NumPy type (int8, uint8, int32), no conversion.
TensorBits encode_ints(const py::array& a, Dtype t, const std::string& what) {
  const char kind = t == Dtype::kUint8 ? 'u' : 'i';
  const ssize_t size = t == Dtype::kInt32 ? 4 : 1;
  if (a.dtype().kind() != kind || a.dtype().itemsize() != size)
    throw Error(fmt::format("{}: a {} tensor takes a {} array, not {}", what, dtype_name(t),
                            dtype_name(t), text_of(a.dtype())));
  TensorBits bits(size_t(a.size()));
  for (size_t i = 0; i < bits.size(); ++i) {
    if (t == Dtype::kInt32) std::memcpy(&bits[i], static_cast<const uint8_t*>(a.data()) + 4 * i, 4);
    else bits[i] = static_cast<const uint8_t*>(a.data())[i];
  }
  return bits;
}

// Bit patterns as the .npy files hold them: a one-field structured array named after the
// dtype (tern.patterns() makes one), each pattern checked to be one of the dtype's.
TensorBits encode_patterns(const py::array& a, Dtype t, const std::string& what) {
  const py::object names = a.dtype().attr("names");
  if (names.is_none() || py::len(names) != 1 || names[py::int_(0)].cast<std::string>() != dtype_name(t))
    throw Error(fmt::format("{}: a structured array must have the one field '{}' (tern.patterns(x, '{}'))",
                            what, dtype_name(t), dtype_name(t)));
  const py::array field = py::array::ensure(a[py::str(dtype_name(t))], py::array::c_style);
  if (field.dtype().kind() != 'u')
    throw Error(fmt::format("{}: the '{}' field holds unsigned patterns, not {}", what, dtype_name(t),
                            text_of(field.dtype())));
  TensorBits bits(size_t(field.size()));
  const auto* p = static_cast<const uint8_t*>(field.data());
  const size_t w = size_t(field.dtype().itemsize());
  for (size_t i = 0; i < bits.size(); ++i) {
    uint64_t v = 0;
    std::memcpy(&v, p + w * i, std::min<size_t>(w, 8));
    if (!host::is_pattern(t, v))
      throw Error(fmt::format("{}: element {} = {:#x} is no {} pattern", what, i, v, dtype_name(t)));
    bits[i] = uint32_t(v);
  }
  return bits;
}

// A host array for tensor `e`: shape rows x cols, converted as its dtype says.
TensorBits encode_input(const py::handle& h, const isa::TensorEntry& e) {
  const std::string what = fmt::format("input '{}'", e.name);
  py::array a = py::array::ensure(h, py::array::c_style);
  if (!a) throw Error(fmt::format("{}: not an array", what));
  if (a.ndim() != 2 || uint64_t(a.shape(0)) != e.rows || uint64_t(a.shape(1)) != e.cols) {
    std::vector<ssize_t> shape(a.shape(), a.shape() + a.ndim());
    throw Error(fmt::format("{}: shape ({}) where the program's tensor is ({}, {})", what,
                            fmt::join(shape, ", "), e.rows, e.cols));
  }
  if (a.dtype().kind() == 'V') return encode_patterns(a, e.dtype, what);
  return is_float_dtype(e.dtype) ? encode_floats(a, e.dtype, what) : encode_ints(a, e.dtype, what);
}

// A tensor's patterns as NumPy values: float dtypes widened to float32 (exactly), integer
// ones as their own type.
py::array decode(const TensorBits& bits, Dtype t, const std::vector<ssize_t>& shape) {
  if (is_float_dtype(t)) {
    py::array_t<float> out(shape);
    float* p = out.mutable_data();
    for (size_t i = 0; i < bits.size(); ++i) p[i] = host::decode_float(t, bits[i]);
    return std::move(out);
  }
  for (size_t i = 0; i < bits.size(); ++i)
    if (!host::is_pattern(t, bits[i]))
      throw Error(fmt::format("decode: element {} = {:#x} is no {} pattern", i, bits[i], dtype_name(t)));
  if (t == Dtype::kInt32) {
    py::array_t<int32_t> out(shape);
    std::memcpy(out.mutable_data(), bits.data(), 4 * bits.size());
    return std::move(out);
  }
  py::array out(py::dtype(t == Dtype::kInt8 ? "int8" : "uint8"), shape);
  auto* p = static_cast<uint8_t*>(out.mutable_data());
  for (size_t i = 0; i < bits.size(); ++i) p[i] = uint8_t(bits[i]);
  return out;
}

std::map<std::string, TensorBits> encode_inputs(const isa::ProgramImage& image, const py::dict& inputs) {
  std::map<std::string, TensorBits> bits;
  for (const auto& [key, value] : inputs) {
    const std::string name = text_of(key);
    const isa::TensorEntry* e = image.find(name);
    if (!e || e->output)
      throw Error(fmt::format("input '{}': {} has no input tensor of that name", name, image.name));
    bits[name] = encode_input(value, *e);
  }
  for (const isa::TensorEntry& e : image.tensors)
    if (!e.output && !bits.count(e.name)) throw Error(fmt::format("input '{}' of {} is not given", e.name, image.name));
  return bits;
}

py::dict decode_outputs(const isa::ProgramImage& image, const std::map<std::string, TensorBits>& outputs) {
  py::dict out;
  for (const isa::TensorEntry& e : image.tensors)
    if (e.output) out[py::str(e.name)] = decode(outputs.at(e.name), e.dtype, {ssize_t(e.rows), ssize_t(e.cols)});
  return out;
}

// The golden backend: outputs and the model's estimated cycles (`hbm_latency` 0: the config's).
py::tuple run_golden(const Config& c, const isa::ProgramImage& image, const py::dict& inputs,
                     std::optional<uint32_t> hbm_latency) {
  DeviceOptions opt;
  if (hbm_latency) opt.core.hbm_timing.latency = *hbm_latency;
  const DeviceRun run = Device(c.cfg, Backend::kGolden, opt).run(image, encode_inputs(image, inputs));
  return py::make_tuple(decode_outputs(image, run.outputs), run.stats.cycles);
}

// For the RTL backends, which run in tern-rtl: the inputs as .npy files and the outputs back.
void write_inputs(const isa::ProgramImage& image, const py::dict& inputs, const py::dict& paths) {
  for (const auto& [name, bits] : encode_inputs(image, inputs)) {
    const isa::TensorEntry& e = *image.find(name);
    host::write_npy(paths[py::str(name)].cast<std::string>(), host::HostTensor{e.dtype, {e.rows, e.cols}, bits});
  }
}

py::array read_output(const isa::TensorEntry& e, const std::string& path) {
  const host::HostTensor t = host::read_npy(path);
  if (t.dtype != e.dtype || t.elements() != uint64_t(e.rows) * e.cols)
    throw Error(fmt::format("{}: not the {} x {} {} of output '{}'", path, e.rows, e.cols, dtype_name(e.dtype), e.name));
  return decode(t.bits, e.dtype, {ssize_t(e.rows), ssize_t(e.cols)});
}

// Integer bit patterns as the one-field structured array of dtype `dtype` (bf16: [('bf16',
// '<u2')]); a value that is no pattern of the dtype (negative, too wide) is an error, not cut.
py::object patterns(const py::array& p, const std::string& dtype) {
  const Dtype t = dtype_of(dtype);
  if (p.dtype().kind() != 'i' && p.dtype().kind() != 'u')
    throw Error(fmt::format("patterns: integers, not {}", text_of(p.dtype())));
  const auto v = py::array_t<int64_t, py::array::c_style | py::array::forcecast>::ensure(p);
  for (ssize_t i = 0; i < v.size(); ++i) {
    const int64_t x = v.data()[i];
    if (x < 0 || !host::is_pattern(t, uint64_t(x)))
      throw Error(fmt::format("patterns: element {} = {} is no {} pattern", i, x, dtype_name(t)));
  }
  const char* storage = dtype_bits(t) == 8 ? "u1" : dtype_bits(t) == 16 ? "<u2" : "<u4";
  py::list fields;
  fields.append(py::make_tuple(dtype_name(t), storage));
  const py::module_ np = py::module_::import("numpy");
  return v.attr("astype")(storage).attr("view")(np.attr("dtype")(fields));
}

void bind_numerics(py::module_& m) {
  py::class_<kernel::Imm>(m, "Imm", "A Vector Engine immediate: a float, or Imm.int32 / Imm.bits")
      .def(py::init([](double v) { return kernel::Imm(v); }), py::arg("value"))
      .def_static("int32", &kernel::Imm::int32, py::arg("value"))
      .def_static("bits", &kernel::Imm::bits, py::arg("pattern"))
      .def_property_readonly("pattern", &kernel::Imm::pattern);
  m.def("encode", [](const py::array& a, const std::string& dtype) {
        const Dtype t = dtype_of(dtype);
        const py::array c = py::array::ensure(a, py::array::c_style);
        const TensorBits bits = is_float_dtype(t) ? encode_floats(c, t, "encode") : encode_ints(c, t, "encode");
        py::array_t<uint32_t> out(std::vector<ssize_t>(c.shape(), c.shape() + c.ndim()));
        std::memcpy(out.mutable_data(), bits.data(), 4 * bits.size());
        return out;
      }, py::arg("values"), py::arg("dtype"),
      "The dtype's bit patterns of float32/float16 values (round to nearest even), as uint32");
  m.def("decode", [](const py::array_t<uint32_t, py::array::c_style>& p, const std::string& dtype) {
        const Dtype t = dtype_of(dtype);
        const TensorBits bits(p.data(), p.data() + p.size());
        return decode(bits, t, std::vector<ssize_t>(p.shape(), p.shape() + p.ndim()));
      }, py::arg("patterns"), py::arg("dtype"), "The values of a dtype's bit patterns (exact)");
}

void bind_views(py::module_& m) {
  py::class_<kernel::Index>(m, "Index", "An affine index over the enclosing loops' variables")
      .def(py::init<int64_t>(), py::arg("constant") = 0)
      .def("__add__", [](const kernel::Index& a, const kernel::Index& b) { return a + b; })
      .def("__radd__", [](const kernel::Index& a, int64_t b) { return a + kernel::Index(b); })
      .def("__sub__", [](const kernel::Index& a, const kernel::Index& b) { return a - b; })
      .def("__rsub__", [](const kernel::Index& a, int64_t b) { return kernel::Index(b) - a; })
      .def("__mul__", [](const kernel::Index& a, int64_t k) { return a * k; })
      .def("__rmul__", [](const kernel::Index& a, int64_t k) { return a * k; })
      .def_property_readonly("constant", &kernel::Index::constant);
  py::implicitly_convertible<int64_t, kernel::Index>();
  py::class_<kernel::Accumulate>(m, "Accumulate",
                                 "Whether a matmul adds into PSUM: a bool, or when_nonzero(index)")
      .def(py::init<bool>(), py::arg("always"))
      .def_static("when_nonzero", &kernel::Accumulate::when_nonzero, py::arg("index"),
                  "adds when the index is nonzero: a K loop's first iteration overwrites");
  py::implicitly_convertible<bool, kernel::Accumulate>();
  py::class_<kernel::HbmTensor>(m, "HbmTensor", "A row-major HBM tensor of a kernel")
      .def_readonly("name", &kernel::HbmTensor::name)
      .def_property_readonly("dtype", [](const kernel::HbmTensor& t) { return dtype_name(t.dtype); })
      .def_property_readonly("shape", [](const kernel::HbmTensor& t) { return py::make_tuple(t.rows, t.cols); });
  py::class_<kernel::HbmView>(m, "HbmView", "A window of an HBM tensor (window())")
      .def("t", &kernel::HbmView::t, "the window read or written as its transpose")
      .def_readwrite("broadcast", &kernel::HbmView::broadcast);
  py::class_<kernel::TripCount>(m, "TripCount", "A loop trip count the program reads at run time");
  py::class_<kernel::Tile>(m, "Tile", "A tile of an SBUF or PSUM pool")
      .def_readonly("name", &kernel::Tile::name)
      .def_property_readonly("dtype", [](const kernel::Tile& t) { return dtype_name(t.dtype); })
      .def_property_readonly("shape", [](const kernel::Tile& t) { return py::make_tuple(t.partitions, t.free); });
  py::class_<kernel::View>(m, "View", "A rectangular view of a tile (Kernel.all, Kernel.sub)")
      .def_readonly("np", &kernel::View::np)
      .def_readonly("ncols", &kernel::View::ncols);
  py::class_<kernel::PoolRef>(m, "Pool", "A tile pool with rotating buffers")
      .def("tile", [](kernel::PoolRef& p, uint32_t partitions, uint32_t free, const std::string& dtype,
                      const std::string& name) { return p.tile(partitions, free, dtype_of(dtype), name); },
           py::arg("partitions"), py::arg("free"), py::arg("dtype"), py::arg("name"));
  m.def("window", &kernel::window, py::arg("tensor"), py::arg("row0"), py::arg("col0"), py::arg("nrows"),
        py::arg("ncols"), py::keep_alive<0, 1>(), "rows [row0, row0 + nrows) x cols [col0, col0 + ncols) of an HBM tensor");
}

void bind_engines(py::class_<kernel::Kernel>& k) {
  using kernel::Kernel;
  using kernel::View;
  const py::object none = py::none();
  k.def("dma_copy", py::overload_cast<const View&, const kernel::HbmView&>(&Kernel::dma_copy),
        py::arg("dst"), py::arg("src"))
      .def("dma_copy", py::overload_cast<const kernel::HbmView&, const View&>(&Kernel::dma_copy),
           py::arg("dst"), py::arg("src"))
      .def("matmul", &Kernel::matmul, py::arg("psum_out"), py::arg("stationary"), py::arg("moving"),
           py::arg("accumulate") = kernel::Accumulate(false))
      .def("load_stationary", &Kernel::load_stationary, py::arg("stationary"))
      .def("multiply_moving", &Kernel::multiply_moving, py::arg("psum_out"), py::arg("moving"),
           py::arg("accumulate") = kernel::Accumulate(false))
      .def("pe_transpose", &Kernel::pe_transpose, py::arg("psum_out"), py::arg("input"))
      .def("activation", [](Kernel& self, const View& out, const View& in, const std::string& func,
                            float scale, float bias, std::optional<View> scale_vec,
                            std::optional<View> bias_vec, act::ReduceCmd reduce, act::ReduceOp reduce_op,
                            std::optional<View> acc_out) {
             kernel::ActArgs a;
             a.func = act_func_of(func);
             a.scale = scale;
             a.bias = bias;
             a.scale_vec = scale_vec;
             a.bias_vec = bias_vec;
             a.reduce = reduce;
             a.reduce_op = reduce_op;
             a.acc_out = acc_out;
             self.activation(out, in, a);
           }, py::arg("out"), py::arg("input"), py::arg("func") = "copy", py::arg("scale") = 1.0f,
           py::arg("bias") = 0.0f, py::arg("scale_vec") = none, py::arg("bias_vec") = none,
           py::arg("reduce") = act::ReduceCmd::kIdle, py::arg("reduce_op") = act::ReduceOp::kAdd,
           py::arg("acc_out") = none)
      .def("tensor_tensor", [](Kernel& self, const View& out, const View& in0, const View& in1,
                               const std::string& op) { self.tensor_tensor(out, in0, in1, alu_of(op)); },
           py::arg("out"), py::arg("in0"), py::arg("in1"), py::arg("op"))
      .def("tensor_scalar", [](Kernel& self, const View& out, const View& in, const std::string& alu0,
                               const py::object& imm0, const std::string& alu1, const py::object& imm1,
                               std::optional<View> s0, std::optional<View> s1, bool rev0, bool rev1) {
             self.tensor_scalar(out, in, dve_args(alu0, alu1, imm0, imm1, py::float_(0.0), s0, s1, rev0, rev1, false));
           }, py::arg("out"), py::arg("input"), py::arg("alu0") = "bypass", py::arg("imm0") = py::float_(0.0),
           py::arg("alu1") = "bypass", py::arg("imm1") = py::float_(0.0), py::arg("s0_vec") = none,
           py::arg("s1_vec") = none, py::arg("reverse0") = false, py::arg("reverse1") = false)
      .def("tensor_reduce", [](Kernel& self, const View& out, const View& in, const std::string& op,
                               bool negate) { self.tensor_reduce(out, in, alu_of(op), negate); },
           py::arg("out"), py::arg("input"), py::arg("op"), py::arg("negate") = false)
      .def("tensor_copy", &Kernel::tensor_copy, py::arg("out"), py::arg("input"))
      .def("transpose", &Kernel::transpose, py::arg("out"), py::arg("input"))
      .def("memset", [](Kernel& self, const View& out, const py::object& value) {
             self.memset(out, imm_of(value, "value"));
           }, py::arg("out"), py::arg("value"))
      .def("iota", &Kernel::iota, py::arg("out"), py::arg("base"), py::arg("partition_step"),
           py::arg("element_step"), py::arg("on") = isa::Seq::kPool)
      .def("bn_stats", &Kernel::bn_stats, py::arg("out"), py::arg("input"))
      .def("bn_aggr", &Kernel::bn_aggr, py::arg("out"), py::arg("input"));
}

void bind_kernel(py::module_& m) {
  using kernel::Kernel;
  py::enum_<act::ReduceCmd>(m, "Reduce", "What an activation does with its accumulators")
      .value("idle", act::ReduceCmd::kIdle)
      .value("reset", act::ReduceCmd::kReset)
      .value("reduce", act::ReduceCmd::kReduce)
      .value("reset_reduce", act::ReduceCmd::kResetReduce)
      .value("load_reduce", act::ReduceCmd::kLoadReduce);
  py::enum_<act::ReduceOp>(m, "ReduceOp").value("add", act::ReduceOp::kAdd).value("max", act::ReduceOp::kMax);
  py::enum_<isa::Seq>(m, "Engine", "A sequencer (the engine an instruction runs on)")
      .value("dve", isa::Seq::kDve)
      .value("pool", isa::Seq::kPool);
  py::class_<Kernel> k(m, "Kernel", "A kernel built with the kernel API; finish() gives its program");
  k.def(py::init([](const Config& c, const std::string& name) { return new Kernel(c.cfg, name); }),
        py::arg("config"), py::arg("name"))
      .def_property_readonly("name", &Kernel::name)
      .def("input", [](Kernel& self, const std::string& name, uint32_t rows, uint32_t cols, const std::string& dtype)
               -> const kernel::HbmTensor& { return self.input(name, rows, cols, dtype_of(dtype)); },
           py::arg("name"), py::arg("rows"), py::arg("cols"), py::arg("dtype"), py::return_value_policy::reference_internal)
      .def("output", [](Kernel& self, const std::string& name, uint32_t rows, uint32_t cols, const std::string& dtype)
               -> const kernel::HbmTensor& { return self.output(name, rows, cols, dtype_of(dtype)); },
           py::arg("name"), py::arg("rows"), py::arg("cols"), py::arg("dtype"), py::return_value_policy::reference_internal)
      .def("sbuf_pool", &Kernel::sbuf_pool, py::arg("name"), py::arg("bufs"), py::keep_alive<0, 1>())
      .def("psum_pool", &Kernel::psum_pool, py::arg("name"), py::arg("bufs"), py::keep_alive<0, 1>())
      .def("all", &Kernel::all, py::arg("tile"))
      .def("sub", &Kernel::sub, py::arg("tile"), py::arg("p0"), py::arg("np"), py::arg("col0"), py::arg("ncols"))
      .def("trip_count", &Kernel::trip_count, py::arg("name"), py::arg("max"))
      .def("loop", py::overload_cast<uint32_t, const std::function<void(kernel::Index)>&>(&Kernel::loop),
           py::arg("count"), py::arg("body"))
      .def("loop", py::overload_cast<const kernel::TripCount&, const std::function<void(kernel::Index)>&>(&Kernel::loop),
           py::arg("count"), py::arg("body"))
      .def("tile_loop", [](Kernel& self, uint32_t first, uint32_t total, uint32_t tile,
                           const std::function<void(kernel::Index, uint32_t)>& body) {
             kernel::tile_loop(self, first, total, tile, body);
           }, py::arg("first"), py::arg("total"), py::arg("tile"), py::arg("body"))
      .def("finish", [](Kernel& self) { return self.image(self.finish()); },
           "lays out, synchronises and emits the program: its ProgramImage");
  bind_engines(k);
}

void bind_runtime(py::module_& m) {
  py::class_<Config>(m, "Config", "A core config (configs/NAME.yaml)")
      .def_property_readonly("name", [](const Config& c) { return c.cfg.name; })
      .def_readonly("path", &Config::path)
      .def_property_readonly("partitions", [](const Config& c) { return c.cfg.partitions; })
      .def_property_readonly("pe_rows", [](const Config& c) { return c.cfg.pe_rows; })
      .def_property_readonly("pe_cols", [](const Config& c) { return c.cfg.pe_cols; })
      .def_property_readonly("moving_max_n", [](const Config& c) { return c.cfg.moving_max_n(); })
      .def_property_readonly("sbuf_partition_bytes", [](const Config& c) { return c.cfg.sbuf_partition_bytes; });
  m.def("config", &config, py::arg("name"), py::arg("configs_dir") = "",
        "tiny, small, trn2 (in configs_dir, else the build's configs) or a config file's path");
  py::class_<isa::ProgramImage>(m, "ProgramImage", "A program and its tensor table (.tbin)")
      .def_readonly("name", &isa::ProgramImage::name)
      .def_property_readonly("tensors", [](const isa::ProgramImage& im) {
        py::list out;
        for (const isa::TensorEntry& e : im.tensors)
          out.append(py::make_tuple(e.name, e.output ? "output" : "input", dtype_name(e.dtype), e.rows, e.cols));
        return out;
      })
      .def("assembly", &isa::disassemble_image, "the program as assembly text, with its tensor table")
      .def("save", [](const isa::ProgramImage& im, const std::string& path) {
        const std::vector<uint8_t> bytes = isa::image_to_binary(im);
        host::write_text_file(path, std::string(bytes.begin(), bytes.end()));
      }, py::arg("path"), "writes the .tbin file");
  m.def("load_program", &host::load_program_file, py::arg("path"), "a .s or .tbin file");
  m.def("_run_golden", &run_golden);
  m.def("_write_inputs", &write_inputs);
  m.def("_read_output", [](const isa::ProgramImage& im, const std::string& name, const std::string& path) {
    return read_output(*im.find(name), path);
  });
  m.def("patterns", &patterns, py::arg("patterns"), py::arg("dtype"),
        "bit patterns (integers) as a dtype's one-field structured array, as .npy files and run() take them");
}

}  // namespace
}  // namespace tern::python

PYBIND11_MODULE(_tern, m) {
  using namespace tern;
  using namespace tern::python;
  m.doc() = "tern: kernels built with the kernel API, run on the golden model (tern/__init__.py adds rtl, cross)";
  py::register_exception<Error>(m, "Error", PyExc_RuntimeError);
  bind_numerics(m);
  bind_views(m);
  bind_kernel(m);
  bind_runtime(m);
}
