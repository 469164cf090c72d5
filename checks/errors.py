"""One shape for every input error: the file, the line (if known) and what was expected."""

MAX_MESSAGE = 2_000   # characters of an error message; an input can make a message no longer


def bounded(text: str, limit: int = MAX_MESSAGE) -> str:
    """`text` cut to `limit` characters, saying how much was cut: an input echoed in a message
    (a label, a name, a line) never makes the message as large as the input."""
    if len(text) <= limit:
        return text
    cut = len(text) - limit
    return f"{text[:limit - 200]} ...[{cut} characters cut]... {text[-180:]}"


def internal(where, e: BaseException) -> str:
    """The message of an internal error (a bug): never a traceback, never unbounded."""
    return bounded(f"{where}: internal error, please report: {type(e).__name__}: {e}")


class InputError(Exception):
    def __init__(self, path: str, line: int | None, message: str):
        message = bounded(str(message))
        super().__init__(message)
        self.path, self.line, self.message = bounded(str(path), 500), line, message

    def __reduce__(self):
        # pickled as its three fields (Exception's default passes only the message back to
        # __init__, which then fails in the receiving process: a worker of `check --jobs`)
        return (type(self), (self.path, self.line, self.message))

    def __str__(self) -> str:
        return f"{self.path}:{self.line}: {self.message}" if self.line else f"{self.path}: {self.message}"
