"""Model <-> JSON conversion, driven by each generated model's `_WIRE` table.

Decoding is tolerant: unknown keys are kept in `extra_fields` (the API may add fields), a value of an
unexpected shape is passed through as it came, and a missing field becomes None. Encoding writes
wire names, drops optional fields left as None and sends required ones (None as JSON null).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Dict, Iterable, Type, TypeVar

_REGISTRY: Dict[str, type] = {}

M = TypeVar("M", bound="Model")


@dataclass(kw_only=True)
class Model:
    """Base of every generated model."""

    extra_fields: Dict[str, Any] = field(default_factory=dict, repr=False, compare=False)
    """Keys the server sent that this library version does not know (kept, never dropped)."""

    _WIRE = ()

    def to_dict(self) -> Dict[str, Any]:
        """The JSON object, with wire names."""
        out: Dict[str, Any] = dict(self.extra_fields)
        for attribute, wire, descriptor, required in self._WIRE:
            value = getattr(self, attribute)
            if value is None and not required:
                continue
            out[wire] = _encode(value)
        return out

    @classmethod
    def from_dict(cls: Type[M], data: Dict[str, Any]) -> M:
        known = {wire for _, wire, _, _ in cls._WIRE}
        values = {attribute: decode(descriptor, data.get(wire)) for attribute, wire, descriptor, _ in cls._WIRE}
        extra = {key: value for key, value in data.items() if key not in known}
        return cls(**values, extra_fields=extra)


def register_models(namespace: Dict[str, Any], names: Iterable[str]) -> None:
    for name in names:
        _REGISTRY[name] = namespace[name]


def decode(descriptor: Any, value: Any) -> Any:
    if value is None or isinstance(descriptor, str):
        if descriptor == "number" and isinstance(value, int) and not isinstance(value, bool):
            return float(value)
        return value
    kind = descriptor[0]
    if kind == "nullable":
        return decode(descriptor[1], value)
    if kind == "array":
        return [decode(descriptor[1], item) for item in value] if isinstance(value, list) else value
    if kind == "map":
        return {key: decode(descriptor[1], item) for key, item in value.items()} if isinstance(value, dict) else value
    if kind == "model":
        return _REGISTRY[descriptor[1]].from_dict(value) if isinstance(value, dict) else value
    return value


def _encode(value: Any) -> Any:
    if isinstance(value, Model):
        return value.to_dict()
    if isinstance(value, (list, tuple)):
        return [_encode(item) for item in value]
    if isinstance(value, dict):
        return {key: _encode(item) for key, item in value.items()}
    return value


def encode_request(model: Model) -> Dict[str, Any]:
    return model.to_dict()
