"""Test isolation for the ``mindspore.dataset`` suites."""
import pytest


@pytest.fixture(autouse=True)
def _restore_dataset_config():
    """Every test starts from the dataset settings it found, whatever the previous test set: with a seed left set,
    eager random transforms would repeat themselves (2.10 seeds a new operation on every eager call)."""
    from mindspore.dataset import config
    saved = dict(config._config)  # pylint: disable=protected-access
    yield
    config._config.clear()  # pylint: disable=protected-access
    config._config.update(saved)  # pylint: disable=protected-access
