"""Self-checking exercises, shared by every chapter.

* ``checker``: ``Checker``, ``CheckResult`` and ``InPlace``, the machinery of every chapter's ``exercises`` module.
* ``guard``: what guards each call of a student's function (a time limit, copies of the inputs, descriptions).
* ``messages``: the words of the verdicts (calls, values, time-outs, recursion).
"""
