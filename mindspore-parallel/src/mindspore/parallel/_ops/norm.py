"""LayerNorm: cut along the axes before ``begin_norm_axis`` only (each rank normalises whole rows); ``gamma`` and
``beta`` stay whole. Returns ``(y, mean, variance)``: ``y`` cut like the input, the statistics like its leading axes."""
from mindspore.plugin import MSValueError
from mindspore.parallel._ops._plan import Plan, check_strategy, full_shape


def layernorm_rule(prim, args, strategy):
    x, gamma, beta = args
    shape = full_shape(x)
    check_strategy(prim, strategy, (shape, full_shape(gamma), full_shape(beta)))
    begin = prim.attrs.get("begin_norm_axis", 1) % len(shape)
    begin_params = prim.attrs.get("begin_params_axis", 1) % len(shape)
    if any(c != 1 for c in strategy[0][min(begin, begin_params):]) or any(c != 1 for s in strategy[1:] for c in s):
        raise MSValueError(f"For '{prim.name}', the strategy is {tuple(strategy)}: the normalised axes (from "
                           f"{min(begin, begin_params)}) and 'gamma'/'beta' can not be split.")
    letters = [f"d{d}" for d in range(len(shape))]
    plan = Plan(prim, list(zip(letters, strategy[0])))
    params = letters[begin_params:]
    y, mean, variance = prim(plan.take(x, letters), plan.take(gamma, params), plan.take(beta, params))
    stat_letters = letters[:begin] + [None] * (len(shape) - begin)
    stat_shape = tuple(shape[:begin]) + (1,) * (len(shape) - begin)
    return plan.out(y, letters, shape), plan.out(mean, stat_letters, stat_shape), \
        plan.out(variance, stat_letters, stat_shape)


def layernorm_strategy(prim, cuts, shape):
    """The strategy keeping an input's ``cuts`` where LayerNorm allows them (None: none survives)."""
    begin = min(prim.attrs.get("begin_norm_axis", 1) % len(shape), prim.attrs.get("begin_params_axis", 1) % len(shape))
    kept = tuple(c if d < begin else 1 for d, c in enumerate(cuts))
    if all(c == 1 for c in kept):
        return None
    params = (1,) * (len(shape) - prim.attrs.get("begin_params_axis", 1) % len(shape))
    return (kept, params, params)


RULES = {"LayerNorm": layernorm_rule}
