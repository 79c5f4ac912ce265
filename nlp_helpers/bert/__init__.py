"""BERT: the helpers of the chapter ``book/bert/`` (section pages).

One concept per module (import from the module itself; this file re-exports nothing):

* ``wordpiece``: WordPiece tokenization exactly as BERT does it.
* ``minilm``: a real pretrained encoder (all-MiniLM-L6-v2), offline: attention maps, contextual and
  sentence embeddings, semantic search.
* ``classifier``: fine-tuning the encoder for sentence classification on a CPU (head, top layer).
* ``full_finetuning``: every weight fine-tuned, with warm-up and linear decay of the learning rate.
* ``token_labels``: token classification: word labels on WordPieces, a head on every token.
* ``pairs``: pair inputs (``[CLS] a [SEP] b [SEP]``), cross-encoders and bi-encoders fine-tuned on pairs.
* ``mlm``: masked language modelling and a small masked LM.
* ``spanbert``: SpanBERT's span masking and span-boundary objective (head and loss).
* ``fill_mask``: a word-level fill-mask model (MiniLM with its top layers and BERT's MLM head retrained).
* ``fill_mask_training``: how that model is trained, with a validation split and early stopping.
* ``qa``: extractive question answering: the best answer span from start/end logits, pairs encoded once.
* ``qa_data``: templated SQuAD-style questions from real sentences, and SQuAD's exact match and F1.
* ``family``: parameter counts of BERT's relatives from their configurations.
* ``senses``: example sentences of two ambiguous words, for word-sense disambiguation.
* ``nsp``: next-sentence prediction pairs.
* ``topics``: BERTopic in miniature, with c-TF-IDF labels.
* ``exercises``, ``representations_exercises``, ``finetuning_exercises``: the checkers of the chapter's exercises.
"""
