"""``serialize``/``deserialize``/``show``/``compare``: a pipeline as a JSON-able dict, and back.

Every dataset node records the arguments it was built with (see ``Dataset.__init_subclass__``); a node
serializes as ``{"op_type": ..., <its arguments>, "children": [...]}`` in MindSpore's layout (``op_type``
is the source's class name, or ``Map``, ``Batch``, ``Shuffle``, ... for the operations). Transforms and
samplers serialize as ``{"tensor_op_name", "python_module", "tensor_op_params"}`` (their attributes);
NumPy arrays, tuples, enums and dtypes are tagged so that they come back as they were.

What cannot come back, as in MindSpore: Python functions and lambdas used as map operations, filter
predicates or generator sources (recorded by name, without ``tensor_op_params``): deserializing them raises
``RuntimeError``. A sampler added after construction (``add_sampler``/``use_sampler``) is not recorded.
"""
import enum
import importlib
import inspect
import json
import os
import re
import types

import numpy as np

from mindspore.dataset.engine.datasets import Dataset

__all__ = ["serialize", "deserialize", "show", "compare"]


def _op_type(cls):
    if cls.__module__.endswith("datasets_ops") and cls.__name__.endswith("Dataset"):
        return cls.__name__[:-len("Dataset")]
    return cls.__name__


def _classes():
    import mindspore.dataset as ds
    from mindspore.dataset.engine import datasets_ops
    table = {}
    for name in dir(datasets_ops):
        obj = getattr(datasets_ops, name)
        if isinstance(obj, type) and issubclass(obj, Dataset):
            table[_op_type(obj)] = obj
    for name in ds.__all__:
        if name.endswith("Dataset"):
            obj = getattr(ds, name, None)
            if isinstance(obj, type) and issubclass(obj, Dataset):
                table[name] = obj
    return table


class _Encoder:
    def __init__(self):
        self.children = []

    def node(self, dataset):
        record = getattr(dataset, "_init_args", None)
        if record is None:
            raise RuntimeError(f"serialize: {type(dataset).__name__} does not record its arguments.")
        cls, args, kwargs = record
        signature = inspect.signature(inspect.unwrap(cls.__init__))
        bound = signature.bind(dataset, *args, **kwargs)
        out = {"op_type": _op_type(cls)}
        encoder = _Encoder()
        for name, value in list(bound.arguments.items())[1:]:
            param = signature.parameters[name]
            if param.kind == param.VAR_KEYWORD:
                for key, item in value.items():
                    out[key] = encoder.value(item)
            else:
                out[name] = encoder.value(value)
        out["children"] = encoder.children
        return out

    def value(self, value):
        if value is None or isinstance(value, (bool, int, float, str)):
            return value
        if isinstance(value, Dataset):
            self.children.append(self.node(value))
            return {"__child__": len(self.children) - 1}
        if isinstance(value, enum.Enum):
            return {"__enum__": f"{type(value).__module__}:{type(value).__qualname__}", "name": value.name}
        if isinstance(value, np.ndarray):
            return {"__ndarray__": value.tolist(), "dtype": value.dtype.str}
        if isinstance(value, np.generic):
            return value.item()
        if isinstance(value, tuple):
            return {"__tuple__": [self.value(v) for v in value]}
        if isinstance(value, list):
            return [self.value(v) for v in value]
        if isinstance(value, dict):
            return {"__dict__": [[self.value(k), self.value(v)] for k, v in value.items()]}
        if isinstance(value, re.Pattern):
            return {"__regex__": value.pattern, "flags": int(value.flags)}
        if isinstance(value, type):
            return {"__type__": f"{value.__module__}:{value.__qualname__}"}
        from mindspore.common import dtype as mstype
        if isinstance(value, mstype.Type):
            return {"__mstype__": str(value)}
        if isinstance(value, (types.FunctionType, types.BuiltinFunctionType, types.MethodType, functools_partial())):
            name = getattr(value, "__name__", type(value).__name__)
            return {"tensor_op_name": name, "python_module": getattr(value, "__module__", None) or ""}
        if hasattr(value, "__dict__"):
            state = {k: self.value(v) for k, v in vars(value).items()}
            return {"tensor_op_name": type(value).__name__, "python_module": type(value).__module__,
                    "tensor_op_params": state}
        return {"__unserializable__": repr(value)}


def functools_partial():
    import functools
    return functools.partial


def serialize(dataset, json_filepath=""):
    """The pipeline ending at `dataset` as a dict; also written to `json_filepath` when given.

    Examples:
        >>> import mindspore.dataset as ds
        >>> data = ds.NumpySlicesDataset([1, 2, 3], shuffle=False).batch(2)
        >>> ds.serialize(data)["op_type"]
        'Batch'
    """
    if not isinstance(dataset, Dataset):
        raise TypeError(f"Argument dataset with value {dataset!r} is not of type [Dataset].")
    if not isinstance(json_filepath, str):
        raise TypeError(f"Argument json_filepath with value {json_filepath!r} is not of type [<class 'str'>].")
    tree = _Encoder().node(dataset)
    if json_filepath:
        with open(json_filepath, "w", encoding="utf-8") as f:
            json.dump(tree, f, indent=2)
    return tree


def _import(path):
    module_name, _, qualname = path.partition(":")
    obj = importlib.import_module(module_name)
    for part in qualname.split("."):
        obj = getattr(obj, part)
    return obj


