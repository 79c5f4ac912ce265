"""Fine-tuning encoders: the helpers of the chapter ``book/finetuning/`` (section pages).

One concept per module (import from the module itself; this file re-exports nothing):

* ``classifier``: fine-tuning the encoder for sentence classification on a CPU (head, top layer).
* ``full_finetuning``: every weight fine-tuned, with warm-up and linear decay of the learning rate.
* ``token_labels``: token classification: word labels on WordPieces, a head on every token.
* ``qa``: extractive question answering: the best answer span from start/end logits, pairs encoded once.
* ``qa_data``: templated SQuAD-style questions from real sentences, and SQuAD's exact match and F1.
* ``pairs``: pair inputs (``[CLS] a [SEP] b [SEP]``), cross-encoders and bi-encoders fine-tuned on pairs.
* ``topics``: BERTopic in miniature, with c-TF-IDF labels.
* ``family``: parameter counts of BERT's relatives from their configurations.
* ``classification_exercises``, ``token_tasks_exercises``, ``sentences_exercises``: the checkers of the
  chapter's exercises.

The pretrained encoder itself (``nlp_helpers.bert.minilm``) belongs to the earlier chapter ``book/bert/``.
"""
