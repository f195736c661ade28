"""Scenes from Python objects: keyword arguments written as the .ini text
that `sphero run` reads (docs/SCENES.md), so that a scene built in Python is
checked, and fails, exactly as the same file would."""


def _value(value):
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (list, tuple)) and all(isinstance(v, (int, float)) for v in value):
        return ",".join(repr(float(v)) if isinstance(v, float) else str(v) for v in value)
    return str(value)


def _setting(key, value):
    """One `key=value` of a list entry; points as x,y;x,y."""
    if key == "points":
        return "points=" + ";".join(f"{x!r},{y!r}" for x, y in value)
    return f"{key}={_value(value)}"


def _entry(entry):
    """A list entry (law, wall, grains, ...): a string as it is, or a dict of settings."""
    if isinstance(entry, str):
        return entry
    return " ".join(_setting(k, v) for k, v in entry.items())


def scene_text(**keys):
    """The .ini text of a scene given as keywords: scalars (duration=2,
    gravity=(0, -9.81)) and lists of entries (law=[...], wall=[...],
    grains=[...], packing=[...], set_wall=[...]), each entry a string as in a
    scene file or a dict of its settings."""
    lines = []
    for key, value in keys.items():
        if isinstance(value, list):
            lines += [f"{key} = {_entry(e)}" for e in value]
        else:
            lines.append(f"{key} = {_value(value)}")
    return "\n".join(lines) + "\n"
