"""The plugin's hooks (entry point ``squareplus`` in the ``mindspore.plugins`` group)."""
from mindspore.plugin import hookimpl

from ms_squareplus_plugin import kernels
from ms_squareplus_plugin.primitives import SquarePlus

# The plugin API this plugin was written against (mindspore.PLUGIN_API_VERSION of that core).
API_VERSION = (2, 0)


@hookimpl
def ms_plugin_info():
    return {"name": "squareplus", "version": "0.1.0", "api_version": API_VERSION}


@hookimpl
def ms_register_primitives():
    return [SquarePlus]


@hookimpl
def ms_register_kernels(registry):
    registry.register("Add", "CPU", kernels.counting_add, priority=10, override=True)
    registry.register("SquarePlus", "CPU", kernels.squareplus)
