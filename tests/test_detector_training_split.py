"""bench/detectors/train.py's validation split is drawn by each sentence's text, so adding
corpus lines never moves an existing sentence between training and validation."""

from __future__ import annotations

from bench.detectors.train import split


def _rows(prefix: str, n: int, stratum: str = "ordinary/store/en"):
    return [(f"{prefix} sentence number {i}", None, stratum, "corpus") for i in range(n)]


def test_the_split_is_about_one_in_five_and_a_partition():
    rows = _rows("plain", 1000)
    train, validation = split(rows)
    assert 150 <= len(validation) <= 250
    assert set(train).isdisjoint(validation)
    assert sorted(train + validation) == list(range(len(rows)))


def test_additions_anywhere_never_move_an_existing_sentence():
    rows = _rows("plain", 400) + _rows("credential", 100, "credential/refuse/zh")
    _, validation = split(rows)
    before = {rows[i][0] for i in validation}
    grown = (
        _rows("added", 300, "credential/refuse/zh") + rows[:250] + _rows("more", 50) + rows[250:]
    )
    train2, validation2 = split(grown)
    after = {grown[i][0] for i in validation2}
    assert before <= after
    assert not before & {grown[i][0] for i in train2}
    # The same texts, reordered: the same split.
    reversed_rows = rows[::-1]
    assert {reversed_rows[i][0] for i in split(reversed_rows)[1]} == before
