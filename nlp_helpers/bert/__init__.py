"""BERT: the helpers of the chapter ``book/bert/`` (section pages).

One concept per module (import from the module itself; this file re-exports nothing):

* ``wordpiece``: WordPiece tokenization exactly as BERT does it.
* ``minilm``: a real pretrained encoder (all-MiniLM-L6-v2), offline: attention maps, contextual and
  sentence embeddings, semantic search.
* ``mlm``: masked language modelling and a small masked LM.
* ``spanbert``: SpanBERT's span masking and span-boundary objective (head and loss).
* ``fill_mask``: a word-level fill-mask model (MiniLM with its top layers and BERT's MLM head retrained).
* ``fill_mask_training``: how that model is trained, with a validation split and early stopping.
* ``senses``: example sentences of two ambiguous words, for word-sense disambiguation.
* ``nsp``: next-sentence prediction pairs.
* ``exercises``, ``representations_exercises``, ``spanbert_exercises``: the checkers of the chapter's exercises.

Fine-tuning the encoder (classification, token labels, question answering, sentence embeddings) is the next
chapter's, in ``nlp_helpers.finetuning``.
"""
