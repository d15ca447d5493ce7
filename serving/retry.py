"""When to retry a failed HTTP attempt and how long to wait: pure functions, no I/O.

Connection errors, timeouts, 429 and 5xx are retried with exponential backoff and jitter (a
429's ``Retry-After`` is honoured, capped); other 4xx are not. Every call is bounded twice: by
the number of attempts and by a total time budget.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from email.utils import parsedate_to_datetime

import httpx

from serving.config import ServingConfig
from serving.errors import LLMConnectionError, LLMError, LLMHTTPError, LLMTimeoutError


@dataclass
class Failure:
    """One failed attempt: the error to raise if no retry follows, and whether to retry."""

    error: LLMError
    retryable: bool
    retry_after: float | None = None


@dataclass(frozen=True)
class RetryPolicy:
    retries: int
    backoff_s: float
    max_backoff_s: float
    max_retry_after_s: float
    total_s: float

    @classmethod
    def from_config(cls, config: ServingConfig) -> RetryPolicy:
        total = config.max_total_s or (
            config.timeout_s * (config.retries + 1) + config.max_backoff_s * config.retries
        )
        return cls(
            retries=config.retries,
            backoff_s=config.backoff_s,
            max_backoff_s=config.max_backoff_s,
            max_retry_after_s=config.max_retry_after_s,
            total_s=total,
        )

    def backoff(self, attempt: int, rng: random.Random | None = None) -> float:
        """Full-jitter exponential backoff after failed attempt number ``attempt`` (1-based)."""
        ceiling = min(self.max_backoff_s, self.backoff_s * 2 ** (attempt - 1))
        return (rng or random).uniform(ceiling / 2, ceiling)

    def next_delay(self, attempt: int, failure: Failure, remaining_s: float) -> float | None:
        """Seconds to wait before the next attempt, or ``None`` to give up and raise."""
        if not failure.retryable or attempt > self.retries:
            return None
        if failure.retry_after is not None:
            delay = min(failure.retry_after, self.max_retry_after_s)
        else:
            delay = self.backoff(attempt)
        return delay if delay < remaining_s else None


def retry_after_seconds(headers: Mapping[str, str]) -> float | None:
    """A ``Retry-After`` header as seconds (delta-seconds or an HTTP date), else ``None``."""
    value = headers.get("retry-after")
    if not value:
        return None
    try:
        return max(0.0, float(value))
    except ValueError:
        pass
    try:
        when = parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    return max(0.0, (when - datetime.now(UTC)).total_seconds())


def is_retryable_status(status: int) -> bool:
    return status == 429 or status >= 500


def check_status(status: int, headers: Mapping[str, str], body: str, url: str) -> Failure | None:
    """``None`` for a 2xx reply, else the failure it stands for."""
    if 200 <= status < 300:
        return None
    error = LLMHTTPError(f"HTTP {status} from {url}: {body[:500]}", status=status, body=body)
    return Failure(
        error=error,
        retryable=is_retryable_status(status),
        retry_after=retry_after_seconds(headers) if status == 429 else None,
    )


def transport_failure(exc: httpx.TransportError, url: str) -> Failure:
    """A failure for an exception raised by httpx before any reply arrived."""
    if isinstance(exc, httpx.TimeoutException):
        return Failure(LLMTimeoutError(f"no reply from {url} in time ({exc!r})"), retryable=True)
    return Failure(LLMConnectionError(f"cannot reach {url}: {exc!r}", url=url), retryable=True)
