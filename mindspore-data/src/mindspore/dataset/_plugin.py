"""The plugin of mindspore-data: identifies the add-on to ``python -m mindspore.info``.

It offers no backend (no probes, no kernels): only :func:`ms_plugin_info` and the pipeline
settings as environment facts.
"""
import multiprocessing
import os

from mindspore.plugin import PLUGIN_API_VERSION, hookimpl

__version__ = "2.10.0"


@hookimpl
def ms_plugin_info():
    return {"name": "data", "version": __version__, "api_version": PLUGIN_API_VERSION}


@hookimpl
def ms_environment_info():
    from mindspore.dataset import config
    return {
        "dataset_seed": str(config.get_seed()),
        "dataset_num_parallel_workers": str(config.get_num_parallel_workers()),
        "dataset_prefetch_size": str(config.get_prefetch_size()),
        "dataset_worker_start_method": multiprocessing.get_start_method(allow_none=True) or "default",
        "cpu_count": str(os.cpu_count()),
    }
