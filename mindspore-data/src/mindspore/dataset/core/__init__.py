"""MindSpore's ``mindspore.dataset.core`` (its pipeline configuration lives in :mod:`mindspore.dataset.config`)."""
