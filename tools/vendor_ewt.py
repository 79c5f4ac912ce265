"""Rebuild the vendored UD English EWT and Universal NER EWT files from their released CoNLL files.

Usage: ``python tools/vendor_ewt.py SRC_UD_DIR SRC_UNER_DIR`` (folders holding
``en_ewt-ud-{train,dev,test}.conllu.gz`` and ``en_ewt-ud-{dev,test}.iob2.gz``).

Keeps only what the sequence-labelling chapter needs: for UD the sentence id, ID, FORM, UPOS and
XPOS of every syntactic word (integer ids; multiword-token ranges and empty nodes are dropped);
for UNER the sentence id, ID, FORM and the IOB2 tag. Writes gzip files with a fixed mtime so a rebuild
is byte-identical.
"""

from __future__ import annotations

import gzip
import sys
from pathlib import Path

OUT = Path(__file__).resolve().parent.parent / "nlp_helpers" / "data" / "files"


def _sentences(path: Path):
    sent_id, rows = None, []
    with gzip.open(path, "rt", encoding="utf-8") as fh:
        lines = [line.rstrip("\n") for line in fh]
    for line in lines:
        if not line:
            if rows:
                yield sent_id, rows
            sent_id, rows = None, []
        elif line.startswith("# sent_id = "):
            sent_id = line[len("# sent_id = ") :]
        elif not line.startswith("#"):
            rows.append(line.split("\t"))
    if rows:
        yield sent_id, rows


def _write(path: Path, blocks: list[str]) -> None:
    data = "".join(blocks).encode("utf-8")
    with open(path, "wb") as fh, gzip.GzipFile(fileobj=fh, mode="wb", mtime=0, filename="") as gz:
        gz.write(data)


def main(ud_dir: str, uner_dir: str) -> None:
    for split in ("train", "dev", "test"):
        blocks = []
        for sent_id, rows in _sentences(Path(ud_dir) / f"en_ewt-ud-{split}.conllu.gz"):
            words = [r for r in rows if r[0].isdigit()]
            body = "".join(f"{r[0]}\t{r[1]}\t{r[3]}\t{r[4]}\n" for r in words)
            blocks.append(f"# sent_id = {sent_id}\n{body}\n")
        _write(OUT / "ud-english-ewt" / f"en_ewt-ud-{split}.tsv.gz", blocks)
    for split in ("dev", "test"):
        blocks = []
        for sent_id, rows in _sentences(Path(uner_dir) / f"en_ewt-ud-{split}.iob2.gz"):
            body = "".join(f"{r[0]}\t{r[1]}\t{r[2]}\n" for r in rows)
            blocks.append(f"# sent_id = {sent_id}\n{body}\n")
        _write(OUT / "uner-english-ewt" / f"en_ewt-ud-{split}.iob2.tsv.gz", blocks)


if __name__ == "__main__":
    main(*sys.argv[1:3])
