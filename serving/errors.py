"""Typed failures of an LLM call. Each carries what is needed to diagnose it, never a default."""

from __future__ import annotations


class LLMError(Exception):
    """Base class of every failure raised by the serving layer."""


class LLMConnectionError(LLMError):
    """The engine could not be reached (refused, reset, DNS) after all retries."""

    def __init__(self, message: str, *, url: str = "") -> None:
        super().__init__(message)
        self.url = url


class EngineDiedError(LLMConnectionError):
    """An engine process started by this program has exited: it cannot answer any more.

    The message names the exit code or signal and the log file; a run stops sending it work.
    """

    def __init__(self, message: str, *, url: str = "", returncode: int | None = None,
                 log_path: str = "", log_tail: str = "") -> None:
        super().__init__(message, url=url)
        self.returncode = returncode
        self.log_path = log_path
        self.log_tail = log_tail


class LLMTimeoutError(LLMError):
    """The request did not complete within the configured timeout after all retries."""


class LLMHTTPError(LLMError):
    """The engine answered with an HTTP error status (after retries for 429 and 5xx)."""

    def __init__(self, message: str, *, status: int, body: str = "") -> None:
        super().__init__(message)
        self.status = status
        self.body = body


class LLMResponseError(LLMError):
    """The engine answered 200 but the body was not a valid chat completion."""

    def __init__(self, message: str, *, raw: str = "") -> None:
        super().__init__(message)
        self.raw = raw


class LLMSchemaError(LLMError):
    """The reply did not validate against the requested JSON schema after all re-asks."""

    def __init__(self, message: str, *, raw: str = "", errors: list[str] | None = None) -> None:
        super().__init__(message)
        self.raw = raw
        self.errors = errors or []


class EngineStartError(LLMError):
    """An engine process could not be started or never became healthy.

    The message names the command, the log file and ends with the last lines of the log.
    """

    def __init__(self, message: str, *, log_path: str = "", log_tail: str = "") -> None:
        super().__init__(message)
        self.log_path = log_path
        self.log_tail = log_tail


INFRASTRUCTURE_ERRORS = ("LLMConnectionError", "EngineDiedError", "EngineStartError",
                         "LLMTimeoutError")


def is_infrastructure_error(exc: BaseException) -> bool:
    """A failure of the engine or the network, not of what was asked: worth retrying later."""
    if isinstance(exc, LLMConnectionError | LLMTimeoutError | EngineStartError):
        return True
    return isinstance(exc, LLMHTTPError) and (exc.status == 429 or exc.status >= 500)


def names_infrastructure_error(text: str) -> bool:
    """Whether a recorded ``"<ErrorType>: message"`` is an infrastructure failure."""
    return text.split(":", 1)[0].strip() in INFRASTRUCTURE_ERRORS
