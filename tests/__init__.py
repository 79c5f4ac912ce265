"""The test suite: ``tests/<slug>/`` holds each chapter's tests, the files here the shared ones."""
