"""bench/detectors/embedding_heads.embeddings caches passage vectors in one file, written
beside and renamed, so that a run stopped mid-write keeps the cache it had."""

from __future__ import annotations

import numpy as np

from bench.detectors import embedding_heads as eh


def test_vectors_are_cached_and_the_file_is_replaced_whole(tmp_path, monkeypatch):
    from memory.detectors import learned

    calls: list[list[str]] = []

    def fake_embed(texts):
        calls.append(list(texts))
        return np.array([[len(t), 1.0] for t in texts], dtype=np.float32)

    monkeypatch.setattr(learned, "embed", fake_embed)
    monkeypatch.setattr(eh, "EMBEDDINGS_CACHE", tmp_path / "cache.npz")
    first = eh.embeddings(["a", "bb", "a"])
    assert first.tolist() == [[1.0, 1.0], [2.0, 1.0], [1.0, 1.0]]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["cache.npz"]  # no partial left
    again = eh.embeddings(["bb", "ccc"])  # only the new text is embedded
    assert calls == [["a", "bb"], ["ccc"]]
    assert again.tolist() == [[2.0, 1.0], [3.0, 1.0]]
