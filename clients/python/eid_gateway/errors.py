"""The one error class of the client (docs/clients.md)."""

from __future__ import annotations

from typing import Any, Dict, List, Mapping, Optional


class EidGatewayError(Exception):
    """Every failure of the client.

    Either a problem-details answer of the service (RFC 9457, docs/api.md) with its ``status``,
    ``code`` and fields, or a refusal before any answer (``status`` is None and ``code`` one of
    ``environment_mismatch``, ``invalid_api_key_format``, ``access_token_required``, ``timeout``,
    ``network_error``, ``invalid_webhook_signature``, ``cancelled``). The message never carries a key, token or secret.
    """

    def __init__(
        self,
        message: str,
        *,
        status: Optional[int] = None,
        code: Optional[str] = None,
        problem: Optional[Mapping[str, Any]] = None,
        retry_after: Optional[int] = None,
    ) -> None:
        super().__init__(message)
        self.problem: Dict[str, Any] = dict(problem or {})
        self.status: Optional[int] = status if status is not None else _int_or_none(self.problem.get("status"))
        self.code: Optional[str] = code if code is not None else self.problem.get("code")
        self.type: Optional[str] = self.problem.get("type")
        self.title: Optional[str] = self.problem.get("title")
        self.detail: Optional[str] = self.problem.get("detail")
        self.errors: List[Dict[str, Any]] = list(self.problem.get("errors") or [])
        self.retry_after = retry_after

    def __repr__(self) -> str:
        return f"EidGatewayError(status={self.status!r}, code={self.code!r}, message={str(self)!r})"

    @classmethod
    def from_answer(cls, status: int, body: Any, retry_after: Optional[int]) -> "EidGatewayError":
        problem = body if isinstance(body, dict) and ("code" in body or "title" in body or "status" in body) else None
        if problem is None:
            return cls(f"{status} HTTP {status}", status=status, retry_after=retry_after)
        what = ": ".join(str(part) for part in (problem.get("code"), problem.get("detail") or problem.get("title")) if part)
        return cls(f"{status} {what}", status=status, problem=problem, retry_after=retry_after)


def _int_or_none(value: Any) -> Optional[int]:
    return value if isinstance(value, int) else None
