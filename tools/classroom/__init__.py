"""Classroom tools: release student copies, grade a folder of submissions safely, export for nbgrader/otter.

``python -m tools.classroom release|grade|export`` (see ``__main__``). Modules: ``exercises`` (read a
page's exercises), ``release`` (student copies and the manifest), ``extract`` (the code an exercise
needs, screened), ``judge`` (the process that runs it and calls the checker), ``grade`` (the driver:
limits, isolation, cache), ``report`` (feedback and the instructor's summary), ``export``.
"""
