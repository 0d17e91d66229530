"""The parameter-server settings (set/get/reset_ps_context) and the memory-offload key, as MindSpore 2.10 has them:
the PS keys, defaults, type checks and messages; ``memory_offload`` is no ``set_context`` key in 2.10 (the
memory_offload sample's ``ms.set_context(memory_offload="ON")`` raises)."""
import pytest

import mindspore as ms


def test_ps_context_keys_defaults_and_checks():
    try:
        assert ms.get_ps_context("enable_ps") is False
        ms.set_ps_context(enable_ps=True)
        assert ms.get_ps_context("enable_ps") is True
        assert ms.get_ps_context("server_mode") == "PARAMETER_SERVER" and ms.get_ps_context("ms_role") == "MS_NOT_PS"
        assert ms.get_ps_context("config_file_path") == "" and ms.get_ps_context("scheduler_port") == 0
        ms.set_ps_context(enable_ssl=True, client_password="", server_password="")
        with pytest.raises(TypeError, match="The parameter 'enable_ps' must be <class 'bool'>, but got <class 'int'>"):
            ms.set_ps_context(enable_ps=1)
        with pytest.raises(ValueError, match="^Set PS context keyword foo is not recognized!$"):
            ms.set_ps_context(foo=1)
        with pytest.raises(ValueError, match="^Get PS context keyword foo is not recognized!$"):
            ms.get_ps_context("foo")
        with pytest.raises(ValueError, match="Get PS context keyword client_password is not recognized!"):
            ms.get_ps_context("client_password")
    finally:
        ms.reset_ps_context()
    assert ms.get_ps_context("enable_ps") is False and ms.get_ps_context("enable_ssl") is False


def test_memory_offload_is_not_a_context_key():
    with pytest.raises(ValueError, match="For 'context.set_context', the keyword argument memory_offload is not "
                                         "recognized! For detailed usage of 'set_context', please refer to the "
                                         "Mindspore official website."):
        ms.set_context(memory_offload="ON")
    with pytest.raises(ValueError, match="For 'context.get_context', the argument memory_offload is not recognized!"):
        ms.get_context("memory_offload")
    assert not hasattr(ms, "set_offload_context")
