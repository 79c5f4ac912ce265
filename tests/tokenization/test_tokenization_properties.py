"""Laws that must hold for every input (hypothesis), for the subword-tokenization helpers.

Settings and strategies are shared (``tests/strategies.py``): 50 derandomized examples per law.
"""

from __future__ import annotations

from hypothesis import given

from nlp_helpers.tokenization.bpe import pretokenize
from tests.strategies import PROPERTY, UNICODE_TEXT, unicode_bpe


@PROPERTY
@given(UNICODE_TEXT)
def test_bpe_decode_undoes_encode_for_any_unicode(text):
    bpe = unicode_bpe()
    tokens = bpe.encode(text)
    assert bpe.decode(tokens) == text
    assert bpe.decode_ids(bpe.encode_ids(text)) == text
    assert "".join(pretokenize(text)) == text
    assert all(t in bpe.vocab for t in tokens)
