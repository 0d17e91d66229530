"""Test isolation for the ``mindspore.dataset`` suites."""
import pytest


@pytest.fixture(autouse=True)
def _restore_dataset_config():
    """Every test starts with no pipeline seed set (a test elsewhere in the same process, ``ms.set_seed`` or
    ``ds.config.set_seed``, may have left one: with a seed set, eager random transforms repeat themselves, as 2.10
    seeds a new operation on every eager call) and leaves the dataset settings as it found them."""
    from mindspore.dataset import config
    saved = dict(config._config)  # pylint: disable=protected-access
    config._config["seed"] = config.DEFAULT_SEED  # pylint: disable=protected-access
    config._RngState.version += 1  # pylint: disable=protected-access
    yield
    config._config.clear()  # pylint: disable=protected-access
    config._config.update(saved)  # pylint: disable=protected-access
    config._RngState.version += 1  # pylint: disable=protected-access
