"""nlp_helpers.data.gguf_header against the gguf package's own reader (GGUFReader), on files GGUFWriter wrote
and on the SmolLM2 file the book ships: the same tensors, formats and sizes, in the same order."""

from __future__ import annotations

import numpy as np
import pytest
from gguf import GGUFReader, GGUFWriter

from nlp_helpers.data.gguf_header import gguf_tensor_formats
from nlp_helpers.data.smollm2 import gguf_path


def _reference(path) -> list[tuple[str, str, int]]:
    return [(t.name, t.tensor_type.name, int(t.n_elements)) for t in GGUFReader(path).tensors]


@pytest.fixture
def written(tmp_path):
    """A GGUF file with every kind of metadata the skipping must get past, and tensors of several formats."""
    path = tmp_path / "tiny.gguf"
    w = GGUFWriter(str(path), "llama")
    w.add_string("general.name", "tiny ünïcode")
    w.add_array("tokenizer.ggml.tokens", ["a", "bb", "ccc", "é"])  # an array of strings
    w.add_array("tokenizer.ggml.scores", [0.5, -1.0, 2.0])  # an array of floats
    w.add_uint64("a.big", 2**40)
    w.add_bool("a.flag", True)
    w.add_tensor("token_embd.weight", np.ones((7, 3), dtype=np.float32))
    w.add_tensor("blk.0.attn_q.weight", np.zeros((4, 5, 2), dtype=np.float16))
    w.add_tensor("output_norm.weight", np.arange(11, dtype=np.float32))
    w.write_header_to_file()
    w.write_kv_data_to_file()
    w.write_tensors_to_file()
    w.close()
    return path


def test_equals_gguf_reader_on_a_written_file(written):
    ours = gguf_tensor_formats(written)
    assert ours == _reference(written)
    assert ours == [
        ("token_embd.weight", "F32", 21),
        ("blk.0.attn_q.weight", "F16", 40),
        ("output_norm.weight", "F32", 11),
    ]


def test_equals_gguf_reader_on_smollm2():
    ours = gguf_tensor_formats(gguf_path())
    assert len(ours) == 272
    assert ours == _reference(gguf_path())


def test_bad_input_names_the_argument(tmp_path, written):
    with pytest.raises(TypeError, match="path: expected a str or Path"):
        gguf_tensor_formats(3)
    with pytest.raises(ValueError, match="path: no file"):
        gguf_tensor_formats(tmp_path / "missing.gguf")
    (tmp_path / "x.gguf").write_bytes(b"GGML" + bytes(100))
    with pytest.raises(ValueError, match="not a GGUF file"):
        gguf_tensor_formats(tmp_path / "x.gguf")
    cut = tmp_path / "cut.gguf"
    cut.write_bytes(written.read_bytes()[:120])  # the header stops inside the metadata
    with pytest.raises(ValueError, match="truncated or unreadable"):
        gguf_tensor_formats(cut)