class _Decoder:
    def __init__(self, classes):
        self.classes = classes

    def node(self, tree):
        if not isinstance(tree, dict) or "op_type" not in tree:
            raise RuntimeError("Invalid data, the dict to deserialize has no 'op_type'.")
        op_type = tree["op_type"]
        cls = self.classes.get(op_type)
        if cls is None:
            raise RuntimeError(f"Invalid data, unknown op_type '{op_type}' in the dict to deserialize.")
        children = [self.node(child) for child in tree.get("children", [])]
        kwargs = {k: self.value(v, children) for k, v in tree.items() if k not in ("op_type", "children")}
        return cls(**kwargs)

    def value(self, value, children):
        if isinstance(value, list):
            return [self.value(v, children) for v in value]
        if not isinstance(value, dict):
            return value
        if "__child__" in value:
            return children[value["__child__"]]
        if "__tuple__" in value:
            return tuple(self.value(v, children) for v in value["__tuple__"])
        if "__dict__" in value:
            return {self.value(k, children): self.value(v, children) for k, v in value["__dict__"]}
        if "__ndarray__" in value:
            return np.array(value["__ndarray__"], dtype=np.dtype(value["dtype"]))
        if "__enum__" in value:
            return getattr(_import(value["__enum__"]), value["name"])
        if "__regex__" in value:
            return re.compile(value["__regex__"], value["flags"])
        if "__type__" in value:
            return _import(value["__type__"])
        if "__mstype__" in value:
            from mindspore.common import dtype as mstype
            name = value["__mstype__"].lower()
            return getattr(mstype, name, None) or getattr(mstype, name + "_")
        if "__unserializable__" in value:
            raise RuntimeError(f"Invalid data, the value {value['__unserializable__']} could not be serialized and "
                               f"cannot be deserialized.")
        if "tensor_op_name" in value:
            if "tensor_op_params" not in value:
                raise RuntimeError(f"Failed to find key 'tensor_op_params' in PyFuncOp' JSON file or input dict, "
                                   f"check input content of deserialize(): the Python function "
                                   f"'{value['tensor_op_name']}' cannot be deserialized.")
            cls = _import(f"{value['python_module']}:{value['tensor_op_name']}")
            obj = cls.__new__(cls)
            obj.__dict__.update({k: self.value(v, children) for k, v in value["tensor_op_params"].items()})
            return obj
        return {k: self.value(v, children) for k, v in value.items()}


_AUTOTUNE_REMARK = ("The following file has been auto-generated by the Dataset AutoTune. Dataset Pipeline is not the "
                    "bottleneck. No configuration changes were made by Dataset AutoTune.")


def _op_name(op_type):
    return (op_type[:-len("Dataset")] if op_type.endswith("Dataset") else op_type) + "Op"


def save_autotune_config(dataset, filepath_prefix, rank_id=0):
    """Write ``<filepath_prefix>_<rank_id>.json`` as Dataset AutoTune does when a pipeline finishes: a remark, one
    summary line per operation (its workers and prefetch size; root first gets ID 0, listed leaf first) and the
    pipeline as :func:`serialize` gives it, which ``deserialize(json_filepath=...)`` rebuilds. The pipeline here is
    run as configured, so the configuration saved is the one given (as AutoTune says when it changed nothing).
    """
    from mindspore.dataset import config
    tree = serialize(dataset)
    prefetch = config.get_prefetch_size()
    lines = []

    def walk(node):
        lines.append((len(lines), node))
        for child in node.get("children", []):
            walk(child)
    walk(tree)
    summary = []
    for i, node in reversed(lines):
        label = f"{_op_name(node.get('op_type', 'Unknown'))}(ID:{i})"
        workers = node.get("num_parallel_workers") or config.get_num_parallel_workers()
        summary.append(f"{label:<20}(num_parallel_workers: {workers}, prefetch_size:{prefetch})")
    path = os.path.realpath(f"{filepath_prefix}_{rank_id}.json")
    with open(path, "w", encoding="utf-8") as f:
        json.dump({"remark": _AUTOTUNE_REMARK, "summary": summary, "tree": tree}, f, indent=4, sort_keys=True)
    return path


def deserialize(input_dict=None, json_filepath=None):
    """Rebuild a pipeline from :func:`serialize`'s dict or JSON file (or the file Dataset AutoTune saves, whose
    ``tree`` is that dict).

    Examples:
        >>> import mindspore.dataset as ds
        >>> data = ds.NumpySlicesDataset([1, 2, 3], shuffle=False).batch(2)
        >>> copy = ds.deserialize(input_dict=ds.serialize(data))
    """
    if input_dict is None and json_filepath is None:
        raise ValueError("At least one of input_dict and json_filepath should be specified.")
    if input_dict is not None and not isinstance(input_dict, dict):
        raise TypeError(f"Argument input_dict with value {input_dict!r} is not of type [<class 'dict'>].")
    if input_dict is None:
        if not isinstance(json_filepath, str) or not os.path.isfile(json_filepath):
            raise ValueError(f"The file {json_filepath} does not exist or permission denied!")
        with open(json_filepath, "r", encoding="utf-8") as f:
            input_dict = json.load(f)
    if "tree" in input_dict and "op_type" not in input_dict:   # a Dataset AutoTune configuration file
        input_dict = input_dict["tree"]
    return _Decoder(_classes()).node(input_dict)


def show(dataset, indentation=2):
    """Print the serialized pipeline (JSON, indented by `indentation`; None prints it on one line)."""
    if indentation is not None and (isinstance(indentation, bool) or not isinstance(indentation, int)):
        raise TypeError(f"Argument indentation with value {indentation!r} is not of type [<class 'int'>].")
    print(json.dumps(serialize(dataset), indent=indentation))


def compare(pipeline1, pipeline2):
    """Whether two pipelines serialize to the same dict (same nodes, arguments and transforms)."""
    return serialize(pipeline1) == serialize(pipeline2)
