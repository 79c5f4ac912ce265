"""Helpers of the chapter "Neural networks and neural language models" (``book/feedforward/``).

Modules (import them directly; this package re-exports nothing):

* ``activations``: sigmoid, tanh, ReLU, leaky ReLU, ELU, SELU and softmax, with their derivatives.
* ``xor``: the XOR data, the best linear fit to it, and a hand-set two-layer network that solves it.
* ``initialisation``: small/Glorot/He weight initialisation, and per-layer activation and gradient
  sizes through a deep stack (vanishing gradients measured).
* ``mlp``: a two-layer network in numpy with forward pass, cross-entropy, backpropagation by hand,
  an SGD step and a full-batch training loop.
* ``normalisation``: layer normalisation, batch normalisation and inverted dropout.
* ``pooling_classifier``: a text classifier that pools word embeddings (random, static pretrained
  or fine-tuned) and feeds them to a two-layer network, with early stopping on a dev set.
* ``window_lm``: Bengio et al.'s (2003) fixed-window neural language model in PyTorch.
* ``exercises``: the checkers of the exercises of the pages on networks and training.
* ``classifier_exercises``: the checkers of the pooling classifier's exercises (pooling by hand, max
  pooling, a freeze-then-unfreeze training schedule).
* ``lm_exercises``: the checkers of the neural LM page's exercises (perplexity by hand, a window LM with tied
  weights).
"""
