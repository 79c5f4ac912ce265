"""Parameter counts of BERT's relatives (nlp_helpers.finetuning.family) against ``transformers``' own models.

Reference: the number of parameters of ``BertModel``, ``RobertaModel``, ``DebertaModel`` and
``DistilBertModel`` built from small configurations (exact equality), and of the chapter's
pretrained all-MiniLM-L6-v2.
"""

from __future__ import annotations

import pytest

from nlp_helpers.finetuning.family import encoder_parameters

transformers = pytest.importorskip("transformers")

SMALL = dict(vocab_size=1000, hidden_size=64, num_hidden_layers=2, num_attention_heads=4, intermediate_size=128)


def count(model) -> int:
    return sum(p.numel() for p in model.parameters())


def test_bert_roberta_distilbert_match_transformers():
    bert = transformers.BertModel(transformers.BertConfig(**SMALL, max_position_embeddings=64))
    assert encoder_parameters(1000, 64, 2, 128, max_positions=64) == count(bert)
    roberta = transformers.RobertaModel(
        transformers.RobertaConfig(**SMALL, max_position_embeddings=66, type_vocab_size=1)
    )
    assert encoder_parameters(1000, 64, 2, 128, max_positions=66, n_segments=1) == count(roberta)
    distil = transformers.DistilBertModel(
        transformers.DistilBertConfig(
            vocab_size=1000, dim=64, n_layers=2, n_heads=4, hidden_dim=128, max_position_embeddings=64
        )
    )
    assert encoder_parameters(1000, 64, 2, 128, max_positions=64, n_segments=0, pooler=False) == count(distil)


def test_deberta_disentangled_attention_matches_transformers():
    config = transformers.DebertaConfig(
        **SMALL,
        max_position_embeddings=64,
        relative_attention=True,
        pos_att_type=["c2p", "p2c"],
        max_relative_positions=-1,  # k = max_position_embeddings
        position_biased_input=False,
        type_vocab_size=0,
    )
    expected = count(transformers.DebertaModel(config))
    got = encoder_parameters(
        1000, 64, 2, 128, max_positions=0, n_segments=0, pooler=False, relative_positions=64, key_bias=False
    )
    assert got == expected


def test_minilm_and_bert_base():
    from nlp_helpers.bert.minilm import load_minilm

    _, model = load_minilm()
    c = model.config
    assert encoder_parameters(c.vocab_size, c.hidden_size, c.num_hidden_layers, c.intermediate_size) == count(model)
    assert abs(encoder_parameters(30522, 768, 12, 3072) / 1e6 - 110) < 1  # BERT-base: "110 M" in the paper


@pytest.mark.parametrize(
    "kwargs, name",
    [
        (dict(vocab_size=0), "vocab_size"),
        (dict(d_model=-1), "d_model"),
        (dict(n_layers=1.5), "n_layers"),
        (dict(max_positions=-2), "max_positions"),
        (dict(pooler="yes"), "pooler"),
        (dict(key_bias=1), "key_bias"),
        (dict(relative_positions=-1), "relative_positions"),
    ],
)
def test_bad_inputs_name_the_argument(kwargs, name):
    args = dict(vocab_size=100, d_model=8, n_layers=1, d_ff=16) | kwargs
    with pytest.raises((TypeError, ValueError), match=name):
        encoder_parameters(**args)


def test_relatives_table_matches_published_sizes_and_rejects_bad_rows():
    import pytest

    from nlp_helpers.finetuning.family import relatives_table

    table = relatives_table([("tiny", "English", 1, 4, 8, 10, {})])
    # published sizes (millions): BERT base 110, BERT large 340, RoBERTa base 125, DistilBERT 66
    for name, size in {"BERT base": 110, "BERT large": 340, "RoBERTa base": 125, "DistilBERT": 66}.items():
        assert abs(table.loc[name, "parameters (M)"] - size) / size < 0.04
    assert table.loc["tiny", "layers"] == 1 and len(table) == 10
    with pytest.raises(ValueError, match="extra"):
        relatives_table([("tiny", "English", 1, 4, 8, 10)])
