"""``char_lstm``: the forward character LSTM of ``book/rnn/language_model.ipynb`` (see ``_char_lstm``)."""

from tools.checkpoint_recipes._char_lstm import recipe

RECIPE = recipe("char_lstm", backward=False, steps=2400)
