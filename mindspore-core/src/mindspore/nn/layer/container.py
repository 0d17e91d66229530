"""``CellDict``: an ordered dict of named child Cells (MindSpore 2.10's container; ``CellList`` and
``SequentialCell`` live in ``mindspore.nn.cell``). Its children are registered under their keys, so with
``auto_prefix`` (the default) a child's Parameters are named ``key.param``; it has no ``construct`` of its own.
"""
from __future__ import annotations

from collections import OrderedDict, abc

from mindspore._errors import MSTypeError, MSValueError
from mindspore.nn.cell import Cell, CellList, SequentialCell

__all__ = ["CellDict"]


class CellDict(Cell):
    """An ordered dict of Cells, built from a mapping or an iterable of (key, Cell) pairs.

    Examples:
        >>> import mindspore.nn as nn
        >>> cells = nn.CellDict({'conv': nn.Conv2d(1, 2, 3), 'relu': nn.ReLU()})
        >>> list(cells.keys()), [n for n, _ in cells.parameters_and_names()]
        (['conv', 'relu'], ['conv.weight'])
    """

    def __init__(self, *args, **kwargs):
        auto_prefix = kwargs["auto_prefix"] if "auto_prefix" in kwargs else True
        super().__init__(auto_prefix)
        if len(args) == 1:
            self.update(args[0])

    def __getitem__(self, key):
        return self._cells[key]

    def __setitem__(self, key, cell):
        self._validate_key(key)
        self._validate_cell_type(cell)
        if self._auto_prefix:
            cell.update_parameters_name(key + ".")
        self._cells[key] = cell

    def __delitem__(self, key):
        del self._cells[key]

    def __len__(self):
        return len(self._cells)

    def __iter__(self):
        return iter(self._cells)

    def __contains__(self, key):
        return key in self._cells

    def _validate_key(self, key):
        cls_name = type(self).__name__
        if not isinstance(key, str):
            raise MSTypeError(f"For '{cls_name}', the type of key should be string but got {type(key).__name__}.")
        if key not in self._cells and (key in self.__dict__ or hasattr(type(self), key)):
            raise KeyError(f"For '{cls_name}', the key can not be same with the attributes of Cell, but got key {key}.")
        if "." in key:
            raise KeyError(f'For \'{cls_name}\', key can not contain ".", but got key {key}')
        if key == "":
            raise KeyError(f'For \'{cls_name}\', key can not be empty string "", but got key {key}')

    def _validate_cell_type(self, cell):
        cls_name = type(self).__name__
        if cell is None:
            raise MSTypeError(f"For '{cls_name}', cell can not be None.")
        if not isinstance(cell, Cell):
            raise MSTypeError(f"For '{cls_name}', the type of cell should be Cell, but got {type(cell).__name__}.")
        if isinstance(cell, (CellDict, CellList, SequentialCell)):
            raise MSTypeError(f"For '{cls_name}', the type of cell can not be CellDict, CellList or SequentialCell, "
                              f"but got {type(cell).__name__}.")

    def clear(self):
        """Remove every Cell."""
        return self._cells.clear()

    def pop(self, key):
        """Remove the Cell under ``key`` and return it."""
        value = self[key]
        del self[key]
        return value

    def keys(self):
        return self._cells.keys()

    def values(self):
        return self._cells.values()

    def items(self):
        return self._cells.items()

    def update(self, cells):
        """Add (or replace) Cells from a mapping or an iterable of (key, Cell) pairs."""
        if not isinstance(cells, abc.Iterable):
            raise MSTypeError("CellDict.update() should be called with an iterable of key-value pairs, but got "
                              + type(cells).__name__)
        if isinstance(cells, (OrderedDict, CellDict, abc.Mapping)):
            for key, cell in cells.items():
                self[key] = cell
            return
        for i, pair in enumerate(cells):
            if not isinstance(pair, abc.Iterable):
                raise MSTypeError(f"CellDict update sequence element #{i} should be Iterable; but got "
                                  f"{type(pair).__name__}")
            if len(pair) != 2:
                raise MSValueError(f"CellDict update sequence element #{i}, length should be 2; but has length "
                                   f"{len(pair)}")
            self[pair[0]] = pair[1]

    def construct(self, *inputs):
        raise MSTypeError("For 'CellDict', it has no 'construct': look its cells up by key and call them.")
