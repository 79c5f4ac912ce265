"""RNNs, GRUs and LSTMs: the helpers of the chapter ``book/rnn/`` (pages ``cells``,
``language_model``, ``classify`` and ``using``).

One concept per module (import from the module itself; this file re-exports nothing):

* ``cells``: Elman, GRU and LSTM cells written from their equations, loaded from and checked against PyTorch.
* ``gradients``: backpropagation through time: gradient norms over distance, and clipping.
* ``classify``: sequence classification with a recurrent encoder: last state vs mean/max pooling.
* ``charlm``: a character-level LSTM language model with tied embeddings.
* ``gru_lm``: the same language model with GRU layers, and the stored GRU-versus-LSTM seed study.
* ``gates``: an LSTM's gate activations and memory along a sequence, recomputed from its weights.
* ``seq2seq``: encoder-decoder GRUs with optional dot-product attention on a synthetic task, and
  the stored source-reversal study.
* ``exercises``, ``cells_exercises``, ``classify_exercises``: the checkers of the chapter's exercises.
"""
