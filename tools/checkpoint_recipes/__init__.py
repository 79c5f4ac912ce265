"""Recipes of the book's checkpoints: one module per checkpoint, ``<name>.py`` defining ``RECIPE``.

``python -m tools.train_checkpoint <name>`` runs a recipe and writes ``nlp_helpers/checkpoints/<name>.json``
and ``<name>.safetensors``; ``tests/checkpoints/test_checkpoints_provenance.py`` finds every checkpoint
with ``nlp_helpers.checkpoints.names()`` and checks it against its recipe. To add a checkpoint:

1. Write ``tools/checkpoint_recipes/<name>.py`` with ``RECIPE = Recipe(...)``
   (:class:`tools.train_checkpoint.Recipe`; ``char_gpt.py`` is a model to copy). Its ``train`` calls the
   package's training function, the one the page shows, and returns the curve (rows ``{step,
   train_loss, valid_loss}`` every ``curve_every`` steps, row 0 before training); it must accept
   ``stop_after`` and then stop there while keeping the full run's schedule (add such an argument to
   the chapter's training function if it has a schedule). ``evaluate`` computes the page's metric on
   the split ``metric["split"]`` names (the validation split, or the test split when the training chose
   its weights on a dev split, as ``rnn_sentiment.py`` does; ``more_metrics`` adds other numbers, and a
   classifier's curve rows may carry ``valid_accuracy``). The model is built from the card's ``model`` entry by
   ``nlp_helpers.checkpoints.build_model`` (``factory`` = the chapter's public class).
2. Try it short: ``python -m tools.train_checkpoint <name> --steps 200 --out /tmp/ck``.
3. Measure the provenance tolerance: ``python -m tools.train_checkpoint <name> --prefix`` retrains the
   first ``prefix_steps`` of the card's run and prints the largest loss difference; run it natively and
   with ``ATEN_CPU_CAPABILITY=default`` (on the card of a short trial run in ``--out``), and set
   ``prefix_tolerance`` from the larger difference, stating it in a comment.
4. Train it for real with ``nohup python -m tools.train_checkpoint <name> > /tmp/<name>.log 2>&1 &``,
   put the measured wall time in ``minutes``, commit the two files (keep the total under 30 MB).
5. The page loads it with ``model, card = checkpoints.load("<name>")``.
"""
