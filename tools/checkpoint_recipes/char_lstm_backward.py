"""``char_lstm_backward``: the right-to-left twin of ``char_lstm``, the other half of the page's ELMo biLM."""

from tools.checkpoint_recipes._char_lstm import recipe

RECIPE = recipe("char_lstm_backward", backward=True, steps=1200)
