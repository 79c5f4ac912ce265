"""nlp_helpers: the shared helper package of the book *NLP Step by Step*.

One module per concept, named after the chapter that teaches it
(``tokenization.py`` <-> ``book/tokenization.ipynb``). Chapters import from here;
no chapter defines a function another chapter needs.

Standard names used in docstrings and shape comments::

    B          batch size            T        sequence length (tokens)
    V          vocabulary size       d_model  model (embedding) width
    n_heads    attention heads       d_k      per-head width (d_model // n_heads)
"""

__version__ = "0.1.0"
