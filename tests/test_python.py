"""The tern Python module (sw/python): conversions against values from the formats' definitions,
kernels built in Python against NumPy, the examples on every backend, and every bad input
refused with an error that names it. Run by ctest as python.module:
PYTHONPATH=build/python python3 -m unittest tests/test_python.py
"""

import os
import subprocess
import sys
import tempfile
import unittest

import numpy as np

import tern

EXAMPLES = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "examples", "python")
SEED = int(os.environ.get("TERN_SEED", "1"))
print(f"test_python: seed {SEED}", file=sys.stderr)


def scale_kernel(cfg, rows=8, cols=64, imm0=2.0, in_dtype="fp32", out_dtype="fp32"):
    """y = x * imm0 + 1 over one tile."""
    k = tern.Kernel(cfg, "scale")
    x = k.input("x", rows, cols, in_dtype)
    y = k.output("y", rows, cols, out_dtype)
    pool = k.sbuf_pool("io", 2)
    t = pool.tile(rows, cols, in_dtype, "t")
    u = pool.tile(rows, cols, out_dtype, "u")
    k.dma_copy(k.all(t), tern.window(x, 0, 0, rows, cols))
    k.tensor_scalar(k.all(u), k.all(t), alu0="multiply", imm0=imm0, alu1="add", imm1=1.0)
    k.dma_copy(tern.window(y, 0, 0, rows, cols), k.all(u))
    return k


class Conversions(unittest.TestCase):
    def test_bf16_rounds_to_nearest_even(self):
        # bf16 keeps 7 fraction bits: 1 + 2^-8 is halfway between 1 (0x3F80) and 1 + 2^-7
        # (0x3F81) and goes to the even one; 1 + 3 * 2^-8 is halfway between 0x3F81 and 0x3F82.
        x = np.array([1.0, -2.0, 1 + 2.0**-8, 1 + 3 * 2.0**-8, 1 + 2.0**-8 + 2.0**-20], np.float32)
        self.assertEqual(tern.encode(x, "bf16").tolist(), [0x3F80, 0xC000, 0x3F80, 0x3F82, 0x3F81])

    def test_fp8_e4m3(self):
        # e4m3: bias 7, so 1.0 is 0 0111 000 and 448 (the largest) 0 1111 110.
        self.assertEqual(tern.encode(np.array([1.0, 448.0, -0.5], np.float32), "fp8e4m3").tolist(),
                         [0x38, 0x7E, 0xB0])

    def test_decode_is_exact(self):
        self.assertEqual(tern.decode(np.array([0x3F81, 0x0001], np.uint32), "bf16").tolist(),
                         [1 + 2.0**-7, 2.0**-133])
        with self.assertRaisesRegex(tern.Error, "0x10000 is no bf16 pattern"):
            tern.decode(np.array([0x10000], np.uint32), "bf16")
        self.assertEqual(tern.decode(np.array([0xFF], np.uint32), "int8").tolist(), [-1])
        with self.assertRaisesRegex(tern.Error, "0x100 is no int8 pattern"):
            tern.decode(np.array([0x100], np.uint32), "int8")

    def test_patterns_are_checked(self):
        p = tern.patterns(np.array([[0x3F80, 0x4000]]), "bf16")
        self.assertEqual(p.dtype.names, ("bf16",))
        self.assertEqual(p["bf16"].tolist(), [[0x3F80, 0x4000]])
        for bad in ([0x10000], [-1]):
            with self.assertRaisesRegex(tern.Error, "is no bf16 pattern"):
                tern.patterns(np.array(bad), "bf16")
        with self.assertRaisesRegex(tern.Error, "is no tf32 pattern"):
            tern.patterns(np.array([1]), "tf32")


