"""The version of this MindSpore (``mindspore.version.__version__``, also ``mindspore.__version__``)."""
__version__ = "2.10.0"
