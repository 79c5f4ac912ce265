"""Self-checking exercises, shared by every chapter.

* ``checker``: ``Checker`` and ``CheckResult``, the machinery of every chapter's ``exercises`` module.
"""
