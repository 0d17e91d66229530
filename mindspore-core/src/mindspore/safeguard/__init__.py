"""``mindspore.safeguard``: checkpoint obfuscation (``obfuscate_ckpt``, ``load_obf_params_into_net``)."""
from mindspore.safeguard.rewrite_obfuscation import load_obf_params_into_net, obfuscate_ckpt

__all__ = ["obfuscate_ckpt", "load_obf_params_into_net"]
