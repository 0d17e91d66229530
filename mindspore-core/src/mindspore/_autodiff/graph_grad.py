"""placeholder"""
def call_on_tape(run, fn, args, kwargs):
    return fn(*args, **kwargs)
