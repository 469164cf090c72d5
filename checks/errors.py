"""One shape for every input error: the file, the line (if known) and what was expected."""


class InputError(Exception):
    def __init__(self, path: str, line: int | None, message: str):
        super().__init__(message)
        self.path, self.line, self.message = path, line, message

    def __reduce__(self):
        # pickled as its three fields (Exception's default passes only the message back to
        # __init__, which then fails in the receiving process: a worker of `check --jobs`)
        return (type(self), (self.path, self.line, self.message))

    def __str__(self) -> str:
        return f"{self.path}:{self.line}: {self.message}" if self.line else f"{self.path}: {self.message}"
