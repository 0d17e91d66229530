"""``DatasetCache``: the client of MindSpore's dataset cache server (``dataset-cache``).

The cache server is a separate MindSpore program spoken to over gRPC; this implementation has no client for
that protocol. ``DatasetCache`` checks its arguments as MindSpore does, and a pipeline that uses one fails
when it starts: with MindSpore's "unreachable" error when nothing listens at ``hostname:port``, and with an
error saying that the cache protocol is not available otherwise. Nothing is silently left uncached.
"""
import socket

__all__ = ["DatasetCache"]

_UINT32_MAX = 4294967295
_INT32_MAX = 2147483647


def _check_int(value, name):
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"Argument {name} with value {value} is not of type [<class 'int'>], but got "
                        f"{type(value)}.")


class DatasetCache:
    """A client of the dataset cache server.

    Args:
        session_id (int): the session id (from ``dataset-cache -g``), in [1, 4294967295].
        size (int, optional): memory for the cache in MB; 0 means unlimited. Default: 0.
        spilling (bool, optional): spill to disk when out of memory. Default: False.
        hostname (str, optional): the server's host. Default: None ('127.0.0.1').
        port (int, optional): the server's port, in [1025, 65535]. Default: None (50052).
        num_connections (int, optional): TCP connections. Default: None (12).
        prefetch_size (int, optional): cache queue size. Default: None (20).

    Raises:
        TypeError, ValueError: an argument has the wrong type or is out of range.
        RuntimeError: (when a pipeline using it starts, or from ``get_stat``) the server cannot be used.

    Examples:
        >>> import mindspore.dataset as ds
        >>> cache = ds.DatasetCache(session_id=1, size=0)
    """

    def __init__(self, session_id, size=0, spilling=False, hostname=None, port=None, num_connections=None,
                 prefetch_size=None):
        _check_int(session_id, "session_id")
        if not 1 <= session_id <= _UINT32_MAX:
            raise ValueError(f"Input session_id is not within the required interval of [1, {_UINT32_MAX}].")
        _check_int(size, "size")
        if size != 0 and size < 0:
            raise ValueError("Input size must be greater than 0.")
        if not isinstance(spilling, bool):
            raise TypeError(f"Argument spilling with value {spilling} is not of type [<class 'bool'>], but got "
                            f"{type(spilling)}.")
        if hostname is not None and not isinstance(hostname, str):
            raise TypeError(f"Argument hostname with value {hostname} is not of type [<class 'str'>], but got "
                            f"{type(hostname)}.")
        if port is not None:
            _check_int(port, "port")
            if not 1025 <= port <= 65535:
                raise ValueError("Input port is not within the required interval of [1025, 65535].")
        for name, value in (("num_connections", num_connections), ("prefetch_size", prefetch_size)):
            if value is not None:
                _check_int(value, name)
                if not 1 <= value <= _INT32_MAX:
                    raise ValueError(f"Input {name} is not within the required interval of [1, {_INT32_MAX}].")
        self.session_id = session_id
        self.size = size
        self.spilling = spilling
        self.hostname = hostname
        self.port = port
        self.num_connections = num_connections
        self.prefetch_size = prefetch_size

    def _address(self):
        return self.hostname or "127.0.0.1", self.port or 50052

    def connect(self):
        """Raise the error a pipeline using this cache gets when it starts (see the module docstring)."""
        host, port = self._address()
        try:
            with socket.create_connection((host, port), timeout=1.0):
                pass
        except OSError:
            raise RuntimeError(f"Network error. Cache server with port {port} is unreachable. Make sure the server "
                               f"is running or started under the same user as the client.") from None
        raise RuntimeError(f"A server listens at {host}:{port}, but this implementation of mindspore.dataset has "
                           f"no client for MindSpore's dataset cache protocol (gRPC): build the pipeline without "
                           f"'cache'.")

    def get_stat(self):
        """The cache statistics (needs the server): always raises here, see :meth:`connect`."""
        self.connect()

    def __deepcopy__(self, memodict):
        return self

    def __repr__(self):
        return (f"DatasetCache(session_id={self.session_id}, size={self.size}, spilling={self.spilling}, "
                f"hostname={self.hostname}, port={self.port})")
