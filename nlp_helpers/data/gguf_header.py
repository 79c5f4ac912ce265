"""The tensor table of a GGUF file, read from its header without loading any weight.

A GGUF file (the format of llama.cpp, in which the book's SmolLM2 ships) begins with a header: the magic
bytes ``GGUF``, a version, the number of tensors and of metadata fields; then the metadata, each field a
key, a type code and a value (strings and arrays of any type included); then, per tensor, its name, its
shape, its storage format (``F32``, ``Q8_0``, ``Q4_1`` ...) and the offset of its data. The ``gguf``
package's ``GGUFReader`` reads all of that and decodes every metadata value (SmolLM2's tokenizer: about
49,000 strings, several seconds of CPU); :func:`gguf_tensor_formats` only skips the metadata, so listing
the tensors takes a fraction of a second.
"""

from __future__ import annotations

import mmap
import struct
from pathlib import Path

# bytes per element of GGUF's scalar metadata types (8 is a string, 9 an array)
_SCALAR_BYTES = {0: 1, 1: 1, 2: 2, 3: 2, 4: 4, 5: 4, 6: 4, 7: 1, 10: 8, 11: 8, 12: 8}


def gguf_tensor_formats(path: str | Path) -> list[tuple[str, str, int]]:
    """``(name, format, number of weights)`` of every tensor of the GGUF file at ``path``, in file order.

    The format is the name of ``gguf.GGMLQuantizationType`` (for example ``"Q8_0"``). Raises ``ValueError``
    when ``path`` is not a readable GGUF file (versions 2 and 3, little-endian).
    """
    if not isinstance(path, (str, Path)):
        raise TypeError(f"path: expected a str or Path, got {type(path).__name__}")
    path = Path(path)
    if not path.is_file():
        raise ValueError(f"path: no file at {str(path)!r}")
    with path.open("rb") as f:
        if f.read(4) != b"GGUF":
            raise ValueError(f"path: {str(path)!r} is not a GGUF file (it does not start with b'GGUF')")
        with mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ) as data:
            try:
                return _tensor_table(data)
            except (struct.error, KeyError, UnicodeDecodeError, ValueError) as exc:
                raise ValueError(f"path: {str(path)!r} has a truncated or unreadable GGUF header ({exc})") from None


def _tensor_table(data) -> list[tuple[str, str, int]]:
    from gguf import GGMLQuantizationType

    pos = 4  # after the magic

    def take(fmt: str) -> tuple:
        nonlocal pos
        values = struct.unpack_from("<" + fmt, data, pos)
        pos += struct.calcsize("<" + fmt)
        return values

    def skip_value(kind: int) -> None:
        nonlocal pos
        if kind == 8:  # a string: its length, then its bytes
            (length,) = take("Q")  # (not `pos += take(...)`: that would add to pos as it was before take)
            pos += length
        elif kind == 9:  # an array: element type, count, elements
            inner, count = take("IQ")
            if inner in _SCALAR_BYTES:
                pos += _SCALAR_BYTES[inner] * count
            else:
                for _ in range(count):
                    skip_value(inner)
        else:
            pos += _SCALAR_BYTES[kind]

    version, n_tensors, n_fields = take("IQQ")
    if version not in (2, 3):
        raise KeyError(f"GGUF version {version}")
    for _ in range(n_fields):
        (length,) = take("Q")  # the key
        pos += length
        skip_value(take("I")[0])
    tensors = []
    for _ in range(n_tensors):
        length = take("Q")[0]
        name = bytes(data[pos : pos + length]).decode()
        pos += length
        shape = take(f"{take('I')[0]}Q")
        kind, _offset = take("IQ")
        size = 1
        for dim in shape:
            size *= dim
        tensors.append((name, GGMLQuantizationType(kind).name, size))
    return tensors
