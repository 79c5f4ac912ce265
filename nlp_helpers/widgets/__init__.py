"""Interactive widgets of the book: one ``anywidget.AnyWidget`` subclass per file.

The pattern (see ``CONTRIBUTING.md``):

* ``name.py`` holds the class: it validates its input in Python and ships every
  number the view needs in synced traitlets (``traitlets.List``/``Dict``/``Float``
  with ``.tag(sync=True)``).
* ``name.js`` is an ES module with ``export default { render({ model, el }) }``.
  It draws with SVG/DOM and recomputes cheap things itself (a softmax at a new
  temperature, another head), so sliders work on the static HTML page, where no
  kernel runs, as well as in JupyterLab, Notebook 7, VS Code and Colab.
* ``_common.js`` is prepended to every widget's module by :func:`load_esm`: small
  DOM helpers that insert text only as text (never HTML), labelled keyboard-
  operable controls, and colour-blind-safe colour maps.

Modules: ``assets`` (loads the ``.js`` and ``.css`` files), and one widget class each in
``attention``, ``bpe``, ``lstm_gates``, ``model_view``, ``naive_bayes``, ``ngram_generator``,
``optimiser_paths``, ``positional``, ``sampling``, ``sampling_tree``, ``tfidf_search``, ``viterbi`` and
``word_map``.
"""