class Kernels(unittest.TestCase):
    cfg = tern.config("tiny")

    def test_scale_on_golden_matches_numpy(self):
        x = np.random.default_rng(SEED).uniform(-8, 8, (8, 64)).astype(np.float32)
        run = tern.run(scale_kernel(self.cfg).finish(), {"x": x}, self.cfg)
        # 2x is exact and the add rounds once, as NumPy's float32 add does.
        np.testing.assert_array_equal(run.outputs["y"], x * np.float32(2) + np.float32(1))
        self.assertGreater(run.cycles, 0)

    def test_bf16_input_is_rounded_by_tern(self):
        x = np.full((8, 64), 1 + 3 * 2.0**-8, np.float32)
        image = scale_kernel(self.cfg, imm0=1.0, in_dtype="bf16").finish()
        run = tern.run(image, {"x": x}, self.cfg)
        np.testing.assert_array_equal(run.outputs["y"], np.full((8, 64), 2 + 2.0**-6, np.float32))
        # The same input as bit patterns.
        run = tern.run(image, {"x": tern.patterns(np.full((8, 64), 0x3F82), "bf16")}, self.cfg)
        np.testing.assert_array_equal(run.outputs["y"], np.full((8, 64), 2 + 2.0**-6, np.float32))

    def test_image_saves_and_loads(self):
        image = scale_kernel(self.cfg).finish()
        self.assertIn(".tensor x input fp32", image.assembly())
        with tempfile.TemporaryDirectory() as tmp:
            path = os.path.join(tmp, "scale.tbin")
            image.save(path)
            again = tern.load_program(path)
        self.assertEqual(again.tensors, image.tensors)
        x = np.ones((8, 64), np.float32)
        np.testing.assert_array_equal(tern.run(again, {"x": x}, self.cfg).outputs["y"],
                                      np.full((8, 64), 3.0, np.float32))

    def test_loops_with_indices(self):
        k = tern.Kernel(self.cfg, "rows")
        x = k.input("x", 32, 16, "fp32")
        y = k.output("y", 32, 16, "fp32")
        pool = k.sbuf_pool("io", 2)

        def body(i):
            t = pool.tile(8, 16, "fp32", "t")
            k.dma_copy(k.all(t), tern.window(x, i * 8, 0, 8, 16))
            k.activation(k.all(t), k.all(t), func="relu")
            k.dma_copy(tern.window(y, 8 * i, 0, 8, 16), k.all(t))

        k.loop(4, body)
        xs = np.random.default_rng(SEED).uniform(-1, 1, (32, 16)).astype(np.float32)
        out = tern.run(k.finish(), {"x": xs}, self.cfg).outputs["y"]
        np.testing.assert_array_equal(out, np.maximum(xs, 0))

    def test_k_loop_with_run_time_accumulate(self):
        """A K loop of matmuls whose first iteration overwrites PSUM (Accumulate.when_nonzero),
        twice into the one PSUM slot, on golden and cross (the RTL beside it): small integers,
        so every sum is exact and NumPy's integer product is the reference."""
        P, K, N = 8, 48, 16
        k = tern.Kernel(self.cfg, "k_loop")
        a_t = k.input("a_t", K, P, "bf16")
        b = k.input("b", K, 2 * N, "bf16")
        c = k.output("c", P, 2 * N, "fp32")
        st, mv = k.sbuf_pool("st", 2), k.sbuf_pool("mv", 2)
        acc_pool, out_pool = k.psum_pool("acc", 1), k.sbuf_pool("out", 1)

        def n_tile(nt):
            acc = acc_pool.tile(P, N, "fp32", "acc")

            def k_step(kt):
                s = st.tile(P, P, "bf16", "st")
                k.dma_copy(k.all(s), tern.window(a_t, kt * P, 0, P, P))
                m = mv.tile(P, N, "bf16", "mv")
                k.dma_copy(k.all(m), tern.window(b, kt * P, nt * N, P, N))
                k.matmul(k.all(acc), k.all(s), k.all(m), tern.Accumulate.when_nonzero(kt))

            k.loop(K // P, k_step)
            o = out_pool.tile(P, N, "fp32", "out")
            k.tensor_copy(k.all(o), k.all(acc))
            k.dma_copy(tern.window(c, 0, nt * N, P, N), k.all(o))

        k.loop(2, n_tile)
        image = k.finish()
        rng = np.random.default_rng(SEED)
        at = rng.integers(-3, 4, (K, P))
        bs = rng.integers(-3, 4, (K, 2 * N))
        inputs = {"a_t": at.astype(np.float32), "b": bs.astype(np.float32)}
        for backend in ("golden", "cross"):
            with self.subTest(backend=backend):
                out = tern.run(image, inputs, self.cfg, backend=backend).outputs["c"]
                np.testing.assert_array_equal(out, (at.T @ bs).astype(np.float32))
        with self.assertRaisesRegex(tern.Error, "when_nonzero: the index must be a nonnegative"):
            tern.Accumulate.when_nonzero(tern.Index(-1))


class BadInputs(unittest.TestCase):
    cfg = tern.config("tiny")

    def test_integer_immediates_are_refused(self):
        with self.assertRaisesRegex(TypeError, r"imm0 = 2: an integer immediate.*tern.Imm.int32"):
            scale_kernel(self.cfg, imm0=2)
        k = scale_kernel(self.cfg)
        t = k.sbuf_pool("more", 1).tile(8, 8, "fp32", "m")
        with self.assertRaisesRegex(TypeError, "value = 1: an integer immediate"):
            k.memset(k.all(t), 1)
        k.memset(k.all(t), tern.Imm.bits(0x3F800000))

    def test_bad_names(self):
        k = tern.Kernel(self.cfg, "k")
        with self.assertRaisesRegex(tern.Error, "no dtype 'bf17'"):
            k.input("x", 8, 8, "bf17")
        t = k.sbuf_pool("p", 1).tile(8, 8, "fp32", "t")
        with self.assertRaisesRegex(tern.Error, "no Vector Engine ALU op 'mult'"):
            k.tensor_reduce(k.all(t), k.all(t), "mult")
        with self.assertRaisesRegex(tern.Error, "no activation function 'expo'"):
            k.activation(k.all(t), k.all(t), func="expo")
        with self.assertRaisesRegex(tern.Error, "no_such_config.yaml: cannot open config file"):
            tern.config("no_such_config")

    def test_bad_arrays(self):
        image = scale_kernel(self.cfg).finish()
        cases = [
            ({"x": np.ones((8, 64))}, "input 'x': a fp32 tensor takes a float32 or float16 array, not float64"),
            ({"x": np.ones((8, 63), np.float32)}, r"input 'x': shape \(8, 63\) where the program's tensor is \(8, 64\)"),
            ({"x": np.ones((8, 64), np.int32)}, "not int32"),
            ({}, "input 'x' of scale is not given"),
            ({"x": np.ones((8, 64), np.float32), "z": np.ones(1)}, "input 'z': scale has no input tensor"),
            ({"x": tern.patterns(np.ones((8, 64), int), "bf16")}, "must have the one field 'fp32'"),
        ]
        for inputs, message in cases:
            with self.subTest(message=message), self.assertRaisesRegex(tern.Error, message):
                tern.run(image, inputs, self.cfg)
        with self.assertRaisesRegex(tern.Error, "backend 'fpga'"):
            tern.run(image, {"x": np.ones((8, 64), np.float32)}, self.cfg, backend="fpga")

    def test_kernel_errors_surface(self):
        k = tern.Kernel(self.cfg, "big")
        with self.assertRaisesRegex(tern.Error, "tile 't' of pool 'huge' needs 24000 bytes per partition"):
            k.sbuf_pool("huge", 1).tile(8, 6000, "fp32", "t")
        # Two pools that fit one at a time but not together: finish() lays them out.
        for name in ("a", "b"):
            t = k.sbuf_pool(name, 1).tile(8, 2500, "fp32", name)
            k.memset(k.all(t), 0.0)
        with self.assertRaisesRegex(tern.Error, "SBUF"):
            k.finish()


class Examples(unittest.TestCase):
    """The NKI tutorial's matmul and softmax: golden on tiny and small, rtl and cross on tiny."""

    def example(self, name, *args):
        done = subprocess.run([sys.executable, os.path.join(EXAMPLES, name), "--seed", str(SEED), *args],
                              capture_output=True, text=True, check=False)
        self.assertEqual(done.returncode, 0, done.stdout + done.stderr)
        self.assertIn("PASS", done.stdout)
        return done.stdout

    def test_matmul(self):
        self.example("matmul.py", "--config", "tiny")
        self.example("matmul.py", "--config", "small", "--shape", "64,64,1024")
        self.example("matmul.py", "--config", "tiny", "--backend", "cross")

    def test_softmax(self):
        self.example("softmax.py", "--config", "tiny")
        self.example("softmax.py", "--config", "small", "--rows", "80", "--d", "200")
        self.example("softmax.py", "--config", "tiny", "--backend", "rtl")


if __name__ == "__main__":
    unittest.main()
