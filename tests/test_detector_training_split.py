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


def test_cached_training_equals_training_and_keys_on_the_data(tmp_path, monkeypatch):
    """``cached_train`` gives ``train``'s heads, reads them back on a second run, and a
    change of one label (or text) is another entry, never the stale heads."""
    import numpy as np

    from bench.detectors import train as t

    monkeypatch.setattr(t, "NGRAM_CACHE", tmp_path)
    texts = ["my code is 4417", "we went to the beach", "PIN 9023 for the card", "lunch at one"]
    y = np.array([[1, 0, 0, 0, 0], [0] * 5, [1, 0, 0, 0, 0], [0] * 5], dtype=np.float32)
    X = t.featurise(texts, 10)
    W0, b0 = t.train(X, y, len(texts), 10, 5)
    W1, b1 = t.cached_train(texts, X, y, 10, 5)
    assert np.array_equal(W0, W1) and np.array_equal(b0, b1)
    assert len(list(tmp_path.iterdir())) == 1
    monkeypatch.setattr(t, "train", lambda *a, **k: (_ for _ in ()).throw(AssertionError))
    W2, _ = t.cached_train(texts, X, y, 10, 5)  # read back: ``train`` is not called
    assert np.array_equal(W0, W2)
    monkeypatch.undo()
    monkeypatch.setattr(t, "NGRAM_CACHE", tmp_path)
    y2 = y.copy()
    y2[1, 0] = 1
    W3, _ = t.cached_train(texts, X, y2, 10, 5)
    assert len(list(tmp_path.iterdir())) == 2
    assert not np.array_equal(W0, W3)
