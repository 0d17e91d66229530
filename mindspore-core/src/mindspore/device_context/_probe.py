"""What the installed plugins report about one device target."""


def probes(target):
    from mindspore._plugin import manager
    return [p for rec in manager.plugins() if rec.status == "loaded" for p in rec.probes if p.target == target]


def is_available(target):
    return any(p.available for p in probes(target))


def device_count(target):
    return max((p.device_count for p in probes(target) if p.available), default=0)
